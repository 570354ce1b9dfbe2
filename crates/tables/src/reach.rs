//! A table's answer for one board without the table: only the states that the board's
//! moves and spawns can reach, found layer by layer of the tiles' sum and solved back
//! down, as the whole table's build solves every state.
//!
//! A board halfway through a step reaches a small part of its table (a few million of
//! `block10-512`'s 610 million states), so its answer takes seconds and no file; a
//! board at the start of the last step reaches a quarter of the table.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use ai2048_engine::{Board, Dir};

use crate::layout::{units, Layout};
use crate::moves::{empty_marks, Outcome};
use crate::pattern::Symmetry;
use crate::solve::{par_flat_map, Rules};
use crate::table::{best_of, transform, Query, Table};

/// About how many bytes a solve from a board holds for each state it reaches, at its
/// peak: the state itself, and its value in the layers being solved.
pub const REACH_BYTES_PER_STATE: u64 = 10;

message_error!(
    /// A solve from a board ([`query_from`]) that would reach more states than allowed.
    ReachError
);

/// The answer of [`query_from`]: what the table would say, and what it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reached {
    /// The board's answer, as [`crate::Table::query`] gives it from the whole table.
    pub query: Query,
    /// How many states the board's moves and spawns reach (the board's own included).
    pub states: u64,
}

/// How far a solve from a board has got, as [`query_from_watched`] reports it once a
/// layer of the tiles' sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReachProgress {
    /// Finding the states the board reaches: this many so far.
    Reaching {
        /// The states found so far.
        states: u64,
    },
    /// Solving them back down: this many of all of them.
    Solving {
        /// The states solved so far.
        solved: u64,
        /// The states to solve in all.
        states: u64,
    },
}

/// A multiplicative hash of a state: its nibbles are already well spread, and the
/// maps here hold hundreds of millions of them.
#[derive(Default)]
pub(crate) struct StateHasher(u64);

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        let y = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = y ^ (y >> 29);
    }
}

/// The board as the table sees it through one symmetry.
struct Root {
    sym: Symmetry,
    /// The board's exponents through `sym`.
    image: [u8; 16],
    /// Its state in the table (nibbles, walls in the fixed cells).
    state: u64,
    /// Its layer above the lowest root's: the sum of its moving tiles, in units of 2.
    layer: u64,
}

/// States handed to a thread at a time.
const CHUNK: usize = 4096;

/// Chunks whose successors are found before they are merged into the layers above.
const BATCH: usize = 64;

type States = HashSet<u64, BuildHasherDefault<StateHasher>>;

/// States' values by their indices in the table.
pub(crate) type StateMap = HashMap<u64, f32, BuildHasherDefault<StateHasher>>;

/// Each move's success probability from `board` in the world of `layout`, as
/// [`crate::Table::query`] answers from the whole table (through the symmetry under
/// which the board's best move is best), found by solving only the states the board
/// reaches; `Ok(None)` if the board matches the table under no symmetry.
///
/// ```
/// use ai2048_engine::Board;
/// use ai2048_tables::{query_from, Layout, Table};
///
/// let layout = Layout::new("xxxx/xxxx/xx../..tt".parse()?, 32)?;
/// let board: Board = "4096 2048 1024 512/64 128 256 512/8192 16384 4 0/0 2 8 0".parse()?;
/// let reached = query_from(&layout, board, 1_000_000)?.expect("the board matches");
/// // The same answer as the whole table's, from a part of its states.
/// let table = Table::solve(layout.clone());
/// assert_eq!(table.query(board), Some(reached.query));
/// assert!(reached.states < layout.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// The board reaches more than `max_states` states (at about
/// [`REACH_BYTES_PER_STATE`] bytes each): the error says how far the count got.
pub fn query_from(
    layout: &Layout,
    board: Board,
    max_states: u64,
) -> Result<Option<Reached>, ReachError> {
    query_from_watched(layout, board, max_states, |_| {})
}

/// As [`query_from`], telling `watch` how far it has got once a layer (for a progress
/// bar: a solve from the start of a large table's step takes minutes).
///
/// ```
/// use ai2048_engine::Board;
/// use ai2048_tables::{query_from_watched, Layout, ReachProgress};
///
/// let layout = Layout::new("xxxx/xxxx/xx../..tt".parse()?, 32)?;
/// let board: Board = "4096 2048 1024 512/64 128 256 512/8192 16384 4 0/0 2 8 0".parse()?;
/// let mut last = None;
/// let reached = query_from_watched(&layout, board, 1_000_000, |p| last = Some(p))?;
/// let states = reached.expect("the board matches").states;
/// assert_eq!(last, Some(ReachProgress::Solving { solved: states, states }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`query_from`].
pub fn query_from_watched(
    layout: &Layout,
    board: Board,
    max_states: u64,
    mut watch: impl FnMut(ReachProgress),
) -> Result<Option<Reached>, ReachError> {
    let Some((roots, base)) = roots(layout, board) else {
        return Ok(None);
    };
    let rules = Rules::new(layout);
    let layers = reach(&rules, &roots, base, max_states, &mut watch)?;
    let states = layers.iter().map(|l| l.len() as u64).sum();
    let mut answers = Vec::new();
    let mut solved = 0;
    let visit = |layer: usize, size, value: &dyn Fn(u64) -> f64| {
        watch(ReachProgress::Solving { solved, states });
        solved += size;
        for root in roots.iter().filter(|r| r.layer == layer as u64) {
            let seen = rules.move_values(root.state, &value);
            let own_stage = layout.at_own_stage(&root.image);
            let query = Query::seen_through(root.sym, seen, own_stage);
            answers.push((layout.index(root.state), query));
        }
    };
    solve_back(&rules, layers, false, visit);
    watch(ReachProgress::Solving { solved, states });
    // The answers in the order of the symmetries, as the whole table's query sees them.
    answers.sort_by_key(|(_, q)| Symmetry::ALL.iter().position(|&s| s == q.symmetry));
    Ok(best_of(answers.into_iter()).map(|(_, query)| Reached { query, states }))
}

