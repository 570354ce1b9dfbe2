//! The weights of a network, shared by the threads that train it.
//!
//! Every weight is an `f32` kept in an [`AtomicU32`], read and written with relaxed
//! ordering: on x86-64 and AArch64 those are plain loads and stores, so one thread pays
//! nothing for them, and several threads can train one network without locks
//! (Hogwild: a step another thread makes at the same instant may be lost, which
//! stochastic gradient steps tolerate). A weight that learns with temporal coherence
//! keeps its two accumulators beside it, so one step touches one cache line.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::huge;

/// The accumulators' start: |E| / A is then 1, a full step, with no branch.
pub(crate) const COHERENCE_START: f32 = f32::MIN_POSITIVE;

/// Every weight of a network, with or without temporal coherence.
#[derive(Debug)]
pub(crate) enum Weights {
    /// The weights alone (TD steps, or playing).
    Plain(Box<[AtomicU32]>),
    /// Each weight with its coherence: `[w, E, A]`, E the sum of its steps and A the
    /// sum of their magnitudes (each starting at [`COHERENCE_START`]).
    Coherent(Box<[[AtomicU32; 3]]>),
    /// Weights packed for play: weight i of table t is `values[i] × scales[t]`. Half
    /// the memory of `f32`; training turns them back into `f32` first.
    Quantized(Quantized),
}

/// Weights as `i16` with one scale per table.
#[derive(Clone, Debug)]
pub(crate) struct Quantized {
    pub(crate) values: Box<[i16]>,
    /// One per table, stage after stage.
    pub(crate) scales: Box<[f32]>,
    /// Where each table starts in `values`, and one past the last.
    pub(crate) starts: Box<[usize]>,
}

impl Quantized {
    /// The table weight `i` is in.
    fn table_of(&self, i: usize) -> usize {
        self.starts.partition_point(|&s| s <= i) - 1
    }

    /// Weight `i`.
    pub(crate) fn get(&self, i: usize) -> f32 {
        f32::from(self.values[i]) * self.scales[self.table_of(i)]
    }
}

#[inline(always)]
pub(crate) fn get(a: &AtomicU32) -> f32 {
    f32::from_bits(a.load(Relaxed))
}

#[inline(always)]
fn set(a: &AtomicU32, x: f32) {
    a.store(x.to_bits(), Relaxed);
}

impl Weights {
    /// `len` weights of `value`, without coherence.
    pub(crate) fn plain(len: usize, value: f32) -> Weights {
        let bits = value.to_bits();
        Weights::Plain(huge::atomics(len, |_| bits))
    }

    /// These weights, without coherence.
    pub(crate) fn from_values(values: &[f32]) -> Weights {
        Weights::Plain(huge::atomics(values.len(), |i| values[i].to_bits()))
    }

    /// The number of weights.
    pub(crate) fn len(&self) -> usize {
        match self {
            Weights::Plain(w) => w.len(),
            Weights::Coherent(w) => w.len(),
            Weights::Quantized(q) => q.values.len(),
        }
    }

    /// Weight `i`.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> f32 {
        match self {
            Weights::Plain(w) => get(&w[i]),
            Weights::Coherent(w) => get(&w[i][0]),
            Weights::Quantized(q) => q.get(i),
        }
    }

    /// Every weight, in order.
    pub(crate) fn values(&self) -> Vec<f32> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    /// Every weight's coherence `[E, A]`, when kept.
    pub(crate) fn coherence(&self) -> Option<Vec<[f32; 2]>> {
        match self {
            Weights::Plain(_) | Weights::Quantized(_) => None,
            Weights::Coherent(w) => Some(w.iter().map(|[_, e, a]| [get(e), get(a)]).collect()),
        }
    }

    /// The same weights with coherence: the accumulators `coherence` gives, or fresh.
    pub(crate) fn with_coherence(&self, coherence: Option<&[[f32; 2]]>) -> Weights {
        let fresh = [COHERENCE_START; 2];
        Weights::Coherent(huge::atomic_triples(self.len(), |i| {
            let [e, a] = coherence.map_or(fresh, |c| c[i]);
            [self.get(i), e, a].map(f32::to_bits)
        }))
    }

    /// The same weights without coherence, as `f32`.
    pub(crate) fn without_coherence(&self) -> Weights {
        match self {
            Weights::Plain(w) => Weights::Plain(huge::atomics(w.len(), |i| bits(&w[i]))),
            Weights::Coherent(w) => Weights::Plain(huge::atomics(w.len(), |i| bits(&w[i][0]))),
            Weights::Quantized(_) => Weights::from_values(&self.values()),
        }
    }

    /// The weights as `i16` with one scale per table: each table's largest magnitude
    /// becomes 32767, unless that makes the scale (the step between two values) finer
    /// than `step`, which is then the scale. `starts` gives where each table begins,
    /// then the end.
    pub(crate) fn quantized(&self, starts: &[usize], step: f32) -> Weights {
        let mut values = huge::filled(self.len(), |_| 0i16);
        let mut scales = Vec::with_capacity(starts.len().saturating_sub(1));
        for pair in starts.windows(2) {
            let max = (pair[0]..pair[1])
                .map(|i| self.get(i).abs())
                .fold(0.0f32, f32::max);
            let scale = if max > 0.0 {
                (max / f32::from(i16::MAX)).max(step)
            } else {
                1.0
            };
            scales.push(scale);
            for (i, v) in values.iter_mut().enumerate().take(pair[1]).skip(pair[0]) {
                *v = (self.get(i) / scale).round() as i16;
            }
        }
        Weights::Quantized(Quantized {
            values: values.into(),
            scales: scales.into(),
            starts: starts.into(),
        })
    }

    /// Moves every weight of `indices` by `step` (see [`step`] and [`step_coherent`]).
    #[cfg(test)]
    fn step(&self, indices: &[usize], by: f32) {
        match self {
            Weights::Plain(w) => indices.iter().for_each(|&i| step(&w[i], by)),
            Weights::Coherent(w) => indices.iter().for_each(|&i| step_coherent(&w[i], by)),
            Weights::Quantized(_) => unreachable!("quantized weights do not learn"),
        }
    }
}

