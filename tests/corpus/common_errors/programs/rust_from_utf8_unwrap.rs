use std::io::Read;

fn main() {
    // bytes as received from an old device that sends Latin-1
    let payload: &[u8] = b"sensor=Stra\xdfe 5;temp=18";
    let mut buf = Vec::new();
    payload.take(64).read_to_end(&mut buf).unwrap();
    let line = String::from_utf8(buf).unwrap();
    for field in line.split(';') {
        println!("{field}");
    }
}
