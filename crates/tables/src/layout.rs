//! Where each arrangement of a table's moving tiles sits in its array of values.

use crate::goal::Goal;
use crate::moves::WALL;
use crate::pattern::Pattern;

/// The smallest target: 8 (a spawned 4 must not succeed by itself).
pub const MIN_TARGET_EXPONENT: u8 = 3;
/// The largest target: 8192 (two targets merged must fit below the walls' nibble).
pub const MAX_TARGET_EXPONENT: u8 = 13;

/// A table's pattern and target, and the dense index of its states.
///
/// A state is an arrangement of tiles in the moving cells: at most the target in a
/// moving cell, and less than the target in a target cell. Its index is a number in
/// mixed radix, one digit a moving cell in reading order (the first the most
/// significant), the digit the tile's exponent (0 for an empty cell).
///
/// ```
/// use ai2048_tables::{Layout, Pattern};
///
/// let layout = Layout::new("xxxx/xxxx/xx../..tt".parse()?, 64)?;
/// // Four moving cells hold 0..=6 (empty up to 64), the two target cells 0..=5.
/// assert_eq!(layout.len(), 7u64.pow(4) * 6 * 6);
/// assert_eq!(layout.target(), 64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pattern: Pattern,
    target: u8,
    cells: Vec<u8>,
    radix: Vec<u8>,
    strides: [u64; 16],
    /// Each cell's radix (0 for a fixed cell): a tile of exponent `e` fits a moving
    /// cell if `e < radix`.
    radix_at: [u8; 16],
    len: u64,
    walls: u64,
    /// The cells where a goal asks for the target itself (a `0`), bit `i` for cell `i`.
    made_at: u16,
}

message_error!(
    /// Why a pattern and target make no table.
    LayoutError
);

/// A tile's share of the sum of tiles, in units of 2: 0 for an empty cell.
#[inline]
pub(crate) const fn units(exp: u8) -> u64 {
    if exp == 0 {
        0
    } else {
        1 << (exp - 1)
    }
}

impl Layout {
    /// The layout of `pattern` with target tile `target` (a power of two from 8 to
    /// 8192).
    ///
    /// # Errors
    ///
    /// A target that is not such a power of two.
    pub fn new(pattern: Pattern, target: u32) -> Result<Layout, LayoutError> {
        let exp = target.trailing_zeros();
        if !target.is_power_of_two()
            || !(u32::from(MIN_TARGET_EXPONENT)..=u32::from(MAX_TARGET_EXPONENT)).contains(&exp)
        {
            return Err(LayoutError(format!(
                "target {target} is not a power of two from {} to {}",
                1u32 << MIN_TARGET_EXPONENT,
                1u32 << MAX_TARGET_EXPONENT
            )));
        }
        if let Some(i) = (0..16).find(|&i| u32::from(pattern.cap(i)) >= exp) {
            return Err(LayoutError(format!(
                "the cap {} in row {}, column {} leaves no tile for that cell under target \
                 {target} (at most the target over 2^cap, which must be 2 or more)",
                pattern.cap(i),
                i / 4 + 1,
                i % 4 + 1
            )));
        }
        for goal in pattern.goals() {
            for (i, k) in goal.cells() {
                let (r, c) = (i / 4 + 1, i % 4 + 1);
                let fits = if pattern.is_target(i) {
                    k >= 1
                } else {
                    k >= pattern.cap(i)
                };
                if u32::from(k) >= exp || !fits {
                    return Err(LayoutError(format!(
                        "goal {goal}: row {r}, column {c} asks for a {} that the cell cannot                          hold under target {target}",
                        if u32::from(k) >= exp {
                            "tile below 2".to_owned()
                        } else {
                            (target >> k).to_string()
                        }
                    )));
                }
            }
        }
        Ok(Layout::with_exponent(pattern, exp as u8))
    }

    /// How many values cell `c` (a moving cell) may hold: empty, then up to the target
    /// (a moving cell), less than it (a target cell), or the target over 2^cap.
    fn cell_radix(pattern: Pattern, target: u8, c: usize) -> u8 {
        if pattern.is_target(c) {
            target
        } else {
            (target + 1).saturating_sub(pattern.cap(c)).max(1)
        }
    }

