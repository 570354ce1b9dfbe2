//! A solved table, in memory or mapped from its file, and its answers for real boards.

use ai2048_engine::{Board, Dir};

#[cfg(not(target_arch = "wasm32"))]
use crate::file::{check_crc, header_len, read_finished_header, Encoding, Header, TableFileError};
use crate::layout::Layout;
use crate::pattern::Symmetry;
use crate::reach::StateMap;
use crate::solve::Rules;

/// Where a table's values live.
enum Values {
    /// Solved in this process.
    Owned(Vec<f32>),
    /// Mapped from a file: the whole file, header included, and where the values start.
    #[cfg(not(target_arch = "wasm32"))]
    Mapped(memmap2::Mmap, Encoding, usize),
    /// Some states only, by index: those a board reaches ([`crate::solve_from`]).
    Partial(StateMap),
}

/// A solved endgame table: every state's success probability.
///
/// A table answers for a real board when the board, seen through one of the eight
/// symmetries, has a tile in every fixed cell, at most the target in every moving
/// cell and less than the target in every target cell. The fixed tiles are walls in
/// the table's world: they never merge, and a move that slides one fails. On a board
/// whose fixed tiles are larger than every moving tile and no two of them alike side
/// by side, that is exactly the game.
///
/// ```
/// use ai2048_engine::{Board, Dir};
/// use ai2048_tables::{Layout, Table};
///
/// let layout = Layout::new("xxxx/xxxx/xxx./...t".parse()?, 16)?;
/// let table = Table::solve(layout);
/// let board: Board = "64 32 16 8/512 256 128 8/1024 2048 4096 0/0 0 4 4".parse()?;
/// let query = table.query(board).expect("the board matches the pattern");
/// let (_, p) = query.best().expect("a move stays in the table");
/// assert!(p > 0.0 && p <= 1.0, "{p}");
/// // Down would slide the fixed tiles of the last column: it leaves the table.
/// assert_eq!(query.value(Dir::Down), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Table {
    layout: Layout,
    values: Values,
}

/// A table's answer for one board: each move's success probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Query {
    /// The symmetry through which the board matched the table.
    pub symmetry: Symmetry,
    /// Each move's success probability, indexed by [`Dir`]: `None` for a move that is
    /// illegal or leaves the table (it slides a fixed tile, or merges two targets).
    pub moves: [Option<f64>; 4],
    /// Whether the board stands at the table's own stage through that symmetry, for a
    /// table with goals: the block's smallest tile beside a moving cell is the target,
    /// so that the goal met merges into the block (a table of a smaller target answers
    /// such a board too, its goal a step on the way). Always `false` for a table with
    /// target cells, whose chain rule ([`Table::chain_query`]) answers its own stage
    /// alone.
    pub own_stage: bool,
}

/// From this target on, an answer at its table's own stage ranks before the likelier
/// answers of tables of smaller targets ([`answer_rank`]): in the default set,
/// `block10-512` decides the last step before 32768 (whose 0.79 the tables to 256 and
/// 128 outbid at 0.99 and more, for steps on the way); at the stages below, where every
/// table's step is all but certain, the likeliest decides (docs/tables-measured.md,
/// "Which table answers").
pub const OWN_STAGE_FROM: u32 = 512;

/// The board's largest tile from which answers rank by [`OWN_STAGE_LATE`], not
/// [`OWN_STAGE_FROM`]: the first 16384, from which the block of five is rebuilt and the
/// last step to 32768 played.
pub const LATE_FROM: u32 = 16384;

/// From this target on, where the board holds [`LATE_FROM`], an answer at its table's
/// own stage ranks first: in the rebuild after the first 16384 the tables of 256 decide
/// their own stage too (32768 in 54.5% of 4000 games at depth 4 against 53.5%, and a
/// mean score 10,565 ± 4,104 higher over the 3000 of them played out;
/// docs/tables-measured.md, "The own stage from 256 where a 16384 stands: the default").
pub const OWN_STAGE_LATE: u32 = 256;

/// The tile from which an answer at its table's own stage ranks first on `board`, by
/// default ([`answer_rank`]'s `own_from`): [`OWN_STAGE_LATE`] where the board holds a
/// tile of at least [`LATE_FROM`], else [`OWN_STAGE_FROM`].
///
/// ```
/// use ai2048_tables::{own_stage_from_on, OWN_STAGE_FROM, OWN_STAGE_LATE};
/// let early = "8192 4096 2048 1024/512 256 0 0/0 0 0 0/0 0 0 2".parse()?;
/// let late = "16384 4096 2048 1024/512 256 0 0/0 0 0 0/0 0 0 2".parse()?;
/// assert_eq!(own_stage_from_on(early), OWN_STAGE_FROM);
/// assert_eq!(own_stage_from_on(late), OWN_STAGE_LATE);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[must_use]
pub fn own_stage_from_on(board: Board) -> u32 {
    if board.max_tile() >= LATE_FROM {
        OWN_STAGE_LATE
    } else {
        OWN_STAGE_FROM
    }
}

