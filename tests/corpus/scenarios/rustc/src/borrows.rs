// Errors of the borrow checker: E0382 (a value used after a move) and E0502, and a warning.
fn archive(entries: Vec<i64>) -> usize {
    entries.len()
}

fn main() {
    let entries = vec![10, 32];
    let archived = archive(entries);
    println!("{archived} archived, {} left", entries.len());

    let mut pending = vec![1, 2, 3];
    let first = &pending[0];
    pending.push(4);
    println!("first pending: {first}");
    let unused_total = 0;
}