/// The board as the table sees it through each symmetry under which it matches, each
/// with its layer above the lowest one's, and that lowest layer; `None` if the board
/// matches under no symmetry.
fn roots(layout: &Layout, board: Board) -> Option<(Vec<Root>, u64)> {
    let exps = board.exponents();
    let mut roots: Vec<Root> = Symmetry::ALL
        .into_iter()
        .filter_map(|sym| {
            let image = transform(&exps, sym);
            let state = layout.state_of(&image)?;
            // The sum of the moving cells' tiles, in units of 2.
            let layer = layout
                .moving()
                .0
                .iter()
                .map(|&c| units(image[usize::from(c)]))
                .sum();
            Some(Root {
                sym,
                image,
                state,
                layer,
            })
        })
        .collect();
    let base = roots.iter().map(|r| r.layer).min()?;
    for root in &mut roots {
        root.layer -= base;
    }
    Some((roots, base))
}

/// The states the roots reach, by layer from the lowest root's (`base`) up: each layer
/// complete once the two below it are expanded, as a spawn adds 2 or 4 to the sum.
fn reach(
    rules: &Rules<'_>,
    roots: &[Root],
    base: u64,
    max_states: u64,
    watch: &mut impl FnMut(ReachProgress),
) -> Result<Vec<Vec<u64>>, ReachError> {
    let mut layers: Vec<Vec<u64>> = Vec::new();
    let mut pending: Vec<States> = Vec::new();
    for root in roots {
        let at = root.layer as usize;
        if pending.len() <= at {
            pending.resize_with(at + 1, States::default);
        }
        pending[at].insert(root.state);
    }
    let mut total = 0u64;
    let mut k = 0;
    while k < pending.len() {
        let layer: Vec<u64> = std::mem::take(&mut pending[k]).into_iter().collect();
        total += layer.len() as u64;
        if total > max_states {
            return Err(ReachError(format!(
                "the board reaches more than {max_states} states of the table (about {} MiB \
                 to solve them; {total} found by a tile sum of {}): allow more, or build \
                 the table and query it",
                max_states.saturating_mul(REACH_BYTES_PER_STATE) >> 20,
                2 * (base + k as u64)
            )));
        }
        watch(ReachProgress::Reaching { states: total });
        let chunks: Vec<&[u64]> = layer.chunks(CHUNK).collect();
        // A batch of chunks at a time, so that the successors found and not yet merged
        // (tens for each state) stay a few hundred megabytes however large the layer.
        for batch in chunks.chunks(BATCH) {
            let next: Vec<(usize, u64)> = par_flat_map(batch, |chunk| {
                let mut out = Vec::new();
                for &b in *chunk {
                    successors(rules, b, &mut out);
                }
                out
            });
            for (step, s) in next {
                if pending.len() <= k + step {
                    pending.resize_with(k + step + 1, States::default);
                }
                pending[k + step].insert(s);
            }
        }
        layers.push(layer);
        k += 1;
    }
    Ok(layers)
}

/// Pushes the states a move and a spawn lead to from `b`, each with how many units of
/// 2 the spawn added (1 for a 2, 2 for a 4).
fn successors(rules: &Rules<'_>, b: u64, out: &mut Vec<(usize, u64)>) {
    for dir in Dir::ALL {
        if let Outcome::Moved(after) = rules.world.play(b, dir) {
            let mut m = empty_marks(after);
            while m != 0 {
                let cell = 15 - (m.trailing_zeros() / 4) as usize;
                for exp in [1u8, 2] {
                    if rules.layout.offset(cell, exp).is_some() {
                        out.push((usize::from(exp), after | u64::from(exp) << (60 - 4 * cell)));
                    }
                }
                m &= m - 1;
            }
        }
    }
}

