use gadgets::Gears;

fn main() {
    let teeth: Vec<u32> = std::env::args().skip(1).filter_map(|t| t.parse().ok()).collect();
    let gears = Gears::new(teeth);
    println!("ratio {}", gears.ratio());
}
