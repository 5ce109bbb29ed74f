// record: b70ed54b12ed0684
fn main() {
    let greeting = String::from("hello");
    let n = std::hint::black_box(10);
    let prefix = &greeting[..n];
    println!("{prefix}");
}
