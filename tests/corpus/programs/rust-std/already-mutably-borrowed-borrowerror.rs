// record: 9f3df6b84e14fe99
use std::cell::RefCell;

fn main() {
    let counter = RefCell::new(0u32);
    let mut guard = counter.borrow_mut();
    *guard += 1;
    // the RefMut guard is still alive here
    let current = *counter.borrow();
    println!("{current} {}", *guard);
}
