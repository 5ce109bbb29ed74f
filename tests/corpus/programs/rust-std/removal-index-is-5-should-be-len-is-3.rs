// record: 0ab7098c49e3803c
fn main() {
    let mut queue = vec!["a", "b", "c"];
    let idx = std::hint::black_box(5);
    let taken = queue.remove(idx);
    println!("{taken}");
}
