use std::collections::HashMap;

/// Longest chain of dependencies below `package`.
fn depth(package: &str, deps: &HashMap<&str, Vec<&str>>) -> usize {
    let children = deps.get(package).map(Vec::as_slice).unwrap_or(&[]);
    1 + children.iter().map(|c| depth(c, deps)).max().unwrap_or(0)
}

fn main() {
    let mut deps: HashMap<&str, Vec<&str>> = HashMap::new();
    deps.insert("app", vec!["http", "config"]);
    deps.insert("http", vec!["tls", "log"]);
    deps.insert("config", vec!["log", "serde-lite"]);
    deps.insert("log", vec!["time"]);
    deps.insert("time", vec!["config"]); // oops: config -> log -> time -> config

    for root in ["tls", "app"] {
        println!("{root}: depth {}", depth(root, &deps));
    }
}
