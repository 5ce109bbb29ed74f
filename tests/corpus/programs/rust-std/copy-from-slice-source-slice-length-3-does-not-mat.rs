// record: 35ed8cb7203f4cfc
fn main() {
    let mut header = [0u8; 4];
    let src: &[u8] = std::hint::black_box(&[0xCA, 0xFE, 0xBA]);
    header.copy_from_slice(src);
    println!("{header:?}");
}
