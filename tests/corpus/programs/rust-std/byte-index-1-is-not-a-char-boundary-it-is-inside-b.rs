// record: c4784f3cb43d7f08
fn main() {
    let word = String::from("école");
    let n = std::hint::black_box(1);
    // 'é' takes two bytes in UTF-8, so byte 1 is in the middle of it
    let first = &word[..n];
    println!("{first}");
}
