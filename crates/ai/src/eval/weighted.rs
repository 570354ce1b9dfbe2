//! A weighted sum of [features](super::features): `Σ weight_k · feature_k`.

use ai2048_engine::Board;

use super::{Evaluator, Feature};

/// A weighted sum of [`Feature`]s, plus a constant that keeps it non-negative on every
/// board (searches score a lost board 0, below every living one).
///
/// The named evaluations `weighted` (all features) and `empty`, `smoothness`,
/// `monotonicity`, `merges` (one feature, weight 1) are `Weighted`s.
///
/// ```
/// use ai2048_ai::eval::{Evaluator, Feature, Weighted};
/// use ai2048_engine::Board;
/// let eval = Weighted::new(&[(Feature::Empty, 2.0), (Feature::Merges, 1.0)]);
/// let board: Board = "2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert_eq!(eval.eval(board), 2.0 * 14.0 + 1.0);
/// assert_eq!(eval.weight(Feature::Merges), Some(1.0));
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Weighted {
    terms: Vec<(Feature, f64)>,
    offset: f64,
}

impl Weighted {
    /// The sum of `terms`, each a feature and its weight.
    #[must_use]
    pub fn new(terms: &[(Feature, f64)]) -> Weighted {
        let offset = -terms
            .iter()
            .map(|&(f, w)| {
                let (lo, hi) = f.range();
                (w * lo).min(w * hi)
            })
            .sum::<f64>();
        Weighted {
            terms: terms.to_vec(),
            offset,
        }
    }

    /// The features and their weights.
    #[must_use]
    pub fn terms(&self) -> &[(Feature, f64)] {
        &self.terms
    }

    /// The weight of `feature`, if it is a term.
    #[must_use]
    pub fn weight(&self, feature: Feature) -> Option<f64> {
        self.terms
            .iter()
            .find(|(f, _)| *f == feature)
            .map(|&(_, w)| w)
    }

    /// The constant added to the weighted sum so that no board scores below 0.
    #[must_use]
    pub fn offset(&self) -> f64 {
        self.offset
    }
}

impl Evaluator for Weighted {
    fn eval(&self, board: Board) -> f64 {
        let exps = board.exponents();
        self.offset
            + self
                .terms
                .iter()
                .map(|&(f, w)| w * f.of_exponents(&exps))
                .sum::<f64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_keeps_values_non_negative() {
        let eval = Weighted::new(&[
            (Feature::Smoothness, 3.0),
            (Feature::Sum, -2.0),
            (Feature::Empty, -1.0),
        ]);
        assert_eq!(
            eval.offset(),
            3.0 * 408.0 + 2.0 * Feature::Sum.range().1 + 16.0
        );
        for b in [Board::EMPTY, Board::from_exponents([17; 16]).unwrap()] {
            assert!(eval.eval(b) >= 0.0);
        }
    }
}
