// record: c9974e30123c21ad
fn main() {
    let width: u32 = std::hint::black_box(70_000);
    let height: u32 = std::hint::black_box(70_000);
    let pixels = width * height;
    println!("{pixels}");
}
