//! Tunes the weights of an evaluation for a 2048 player: CMA-ES ([`CmaEs`]) proposes
//! weights, each candidate is scored by the seeded games a player plays with it
//! ([`Objective`], games played by [`ai2048_bench`]), and the best is validated on
//! held-out games ([`Validation`]).
//!
//! - [`TuneConfig`]: what to tune and how; [`ParamSpace`]: the weights tuned, in the
//!   optimizer's normalized space.
//! - [`Tuner`]: the run, one generation at a time, stoppable and deterministic from
//!   its seed; [`GenerationRow`] and [`MeanEstimate`]: what each generation found.
//! - [`format_history`], [`format_weights`] and [`format_validation`]: the run as
//!   text tables.
#![deny(missing_docs)]

mod cmaes;
mod tune;

pub use cmaes::CmaEs;
pub use tune::{
    format_history, format_validation, format_weights, GenerationRow, MeanEstimate, Objective,
    ParamSpace, TuneConfig, Tuner, Validation, HISTORY_COLUMNS,
};
