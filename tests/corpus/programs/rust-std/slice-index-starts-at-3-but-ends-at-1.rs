// record: bbac80140df1990e
fn main() {
    let data = vec![1, 2, 3, 4, 5];
    let (start, end) = std::hint::black_box((3usize, 1usize));
    let window = &data[start..end];
    println!("{window:?}");
}
