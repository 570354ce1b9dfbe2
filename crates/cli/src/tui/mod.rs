//! The full-screen terminal game of `ai2048 play` and `ai2048 watch`, with ratatui.
//!
//! - [`app`]: the state and what each [`action::Action`] does to it (no terminal);
//! - [`keys`]: which key is which action; [`view`] and [`board`]: the drawing;
//!   [`palette`]: the original game's colours;
//! - [`ai`]: the AI searching on its own thread; [`stats`]: what its searches cost;
//! - [`best`]: the best score, kept in a file; [`speed`]: the pause between AI moves;
//! - [`terminal`]: the loop, and the terminal's set-up and restoring.

pub mod action;
pub mod ai;
pub mod app;
pub mod best;
pub mod board;
pub mod keys;
pub mod palette;
pub mod speed;
pub mod stats;
pub mod terminal;
pub mod view;
