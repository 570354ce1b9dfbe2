//! [`EvalError`]: why an evaluation cannot be made.

use core::fmt;

use super::{eval_info, EVALS};

/// An evaluation that cannot be made: an unknown name or weight, a weight out of its
/// range, or a bad weights file. A caller can match the variant; the message says
/// the same in words.
///
/// ```
/// use ai2048_ai::eval::{EvalConfig, EvalError};
/// let mut config = EvalConfig::new("snake")?;
/// let err = config.set("empty", f64::NAN).unwrap_err();
/// assert!(matches!(err, EvalError::NotFinite { .. }));
/// assert_eq!(err.to_string(), "weight empty of eval snake: NaN is not a finite number");
/// # Ok::<(), EvalError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum EvalError {
    /// No evaluation has this name.
    UnknownEval {
        /// The name asked for.
        name: String,
    },
    /// Weights for one evaluation were given to another.
    WrongEval {
        /// The evaluation the weights are for.
        weights_for: String,
        /// The evaluation asked for.
        eval: String,
    },
    /// A vector of weights of the wrong length.
    WeightCount {
        /// The evaluation.
        eval: String,
        /// Its number of weights.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// The evaluation has no weight of this name.
    UnknownWeight {
        /// The evaluation.
        eval: String,
        /// The weight asked for.
        weight: String,
    },
    /// A weight that is not a finite number.
    NotFinite {
        /// The evaluation.
        eval: String,
        /// The weight.
        weight: String,
        /// The value given.
        value: f64,
    },
    /// A weight outside its range.
    OutOfRange {
        /// The evaluation.
        eval: String,
        /// The weight.
        weight: String,
        /// The value given.
        value: f64,
        /// The smallest value the weight takes.
        min: f64,
        /// The largest value the weight takes.
        max: f64,
    },
    /// A matrix was given to an evaluation that has none.
    NoMatrix {
        /// The evaluation.
        eval: String,
    },
    /// `symmetric` was asked of an evaluation that is not a matrix evaluation.
    NotSymmetric {
        /// The evaluation.
        eval: String,
    },
    /// A weights file's text is not what one holds; the message says where.
    Format(String),
    /// A weights file cannot be read or written.
    Io {
        /// The file.
        path: String,
        /// `read` or `write`.
        action: &'static str,
        /// What the system said.
        message: String,
    },
    /// The error of a weights file's contents, with the file's name.
    InFile {
        /// The file.
        path: String,
        /// What is wrong with it.
        error: Box<EvalError>,
    },
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::UnknownEval { name } => {
                let names: Vec<_> = EVALS.iter().map(|e| e.name).collect();
                write!(
                    f,
                    "unknown eval {name:?}: expected one of {}",
                    names.join(", ")
                )
            }
            EvalError::WrongEval { weights_for, eval } => {
                write!(f, "the weights are for eval {weights_for}, not {eval}")
            }
            EvalError::WeightCount {
                eval,
                expected,
                found,
            } => write!(f, "eval {eval} has {expected} weights, not {found}"),
            EvalError::UnknownWeight { eval, weight } => {
                let names: Vec<_> = eval_info(eval)
                    .map(|info| info.weight_names().collect())
                    .unwrap_or_default();
                if names.is_empty() {
                    write!(f, "eval {eval} has no weight {weight:?} (it has none)")
                } else {
                    write!(
                        f,
                        "eval {eval} has no weight {weight:?}: expected one of {}",
                        abbreviate(&names)
                    )
                }
            }
            EvalError::NotFinite {
                eval,
                weight,
                value,
            } => write!(
                f,
                "weight {weight} of eval {eval}: {value} is not a finite number"
            ),
            EvalError::OutOfRange {
                eval,
                weight,
                value,
                min,
                max,
            } => write!(
                f,
                "weight {weight} of eval {eval}: {value} is outside [{min}, {max}]"
            ),
            EvalError::NoMatrix { eval } => write!(f, "eval {eval} has no matrix"),
            EvalError::NotSymmetric { eval } => write!(
                f,
                "eval {eval} has no option symmetric (only the matrix evals: {})",
                matrix_eval_names()
            ),
            EvalError::Format(message) => f.write_str(message),
            EvalError::Io {
                path,
                action,
                message,
            } => write!(f, "cannot {action} weights file {path}: {message}"),
            EvalError::InFile { path, error } => write!(f, "weights file {path}: {error}"),
        }
    }
}

impl std::error::Error for EvalError {}

/// The names of the matrix evaluations, for messages.
pub(crate) fn matrix_eval_names() -> String {
    let names: Vec<_> = EVALS
        .iter()
        .filter(|e| e.has_matrix())
        .map(|e| e.name)
        .collect();
    names.join(", ")
}

/// Weight names for a message: the 16 matrix cells as a range.
fn abbreviate(names: &[&str]) -> String {
    if names.len() > 16 && names[0] == "m00" {
        format!("m00 to m33, {}", names[16..].join(", "))
    } else {
        names.join(", ")
    }
}
