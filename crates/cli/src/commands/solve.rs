//! `ai2048 tables solve`: a table's answers for boards, with no table built, from only
//! the states each board reaches.

use std::time::{Duration, Instant};

use ai2048_tables::{builtin, query_from_watched, Layout, ReachProgress, REACH_BYTES_PER_STATE};
use anyhow::{anyhow, bail, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::tables::{
    all_answered, bytes, custom_layout, read_boards, skip_unmatched, states_style, write_answer,
};
use crate::args::TablesSolveArgs;

/// Runs `ai2048 tables solve`.
///
/// # Errors
///
/// A bad name, pattern or board, a board that matches no symmetry of the table (the
/// others answered first where there are several), or one that reaches more than
/// `--max-states` states.
pub fn run(args: &TablesSolveArgs) -> Result<()> {
    let (layout, items): (Layout, &[String]) = if let Some(rows) = &args.pattern {
        if args.items.first().is_some_and(|n| builtin(n).is_ok()) {
            bail!("name a built-in table or give --pattern, not both");
        }
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
    let mut unanswered = 0;
    for (i, &(_, board)) in boards.iter().enumerate() {
        let start = Instant::now();
        let bar = progress(!args.quiet && !args.json);
        let watch = |p: ReachProgress| match p {
            ReachProgress::Reaching { states } => {
                bar.set_message(format!("reaching the board's states: {states}"));
            }
            ReachProgress::Solving { solved, states } => {
                if bar.length().is_none() {
                    bar.set_length(states);
                    bar.set_style(states_style());
                    bar.reset_eta();
                }
                bar.set_position(solved);
            }
        };
        let reached = pool.install(|| query_from_watched(&layout, board, args.max_states, watch));
        bar.finish_and_clear();
        let reached = reached.map_err(|e| anyhow!("{e} (--max-states)"))?;
        let Some(reached) = reached else {
            skip_unmatched(&mut out, &boards, i, &layout, args.json, &mut unanswered)?;
            continue;
        };
        write_answer(
            &mut out,
            i,
            board,
            &reached.query,
            args.json,
            Some(reached.states),
        )?;
        if !args.json && !args.quiet {
            eprintln!(
                "{} states reached and solved in {:.2} s (about {} at the peak)",
                reached.states,
                start.elapsed().as_secs_f64(),
                bytes(reached.states * REACH_BYTES_PER_STATE)
            );
        }
    }
    all_answered(unanswered, boards.len())
}

/// A spinner while the board's states are found (on standard error, where it is a
/// terminal), to become a bar with an ETA once they are solved.
fn progress(visible: bool) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} {spinner} {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