/// Moves a weight by `step`.
#[inline(always)]
pub(crate) fn step(a: &AtomicU32, step: f32) {
    set(a, get(a) + step);
}

/// Moves a weight by `step` scaled by its coherence |E| / A, which then takes the step
/// in. With several threads a step may be lost.
#[inline(always)]
pub(crate) fn step_coherent([w, e, a]: &[AtomicU32; 3], step: f32) {
    let (ev, av) = (get(e), get(a));
    set(w, get(w) + step * (ev.abs() / av));
    set(e, ev + step);
    set(a, av + step.abs());
}

fn bits(a: &AtomicU32) -> u32 {
    a.load(Relaxed)
}

fn copy(a: &AtomicU32) -> AtomicU32 {
    AtomicU32::new(a.load(Relaxed))
}

impl Clone for Weights {
    fn clone(&self) -> Weights {
        match self {
            Weights::Plain(w) => Weights::Plain(w.iter().map(copy).collect()),
            Weights::Coherent(w) => {
                Weights::Coherent(w.iter().map(|x| x.each_ref().map(copy)).collect())
            }
            Weights::Quantized(q) => Weights::Quantized(q.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coherence_slows_steps_whose_signs_disagree() {
        let w = Weights::plain(2, 0.0).with_coherence(None);
        // The first step is whole.
        w.step(&[0], 2.0);
        assert_eq!(w.get(0), 2.0);
        // The other sign: |E| / A is still 1 before it; after it E = 0.
        w.step(&[0], -2.0);
        assert!(w.get(0).abs() < 1e-6);
        // Now the steps have cancelled: the weight no longer moves.
        w.step(&[0], 4.0);
        assert!(w.get(0).abs() < 1e-6);
        // Steps of one sign bring the rate back: E = 4, A = 8, so half of 4.
        w.step(&[0], 4.0);
        assert!((w.get(0) - 2.0).abs() < 1e-5, "{}", w.get(0));
        assert_eq!(w.get(1), 0.0);
        let plain = w.without_coherence();
        assert_eq!(plain.values(), w.values());
        plain.step(&[1, 1], 0.5);
        assert_eq!(plain.get(1), 1.0);
        assert!(plain.coherence().is_none());
        assert_eq!(w.coherence().expect("kept").len(), 2);
    }

    #[test]
    fn quantized_weights_keep_each_table_to_its_scale() {
        let w = Weights::from_values(&[1000.0, -500.0, 0.25, 0.0, 0.0, 3.0]);
        let q = w.quantized(&[0, 3, 5, 6], 0.0);
        assert_eq!(q.get(0), 1000.0);
        assert!((q.get(1) + 500.0).abs() < 1000.0 / 32767.0);
        assert!((q.get(2) - 0.25).abs() < 1000.0 / 32767.0);
        // An empty table stays 0, and each table has its own scale.
        assert_eq!((q.get(3), q.get(4)), (0.0, 0.0));
        assert_eq!(q.get(5), 3.0);
        let Weights::Quantized(inner) = &q else {
            panic!("quantized")
        };
        assert_eq!(inner.values[..3], [32767, -16384, 8]);
        assert_eq!(q.without_coherence().values(), q.values());
    }

    #[test]
    fn a_coarser_step_rounds_to_its_multiples() {
        let w = Weights::from_values(&[1000.0, -500.0, 7.0, 9.0]);
        let q = w.quantized(&[0, 4], 16.0);
        assert_eq!(q.values(), vec![1008.0, -496.0, 0.0, 16.0]);
        // A table whose largest weight needs a coarser scale than the step keeps it.
        let q = w.quantized(&[0, 4], 0.001);
        assert_eq!(q.get(0), 1000.0);
    }
}
