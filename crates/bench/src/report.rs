//! The summary as plain text for a terminal: a block of figures, then the table of
//! tiles reached.

use core::fmt::Write;

use crate::{text_table, LastColumn, Summary, REACH_FROM};

/// The summary as aligned plain text: scores, moves, speed and timeouts, then one row
/// per tile with the games that reached it, their share and its 95% confidence
/// interval. Ends with a newline.
///
/// ```
/// use ai2048_bench::{format_summary, GameRecord, Summary};
/// let game = |score, max_tile| GameRecord { index: 0, seed: 0, score, max_tile, moves: 500,
///     seconds: 0.01, timed_out: false, max_ms_per_move: 0.1, nodes: 0,
///     table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0, board: None };
/// let summary = Summary::from_records(&[game(7000, 512), game(16000, 1024)]).expect("games");
/// let text = format_summary(&summary);
/// assert!(text.contains("median"));
/// assert!(text.contains("tile | reached |   share | 95% CI"));
/// assert!(text.contains("1024 |       1 |  50.00% |"));
/// ```
#[must_use]
pub fn format_summary(s: &Summary) -> String {
    let mut out = String::new();
    let timeouts = match s.timeouts {
        0 => "none".to_owned(),
        n => format!("{n} ({:.2}%)", percent(n as f64 / s.games as f64)),
    };
    let mut search = format!(
        "{} nodes/s per thread, {} nodes per move",
        si(s.nodes_per_sec),
        si(s.total_nodes as f64 / s.total_moves.max(1) as f64)
    );
    if s.mean_depth > 0.0 {
        search += &format!(", depth {:.2} mean", s.mean_depth);
    }
    let mut block = vec![
        ("games", s.games.to_string()),
        (
            "score",
            format!(
                "mean {:.1}, median {}, min {}, max {}",
                s.mean_score,
                trim_float(s.median_score),
                s.min_score,
                s.max_score
            ),
        ),
        ("largest tile", s.max_tile.to_string()),
        (
            "moves",
            format!(
                "mean {:.1} per game, {} in all",
                s.mean_moves, s.total_moves
            ),
        ),
        (
            "speed",
            format!(
                "{} moves/s per thread, {} per move mean, {} max",
                si(s.moves_per_sec),
                duration_ms(s.ms_per_move_mean),
                duration_ms(s.ms_per_move_max)
            ),
        ),
        ("search", search),
        ("timeouts", timeouts),
    ];
    if s.table_answers > 0 {
        let share = |n: u64| 100.0 * n as f64 / s.total_moves.max(1) as f64;
        block.push((
            "tables",
            format!(
                "matched {} moves ({:.2}%), played {} ({:.3}%) over the search or without one",
                s.table_answers,
                share(s.table_answers),
                s.table_moves,
                share(s.table_moves)
            ),
        ));
    }
    let key_width = block.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    for (key, value) in &block {
        let _ = writeln!(out, "{key:<key_width$}  {value}");
    }
    out.push('\n');
    if s.reach.is_empty() {
        let _ = writeln!(out, "no game reached {REACH_FROM}");
        return out;
    }
    let rows: Vec<Vec<String>> = s
        .reach
        .iter()
        .map(|r| {
            vec![
                r.tile.to_string(),
                r.games.to_string(),
                format!("{:.2}%", percent(r.share)),
                format!("{:.2}% - {:.2}%", percent(r.ci.0), percent(r.ci.1)),
            ]
        })
        .collect();
    out += &text_table(
        &["tile", "reached", "share", "95% CI"],
        &rows,
        LastColumn::Left,
    );
    out
}

/// A fraction as a percentage.
fn percent(fraction: f64) -> f64 {
    fraction * 100.0
}

/// A float without a useless `.0` (medians are whole or halves).
fn trim_float(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// A rate with an SI prefix: `950`, `12.3k`, `4.56M`.
fn si(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2}G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// A time given in milliseconds, in the unit that reads best.
fn duration_ms(ms: f64) -> String {
    if ms >= 1e3 {
        format!("{:.2} s", ms / 1e3)
    } else if ms >= 1.0 {
        format!("{ms:.2} ms")
    } else if ms >= 1e-3 {
        format!("{:.2} µs", ms * 1e3)
    } else {
        format!("{:.0} ns", ms * 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameRecord;

    fn game(score: u64, max_tile: u32) -> GameRecord {
        GameRecord::fixture(score, max_tile, 1000, 0.002, 0.0031)
    }

    #[test]
    fn table_is_aligned() {
        let mut games: Vec<_> = (0..97).map(|_| game(20_000, 2048)).collect();
        games.extend((0..3).map(|_| game(60_000, 16_384)));
        games[0].timed_out = true;
        let s = Summary::from_records(&games).expect("games");
        let text = format_summary(&s);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("games         100"), "{text}");
        assert!(text.contains("timeouts      1 (1.00%)"), "{text}");
        assert!(
            text.contains("2.00 µs per move mean, 3.10 µs max"),
            "{text}"
        );
        assert!(text.contains("500.0k moves/s per thread"), "{text}");
        assert!(!text.contains("depth"), "no searches counted: {text}");
        games[1].searches = 8;
        games[1].depth_sum = 37;
        let searched = format_summary(&Summary::from_records(&games).expect("games"));
        assert!(
            searched.contains("nodes per move, depth 4.62 mean"),
            "{searched}"
        );
        let table: Vec<&str> = lines
            .iter()
            .copied()
            .skip_while(|l| !l.contains("reached"))
            .collect();
        assert_eq!(table.len(), 2 + 6, "{text}"); // 512 to 16384
        let bars: Vec<Vec<usize>> = table
            .iter()
            .map(|l| l.match_indices(['|', '+']).map(|(i, _)| i).collect())
            .collect();
        assert!(bars.iter().all(|b| b == &bars[0] && b.len() == 3), "{text}");
        assert!(
            table[2].starts_with("  512 |     100 | 100.00% | "),
            "{text}"
        );
        assert!(
            table[7].starts_with("16384 |       3 |   3.00% | "),
            "{text}"
        );
    }

    #[test]
    fn no_reach_says_so() {
        let s = Summary::from_records(&[game(500, 64)]).expect("a game");
        let text = format_summary(&s);
        assert!(text.contains("no game reached 512"), "{text}");
        assert!(text.contains("timeouts      none"), "{text}");
        assert!(!text.contains("NaN"));
    }

    #[test]
    fn units() {
        assert_eq!(si(950.4), "950");
        assert_eq!(si(12_345.0), "12.3k");
        assert_eq!(si(4_560_000.0), "4.56M");
        assert_eq!(duration_ms(0.00008), "80 ns");
        assert_eq!(duration_ms(0.5), "500.00 µs");
        assert_eq!(duration_ms(12.0), "12.00 ms");
        assert_eq!(duration_ms(2500.0), "2.50 s");
        assert_eq!(trim_float(2.0), "2");
        assert_eq!(trim_float(2.5), "2.5");
    }
}
