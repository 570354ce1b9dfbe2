//! `ai2048 players`: the players and evaluations, with their options.

use ai2048_ai::eval::EVALS;
use ai2048_ai::ntuple::{builtin, builtin_file};
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
    writeln!(std::io::stdout(), "network: {}", describe_builtin())?;
    for e in EVALS {
        writeln!(std::io::stdout(), "{}: {}", e.name, e.about)?;
        let names: Vec<&str> = e.weights.iter().map(|w| w.name).collect();
        if !names.is_empty() {
            writeln!(std::io::stdout(), "    weights: {}", names.join(", "))?;
        }
    }
    Ok(())
}

/// What the built-in network is, and that it is the default, or that there is none.
fn describe_builtin() -> String {
    match (builtin(), builtin_file()) {
        (Some(net), Some(file)) => {
            format!(
                "the n-tuple network built into this build, the default of every player that \
evaluates boards (give eval=heuristic, or any other, for the hand-made ones): {} tuples ({}), \
{} stage{}, {} games, {:.1} MB packed, fnv1a64:{:016x}",
                net.tuple_counts_text(),
                net.tuples_text(),
                net.stages().count(),
                if net.stages().count() == 1 { "" } else { "s" },
                net.games(),
                file.bytes as f64 / 1e6,
                file.checksum
            )
        }
        _ => "the built-in n-tuple network: this build has none (it embeds nets/default.np \
when the file is there), so the players' defaults are the hand-made evaluations"
            .to_owned(),
    }
}
