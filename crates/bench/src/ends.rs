//! [`Ends`]: where a run's games ended, read from the final boards their records keep.
//!
//! A game's largest tile says how far it went; its final board says what it was doing
//! when it ended. The largest tile below its largest that is not on the board is the
//! one it was making: a game that ended with a 16384 and no 8192 was lost building the
//! 8192 again after the merge that made the 16384; one with every tile from 8192 down
//! to 512 on the board was lost making the pieces of the next 512. So a run's games
//! short of a goal split by stage without playing them again.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::table::{text_table, LastColumn};
use crate::GameRecord;

/// The games that ended with one largest tile and one missing tile below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndRow {
    /// The largest tile on the final board.
    pub largest: u32,
    /// The largest tile below `largest` that is not on the final board: the tile the
    /// game was making. `None` where every tile from 2 up to half of `largest` is there.
    pub missing: Option<u32>,
    /// The games' indices in the run, in order.
    pub games: Vec<u64>,
}

/// A run's games grouped by how they ended ([`EndRow`]), the largest tile first and,
/// under it, the largest missing tile first.
///
/// ```
/// use ai2048_bench::{Ends, GameRecord};
///
/// let record = |index, board: &str| GameRecord {
///     index,
///     seed: index,
///     score: 0,
///     max_tile: 16384,
///     moves: 0,
///     seconds: 0.0,
///     timed_out: false,
///     max_ms_per_move: 0.0,
///     nodes: 0,
///     table_answers: 0,
///     table_moves: 0,
///     searches: 0,
///     depth_sum: 0,
///     board: Some(board.parse().unwrap()),
/// };
/// // Lost rebuilding the 8192, and lost with 8192 to 512 on the board (256 missing).
/// let rebuild = record(0, "16384 4096 512 2/2048 1024 256 4/32 4 8 16/8 2 4 2");
/// let last = record(1, "16384 8192 1024 2/4096 2048 512 4/128 64 32 8/2 4 16 2");
/// let ends = Ends::of(&[rebuild, last]);
/// assert_eq!(ends.rows.len(), 2);
/// assert_eq!((ends.rows[0].missing, &ends.rows[0].games[..]), (Some(8192), &[0][..]));
/// assert_eq!((ends.rows[1].missing, &ends.rows[1].games[..]), (Some(256), &[1][..]));
/// fn row(line: &str) -> Vec<&str> {
///     line.split(" | ").map(str::trim).collect()
/// }
/// assert!(ends.format().lines().any(|l| row(l) == ["16384", "8192", "1", "0"]));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ends {
    /// The groups.
    pub rows: Vec<EndRow>,
    /// The games whose records keep no final board (written by a `bench` from before
    /// the records kept one).
    pub without_board: Vec<u64>,
}

/// How many games of a row [`Ends::format`] names before it says how many more.
const NAMED: usize = 12;

impl Ends {
    /// Groups `records` by their final boards' largest and missing tiles.
    #[must_use]
    pub fn of(records: &[GameRecord]) -> Ends {
        let mut groups: BTreeMap<(u32, Option<u32>), Vec<u64>> = BTreeMap::new();
        let mut without_board = Vec::new();
        for record in records {
            let Some(board) = record.board else {
                without_board.push(record.index);
                continue;
            };
            let exps = board.exponents();
            let largest = board.max_exponent();
            let missing = (1..largest).rev().find(|e| !exps.contains(e));
            groups
                .entry((1 << largest, missing.map(|e| 1 << e)))
                .or_default()
                .push(record.index);
        }
        let rows = groups
            .into_iter()
            .rev()
            .map(|((largest, missing), mut games)| {
                games.sort_unstable();
                EndRow {
                    largest,
                    missing,
                    games,
                }
            })
            .collect();
        without_board.sort_unstable();
        Ends {
            rows,
            without_board,
        }
    }

    /// The groups as a text table (largest tile, the largest tile missing below it,
    /// games, which games), and a line for the games without a final board.
    #[must_use]
    pub fn format(&self) -> String {
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|row| {
                vec![
                    row.largest.to_string(),
                    row.missing
                        .map_or_else(|| "none, all there".to_owned(), |t| t.to_string()),
                    row.games.len().to_string(),
                    name_games(&row.games),
                ]
            })
            .collect();
        let mut out = text_table(
            &[
                "largest tile",
                "largest tile missing below it",
                "games",
                "which",
            ],
            &rows,
            LastColumn::Left,
        );
        if !self.without_board.is_empty() {
            let n = self.without_board.len();
            let (games, keep) = if n == 1 {
                ("game", "keeps")
            } else {
                ("games", "keep")
            };
            let _ = writeln!(
                out,
                "{n} {games} {keep} no final board (records written before they kept one): {}",
                name_games(&self.without_board)
            );
        }
        out
    }
}

/// The first [`NAMED`] of `games`, and how many more.
fn name_games(games: &[u64]) -> String {
    let named: Vec<String> = games.iter().take(NAMED).map(u64::to_string).collect();
    let mut text = named.join(" ");
    if games.len() > NAMED {
        let _ = write!(text, " and {} more", games.len() - NAMED);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of a text table, cell by cell.
    fn row(line: &str) -> Vec<&str> {
        line.split(" | ").map(str::trim).collect()
    }

    fn record(index: u64, board: Option<&str>) -> GameRecord {
        GameRecord {
            index,
            seed: index,
            board: board.map(|b| b.parse().expect("a board")),
            ..GameRecord::fixture(0, 0, 0, 0.0, 0.0)
        }
    }

    #[test]
    fn games_group_by_largest_then_missing_tile_and_name_their_indices_in_order() {
        let records = [
            record(
                5,
                Some("16384 8192 1024 2/4096 2048 512 4/128 64 32 8/2 4 16 2"),
            ),
            record(
                2,
                Some("16384 4096 512 2/2048 1024 256 4/32 4 8 16/8 2 4 2"),
            ),
            record(9, Some("32768 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0")),
            record(
                1,
                Some("16384 8192 1024 4/4096 2048 512 2/128 64 32 8/2 4 16 2"),
            ),
            record(3, None),
        ];
        let ends = Ends::of(&records);
        let got: Vec<(u32, Option<u32>, Vec<u64>)> = ends
            .rows
            .iter()
            .map(|r| (r.largest, r.missing, r.games.clone()))
            .collect();
        assert_eq!(
            got,
            [
                (32768, Some(16384), vec![9]),
                (16384, Some(8192), vec![2]),
                (16384, Some(256), vec![1, 5]),
            ]
        );
        assert_eq!(ends.without_board, [3]);
        let text = ends.format();
        assert!(
            text.lines().any(|l| row(l) == ["16384", "256", "2", "1 5"]),
            "{text}"
        );
        assert!(text.contains("\n1 game keeps no final board"), "{text}");
    }

    #[test]
    fn a_board_with_every_tile_below_its_largest_misses_none() {
        let full = "2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 32768 65536";
        let ends = Ends::of(&[record(0, Some(full))]);
        assert_eq!(ends.rows[0].largest, 65536);
        assert_eq!(ends.rows[0].missing, None);
        assert!(ends.format().contains("none, all there"));
    }

    #[test]
    fn a_long_row_names_its_first_games_and_counts_the_rest() {
        let records: Vec<GameRecord> = (0..15)
            .map(|i| record(i, Some("2048 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2")))
            .collect();
        let text = Ends::of(&records).format();
        assert!(
            text.contains("0 1 2 3 4 5 6 7 8 9 10 11 and 3 more"),
            "{text}"
        );
        assert!(Ends::of(&[]).rows.is_empty());
    }
}
