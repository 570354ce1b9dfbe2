//! Tuning the weights of an evaluation with CMA-ES ([`CmaEs`]), scoring each candidate
//! by the games a player plays with it.
//!
//! See [`Tuner`] for how.

mod config;
mod format;
mod objective;
mod space;
#[cfg(test)]
mod tests;
mod tuner;

pub use config::TuneConfig;
pub use format::{format_history, format_validation, format_weights, HISTORY_COLUMNS};
pub use objective::Objective;
pub use space::ParamSpace;
pub use tuner::{GenerationRow, MeanEstimate, Tuner, Validation};
