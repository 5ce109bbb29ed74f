trait Storage {
    fn put(&mut self, key: &str, value: Vec<u8>);
    fn get(&self, key: &str) -> Option<&Vec<u8>>;
    fn delete(&mut self, key: &str) -> bool;
}

struct MemoryStore {
    items: Vec<(String, Vec<u8>)>,
}

impl Storage for MemoryStore {
    fn put(&mut self, key: &str, value: Vec<u8>) {
        self.items.push((key.to_string(), value));
    }

    fn get(&self, key: &str) -> Option<&Vec<u8>> {
        self.items.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn delete(&mut self, _key: &str) -> bool {
        unimplemented!()
    }
}

fn main() {
    let mut store = MemoryStore { items: Vec::new() };
    store.put("session:42", b"token-abc".to_vec());
    println!("found {} bytes", store.get("session:42").map_or(0, |v| v.len()));
    let removed = store.delete("session:42");
    println!("removed: {removed}");
}
