// record: b66d8ffaa2503938
fn main() {
    let data = vec![1u8, 2, 3, 4];
    let skip = std::hint::black_box(6);
    let tail = &data[skip..];
    println!("{tail:?}");
}
