// record: 3c8df12b9f579b2f
fn main() {
    let mut list = vec![1, 2, 3];
    let pos = std::hint::black_box(7);
    list.insert(pos, 99);
    println!("{list:?}");
}
