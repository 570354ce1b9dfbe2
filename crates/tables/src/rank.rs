//! The states of one layer (one sum of the tiles) in an order of their own, so that a
//! build holds in memory only the layers it reads: each state's place among the
//! states of its layer.
//!
//! The moving cells are split in two halves, the first cells of the index and the
//! rest, so that a state's index is `first × rest.len + rest` (its two halves'
//! indices). A half's arrangements are ranked among those of the same sum. Within a
//! layer, the states stand in order of their first half's sum, then of its rank, then
//! of the second half's rank: a state's place is a few lookups, and a spawn, which
//! changes one half only, moves it to a place as cheap to find.

use crate::layout::{units, Layout};

/// One half of the moving cells: each of its arrangements' sum, rank among those of
/// that sum, and cells' nibbles.
#[derive(Clone, Debug)]
struct Half {
    /// By the half's index: the sum of its tiles, in units of 2.
    sums: Vec<u32>,
    /// By the half's index: its rank among the arrangements of its sum.
    ranks: Vec<u32>,
    /// By sum: how many arrangements have it.
    counts: Vec<u64>,
    /// The arrangements' indices, those of sum 0 first, each sum's in order of rank.
    by_sum: Vec<u32>,
    /// By sum: where its arrangements start in `by_sum`.
    starts: Vec<usize>,
    /// By the half's index: its tiles as the board's nibbles (empty cells and the
    /// other half's cells 0).
    nibbles: Vec<u64>,
}

impl Half {
    /// The half of `cells` (moving cells in index order) with their radices.
    fn new(cells: &[u8], radix: &[u8]) -> Half {
        let len: usize = radix.iter().map(|&r| usize::from(r)).product();
        let mut sums = vec![0u32; len];
        let mut nibbles = vec![0u64; len];
        // The index in mixed radix, the first cell the most significant.
        let mut stride = 1;
        for (&c, &r) in cells.iter().zip(radix).rev() {
            let shift = 60 - 4 * u32::from(c);
            for (i, (sum, nib)) in sums.iter_mut().zip(&mut nibbles).enumerate() {
                let e = (i / stride % usize::from(r)) as u8;
                *sum += units(e) as u32;
                *nib |= u64::from(e) << shift;
            }
            stride *= usize::from(r);
        }
        let top = sums.iter().copied().max().unwrap_or(0) as usize;
        let mut counts = vec![0u64; top + 1];
        let mut ranks = vec![0u32; len];
        for (rank, &s) in ranks.iter_mut().zip(&sums) {
            *rank = counts[s as usize] as u32;
            counts[s as usize] += 1;
        }
        let mut starts = vec![0usize; top + 2];
        for s in 0..=top {
            starts[s + 1] = starts[s] + counts[s] as usize;
        }
        let mut by_sum = vec![0u32; len];
        for (i, (&s, &rank)) in sums.iter().zip(&ranks).enumerate() {
            by_sum[starts[s as usize] + rank as usize] = i as u32;
        }
        Half {
            sums,
            ranks,
            counts,
            by_sum,
            starts,
            nibbles,
        }
    }

    fn len(&self) -> u64 {
        self.sums.len() as u64
    }

    /// How many arrangements sum to `s`.
    fn count(&self, s: u64) -> u64 {
        usize::try_from(s)
            .ok()
            .and_then(|s| self.counts.get(s))
            .copied()
            .unwrap_or(0)
    }

    /// The arrangements of sum `s`, in order of rank.
    fn of_sum(&self, s: u64) -> &[u32] {
        match usize::try_from(s) {
            Ok(s) if s < self.counts.len() => &self.by_sum[self.starts[s]..self.starts[s + 1]],
            _ => &[],
        }
    }
}

/// Each state's layer and place in it, for a [`Layout`].
#[derive(Clone, Debug)]
pub(crate) struct LayerIndex {
    first: Half,
    rest: Half,
    walls: u64,
}

/// Where the states of one layer stand: for each sum of the first half, where the
/// states with it start.
#[derive(Clone, Debug)]
pub(crate) struct LayerPlaces {
    /// The layer.
    pub(crate) sum: u64,
    /// By the first half's sum: where its states start in the layer.
    starts: Vec<u64>,
    /// How many states the layer holds.
    pub(crate) len: u64,
}

impl LayerIndex {
    /// The index of `layout`'s layers, its cells split where the two halves hold
    /// about as many arrangements each.
    pub(crate) fn new(layout: &Layout) -> LayerIndex {
        let (cells, radix) = layout.moving();
        let split = split(radix);
        LayerIndex {
            first: Half::new(&cells[..split], &radix[..split]),
            rest: Half::new(&cells[split..], &radix[split..]),
            walls: layout.walls(),
        }
    }