/// Solves the layers from the top down, each from the two above it (by the states'
/// indices in the table), calling `visit` before each with the layer, its size and the
/// values of the two layers above it, which a root of that layer's moves lead to. With
/// `keep`, every layer is solved and every value kept, in the map returned; without,
/// only the two layers above the one being solved are held, and the lowest layer, which
/// holds only roots, is not solved: an answer needs only the values above it.
fn solve_back(
    rules: &Rules<'_>,
    mut layers: Vec<Vec<u64>>,
    keep: bool,
    mut visit: impl FnMut(usize, u64, &dyn Fn(u64) -> f64),
) -> StateMap {
    let mut all = StateMap::default();
    if keep {
        all.reserve(layers.iter().map(Vec::len).sum());
    }
    let mut above: [StateMap; 2] = [StateMap::default(), StateMap::default()];
    while let Some(layer) = layers.pop() {
        let k = layers.len();
        let values: Vec<f32> = {
            let value = |i: u64| -> f64 {
                let v = if keep {
                    all.get(&i)
                } else {
                    above[0].get(&i).or_else(|| above[1].get(&i))
                };
                debug_assert!(v.is_some(), "a reached state's successor was not reached");
                v.map_or(0.0, |&v| f64::from(v))
            };
            visit(k, layer.len() as u64, &value);
            if k == 0 && !keep {
                return all;
            }
            let chunks: Vec<&[u64]> = layer.chunks(CHUNK).collect();
            par_flat_map(&chunks, |chunk| {
                chunk
                    .iter()
                    .map(|&b| rules.value(b, &value) as f32)
                    .collect()
            })
        };
        let map = if keep {
            &mut all
        } else {
            above[1] = std::mem::take(&mut above[0]);
            above[0].reserve(layer.len());
            &mut above[0]
        };
        for (&b, v) in layer.iter().zip(values) {
            map.insert(rules.layout.index(b), v);
        }
    }
    all
}

/// A table of only the states `board` reaches in the world of `layout`, through every
/// symmetry under which it matches: it answers `board`, and every board its moves and
/// spawns lead to that stays in the world, as the whole table does (the same values,
/// solved the same way), and no other ([`Table::states_held`]). `Ok(None)` if the board
/// matches the table under no symmetry.
///
/// What a player without the table solves where it needs it: once a step is under way,
/// what is left of it is a small part of the table ([`query_from`] answers one board in
/// less memory, keeping two layers at a time).
///
/// ```
/// use ai2048_engine::Board;
/// use ai2048_tables::{solve_from, Layout, Table};
///
/// let layout = Layout::new("xxxx/xxxx/xx../..tt".parse()?, 32)?;
/// let board: Board = "4096 2048 1024 512/64 128 256 512/8192 16384 4 0/0 2 8 0".parse()?;
/// let part = solve_from(&layout, board, 1_000_000)?.expect("the board matches");
/// let whole = Table::solve(layout);
/// assert_eq!(part.query(board), whole.query(board));
/// assert!(part.states_held() < whole.states_held());
/// // A board the first one does not lead to (its 4 is gone): not held.
/// let other: Board = "4096 2048 1024 512/64 128 256 512/8192 16384 0 0/0 2 8 0".parse()?;
/// assert_eq!(part.query(other), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`query_from`]. A solve takes about 32 bytes a state at its peak, three times
/// what [`query_from`] takes ([`REACH_BYTES_PER_STATE`]), for it keeps every value.
pub fn solve_from(
    layout: &Layout,
    board: Board,
    max_states: u64,
) -> Result<Option<Table>, ReachError> {
    let Some((roots, base)) = roots(layout, board) else {
        return Ok(None);
    };
    let rules = Rules::new(layout);
    let layers = reach(&rules, &roots, base, max_states, &mut |_| {})?;
    let values = solve_back(&rules, layers, true, |_, _, _| {});
    Ok(Some(Table::partial(layout.clone(), values)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Table;

    fn corner() -> Layout {
        Layout::new("xxxx/xxxx/xx../..tt".parse().unwrap(), 32).unwrap()
    }

    #[test]
    fn a_board_that_matches_no_symmetry_has_no_answer() {
        let board: Board = "2 2 2 2/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(query_from(&corner(), board, 1000), Ok(None));
    }

    #[test]
    fn a_solve_past_its_limit_stops_and_says_how_far_it_got() {
        let board: Board = "4096 2048 1024 512/64 128 256 512/8192 16384 4 0/0 2 8 0"
            .parse()
            .unwrap();
        let all = query_from(&corner(), board, u64::MAX).unwrap().unwrap();
        assert!(all.states > 100, "{}", all.states);
        let err = query_from(&corner(), board, all.states - 1).unwrap_err();
        assert!(err.to_string().contains("more than"), "{err}");
        assert_eq!(query_from(&corner(), board, all.states), Ok(Some(all)));
    }

    #[test]
    fn a_board_turned_over_is_answered_through_its_symmetry() {
        let table = Table::solve(corner());
        // The corner table's fixed rows at the bottom: the board upside down.
        let board: Board = "0 2 8 0/8192 16384 4 0/64 128 256 512/4096 2048 1024 512"
            .parse()
            .unwrap();
        let reached = query_from(&corner(), board, u64::MAX).unwrap().unwrap();
        assert_ne!(reached.query.symmetry, Symmetry::IDENTITY);
        assert_eq!(table.query(board), Some(reached.query));
    }
}
