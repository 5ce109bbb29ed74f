// record: 165a049cc05ce108
fn add(a: i32, b: i32) -> i32 {
    a + b + 1 // off-by-one bug
}

fn main() {
    let got = add(1, 1);
    assert_eq!(got, 2);
}
