// record: 15e10e6eddeeedc4
fn main() {
    let data = [1u8, 2, 3, 4];
    let n = std::hint::black_box(10);
    let head = &data[..n];
    println!("{head:?}");
}
