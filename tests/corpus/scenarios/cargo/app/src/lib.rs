//! Tests that fail, for `cargo test` output in the corpus.
pub fn pick(values: &[u32], index: usize) -> u32 {
    values[index]
}

pub fn first_even(values: &[u32]) -> Option<u32> {
    values.iter().copied().find(|v| v % 2 == 0)
}

pub fn checked_ratio(total: u32, parts: u32) -> u32 {
    assert!(parts > 0, "parts must be positive");
    total / parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_autodiff::tensor::AutodiffTensor;

    #[test]
    fn three_index_out_of_bounds() {
        assert_eq!(pick(&[1, 2, 3], 7), 3);
    }

    #[test]
    fn three_no_even_value() {
        assert_eq!(first_even(&[1, 3, 5]).unwrap(), 2);
    }

    #[test]
    fn three_require_grad_on_result() {
        let t = AutodiffTensor::from_values(vec![1.0]).scale(2.0).require_grad();
        assert_eq!(t.values.len(), 1);
    }

    #[test]
    fn three_passes() {
        assert_eq!(pick(&[4], 0), 4);
    }

    #[test]
    fn grouped_first_ratio() {
        assert_eq!(checked_ratio(10, 0), 0);
    }

    #[test]
    fn grouped_second_ratio() {
        assert_eq!(checked_ratio(20, 0), 0);
    }
}
