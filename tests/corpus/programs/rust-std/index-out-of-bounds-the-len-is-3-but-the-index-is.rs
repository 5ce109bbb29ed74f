// record: ea455540e8c53de7
fn main() {
    let scores = vec![10, 20, 30];
    let i = std::hint::black_box(5);
    println!("{}", scores[i]);
}
