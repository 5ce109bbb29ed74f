// Builds and passes its test, with warnings only: no error at all.
fn balance(entries: &[i64]) -> i64 {
    let unused_fee = 1;
    entries.iter().sum()
}

fn never_called() {}

fn main() {
    println!("balance {}", balance(&[10, 32]));
}

#[test]
fn balance_adds_up() {
    assert_eq!(balance(&[1, 2]), 3);
}
