// record: b0d1b296c715cde5
use std::collections::HashMap;

fn main() {
    let mut ports: HashMap<&str, u16> = HashMap::new();
    ports.insert("http", 80);
    // "https" was never inserted, so get() returns None
    let port = ports.get("https").copied().unwrap();
    println!("port = {port}");
}
