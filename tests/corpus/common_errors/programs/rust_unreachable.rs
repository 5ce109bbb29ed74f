#[derive(Debug, Clone, Copy)]
enum Light {
    Red,
    Yellow,
    Green,
}

fn from_code(code: u8) -> Light {
    match code {
        0 => Light::Red,
        1 => Light::Yellow,
        2 => Light::Green,
        _ => unreachable!(),
    }
}

fn main() {
    // codes as they arrive from the controller
    let codes = [2u8, 1, 0, 2, 3, 1];
    for code in codes {
        let light = from_code(code);
        println!("{code} -> {light:?}");
    }
}
