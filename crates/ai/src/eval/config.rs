//! An evaluation as data: its name and weights, which [`EvalConfig::build`] turns into
//! an [`Evaluator`], an optimizer tunes as a flat vector, and a weights file stores.

use std::sync::Arc;

use super::catalog::{eval_info, EvalInfo, Kind};
use super::{
    CobbDouglas, EvalError, Evaluator, Feature, HeuristicWeights, MatrixEval, RowTable, Simple,
    Weighted,
};

/// A named evaluation with its weights: what `eval=NAME`, `weights=FILE` and `w.NAME=X`
/// describe, what a weights file stores, and what an optimizer tunes.
///
/// The weights are a flat vector ([`EvalConfig::params`]) in the order of the
/// evaluation's [`EvalInfo::weights`], which also give their names, defaults and
/// ranges, so any evaluation can be tuned the same way:
///
/// ```
/// use ai2048_ai::eval::EvalConfig;
/// use ai2048_engine::Board;
///
/// let config = EvalConfig::new("weighted")?;
/// assert_eq!(config.param_names().collect::<Vec<_>>(),
///            ["empty", "smoothness", "monotonicity", "merges", "sum", "max"]);
/// // One step of an optimizer: new parameters, a new evaluation.
/// let mut x = config.params().to_vec();
/// x[0] *= 2.0;
/// let tuned = config.with_params(&x)?;
/// assert_eq!(tuned.get("empty"), Some(2.0 * config.get("empty").unwrap()));
/// let eval = tuned.build();
/// assert!(eval.eval(Board::EMPTY) > 0.0);
/// // Saved and loaded, it is the same evaluation.
/// assert_eq!(EvalConfig::from_json(&tuned.to_json())?, tuned);
/// # Ok::<(), ai2048_ai::eval::EvalError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct EvalConfig {
    info: &'static EvalInfo,
    params: Vec<f64>,
    symmetric: bool,
    note: Option<String>,
}

impl EvalConfig {
    /// The evaluation called `name` with its default weights.
    ///
    /// # Errors
    ///
    /// When no evaluation has that name; the message lists the known ones.
    pub fn new(name: &str) -> Result<EvalConfig, EvalError> {
        eval_info(name).map(EvalConfig::from_info)
    }

    /// The evaluation `info` with its default weights.
    #[must_use]
    pub fn from_info(info: &'static EvalInfo) -> EvalConfig {
        EvalConfig {
            info,
            params: info.defaults(),
            symmetric: false,
            note: None,
        }
    }

