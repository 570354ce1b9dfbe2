//! The weights of a network, shared by the threads that train it.
//!
//! Every weight is an `f32` kept in an [`AtomicU32`], read and written with relaxed
//! ordering: on x86-64 and AArch64 those are plain loads and stores, so one thread pays
//! nothing for them, and several threads can train one network without locks
//! (Hogwild: a step another thread makes at the same instant may be lost, which
//! stochastic gradient steps tolerate). A weight that learns with temporal coherence
//! keeps its two accumulators beside it, so one step touches one cache line.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

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
        Weights::Plain((0..len).map(|_| AtomicU32::new(bits)).collect())
    }

    /// These weights, without coherence.
    pub(crate) fn from_values(values: &[f32]) -> Weights {
        Weights::Plain(values.iter().map(|w| AtomicU32::new(w.to_bits())).collect())
    }

    /// The number of weights.
    pub(crate) fn len(&self) -> usize {
        match self {
            Weights::Plain(w) => w.len(),
            Weights::Coherent(w) => w.len(),
        }
    }

    /// Weight `i`.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> f32 {
        match self {
            Weights::Plain(w) => get(&w[i]),
            Weights::Coherent(w) => get(&w[i][0]),
        }
    }

    /// Every weight, in order.
    pub(crate) fn values(&self) -> Vec<f32> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    /// Every weight's coherence `[E, A]`, when kept.
    pub(crate) fn coherence(&self) -> Option<Vec<[f32; 2]>> {
        match self {
            Weights::Plain(_) => None,
            Weights::Coherent(w) => Some(w.iter().map(|[_, e, a]| [get(e), get(a)]).collect()),
        }
    }

    /// The same weights with coherence: the accumulators `coherence` gives, or fresh.
    pub(crate) fn with_coherence(&self, coherence: Option<&[[f32; 2]]>) -> Weights {
        let fresh = [COHERENCE_START; 2];
        Weights::Coherent(
            (0..self.len())
                .map(|i| {
                    let [e, a] = coherence.map_or(fresh, |c| c[i]);
                    [self.get(i), e, a].map(|x| AtomicU32::new(x.to_bits()))
                })
                .collect(),
        )
    }

    /// The same weights without coherence.
    pub(crate) fn without_coherence(&self) -> Weights {
        match self {
            Weights::Plain(w) => {
                Weights::Plain(w.iter().map(|a| AtomicU32::new(a.load(Relaxed))).collect())
            }
            Weights::Coherent(w) => Weights::Plain(
                w.iter()
                    .map(|[a, _, _]| AtomicU32::new(a.load(Relaxed)))
                    .collect(),
            ),
        }
    }

    /// Moves every weight of `indices` by `step` (see [`step`] and [`step_coherent`]).
    #[cfg(test)]
    fn step(&self, indices: &[usize], by: f32) {
        match self {
            Weights::Plain(w) => indices.iter().for_each(|&i| step(&w[i], by)),
            Weights::Coherent(w) => indices.iter().for_each(|&i| step_coherent(&w[i], by)),
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

impl Clone for Weights {
    fn clone(&self) -> Weights {
        let copy = |a: &AtomicU32| AtomicU32::new(a.load(Relaxed));
        match self {
            Weights::Plain(w) => Weights::Plain(w.iter().map(copy).collect()),
            Weights::Coherent(w) => {
                Weights::Coherent(w.iter().map(|x| x.each_ref().map(copy)).collect())
            }
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
}
