// record: dde11d5cd48a288a
fn main() {
    let items: Vec<u32> = Vec::new();
    // len() is 0 and usize cannot go below zero
    let last = items.len() - 1;
    println!("{last}");
}
