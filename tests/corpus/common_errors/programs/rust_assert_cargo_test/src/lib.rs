/// Simple moving average over a window.
pub fn moving_average(values: &[f64], window: usize) -> Vec<f64> {
    assert!(window > 0 && window <= values.len());
    values
        .windows(window)
        .map(|w| w.iter().sum::<f64>() / window as f64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smooths_a_series() {
        let out = moving_average(&[1.0, 2.0, 3.0, 4.0], 2);
        assert_eq!(out, vec![1.5, 2.5, 3.5]);
    }

    #[test]
    fn short_series() {
        let out = moving_average(&[5.0, 7.0], 3);
        assert!(out.is_empty());
    }
}