    /// The layout for a target of exponent `target`, already checked.
    pub(crate) fn with_exponent(pattern: Pattern, target: u8) -> Layout {
        let cells: Vec<u8> = pattern.moving_cells().map(|c| c as u8).collect();
        let radix: Vec<u8> = cells
            .iter()
            .map(|&c| Layout::cell_radix(pattern, target, c.into()))
            .collect();
        let mut strides = [0u64; 16];
        let mut radix_at = [0u8; 16];
        let mut len = 1u64;
        for (&c, &r) in cells.iter().zip(&radix).rev() {
            strides[c as usize] = len;
            radix_at[c as usize] = r;
            len = len.saturating_mul(r.into());
        }
        let walls = pattern
            .fixed_cells()
            .fold(0u64, |w, i| w | WALL << (60 - 4 * i));
        let made_at = pattern
            .goals()
            .flat_map(Goal::cells)
            .filter(|&(_, k)| k == 0)
            .fold(0u16, |m, (i, _)| m | 1 << i);
        Layout {
            pattern,
            target,
            cells,
            radix,
            strides,
            radix_at,
            len,
            walls,
            made_at,
        }
    }

    /// The pattern.
    #[must_use]
    pub fn pattern(&self) -> Pattern {
        self.pattern
    }

    /// The target tile.
    #[must_use]
    pub fn target(&self) -> u32 {
        1 << self.target
    }

    /// The target's exponent.
    #[must_use]
    pub fn target_exponent(&self) -> u8 {
        self.target
    }

    /// How many states the table holds: one value each.
    #[must_use]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The index of state `b` (nibbles, walls in the fixed cells).
    #[inline]
    pub(crate) fn index(&self, b: u64) -> u64 {
        self.cells
            .iter()
            .map(|&c| (b >> (60 - 4 * c) & 0xF) * self.strides[c as usize])
            .sum()
    }

    /// What a tile of exponent `exp` in empty cell `cell` adds to a state's index, or
    /// `None` if the cell's cap holds no such tile (a 4 spawned where the cap is 2).
    #[inline]
    pub(crate) fn offset(&self, cell: usize, exp: u8) -> Option<u64> {
        (exp < self.radix_at[cell]).then(|| u64::from(exp) * self.strides[cell])
    }

    /// Whether a cap leaves some moving cell no tile but a 2, where a spawned 4 fails.
    #[must_use]
    pub(crate) fn caps_a_cell_at_two(&self) -> bool {
        self.radix.contains(&2)
    }

    /// The moving cells in index order (the first the most significant digit), and
    /// each one's radix.
    pub(crate) fn moving(&self) -> (&[u8], &[u8]) {
        (&self.cells, &self.radix)
    }

    /// The walls: [`crate::moves::WALL`] in every fixed cell's nibble.
    pub(crate) fn walls(&self) -> u64 {
        self.walls
    }

    /// The state at `index`, as nibbles with walls in the fixed cells.
    #[cfg(test)]
    pub(crate) fn state(&self, mut index: u64) -> u64 {
        let mut b = self.walls;
        for (&c, &r) in self.cells.iter().zip(&self.radix).rev() {
            b |= (index % u64::from(r)) << (60 - 4 * c);
            index /= u64::from(r);
        }
        b
    }

    /// The largest layer: the sum of the largest tiles the moving cells may hold, in
    /// units of 2.
    #[must_use]
    pub fn top_layer(&self) -> u64 {
        self.radix.iter().map(|&r| units(r - 1)).sum()
    }

