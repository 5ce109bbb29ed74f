// Errors rustc finds before it checks borrows: E0308, E0425, E0599, and a warning.
struct Entry {
    amount: i64,
}

fn total(entries: &[Entry]) -> i64 {
    entries.iter().map(|e| e.amount).sum()
}

fn main() {
    let unused_rate = 0.2;
    let entries = vec![Entry { amount: 10 }, Entry { amount: 32 }];
    let count: usize = total(&entries);
    println!("{count} entries, balance {}", balanse);
    let label = String::from("ledger");
    println!("{}", label.to_upper());
}
