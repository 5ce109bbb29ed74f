//! Each argument makes the program fail in one way that users meet.
use burn_autodiff::tensor::AutodiffTensor;
use std::collections::HashMap;

fn scaled_weights() -> AutodiffTensor {
    AutodiffTensor::from_values(vec![1.0, 2.0]).scale(0.5)
}

fn main() {
    let scenario = std::env::args().nth(1).unwrap_or_default();
    println!("running scenario {scenario}");
    match scenario.as_str() {
        "leaf" => {
            let w = scaled_weights().require_grad();
            println!("{:?}", w.values);
        }
        "unwrap" => {
            let epochs: u32 = "ten".parse().unwrap();
            println!("{epochs}");
        }
        "assert" => {
            let batch = vec![1, 2, 3];
            assert_eq!(batch.len(), 4, "batch size");
        }
        "thread" => {
            let worker = std::thread::spawn(|| {
                let config: HashMap<&str, u32> = HashMap::new();
                config["lr"]
            });
            let _ = worker.join();
        }
        "quota" => panic!("tenant quota exceeded: {} > {}", 1001, 1000),
        _ => eprintln!("unknown scenario"),
    }
}
