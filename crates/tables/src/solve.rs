//! The exact solver: every state's success probability, layer by layer of the tiles'
//! sum, from the fullest layer down.
//!
//! A move keeps the sum of the tiles and a spawn adds 2 or 4, so a state's value
//! depends only on the two layers above its own. Solving the layers from the top down
//! values every state once, from values already final.

use crate::layout::Layout;
use crate::moves::{empty_marks, World};
use crate::rank::{LayerIndex, LayerPlaces};

/// The probability that a spawned tile is a 4, as in the original game.
pub const FOUR_PROBABILITY: f64 = 0.1;

/// A table's rules and layout, for valuing its states.
#[derive(Clone, Debug)]
pub(crate) struct Rules<'a> {
    pub(crate) layout: &'a Layout,
    pub(crate) world: World,
}

impl<'a> Rules<'a> {
    pub(crate) fn new(layout: &'a Layout) -> Rules<'a> {
        let pattern = layout.pattern();
        Rules {
            layout,
            world: World::new(&pattern, layout.target_exponent()),
        }
    }

    /// The expected value of `after` (the board after a move) over its spawns, each
    /// spawned state valued by `value` of its index.
    #[inline]
    pub(crate) fn expectation(&self, after: u64, value: &impl Fn(u64) -> f64) -> f64 {
        let empties = empty_marks(after);
        let count = empties.count_ones();
        if count == 0 {
            return 0.0;
        }
        let base = self.layout.index(after);
        let mut sum = 0.0;
        let mut m = empties;
        while m != 0 {
            let cell = 15 - (m.trailing_zeros() / 4) as usize;
            // A spawn above its cell's cap leaves the table's world: a failure, as a
            // move's would be.
            let spawned = |exp| {
                self.layout
                    .offset(cell, exp)
                    .map_or(0.0, |o| value(base + o))
            };
            sum += (1.0 - FOUR_PROBABILITY) * spawned(1) + FOUR_PROBABILITY * spawned(2);
            m &= m - 1;
        }
        sum / f64::from(count)
    }

    /// Each move's success probability from state `b` (see [`World::move_values`]).
    #[inline]
    pub(crate) fn move_values(&self, b: u64, value: &impl Fn(u64) -> f64) -> [Option<f64>; 4] {
        self.world
            .move_values(b, |after| self.expectation(after, value))
    }

    /// State `b`'s success probability: its best move's, or 0 with none.
    #[inline]
    pub(crate) fn value(&self, b: u64, value: &impl Fn(u64) -> f64) -> f64 {
        self.move_values(b, value)
            .into_iter()
            .flatten()
            .fold(0.0, f64::max)
    }
}

/// Solves the layers from `from` down to 0 into `values` (indexed by
/// [`Layout`]'s index; the layers above `from` must be solved already), calling
/// `after_layer` with each layer solved and the values so far. `after_layer` returns
/// whether to go on.
pub(crate) fn solve_layers(
    layout: &Layout,
    values: &mut [f32],
    from: u64,
    mut after_layer: impl FnMut(u64, &[f32]) -> bool,
) {
    let rules = Rules::new(layout);
    for layer in (0..=from).rev() {
        let mut states = Vec::new();
        layout.for_each_in_layer(layer, |b| states.push(b));
        let solved = {
            let read: &[f32] = values;
            let value = |i: u64| f64::from(read[i as usize]);
            par_map(&states, |&b| rules.value(b, &value) as f32)
        };
        for (&b, v) in states.iter().zip(solved) {
            values[layout.index(b) as usize] = v;
        }
        if !after_layer(layer, values) {
            return;
        }
    }
}

/// The values of one solved layer, in the order of its states that [`LayerIndex`]
/// gives.
#[derive(Clone, Debug)]
pub(crate) struct Layer {
    pub(crate) places: LayerPlaces,
    pub(crate) values: Vec<f32>,
}

impl Layer {
    /// Layer `sum` with `values` (all 0 if empty: a layer above the top, which holds
    /// no state).
    pub(crate) fn new(index: &LayerIndex, sum: u64, values: Vec<f32>) -> Layer {
        let places = index.places(sum);
        debug_assert_eq!(values.len() as u64, places.len);
        Layer { places, values }
    }
}

/// Solves layer `sum` from the two above it (`above[0]` is layer `sum + 1`, `above[1]`
/// layer `sum + 2`): a build's step that holds three layers in memory, not the
/// table.
pub(crate) fn solve_layer(
    rules: &Rules<'_>,
    index: &LayerIndex,
    sum: u64,
    above: &[Layer; 2],
) -> Layer {
    let places = index.places(sum);
    let value = |i: u64| {
        let layer = &above[(index.layer(i) - sum - 1) as usize];
        f64::from(layer.values[index.place(&layer.places, i) as usize])
    };
    let rows = index.rows(&places);
    let values = par_flat_map(&rows, |&row| {
        index
            .row(row)
            .map(|(_, b)| rules.value(b, &value) as f32)
            .collect()
    });
    Layer { places, values }
}

#[cfg(not(target_arch = "wasm32"))]
fn par_flat_map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> Vec<U> + Sync) -> Vec<U> {
    use rayon::prelude::*;
    items.par_iter().flat_map_iter(&f).collect()
}

#[cfg(target_arch = "wasm32")]
fn par_flat_map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> Vec<U> + Sync) -> Vec<U> {
    items.iter().flat_map(f).collect()
}

#[cfg(not(target_arch = "wasm32"))]
fn par_map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> U + Sync) -> Vec<U> {
    use rayon::prelude::*;
    items.par_iter().with_min_len(1024).map(&f).collect()
}

#[cfg(target_arch = "wasm32")]
fn par_map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> U + Sync) -> Vec<U> {
    items.iter().map(f).collect()
}

/// Solves a whole table in memory: every state's success probability, by index.
///
/// ```
/// use ai2048_tables::{solve, Layout};
///
/// // One moving cell beside a target cell, to make an 8 there.
/// let layout = Layout::new("xxxx/xxxx/xxxx/xx.t".parse()?, 8)?;
/// let values = solve(&layout);
/// assert_eq!(values.len() as u64, layout.len());
/// assert!(values.iter().all(|v| (0.0..=1.0).contains(v)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn solve(layout: &Layout) -> Vec<f32> {
    let mut values = vec![0f32; layout.len() as usize];
    solve_layers(layout, &mut values, layout.top_layer(), |_, _| true);
    values
}
