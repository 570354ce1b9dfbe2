//! `ai2048 players`: the players and evaluations, with their options.

use ai2048_ai::eval::EVALS;
use ai2048_ai::{DEFAULT_PLAYER, PLAYERS};
use std::io::Write;

use anyhow::Result;

/// Prints every player and evaluation with its options.
pub fn run() -> Result<()> {
    writeln!(
        std::io::stdout(),
        "Players (--ai NAME, options as --ai NAME:KEY=VALUE,... or --ai-opt KEY=VALUE):\n"
    )?;
    for p in PLAYERS {
        let default = if p.name == DEFAULT_PLAYER {
            " (default)"
        } else {
            ""
        };
        writeln!(std::io::stdout(), "{}{default}: {}", p.name, p.about)?;
        for (key, about) in p.options {
            writeln!(std::io::stdout(), "    {key:<12} {about}")?;
        }
        writeln!(std::io::stdout())?;
    }
    writeln!(
        std::io::stdout(),
        "Evaluations (eval=NAME; weights with weights=FILE or w.NAME=VALUE):\n"
    )?;
    for e in EVALS {
        writeln!(std::io::stdout(), "{}: {}", e.name, e.about)?;
        let names: Vec<&str> = e.weights.iter().map(|w| w.name).collect();
        if !names.is_empty() {
            writeln!(std::io::stdout(), "    weights: {}", names.join(", "))?;
        }
    }
    Ok(())
}
