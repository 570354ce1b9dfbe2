//! `ai2048 bench`.

use anyhow::{bail, Result};

use crate::args::BenchArgs;

/// Runs `ai2048 bench`.
pub fn run(_args: &BenchArgs) -> Result<()> {
    bail!("not yet implemented")
}