/// The key by which a player ranks the answers of several tables to one board, the
/// largest first: an answer at its table's own stage ([`Query::own_stage`]) whose
/// table's `target` is at least `own_from` before all others (there a table of a
/// smaller target answers only for a step on the way to its goal), then the likeliest.
///
/// ```
/// use ai2048_tables::answer_rank;
/// // The last step's 0.79 at its own stage outranks a step on the way at 0.99 ...
/// assert!(answer_rank(true, 512, 0.79, 512) > answer_rank(false, 256, 0.99, 512));
/// // ... but below 512, the likelier answer decides.
/// assert!(answer_rank(true, 256, 0.999, 512) < answer_rank(false, 128, 0.9999, 512));
/// ```
#[must_use]
pub fn answer_rank(own_stage: bool, target: u32, probability: f64, own_from: u32) -> (bool, f64) {
    (own_stage && target >= own_from, probability)
}

impl Query {
    /// The answer through `sym` whose image of the board has the move values `seen`
    /// (indexed by the image's directions).
    pub(crate) fn seen_through(sym: Symmetry, seen: [Option<f64>; 4], own_stage: bool) -> Query {
        let mut moves = [None; 4];
        for dir in Dir::ALL {
            moves[dir as usize] = seen[sym.dir(dir) as usize];
        }
        Query {
            symmetry: sym,
            moves,
            own_stage,
        }
    }

    /// The success probability of `dir`, `None` if it is illegal or leaves the table.
    #[must_use]
    pub fn value(&self, dir: Dir) -> Option<f64> {
        self.moves[dir as usize]
    }

    /// The best move and its success probability: the first of the best in the order
    /// up, down, left, right; `None` if no move stays in the table.
    #[must_use]
    pub fn best(&self) -> Option<(Dir, f64)> {
        Dir::ALL
            .into_iter()
            .filter_map(|d| self.value(d).map(|p| (d, p)))
            .fold(None, |best, (d, p)| match best {
                Some((_, q)) if q >= p => best,
                _ => Some((d, p)),
            })
    }
}

impl Table {
    /// Solves the table of `layout` in memory (for small tables and tests; a large one
    /// is built to a file by [`crate::build`]).
    #[must_use]
    pub fn solve(layout: Layout) -> Table {
        let values = crate::solve(&layout);
        Table {
            layout,
            values: Values::Owned(values),
        }
    }

    /// A table from values solved elsewhere, indexed as `layout` indexes its states.
    ///
    /// # Panics
    ///
    /// If there is not one value a state.
    #[must_use]
    pub fn from_values(layout: Layout, values: Vec<f32>) -> Table {
        assert_eq!(values.len() as u64, layout.len(), "one value a state");
        Table {
            layout,
            values: Values::Owned(values),
        }
    }

