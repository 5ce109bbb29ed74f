// record: 0b6a4b0ac8f6085e
use std::os::fd::AsRawFd;

extern "C" {
    fn dup2(oldfd: i32, newfd: i32) -> i32;
}

fn main() {
    // Simulate `prog | head -0`: stdout becomes a pipe nobody reads.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    unsafe {
        dup2(writer.as_raw_fd(), 1);
    }
    println!("line 1");
}
