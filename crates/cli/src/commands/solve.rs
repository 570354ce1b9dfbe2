//! `ai2048 tables solve`: a table's answers for boards, with no table built, from only
//! the states each board reaches.

use std::time::Instant;

use ai2048_tables::{builtin, query_from, Layout, REACH_BYTES_PER_STATE};
use anyhow::{anyhow, bail, Result};

use super::tables::{bytes, custom_layout, read_boards, unmatched, write_answer};
use crate::args::TablesSolveArgs;

/// Runs `ai2048 tables solve`.
///
/// # Errors
///
/// A bad name, pattern or board, a board that matches no symmetry of the table, or one
/// that reaches more than `--max-states` states.
pub fn run(args: &TablesSolveArgs) -> Result<()> {
    let (layout, items): (Layout, &[String]) = if let Some(rows) = &args.pattern {
        (custom_layout(rows, &args.goal, args.target)?, &args.items)
    } else {
        let Some((name, boards)) = args.items.split_first() else {
            bail!("name a built-in table (as block10-512) or give --pattern and --target");
        };
        let table = builtin(name).map_err(|e| anyhow!("{e}"))?;
        (table.layout, boards)
    };
    let boards = read_boards(items)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let mut out = std::io::stdout().lock();
    for (i, &board) in boards.iter().enumerate() {
        let start = Instant::now();
        let reached = pool
            .install(|| query_from(&layout, board, args.max_states))
            .map_err(|e| anyhow!("{e} (--max-states)"))?;
        let Some(reached) = reached else {
            bail!(unmatched(&boards, items, i, &layout));
        };
        write_answer(
            &mut out,
            i,
            board,
            &reached.query,
            args.json,
            Some(reached.states),
        )?;
        if !args.json {
            eprintln!(
                "{} states reached and solved in {:.2} s (about {} at the peak)",
                reached.states,
                start.elapsed().as_secs_f64(),
                bytes(reached.states * REACH_BYTES_PER_STATE)
            );
        }
    }
    Ok(())
}
