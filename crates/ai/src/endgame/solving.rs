//! Tables solved in play: where a player has not built a table, it solves the part of
//! the table's world that the board in front of it reaches, once the step is far
//! enough along that the part is small ([`ai2048_tables::solve_from`]), and keeps it for
//! the rest of the step.
//!
//! A table's value for a state depends only on the tiles in its moving cells, not on
//! the block's, so what is solved in one step answers the same arrangements in any
//! other; it is kept until the next solve of the same table replaces it, or a new game
//! starts.

use ai2048_engine::Board;
use ai2048_tables::{solve_from, Layout, Table};
use web_time::Instant;

/// What the tables solved in play have cost so far (see [`OnTheFly::stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Solves that finished.
    pub solved: u64,
    /// The states they held, summed.
    pub states: u64,
    /// Solves given up because the board reached more states than allowed.
    pub refused: u64,
    /// The time spent solving, both kinds, in microseconds.
    pub micros: u64,
}

/// One table a player solves where it needs it.
#[derive(Debug)]
struct Solving {
    name: String,
    layout: Layout,
    /// The states the last solve reached, if one finished.
    table: Option<Table>,
    /// After a solve past the limit, the tiles' sum a board must reach before the next
    /// try: the part left of a step shrinks as the step goes on.
    retry_from: u64,
}

/// Tables a player solves in play, each from the first board that needs it and reaches
/// at most `max_states` of its states, instead of reading them from files.
///
/// ```
/// use ai2048_ai::endgame::OnTheFly;
/// use ai2048_engine::Dir;
/// use ai2048_tables::Layout;
///
/// let layout = Layout::new("xxx./xx1./1.../.... ..../..1./.11./....".parse()?, 8)?;
/// let mut tables = OnTheFly::new(vec![("block-8".to_owned(), layout)], 1_000_000);
/// let board: ai2048_engine::Board = "4096 2048 1024 2/512 8 4 0/2 0 0 0/0 0 0 2".parse()?;
/// tables.prepare(board);
/// let (name, table) = tables.tables().next().expect("solved from the board");
/// assert_eq!(name, "block-8");
/// assert!(table.play_query(board).is_some());
/// assert_eq!(tables.stats().solved, 1);
/// // A board that the first one leads to is held already: nothing more to solve.
/// let next = board.shift(Dir::Left).with_exponent(15, 1);
/// tables.prepare(next);
/// assert!(tables.tables().next().unwrap().1.play_query(next).is_some());
/// assert_eq!(tables.stats().solved, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct OnTheFly {
    max_states: u64,
    tables: Vec<Solving>,
    stats: SolveStats,
}

impl OnTheFly {
    /// Solves the tables of `layouts`, each named, from boards that reach at most
    /// `max_states` of their states (about 32 bytes each at a solve's peak, less kept).
    #[must_use]
    pub fn new(layouts: Vec<(String, Layout)>, max_states: u64) -> OnTheFly {
        let tables = layouts
            .into_iter()
            .map(|(name, layout)| Solving {
                name,
                layout,
                table: None,
                retry_from: 0,
            })
            .collect();
        OnTheFly {
            max_states,
            tables,
            stats: SolveStats::default(),
        }
    }

    /// For each table that a player would consult on `board` at the table's own stage
    /// ([`Layout::plays`]: where it decides, the tables of smaller targets answering
    /// the stages below and above for steps on the way), once the step's first half is
    /// made (a tile of half the target stands: from the start of the last step before
    /// 32768, `block10-512`'s world holds 141 million states, from a 256 made a tenth
    /// of that), and whose last solve does not hold the board, solves the states the
    /// board reaches, unless they are more than allowed: then it tries again once the
    /// board's tiles sum a quarter of the table's target more.
    pub fn prepare(&mut self, board: Board) {
        for solving in &mut self.tables {
            let target = solving.layout.target();
            if board.tile_sum() < solving.retry_from
                || !half_made(board, target)
                || solving.layout.plays(board) != Some(true)
            {
                continue;
            }
            if solving
                .table
                .as_ref()
                .is_some_and(|t| t.plays(board).is_some())
            {
                continue;
            }
            let start = Instant::now();
            match solve_from(&solving.layout, board, self.max_states) {
                Ok(Some(table)) => {
                    self.stats.solved += 1;
                    self.stats.states += table.states_held();
                    solving.table = Some(table);
                }
                Ok(None) => {}
                Err(_) => {
                    self.stats.refused += 1;
                    solving.retry_from = board.tile_sum() + u64::from(target / 4);
                }
            }
            self.stats.micros += start.elapsed().as_micros() as u64;
        }
    }

    /// The tables solved so far, each with its name: each holds the states its last
    /// solve reached.
    pub fn tables(&self) -> impl Iterator<Item = (&str, &Table)> {
        self.tables
            .iter()
            .filter_map(|s| s.table.as_ref().map(|t| (s.name.as_str(), t)))
    }

    /// Forgets what was solved, for a new game: a game's moves then depend on its own
    /// boards alone, whatever games the player played before (the tables' values are
    /// the same, but which boards they answer would not be). The costs so far stay.
    pub fn new_game(&mut self) {
        for solving in &mut self.tables {
            solving.table = None;
            solving.retry_from = 0;
        }
    }

    /// What the solves have cost so far.
    #[must_use]
    pub fn stats(&self) -> SolveStats {
        self.stats
    }
}

/// Whether `board` holds a tile of at least half of `target` and below it: a step to
/// `target` has made its first half.
fn half_made(board: Board, target: u32) -> bool {
    (0..16).any(|i| {
        let tile = board.tile(i);
        tile >= target / 2 && tile < target
    })
}
