//! [`ParamSpace`]: the weights a run tunes, and the optimizer's normalized space.

use ai2048_ai::eval::{EvalConfig, MAX_WEIGHT};

use ai2048_bench::BenchError;

/// The weights being tuned, and how the optimizer's normalized coordinates map to
/// them: weight `i` is `start_i + scale_i * z_i` (see [`Tuner`](crate::Tuner)).
///
/// ```
/// use ai2048_ai::eval::EvalConfig;
/// use ai2048_tune::ParamSpace;
/// let start = EvalConfig::new("heuristic")?;
/// let space = ParamSpace::new(&start, Some(&["empty".to_owned(), "mono_power".to_owned()]))?;
/// assert_eq!(space.names(), ["empty", "mono_power"]);
/// assert_eq!(space.scales(), [270.0, 2.5]); // |270|, and 4 capped at a quarter of [0, 10]
/// let tuned = space.weights(&[0.5, -10.0]); // mono_power is clipped to 0
/// assert_eq!(tuned.get("empty"), Some(405.0));
/// assert_eq!(tuned.get("mono_power"), Some(0.0));
/// assert_eq!(tuned.get("merges"), start.get("merges")); // not tuned
/// assert!(ParamSpace::new(&start, Some(&["emptiness".to_owned()])).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpace {
    start: EvalConfig,
    /// The indices, in the evaluation's weights, of the tuned weights.
    tuned: Vec<usize>,
    scales: Vec<f64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
}

impl ParamSpace {
    /// The space of the weights `names` of `start` (all of them when `None`), around
    /// the weights of `start`.
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`] when the evaluation has no weights, or `names` is empty,
    /// names a weight twice or one the evaluation lacks (the message lists its
    /// weights).
    pub fn new(start: &EvalConfig, names: Option<&[String]>) -> Result<ParamSpace, BenchError> {
        let info = start.info();
        let all: Vec<&str> = start.param_names().collect();
        if all.is_empty() {
            return Err(BenchError::Config(format!(
                "eval {} has no weights to tune",
                start.name()
            )));
        }
        let tuned: Vec<usize> = match names {
            None => (0..all.len()).collect(),
            Some([]) => {
                return Err(BenchError::Config(format!(
                    "no weight to tune: name some of {}",
                    all.join(", ")
                )))
            }
            Some(names) => {
                let mut tuned = Vec::with_capacity(names.len());
                for name in names {
                    let name = name.trim();
                    let i = info.weight_index(name).ok_or_else(|| {
                        BenchError::Config(format!(
                            "eval {} has no weight {name:?}: expected some of {}",
                            start.name(),
                            all.join(", ")
                        ))
                    })?;
                    if tuned.contains(&i) {
                        return Err(BenchError::Config(format!("weight {name} is listed twice")));
                    }
                    tuned.push(i);
                }
                tuned
            }
        };
        let x0 = start.params();
        let nonzero: Vec<f64> = x0.iter().filter(|x| **x != 0.0).map(|x| x.abs()).collect();
        let fallback = if nonzero.is_empty() {
            1.0
        } else {
            nonzero.iter().sum::<f64>() / nonzero.len() as f64
        };
        let mut scales = Vec::with_capacity(tuned.len());
        let mut lower = Vec::with_capacity(tuned.len());
        let mut upper = Vec::with_capacity(tuned.len());
        for &i in &tuned {
            let w = &info.weights[i];
            let mut scale = if x0[i] == 0.0 { fallback } else { x0[i].abs() };
            if w.max - w.min < 2.0 * MAX_WEIGHT {
                scale = scale.min((w.max - w.min) / 4.0);
            }
            if !(scale.is_finite() && scale > 0.0) {
                scale = 1.0;
            }
            scales.push(scale);
            lower.push((w.min - x0[i]) / scale);
            upper.push((w.max - x0[i]) / scale);
        }
        Ok(ParamSpace {
            start: start.clone(),
            tuned,
            scales,
            lower,
            upper,
        })
    }

    /// The number of tuned weights: the optimizer's dimension.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.tuned.len()
    }

    /// The weights at `z = 0`.
    #[must_use]
    pub fn start(&self) -> &EvalConfig {
        &self.start
    }

    /// The names of the tuned weights, in the order of the coordinates.
    #[must_use]
    pub fn names(&self) -> Vec<&'static str> {
        let info = self.start.info();
        self.tuned.iter().map(|&i| info.weights[i].name).collect()
    }

    /// Whether weight `name` is tuned.
    #[must_use]
    pub fn is_tuned(&self, name: &str) -> bool {
        self.names().contains(&name)
    }

    /// How much a unit of each coordinate changes its weight.
    #[must_use]
    pub fn scales(&self) -> &[f64] {
        &self.scales
    }

    /// `z` clipped to the weights' ranges (a coordinate that is NaN becomes 0).
    ///
    /// # Panics
    ///
    /// When `z` does not have [`ParamSpace::dim`] coordinates.
    #[must_use]
    pub fn repair(&self, z: &[f64]) -> Vec<f64> {
        assert_eq!(z.len(), self.dim(), "one coordinate per tuned weight");
        z.iter()
            .zip(self.lower.iter().zip(&self.upper))
            .map(|(&v, (&lo, &hi))| if v.is_nan() { 0.0 } else { v.clamp(lo, hi) })
            .collect()
    }

    /// The weights at `z` (repaired first): the starting weights with the tuned ones
    /// replaced.
    ///
    /// # Panics
    ///
    /// When `z` does not have [`ParamSpace::dim`] coordinates.
    #[must_use]
    pub fn weights(&self, z: &[f64]) -> EvalConfig {
        let info = self.start.info();
        let mut params = self.start.params().to_vec();
        for ((&i, &s), &v) in self.tuned.iter().zip(&self.scales).zip(&self.repair(z)) {
            let w = &info.weights[i];
            params[i] = (params[i] + s * v).clamp(w.min, w.max);
        }
        self.start
            .with_params(&params)
            .expect("repaired weights are finite and in range")
    }
}
