/// A tensor that knows whether it is a leaf of the autodiff graph.
#[derive(Debug, Clone)]
pub struct AutodiffTensor {
    pub values: Vec<f32>,
    leaf: bool,
}

impl AutodiffTensor {
    pub fn from_values(values: Vec<f32>) -> Self {
        Self { values, leaf: true }
    }

    /// The result of an operation: not a leaf any more.
    pub fn scale(&self, factor: f32) -> Self {
        Self { values: self.values.iter().map(|v| v * factor).collect(), leaf: false }
    }

    pub fn require_grad(self) -> Self {
        if !self.leaf {
            panic!("Can't convert a non leaf tensor into a tracked tensor")
        }
        self
    }
}
