//! `ai2048 engine`.

use anyhow::{bail, Result};

use crate::args::EngineArgs;

/// Runs `ai2048 engine`.
pub fn run(_args: &EngineArgs) -> Result<()> {
    bail!("not yet implemented")
}
