//! `ai2048 play`.

use anyhow::{bail, Result};

use crate::args::PlayArgs;

/// Runs `ai2048 play`.
pub fn run(_args: &PlayArgs) -> Result<()> {
    bail!("not yet implemented")
}
