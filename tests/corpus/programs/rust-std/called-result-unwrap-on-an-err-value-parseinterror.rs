// record: 016d520cdab6a19c
fn main() {
    let raw = std::hint::black_box("12a");
    // parse() returns Err(ParseIntError) for non-digit input
    let n: i32 = raw.parse().unwrap();
    println!("n = {n}");
}
