//! Gears for gadgets: a stand-in registry crate for leafexplain's corpus.

/// The gears of a gadget, as their numbers of teeth.
pub struct Gears {
    teeth: Vec<u32>,
}

impl Gears {
    pub fn new(teeth: Vec<u32>) -> Self {
        Gears { teeth }
    }

    /// The ratio of the first gear to the last.
    ///
    /// Panics when the gadget has fewer than two gears.
    pub fn ratio(&self) -> f64 {
        if self.teeth.len() < 2 {
            panic!("a gadget needs at least two gears, it has {}", self.teeth.len());
        }
        f64::from(self.teeth[0]) / f64::from(self.teeth[self.teeth.len() - 1])
    }
}
