use std::collections::HashMap;
use std::fs;

fn load_config(path: &str) -> HashMap<String, String> {
    let text = fs::read_to_string(path).expect("failed to read config file");
    text.lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn main() {
    let config = load_config("config/server.conf");
    let port = config.get("port").map(String::as_str).unwrap_or("8080");
    println!("listening on {port}");
}