    /// The memory the index of `layout` takes, in bytes (its tables, and the rows of
    /// the largest layer).
    pub(crate) fn memory(layout: &Layout) -> u64 {
        let (_, radix) = layout.moving();
        let k = split(radix);
        // A half's sums, ranks, lists by sum and nibbles; a row per arrangement of the
        // first half.
        32 * (product(&radix[..k]) + product(&radix[k..])) + 16 * product(&radix[..k])
    }

    /// Where the states of layer `sum` stand.
    pub(crate) fn places(&self, sum: u64) -> LayerPlaces {
        let mut starts = Vec::with_capacity(self.first.counts.len());
        let mut len = 0;
        for (a, &n) in self.first.counts.iter().enumerate() {
            starts.push(len);
            len += n * sum.checked_sub(a as u64).map_or(0, |b| self.rest.count(b));
        }
        LayerPlaces { sum, starts, len }
    }

    /// The place in its layer of the state with index `i` (whose layer is `places`'s).
    #[inline]
    pub(crate) fn place(&self, places: &LayerPlaces, i: u64) -> u64 {
        let (a, b) = self.halves(i);
        let sa = self.first.sums[a];
        places.starts[sa as usize]
            + u64::from(self.first.ranks[a]) * self.rest.count(places.sum - u64::from(sa))
            + u64::from(self.rest.ranks[b])
    }

    /// The layer of the state with index `i`.
    #[inline]
    pub(crate) fn layer(&self, i: u64) -> u64 {
        let (a, b) = self.halves(i);
        u64::from(self.first.sums[a]) + u64::from(self.rest.sums[b])
    }

    #[inline]
    fn halves(&self, i: u64) -> (usize, usize) {
        let n = self.rest.len();
        ((i / n) as usize, (i % n) as usize)
    }

    /// The rows of layer `places`, in order: a row is the states of one arrangement of
    /// the first half, its index and the sum left to the second half; the row's
    /// states, in order, are those of [`LayerIndex::row`].
    pub(crate) fn rows(&self, places: &LayerPlaces) -> Vec<(u32, u64)> {
        let mut rows = Vec::new();
        for sa in 0..self.first.counts.len() as u64 {
            let Some(sb) = places.sum.checked_sub(sa) else {
                break;
            };
            if self.rest.count(sb) > 0 {
                rows.extend(self.first.of_sum(sa).iter().map(|&a| (a, sb)));
            }
        }
        rows
    }

    /// The states of the row of first-half arrangement `a` with `sb` left to the
    /// second half: each state's index and its nibbles (walls in the fixed cells).
    pub(crate) fn row(&self, (a, sb): (u32, u64)) -> impl Iterator<Item = (u64, u64)> + '_ {
        let base = u64::from(a) * self.rest.len();
        let board = self.walls | self.first.nibbles[a as usize];
        self.rest
            .of_sum(sb)
            .iter()
            .map(move |&b| (base + u64::from(b), board | self.rest.nibbles[b as usize]))
    }
}

/// How many arrangements cells of radices `radix` hold.
fn product(radix: &[u8]) -> u64 {
    radix.iter().map(|&r| u64::from(r)).product()
}

/// Where to split cells of radices `radix` so that the halves hold about as many
/// arrangements each: the number of cells in the first.
fn split(radix: &[u8]) -> usize {
    (0..=radix.len())
        .min_by_key(|&k| product(&radix[..k]).max(product(&radix[k..])))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_number_each_layer_from_0_and_rows_list_them_in_order() {
        for (pattern, target) in [
            ("xxxx/xxxx/xxx./..tt", 16),
            ("xxx2/xx12/2222/3333 ...2/..12/..../....", 64),
            ("xxxx/xxxx/xxxx/xx.t", 8),
        ] {
            let layout = Layout::new(pattern.parse().unwrap(), target).unwrap();
            let index = LayerIndex::new(&layout);
            let sizes = layout.layer_sizes();
            let mut seen = 0;
            for (layer, &size) in sizes.iter().enumerate() {
                let places = index.places(layer as u64);
                assert_eq!(places.len, size, "{pattern}: layer {layer}");
                let mut states = Vec::new();
                layout.for_each_in_layer(layer as u64, |b| states.push(b));
                let mut listed: Vec<u64> = Vec::new();
                for row in index.rows(&places) {
                    for (i, b) in index.row(row) {
                        assert_eq!(layout.index(b), i);
                        assert_eq!(index.layer(i), layer as u64);
                        assert_eq!(index.place(&places, i), listed.len() as u64);
                        listed.push(b);
                    }
                }
                listed.sort_unstable();
                states.sort_unstable();
                assert_eq!(listed, states, "{pattern}: layer {layer}");
                seen += size;
            }
            assert_eq!(seen, layout.len());
        }
    }
}
