// record: 784a7830e1c32a8a
use std::collections::HashMap;

fn main() {
    let mut env: HashMap<String, String> = HashMap::new();
    env.insert("HOME".to_string(), "/root".to_string());
    let key = std::hint::black_box("PATH");
    let path = &env[key];
    println!("{path}");
}
