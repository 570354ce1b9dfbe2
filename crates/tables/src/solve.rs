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
        self.best(b, value).0
    }

    /// State `b`'s success probability and its best move's code (the first of the best
    /// in [`ai2048_engine::Dir`]'s order; 0 with no move, whose value is 0).
    #[inline]
    pub(crate) fn best(&self, b: u64, value: &impl Fn(u64) -> f64) -> (f64, u8) {
        let mut best = (0.0, 0);
        let mut found = false;
        for (code, v) in self.move_values(b, value).into_iter().enumerate() {
            if let Some(v) = v.filter(|&v| !found || v > best.0) {
                best = (v, code as u8);
                found = true;
            }
        }
        best
    }
}

/// The values of one solved layer, in the order of its states that [`LayerIndex`]
/// gives.
#[derive(Clone, Debug)]
struct Layer {
    places: LayerPlaces,
    values: Vec<f32>,
}

impl Layer {
    /// Layer `sum` with `values` (none for a layer above the top, which holds no
    /// state).
    fn new(index: &LayerIndex, sum: u64, values: Vec<f32>) -> Layer {
        let places = index.places(sum);
        debug_assert_eq!(values.len() as u64, places.len);
        Layer { places, values }
    }
}

/// A sweep down a table's layers, from the top to 0: each layer solved from the two
/// above it, so that three layers are held as `f32`, not the table.
pub(crate) struct Sweep<'a> {
    rules: Rules<'a>,
    index: LayerIndex,
    /// The lowest layer solved and the one above it.
    above: [Layer; 2],
    /// How many layers are left to solve: the lowest solved is this one.
    layers_left: u64,
}

impl<'a> Sweep<'a> {
    /// The sweep of `layout` from its top.
    pub(crate) fn new(layout: &'a Layout) -> Sweep<'a> {
        Sweep::resume(layout, layout.top_layer() + 1, Vec::new())
    }

    /// The sweep of `layout` with `layers_left` layers left to solve, `lowest` holding
    /// the values of layer `layers_left` and of the one above it, as
    /// [`Sweep::lowest`] gave them.
    pub(crate) fn resume(layout: &'a Layout, layers_left: u64, mut lowest: Vec<f32>) -> Sweep<'a> {
        let index = LayerIndex::new(layout);
        let places = index.places(layers_left);
        let high = lowest.split_off((places.len as usize).min(lowest.len()));
        let above = [
            Layer {
                places,
                values: lowest,
            },
            Layer::new(&index, layers_left + 1, high),
        ];
        Sweep {
            rules: Rules::new(layout),
            index,
            above,
            layers_left,
        }
    }

    /// Solves the next layer down and calls `store` with each of its states' index,
    /// value and best move's code; returns the layer, or `None` if every layer is solved.
    pub(crate) fn step(&mut self, mut store: impl FnMut(u64, f32, u8)) -> Option<u64> {
        let layer = self.layers_left.checked_sub(1)?;
        let (solved, bests) = solve_layer(&self.rules, &self.index, layer, &self.above);
        let mut values = solved.values.iter().zip(&bests);
        for row in self.index.rows(&solved.places) {
            for ((i, _), (&v, &best)) in self.index.row(row).zip(&mut values) {
                store(i, v, best);
            }
        }
        self.above[1] = std::mem::replace(&mut self.above[0], solved);
        self.layers_left = layer;
        Some(layer)
    }

    /// The values of the lowest layer solved and of the one above it, from which
    /// [`Sweep::resume`] goes on.
    pub(crate) fn lowest(&self) -> [&[f32]; 2] {
        [&self.above[0].values, &self.above[1].values]
    }
}

/// Solves layer `sum` from the two above it (`above[0]` is layer `sum + 1`, `above[1]`
/// layer `sum + 2`): the layer, and each of its states' best move's code.
fn solve_layer(
    rules: &Rules<'_>,
    index: &LayerIndex,
    sum: u64,
    above: &[Layer; 2],
) -> (Layer, Vec<u8>) {
    let places = index.places(sum);
    let value = |i: u64| {
        let layer = &above[(index.layer(i) - sum - 1) as usize];
        f64::from(layer.values[index.place(&layer.places, i) as usize])
    };
    let rows = index.rows(&places);
    let (values, bests) = par_flat_map(&rows, |&row| {
        index
            .row(row)
            .map(|(_, b)| {
                let (v, best) = rules.best(b, &value);
                (v as f32, best)
            })
            .collect()
    })
    .into_iter()
    .unzip();
    (Layer { places, values }, bests)
}

/// `f` of each item, flattened in the items' order: on every thread of rayon's pool
/// where there are threads.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn par_flat_map<T: Sync, U: Send>(
    items: &[T],
    f: impl Fn(&T) -> Vec<U> + Sync,
) -> Vec<U> {
    use rayon::prelude::*;
    items.par_iter().flat_map_iter(&f).collect()
}

#[cfg(target_arch = "wasm32")]
pub(crate) fn par_flat_map<T: Sync, U: Send>(
    items: &[T],
    f: impl Fn(&T) -> Vec<U> + Sync,
) -> Vec<U> {
    items.iter().flat_map(f).collect()
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
    let mut sweep = Sweep::new(layout);
    while sweep.step(|i, v, _| values[i as usize] = v).is_some() {}
    values
}
