// record: 04d25c1390ca02ae
fn main() {
    let level: u8 = std::hint::black_box(250);
    let bumped = level + 10;
    println!("{bumped}");
}