    /// Maps the finished table file at `path`, after checking its header, its length
    /// and its checksum. Every thread that holds the table shares the one mapping.
    ///
    /// # Errors
    ///
    /// A file that cannot be read, is not a table, is unfinished, truncated or damaged.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open(path: &std::path::Path) -> Result<Table, TableFileError> {
        let header = read_finished_header(path)?;
        let file = std::fs::File::open(path).map_err(|e| TableFileError::Io(path.to_owned(), e))?;
        let map = crate::map::map(&file).map_err(|e| TableFileError::Io(path.to_owned(), e))?;
        // The length may have changed between reading the header and mapping.
        if map.len() as u64 != header.file_len() {
            return Err(TableFileError::Invalid(
                path.to_owned(),
                "the file changed while it was opened".to_owned(),
            ));
        }
        let start = header_len(&header.layout);
        check_crc(path, &header, &map[start..])?;
        let Header {
            layout, encoding, ..
        } = header;
        Ok(Table {
            layout,
            values: Values::Mapped(map, encoding, start),
        })
    }

    /// A table of some states only, by index, whose every state's successors are
    /// among them: it answers only a board whose state it holds.
    pub(crate) fn partial(layout: Layout, values: StateMap) -> Table {
        Table {
            layout,
            values: Values::Partial(values),
        }
    }

    /// The table's layout: its pattern, target and states.
    #[must_use]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// How many states the table holds: all of its layout's, or for a table solved
    /// from a board ([`crate::solve_from`]) those the board reaches.
    #[must_use]
    pub fn states_held(&self) -> u64 {
        match &self.values {
            Values::Partial(m) => m.len() as u64,
            _ => self.layout.len(),
        }
    }

    /// Whether the table holds probabilities: all but a table of moves
    /// ([`Encoding::Moves`]), which holds each state's best move only.
    #[must_use]
    pub fn has_values(&self) -> bool {
        match &self.values {
            #[cfg(not(target_arch = "wasm32"))]
            Values::Mapped(_, encoding, _) => encoding.has_values(),
            _ => true,
        }
    }

    /// For a table of moves, the code of the best move of the state with index `i`
    /// (as [`Dir`] numbers them); `None` for a table of values.
    #[inline]
    #[cfg_attr(target_arch = "wasm32", allow(unused_variables))]
    fn stored_best(&self, i: u64) -> Option<u8> {
        match &self.values {
            #[cfg(not(target_arch = "wasm32"))]
            Values::Mapped(m, Encoding::Moves, start) => {
                Some(Encoding::best_at(&m[*start..], i as usize))
            }
            _ => None,
        }
    }

    /// The value of the state with index `i` (a table of values).
    #[inline]
    fn at(&self, i: u64) -> f64 {
        match &self.values {
            Values::Owned(v) => f64::from(v[i as usize]),
            #[cfg(not(target_arch = "wasm32"))]
            Values::Mapped(m, encoding, start) => {
                let at = start + encoding.width() * i as usize;
                f64::from(encoding.get(&m[at..]))
            }
            Values::Partial(m) => m.get(&i).map_or(0.0, |&v| f64::from(v)),
        }
    }

    /// Whether the table holds the state with index `i` (a whole table holds all).
    #[inline]
    fn holds(&self, i: u64) -> bool {
        match &self.values {
            Values::Partial(m) => m.contains_key(&i),
            _ => true,
        }
    }

    /// The state of `image` and its index, if the table holds it.
    #[inline]
    fn held(&self, image: &[u8; 16]) -> Option<(u64, u64)> {
        let state = self.layout.state_of(image)?;
        let index = self.layout.index(state);
        self.holds(index).then_some((state, index))
    }

    /// The success probability the table holds for `board` as it stands (its best
    /// move's), through the first symmetry that matches; `None` if none matches, or if
    /// the table holds no probabilities ([`Table::has_values`]).
    #[must_use]
    pub fn value(&self, board: Board) -> Option<f64> {
        if !self.has_values() {
            return None;
        }
        let exps = board.exponents();
        Symmetry::ALL.into_iter().find_map(|sym| {
            let (_, index) = self.held(&transform(&exps, sym))?;
            Some(self.at(index))
        })
    }

    /// Each move's success probability from `board`, through the symmetry under which
    /// the board's best move is best; `None` if the board matches the table under no
    /// symmetry.
    #[must_use]
    pub fn query(&self, board: Board) -> Option<Query> {
        best_of(self.queries(board, |_| true)).map(|(_, q)| q)
    }

    /// As [`Table::query`], but only through the symmetries under which the board's
    /// large tiles make a chain that the target joins: the fixed tiles, from the
    /// smallest up, all differ and each stands beside the next (a snake); the smallest
    /// is the target, beside a target cell, and every moving cell beside it is a target
    /// cell or a capped one. Then no tile merges into a fixed one before the
    /// target is made, so the table's world is the game's, and the target made merges
    /// into the chain.
    ///
    /// ```
    /// use ai2048_engine::Board;
    /// use ai2048_tables::{Layout, Table};
    ///
    /// let table = Table::solve(Layout::new("xxxx/xxxx/t.../....".parse()?, 16)?);
    /// // The snake ends with a 16 at the left of the second row, above the target cell.
    /// let chain: Board = "8192 4096 2048 1024/16 32 64 128/2 0 0 0/0 0 0 4".parse()?;
    /// assert!(table.chain_query(chain).is_some());
    /// // The same tiles with the 16 and the 32 swapped: the 16 is not above the target cell.
    /// let broken: Board = "8192 4096 2048 1024/32 16 64 128/2 0 0 0/0 0 0 4".parse()?;
    /// assert!(table.query(broken).is_some() && table.chain_query(broken).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn chain_query(&self, board: Board) -> Option<Query> {
        let layout = &self.layout;
        best_of(self.queries(board, move |image| layout.chains(image))).map(|(_, q)| q)
    }

    /// The answer a player trusts: [`Table::block_query`] for a table with goals,
    /// [`Table::chain_query`] for one without.
    #[must_use]
    pub fn play_query(&self, board: Board) -> Option<Query> {
        self.play_state(board).map(|(_, q)| q)
    }

    /// As [`Layout::plays`], through the symmetries whose state the table holds: `Some`
    /// exactly where [`Table::play_query`] answers, without valuing the moves (for a
    /// table solved from a board, [`crate::solve_from`], whether it holds this one).
    ///
    /// ```
    /// use ai2048_tables::{solve_from, Layout};
    ///
    /// let layout = Layout::new("xxx./xx1./1.../.... ..../..1./.11./....".parse()?, 8)?;
    /// let board = "4096 2048 1024 2/512 8 4 0/2 0 0 0/0 0 0 2".parse()?;
    /// let part = solve_from(&layout, board, u64::MAX)?.expect("the layout plays it");
    /// assert_eq!(part.plays(board), layout.plays(board));
    /// assert_eq!(part.plays(board).is_some(), part.play_query(board).is_some());
    /// // A board with fewer tiles than the first is not among the states it reaches.
    /// let earlier = "4096 2048 1024 0/512 8 4 0/2 0 0 0/0 0 0 2".parse()?;
    /// assert!(layout.plays(earlier).is_some() && part.plays(earlier).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn plays(&self, board: Board) -> Option<bool> {
        self.layout
            .plays_where(board, |image| self.held(image).is_some())
    }

    /// As [`Table::play_query`], with the index of the state the board is to the
    /// table through the answer's symmetry: the key under which a distilled table
    /// ([`crate::Distilled`]) keeps the answer.
    #[must_use]
    pub fn play_state(&self, board: Board) -> Option<(u64, Query)> {
        let layout = &self.layout;
        let answers = self.queries(board, move |image| layout.accepts(image));
        best_of(answers)
    }

    /// As [`Table::query`], but only through the symmetries under which the board's
    /// fixed tiles stand as a block that no moving tile can merge with before a goal is
    /// met: no two fixed tiles alike side by side, and every moving tile at most the
    /// smallest fixed tile beside a moving cell (or the target, if that is smaller)
    /// over its cell's cap; where a goal asks for the target itself (a `0`) in a cell
    /// beside the block, a fixed tile beside that cell is the target, so that the
    /// target made there merges into the block, and the fixed tiles are all unlike and
    /// at least the target, the chain it grows into (such a table answers its own stage
    /// alone, and never a block that still holds a tile to grow or merge); and the
    /// board does not meet a goal already (its merge is there to make). The rule for a
    /// table with goals, as [`Table::chain_query`] is for one with target cells.
    ///
    /// ```
    /// use ai2048_engine::Board;
    /// use ai2048_tables::{Layout, Table};
    ///
    /// let pattern = "xxx./xx1./1.../.... ..../..1./.11./....";
    /// let table = Table::solve(Layout::new(pattern.parse()?, 8)?);
    /// let block: Board = "4096 2048 1024 2/512 256 4 2/4 0 0 0/0 0 0 2".parse()?;
    /// assert!(table.block_query(block).is_some());
    /// // Its block's edge is a 256, not the target 8: the board stands at a later
    /// // stage than the table's own, whose goal is only a step on the way there.
    /// assert!(!table.block_query(block).unwrap().own_stage);
    /// // Two 256s side by side in the block could merge: no answer.
    /// let loose: Board = "4096 2048 1024 2/512 512 4 2/4 0 0 0/0 0 0 2".parse()?;
    /// assert!(table.query(loose).is_some() && table.block_query(loose).is_none());
    ///
    /// // The goal the target itself, an 8, beside the block's smallest tile: only
    /// // where that tile is an 8 does the 8 made there join the block, and where the
    /// // block's edge is that 8, the board stands at the table's own stage.
    /// let made = Table::solve(Layout::new("xxxx/xxx./xxx./.... ..../...0/..../....".parse()?, 8)?);
    /// let own: Board = "4096 2048 1024 512/256 128 8 0/64 32 16 0/0 2 0 2".parse()?;
    /// assert!(made.block_query(own).is_some_and(|q| q.own_stage));
    /// let below: Board = "4096 2048 1024 512/256 128 16 0/64 32 4 0/0 2 0 2".parse()?;
    /// assert!(made.query(below).is_some() && made.block_query(below).is_none());
    /// // Two 256s in the block, though not side by side: one must still merge.
    /// let twice: Board = "4096 2048 1024 512/256 128 8 0/64 32 256 0/0 2 0 2".parse()?;
    /// assert!(made.query(twice).is_some() && made.block_query(twice).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn block_query(&self, board: Board) -> Option<Query> {
        let layout = &self.layout;
        best_of(self.queries(board, move |image| layout.holds_block(image))).map(|(_, q)| q)
    }

    /// The success probability a search may take for `board` where its search ends:
    /// the largest of the values the table holds for the board through each symmetry
    /// under which a player trusts it ([`Table::play_query`]), one look each, and 1
    /// where the board's block meets a goal already (a table with goals). `None` if no
    /// symmetry qualifies, or if the table holds no probabilities ([`Table::has_values`]).
    ///
    /// The value is that of the board as it stands, to move: for a board just moved,
    /// before its tile spawns, it is what the table would say if no tile spawned.
    ///
    /// ```
    /// use ai2048_engine::Board;
    /// use ai2048_tables::{Layout, Table};
    ///
    /// let pattern = "xxx./xx1./1.../.... ..../..1./.11./....";
    /// let table = Table::solve(Layout::new(pattern.parse()?, 8)?);
    /// let block: Board = "4096 2048 1024 2/512 256 4 2/4 0 0 0/0 0 0 2".parse()?;
    /// let (_, best) = table.block_query(block).and_then(|q| q.best()).unwrap();
    /// assert!((table.leaf_value(block).unwrap() - best).abs() < 1e-6);
    /// // The goal met: a 4 in the block's next place, and two 4s below it.
    /// let met: Board = "4096 2048 1024 2/512 256 4 2/2 4 4 0/0 0 0 2".parse()?;
    /// assert_eq!(table.leaf_value(met), Some(1.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn leaf_value(&self, board: Board) -> Option<f64> {
        if !self.has_values() {
            return None;
        }
        let exps = board.exponents();
        let layout = &self.layout;
        let goals = layout.pattern().has_goals();
        Symmetry::ALL
            .into_iter()
            .filter_map(|sym| {
                let image = transform(&exps, sym);
                layout.state_of(&image)?;
                if !goals {
                    return layout
                        .chains(&image)
                        .then(|| self.held(&image).map(|(_, i)| self.at(i)))
                        .flatten();
                }
                if !layout.block_fits(&image) {
                    None
                } else if layout.meets_goal(&image) {
                    Some(1.0)
                } else {
                    self.held(&image).map(|(_, i)| self.at(i))
                }
            })
            .reduce(f64::max)
    }

    /// The answer through each symmetry under which `board` matches and its image (the
    /// exponents as the table sees them) passes `accept`.
    fn queries<'a>(
        &'a self,
        board: Board,
        accept: impl Fn(&[u8; 16]) -> bool + 'a,
    ) -> impl Iterator<Item = (u64, Query)> + 'a {
        let exps = board.exponents();
        Symmetry::ALL.into_iter().filter_map(move |sym| {
            let image = transform(&exps, sym);
            let (state, index) = self.held(&image)?;
            if !accept(&image) {
                return None;
            }
            let rules = Rules::new(&self.layout);
            let seen = match self.stored_best(index) {
                // A table of moves: its move 1, every other that stays in its world 0.
                Some(best) => {
                    let mut seen = rules.world.move_values(state, |_| 0.0);
                    if let Some(v) = &mut seen[usize::from(best)] {
                        *v = 1.0;
                    }
                    seen
                }
                None => rules.move_values(state, &|i: u64| self.at(i)),
            };
            let query = Query::seen_through(sym, seen, self.layout.at_own_stage(&image));
            Some((index, query))
        })
    }
}

/// The answer whose best move is best, the first of equals, with its state's index.
pub(crate) fn best_of(answers: impl Iterator<Item = (u64, Query)>) -> Option<(u64, Query)> {
    let mut best: Option<(f64, (u64, Query))> = None;
    for answer in answers {
        let top = answer.1.best().map_or(-1.0, |(_, p)| p);
        if best.as_ref().is_none_or(|(b, _)| top > *b) {
            best = Some((top, answer));
        }
    }
    best.map(|(_, a)| a)
}

/// The exponents of the board that `sym` makes of `exps`.
pub(crate) fn transform(exps: &[u8; 16], sym: Symmetry) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (i, &e) in exps.iter().enumerate() {
        out[sym.cell(i)] = e;
    }
    out
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("pattern", &self.layout.pattern().to_string())
            .field("target", &self.layout.target())
            .field("states", &self.layout.len())
            .field("held", &self.states_held())
            .finish()
    }
}