    /// The evaluation's name.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.info.name
    }

    /// What the catalog says about the evaluation: its weights, their defaults and
    /// ranges.
    #[must_use]
    pub fn info(&self) -> &'static EvalInfo {
        self.info
    }

    /// The names of the weights, in the order of [`EvalConfig::params`].
    pub fn param_names(&self) -> impl Iterator<Item = &'static str> {
        self.info.weight_names()
    }

    /// The weights as a flat vector, in the order of [`EvalInfo::weights`].
    #[must_use]
    pub fn params(&self) -> &[f64] {
        &self.params
    }

    /// This evaluation with the weights `params`, in the order of
    /// [`EvalConfig::params`].
    ///
    /// # Errors
    ///
    /// When `params` has the wrong length, or a value is not finite or out of its
    /// weight's range; the message names the weight.
    pub fn with_params(&self, params: &[f64]) -> Result<EvalConfig, EvalError> {
        if params.len() != self.params.len() {
            return Err(EvalError::WeightCount {
                eval: self.name().to_owned(),
                expected: self.params.len(),
                found: params.len(),
            });
        }
        for (w, &x) in self.info.weights.iter().zip(params) {
            check_weight(self.info, w.name, x)?;
        }
        Ok(EvalConfig {
            params: params.to_vec(),
            ..self.clone()
        })
    }

    /// The weight called `name`, if the evaluation has one.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<f64> {
        self.info.weight_index(name).map(|i| self.params[i])
    }

    /// Sets the weight called `name`.
    ///
    /// # Errors
    ///
    /// When the evaluation has no such weight (the message lists its weights), or the
    /// value is not finite or out of the weight's range.
    ///
    /// ```
    /// use ai2048_ai::eval::EvalConfig;
    /// let mut config = EvalConfig::new("heuristic")?;
    /// config.set("empty", 300.0)?;
    /// assert_eq!(config.get("empty"), Some(300.0));
    /// assert!(config.set("emptiness", 1.0).unwrap_err().to_string().contains("empty"));
    /// assert!(config.set("empty", f64::NAN).is_err());
    /// # Ok::<(), ai2048_ai::eval::EvalError>(())
    /// ```
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), EvalError> {
        let i = self
            .info
            .weight_index(name)
            .ok_or_else(|| EvalError::UnknownWeight {
                eval: self.name().to_owned(),
                weight: name.to_owned(),
            })?;
        check_weight(self.info, name, value)?;
        self.params[i] = value;
        Ok(())
    }

    /// The weight matrix of a matrix evaluation (`corner`, `snake`, `diagonal`), cells
    /// in reading order.
    #[must_use]
    pub fn matrix(&self) -> Option<[f64; 16]> {
        self.info.has_matrix().then(|| {
            let mut m = [0.0; 16];
            m.copy_from_slice(&self.params[..16]);
            m
        })
    }

    /// Sets the weight matrix of a matrix evaluation, cells in reading order.
    ///
    /// # Errors
    ///
    /// When the evaluation has no matrix, or a weight is not finite or out of range.
    pub fn set_matrix(&mut self, matrix: &[f64; 16]) -> Result<(), EvalError> {
        if !self.info.has_matrix() {
            return Err(EvalError::NoMatrix {
                eval: self.name().to_owned(),
            });
        }
        for (w, &x) in self.info.weights.iter().zip(matrix) {
            check_weight(self.info, w.name, x)?;
        }
        self.params[..16].copy_from_slice(matrix);
        Ok(())
    }

    /// Whether a matrix evaluation takes the best value over the eight symmetries of
    /// the board (rotations and reflections) instead of favouring the top-left corner.
    #[must_use]
    pub fn symmetric(&self) -> bool {
        self.symmetric
    }

    /// Sets [`EvalConfig::symmetric`].
    ///
    /// # Errors
    ///
    /// When `symmetric` is true and the evaluation is not a matrix evaluation (the
    /// others treat every direction alike already).
    pub fn set_symmetric(&mut self, symmetric: bool) -> Result<(), EvalError> {
        if symmetric && !self.info.has_matrix() {
            return Err(EvalError::NotSymmetric {
                eval: self.name().to_owned(),
            });
        }
        self.symmetric = symmetric;
        Ok(())
    }

    /// A free-text note stored with the weights (where they come from, how they
    /// scored).
    #[must_use]
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Sets the note.
    pub fn set_note(&mut self, note: Option<String>) {
        self.note = note;
    }

    /// The evaluation these weights describe.
    ///
    /// The `heuristic` evaluation with its default weights is the shared
    /// [`RowTable::standard`]; other weights build a new table (a few milliseconds).
    #[must_use]
    pub fn build(&self) -> Arc<dyn Evaluator> {
        let p = &self.params;
        match self.info.kind {
            Kind::Heuristic => {
                let mut values = [0.0; 7];
                values.copy_from_slice(p);
                let weights = HeuristicWeights::from_array(values);
                if weights == HeuristicWeights::default() {
                    RowTable::standard()
                } else {
                    Arc::new(RowTable::new(&weights))
                }
            }
            Kind::Simple => Arc::new(Simple),
            Kind::Lines => Arc::new(super::Lines::with_climb(p[0], p[1])),
            Kind::Matrix => Arc::new(MatrixEval::new(
                self.matrix().expect("a matrix eval"),
                p[16],
                self.symmetric,
            )),
            Kind::Weighted => {
                let terms: Vec<(Feature, f64)> = self
                    .param_names()
                    .zip(p)
                    .map(|(name, &w)| (Feature::from_name(name).expect("a feature"), w))
                    .collect();
                Arc::new(Weighted::new(&terms))
            }
            Kind::CobbDouglas => {
                let mut exponents = [0.0; 4];
                exponents.copy_from_slice(p);
                Arc::new(CobbDouglas { exponents })
            }
        }
    }
}

/// Checks that `value` is a valid value of weight `name` of `info`.
fn check_weight(info: &EvalInfo, name: &str, value: f64) -> Result<(), EvalError> {
    let Some(w) = info.weights.iter().find(|w| w.name == name) else {
        return Err(EvalError::UnknownWeight {
            eval: info.name.to_owned(),
            weight: name.to_owned(),
        });
    };
    if !value.is_finite() {
        return Err(EvalError::NotFinite {
            eval: info.name.to_owned(),
            weight: name.to_owned(),
            value,
        });
    }
    if !(w.min..=w.max).contains(&value) {
        return Err(EvalError::OutOfRange {
            eval: info.name.to_owned(),
            weight: name.to_owned(),
            value,
            min: w.min,
            max: w.max,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EVALS;

    #[test]
    fn defaults_are_valid_and_names_unique() {
        for info in EVALS {
            let config = EvalConfig::from_info(info);
            assert_eq!(config.with_params(config.params()).unwrap(), config);
            let mut names: Vec<_> = config.param_names().collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), info.weights.len(), "{}", info.name);
        }
    }

    #[test]
    fn with_params_checks_length_and_range() {
        let config = EvalConfig::new("cobb-douglas").unwrap();
        assert!(config.with_params(&[1.0]).is_err());
        let err = config.with_params(&[1.0, -1.0, 1.0, 1.0]).unwrap_err();
        assert!(err.to_string().contains("emptiness"), "{err}");
        let err = EvalConfig::new("heuristic")
            .unwrap()
            .with_params(&[1.0, 1.0, 1.0, 1.0, -2.0, 1.0, 1.0])
            .unwrap_err();
        assert!(err.to_string().contains("mono_power"), "{err}");
    }

    #[test]
    fn heuristic_defaults_share_the_standard_table() {
        let eval = EvalConfig::new("heuristic").unwrap().build();
        let table = eval.downcast_ref::<RowTable>().expect("a row table");
        assert!(core::ptr::eq(table, &*RowTable::standard()));
    }

    #[test]
    fn symmetric_only_for_matrices() {
        let mut config = EvalConfig::new("weighted").unwrap();
        assert!(config.set_symmetric(false).is_ok());
        let err = config.set_symmetric(true).unwrap_err();
        assert!(err.to_string().contains("corner, snake, diagonal"), "{err}");
        let mut config = EvalConfig::new("snake").unwrap();
        config.set_symmetric(true).unwrap();
        assert!(config.symmetric());
    }
}