    /// How many states each layer holds, from layer 0 (the empty arrangement) up to
    /// [`Layout::top_layer`].
    ///
    /// ```
    /// use ai2048_tables::Layout;
    ///
    /// let layout = Layout::new("xxxx/xxxx/xxxx/xx.t".parse()?, 8)?;
    /// // The cell holds 0, 2, 4 or 8; the target cell 0, 2 or 4.
    /// assert_eq!(layout.layer_sizes().iter().sum::<u64>(), layout.len());
    /// assert_eq!(layout.layer_sizes()[..3], [1, 2, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn layer_sizes(&self) -> Vec<u64> {
        let top = self.top_layer() as usize;
        let mut counts = vec![0u64; top + 1];
        counts[0] = 1;
        for &r in &self.radix {
            let mut next = vec![0u64; top + 1];
            for (s, &n) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
                for e in 0..r {
                    let t = s + units(e) as usize;
                    if t <= top {
                        next[t] += n;
                    }
                }
            }
            counts = next;
        }
        counts
    }

    /// Calls `f` with every state of layer `layer` (the sum of its tiles in units of 2),
    /// as nibbles with walls, in increasing order of index: the tests' enumeration,
    /// against which [`crate::rank::LayerIndex`]'s is checked.
    #[cfg(test)]
    pub(crate) fn for_each_in_layer(&self, layer: u64, mut f: impl FnMut(u64)) {
        let mut room = vec![0u64; self.cells.len() + 1];
        for i in (0..self.cells.len()).rev() {
            room[i] = room[i + 1] + units(self.radix[i] - 1);
        }
        self.fill(0, layer, self.walls, &room, &mut f);
    }

    #[cfg(test)]
    fn fill(&self, i: usize, left: u64, b: u64, room: &[u64], f: &mut impl FnMut(u64)) {
        if i == self.cells.len() {
            if left == 0 {
                f(b);
            }
            return;
        }
        if left > room[i] {
            return;
        }
        let shift = 60 - 4 * u32::from(self.cells[i]);
        for e in 0..self.radix[i] {
            let u = units(e);
            if u > left {
                break;
            }
            self.fill(i + 1, left - u, b | u64::from(e) << shift, room, f);
        }
    }

    /// The state of `board` (exponents in reading order) if it is one of this table's
    /// as it stands: every fixed cell holds a tile, every moving cell at most the
    /// target (or its cap), every target cell less.
    #[must_use]
    pub(crate) fn state_of(&self, exps: &[u8; 16]) -> Option<u64> {
        let mut b = 0u64;
        for (i, &e) in exps.iter().enumerate() {
            let nibble = if self.pattern.is_fixed(i) {
                if e == 0 {
                    return None;
                }
                WALL
            } else {
                if e >= self.radix_at[i] {
                    return None;
                }
                u64::from(e)
            };
            b |= nibble << (60 - 4 * i);
        }
        Some(b)
    }
}

