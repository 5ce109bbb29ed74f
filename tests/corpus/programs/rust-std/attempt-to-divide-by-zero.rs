// record: 5b86147da3aba4ea
fn main() {
    let total: u64 = 120;
    let count: u64 = std::hint::black_box(0);
    let average = total / count;
    println!("{average}");
}
