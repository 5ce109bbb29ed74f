use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::thread;

fn main() {
    let stats: Arc<Mutex<HashMap<String, u32>>> = Arc::new(Mutex::new(HashMap::new()));
    let jobs = vec!["resize", "upload", "", "thumbnail"];

    let mut handles = Vec::new();
    for (worker, job) in jobs.into_iter().enumerate() {
        let stats = Arc::clone(&stats);
        handles.push(thread::spawn(move || {
            let mut map = stats.lock().unwrap();
            let first = job.chars().next().unwrap();
            *map.entry(format!("{first}:{job}")).or_insert(0) += worker as u32;
        }));
    }
    for h in handles {
        let _ = h.join();
    }

    let map = stats.lock().unwrap();
    println!("{} job kinds", map.len());
}