impl Layout {
    /// Whether a player trusts this layout's table with `board` through some symmetry
    /// ([`crate::Table::play_query`] answers it from the whole table): `None` if not,
    /// else whether the board stands at the table's own stage through one of them
    /// ([`crate::Query::own_stage`]). What a player without the table asks before it
    /// solves the states the board reaches ([`crate::solve_from`]).
    ///
    /// ```
    /// use ai2048_tables::Layout;
    ///
    /// let layout = Layout::new("xxx./xx1./1.../.... ..../..1./.11./....".parse()?, 16)?;
    /// // The block's 16 beside the moving cells: the table's own stage.
    /// assert_eq!(layout.plays("4096 2048 1024 2/512 16 4 2/4 0 0 0/0 0 0 2".parse()?), Some(true));
    /// // A 256 there: a stage above, where a 16 is a step on the way.
    /// assert_eq!(layout.plays("4096 2048 1024 2/512 256 4 2/4 0 0 0/0 0 0 2".parse()?), Some(false));
    /// // Two 256s side by side in the block could merge.
    /// assert_eq!(layout.plays("4096 2048 1024 2/512 512 4 2/4 0 0 0/0 0 0 2".parse()?), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn plays(&self, board: ai2048_engine::Board) -> Option<bool> {
        self.plays_where(board, |image| self.state_of(image).is_some())
    }

    /// As [`Layout::plays`], through the symmetries whose image `holds` (a state of
    /// the layout, or one that a table solved from a board holds: [`crate::Table::plays`]).
    pub(crate) fn plays_where(
        &self,
        board: ai2048_engine::Board,
        holds: impl Fn(&[u8; 16]) -> bool,
    ) -> Option<bool> {
        let exps = board.exponents();
        crate::pattern::Symmetry::ALL
            .into_iter()
            .filter_map(|sym| {
                let image = crate::table::transform(&exps, sym);
                (holds(&image) && self.accepts(&image)).then(|| self.at_own_stage(&image))
            })
            .reduce(|a, b| a || b)
    }

    /// Whether the image of a board (exponents in reading order, as the table sees
    /// them) is one a player trusts this table with: [`Layout::holds_block`] for a
    /// table with goals, [`Layout::chains`] for one without.
    pub(crate) fn accepts(&self, image: &[u8; 16]) -> bool {
        if self.pattern.has_goals() {
            self.holds_block(image)
        } else {
            self.chains(image)
        }
    }

    /// Whether the image's fixed tiles make a chain that the target joins: from the
    /// smallest up each larger than the last and beside it, the smallest the target,
    /// beside a target cell, and every moving cell beside it a target cell or a capped
    /// one (see [`crate::Table::chain_query`]).
    pub(crate) fn chains(&self, exps: &[u8; 16]) -> bool {
        let pattern = self.pattern;
        let target = self.target;
        let mut fixed: Vec<usize> = pattern.fixed_cells().collect();
        fixed.sort_by_key(|&i| exps[i]);
        // From the smallest up, each fixed tile larger than the last and beside it.
        let chained = fixed
            .windows(2)
            .all(|w| exps[w[0]] < exps[w[1]] && neighbours(w[0]).any(|n| n == w[1]));
        if !chained || fixed.first().is_some_and(|&i| exps[i] != target) {
            return false;
        }
        // The fixed target: every moving cell beside it a target cell or a capped
        // one, so that no target merges into it before it counts.
        pattern.fixed_cells().any(|i| {
            exps[i] == target
                && neighbours(i).any(|n| pattern.is_target(n))
                && neighbours(i)
                    .all(|n| pattern.is_fixed(n) || pattern.is_target(n) || pattern.cap(n) > 0)
        })
    }

    /// Whether the image's fixed tiles stand as a block that no moving tile can merge
    /// with before a goal is met, and no goal is met already (see
    /// [`crate::Table::block_query`]).
    pub(crate) fn holds_block(&self, exps: &[u8; 16]) -> bool {
        self.block_fits(exps) && !self.meets_goal(exps)
    }

    /// Whether the image's fixed tiles stand as a block that no moving tile can merge
    /// with before a goal is met: no two fixed tiles alike side by side, every moving
    /// tile within its cap under the smallest fixed tile beside a moving cell, and
    /// where a goal asks for the target itself, the fixed tiles are all unlike and at
    /// least the target, the chain the target made grows into (a smaller tile or a
    /// second one alike is a tile the game must still grow or merge, not a wall: a
    /// table that holds it fixed answers a world that is not the game's), and a
    /// fixed tile beside the goal's cell is the target, so that the target made merges
    /// into it.
    pub(crate) fn block_fits(&self, exps: &[u8; 16]) -> bool {
        let pattern = self.pattern;
        let target = self.target;
        let joins = |cell: usize| {
            let mut fixed = neighbours(cell).filter(|&n| pattern.is_fixed(n)).peekable();
            fixed.peek().is_none() || fixed.any(|n| exps[n] == target)
        };
        if self.made_at != 0 {
            let mut seen = 0u32;
            let chain = pattern.fixed_cells().all(|i| {
                let fresh = seen >> exps[i] & 1 == 0;
                seen |= 1 << exps[i];
                fresh && exps[i] >= target
            });
            if !chain || !(0..16).filter(|&i| self.made_at >> i & 1 == 1).all(joins) {
                return false;
            }
        }
        let alike = pattern
            .fixed_cells()
            .any(|i| neighbours(i).any(|n| pattern.is_fixed(n) && exps[n] == exps[i]));
        if alike {
            return false;
        }
        let anchor = target.min(self.edge(exps));
        pattern
            .moving_cells()
            .all(|i| exps[i] <= anchor.saturating_sub(pattern.cap(i)))
    }

    /// Whether the image of a table with goals stands at the table's own stage: the
    /// block's smallest tile beside a moving cell is the target, so that the goal met
    /// merges into the block at once. Never for a table with target cells, whose chain
    /// rule answers its own stage alone.
    pub(crate) fn at_own_stage(&self, exps: &[u8; 16]) -> bool {
        self.pattern.has_goals() && self.edge(exps) == self.target
    }

    /// The smallest fixed tile of the image beside a moving cell (`u8::MAX` if none):
    /// the block's edge, which its moving tiles are capped under.
    fn edge(&self, exps: &[u8; 16]) -> u8 {
        let pattern = self.pattern;
        pattern
            .fixed_cells()
            .filter(|&i| neighbours(i).any(|n| !pattern.is_fixed(n)))
            .map(|i| exps[i])
            .min()
            .unwrap_or(u8::MAX)
    }

    /// Whether the image meets one of the pattern's goals.
    pub(crate) fn meets_goal(&self, exps: &[u8; 16]) -> bool {
        let target = self.target;
        self.pattern
            .goals()
            .any(|g| g.cells().all(|(i, k)| exps[i] == target.saturating_sub(k)))
    }
}

