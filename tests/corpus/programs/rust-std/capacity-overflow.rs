// record: da4c82c1353aec41
fn main() {
    let wanted = std::hint::black_box(usize::MAX / 4);
    // wanted * size_of::<u64>() exceeds isize::MAX bytes
    let buf: Vec<u64> = Vec::with_capacity(wanted);
    println!("{}", buf.capacity());
}
