// record: 397698c6ecb9f110
use std::cell::RefCell;

fn main() {
    let log = RefCell::new(vec![String::from("start")]);
    let reader = log.borrow();
    // a shared borrow is still alive, so borrow_mut() cannot succeed
    log.borrow_mut().push(String::from("next"));
    println!("{}", reader.len());
}