/// The cells beside cell `i`, in a row or a column.
fn neighbours(i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / 4, i % 4);
    [
        (r.wrapping_sub(1), c),
        (r + 1, c),
        (r, c.wrapping_sub(1)),
        (r, c + 1),
    ]
    .into_iter()
    .filter(|&(r, c)| r < 4 && c < 4)
    .map(|(r, c)| 4 * r + c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_and_indices_agree_and_layers_cover_every_index_once() {
        let layout = Layout::new("xxxx/xxxx/xxx./..tt".parse().unwrap(), 16).unwrap();
        let mut seen = vec![false; layout.len() as usize];
        for layer in 0..=layout.top_layer() {
            let mut last = None;
            layout.for_each_in_layer(layer, |b| {
                let i = layout.index(b);
                assert_eq!(layout.state(i), b);
                assert!(last < Some(i), "indices increase within a layer");
                last = Some(i);
                assert!(!seen[i as usize]);
                seen[i as usize] = true;
            });
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn goals_a_cell_cannot_hold_are_refused() {
        for (pattern, target, message) in [
            ("xxx2/xx12/2222/3333 ..../..../..1./....", 256, "a 128"),
            ("xxxx/xxxx/xx../..t. ..../..../..../..0.", 64, "a 64"),
            (
                "xxxx/xxxx/xx../.... ..../..../..../..4.",
                16,
                "tile below 2",
            ),
        ] {
            let err = Layout::new(pattern.parse().unwrap(), target).unwrap_err();
            assert!(err.to_string().contains(message), "{pattern}: {err}");
        }
        let ok: Pattern = "xxx2/xx12/2222/3333 ...2/..12/..../....".parse().unwrap();
        assert!(Layout::new(ok, 256).is_ok());
    }

    #[test]
    fn bad_targets_are_refused() {
        let pattern: Pattern = "xxxx/xxxx/xxx./..tt".parse().unwrap();
        for target in [0, 4, 12, 16384] {
            let err = Layout::new(pattern, target).unwrap_err().to_string();
            assert!(err.contains(&format!("target {target}")), "{err}");
        }
    }

    /// A board's exponents, as a table sees them.
    fn image(board: &str) -> [u8; 16] {
        let board: ai2048_engine::Board = board.parse().unwrap();
        board.exponents()
    }

    #[test]
    fn a_goal_of_the_target_itself_needs_the_target_in_the_block_beside_it() {
        let pattern = "xxx./xxx./..../.... ..../...0/..../....".parse().unwrap();
        let layout = Layout::new(pattern, 512).unwrap();
        // The block's 512 stands beside the goal's cell: the 512 made there joins it.
        let own = image("16384 8192 1024 2/4096 2048 512 4/8 0 0 0/0 0 2 0");
        assert!(layout.block_fits(&own));
        // One stage down the block's tile there is a 256: a 512 made beside it would
        // not merge, so the table's world is not the game's.
        let below = image("8192 4096 512 2/2048 1024 256 4/8 0 0 0/0 0 2 0");
        assert!(!layout.block_fits(&below));
        // A pattern whose goals ask only for pieces of the target has no such rule.
        let pieces = "xxx./xxx./..../.... ..../...1/..1./....".parse().unwrap();
        assert!(Layout::new(pieces, 512).unwrap().block_fits(&below));
    }

    #[test]
    fn a_goal_of_the_target_itself_needs_a_block_of_unlike_tiles_from_the_target_up() {
        // Five fixed cells, the 1024 to make beside the block's top right tile.
        let pattern = "xxx./xx../..../.... ...0/..../..../....".parse().unwrap();
        let layout = Layout::new(pattern, 1024).unwrap();
        // The last steps: the block's tiles all unlike and 1024 or more.
        assert!(layout.block_fits(&image("16384 8192 1024 2/4096 2048 4 0/8 0 0 0/0 0 2 0")));
        // A rebuild: the 1024 stands beside the goal's cell, but the 512 and 256 below
        // are tiles to grow, not walls, and the table does not answer.
        let rebuild = image("16384 8192 1024 2/512 256 4 0/8 0 0 0/0 0 2 0");
        assert!(!layout.block_fits(&rebuild));
        // Nor one with a small tile shut inside the block, which the game must merge.
        let shut = image("16384 4 1024 2/4096 2048 4 0/8 0 0 0/0 0 2 0");
        assert!(!layout.block_fits(&shut));
        // And a block with two tiles alike: the game must still merge one of them.
        let twice = image("8192 4096 1024 2/2048 1024 4 0/8 0 0 0/0 0 2 0");
        assert!(!layout.block_fits(&twice));
        // The same block with goals of pieces of the target answers it.
        let pieces = "xxx./xx../..../.... ...1/..1./..../....".parse().unwrap();
        assert!(Layout::new(pieces, 1024).unwrap().block_fits(&rebuild));
    }
}
