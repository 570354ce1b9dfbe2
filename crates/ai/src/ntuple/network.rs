//! The network: one weight table per tuple, read at every symmetric image of the tuple.

use ai2048_engine::Board;

use super::tuple::{capped_low_bits, Tuple};
use crate::eval::Evaluator;

/// One lookup of the network: a tuple's image, and where its table starts.
#[derive(Clone, Copy, Debug)]
struct Feature {
    /// The index of the table's first weight in [`NTupleNetwork::weights`].
    offset: usize,
    /// The cells, as shifts into the board's low bits; the first `len` are used.
    shifts: [u8; super::MAX_TUPLE_LEN],
    len: u8,
}

impl Feature {
    /// The weight this feature reads on a board's (capped) low bits.
    #[inline]
    fn index(&self, low: u64) -> usize {
        let mut index = 0;
        for (k, &shift) in self.shifts[..usize::from(self.len)].iter().enumerate() {
            index |= ((low >> shift) as usize & 0xF) << (4 * k);
        }
        self.offset + index
    }
}

/// An n-tuple network: the value of a board is the sum, over its tuples and their
/// eight symmetric images, of the weight each image's cells pick out of the tuple's
/// table.
///
/// Trained by temporal-difference learning ([`super::train_game`]), the value of an
/// afterstate (the board after a move, before the spawn) estimates the score still to
/// come. As an [`Evaluator`] the network adds to it the score the board's tiles imply
/// ([`implied_score`]), so that boards after different moves compare by the score
/// each move made plus what it leaves to come, and searches that sum no rewards still
/// rank them as a trained network does.
///
/// ```
/// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
/// use ai2048_engine::Board;
/// let mut net = NTupleNetwork::new(parse_tuples("small")?);
/// let board: Board = "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert_eq!(net.value(board), 0.0);
/// net.learn(board, 1.0);
/// // At least 1: where images of the board read one weight, its steps add up.
/// assert!(net.value(board) >= 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct NTupleNetwork {
    tuples: Vec<Tuple>,
    features: Vec<Feature>,
    /// Every table, one after another, in the order of `tuples`.
    weights: Vec<f32>,
    games: u64,
    /// The temporal coherence of every weight, `[E, A]`: the sum of the errors that
    /// moved it and the sum of their magnitudes. Present once the network learns with
    /// [`Learning::Tc`](super::Learning::Tc).
    coherence: Option<Vec<[f32; 2]>>,
}

impl NTupleNetwork {
    /// A network of these tuples with every weight 0.
    #[must_use]
    pub fn new(tuples: Vec<Tuple>) -> NTupleNetwork {
        let total = tuples.iter().map(Tuple::table_len).sum();
        NTupleNetwork::with_weights(tuples, vec![0.0; total], 0)
    }

    /// A network of these tuples with these weights, `games` games trained.
    ///
    /// # Panics
    ///
    /// When the number of weights is not the sum of the tuples' table lengths.
    pub(crate) fn with_weights(tuples: Vec<Tuple>, weights: Vec<f32>, games: u64) -> NTupleNetwork {
        let mut features = Vec::with_capacity(8 * tuples.len());
        let mut offset = 0;
        for tuple in &tuples {
            for image in tuple.images() {
                let mut shifts = [0; super::MAX_TUPLE_LEN];
                shifts[..image.len()].copy_from_slice(&image);
                features.push(Feature {
                    offset,
                    shifts,
                    len: image.len() as u8,
                });
            }
            offset += tuple.table_len();
        }
        assert_eq!(offset, weights.len(), "one weight per table entry");
        NTupleNetwork {
            tuples,
            features,
            weights,
            games,
            coherence: None,
        }
    }

    /// The tuples.
    #[must_use]
    pub fn tuples(&self) -> &[Tuple] {
        &self.tuples
    }

    /// Every weight, table after table in the order of [`NTupleNetwork::tuples`].
    #[must_use]
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The temporal coherence of every weight, `[E, A]`, when the network learns with
    /// temporal coherence ([`Learning::Tc`](super::Learning::Tc)).
    #[must_use]
    pub fn coherence(&self) -> Option<&[[f32; 2]]> {
        self.coherence.as_deref()
    }

    /// Sets the temporal coherence of every weight (see [`NTupleNetwork::coherence`]).
    ///
    /// # Panics
    ///
    /// When there is not one entry per weight.
    pub(crate) fn set_coherence(&mut self, coherence: Vec<[f32; 2]>) {
        assert_eq!(coherence.len(), self.weights.len(), "one entry per weight");
        self.coherence = Some(coherence);
    }

    /// How many games the network has been trained on.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Counts one more game trained.
    pub(crate) fn count_game(&mut self) {
        self.games += 1;
    }

    /// The number of lookups a value takes: eight per tuple.
    #[must_use]
    pub fn features(&self) -> usize {
        self.features.len()
    }

    /// The learned value of `board`: for an afterstate, the score still to come.
    #[must_use]
    #[inline]
    pub fn value(&self, board: Board) -> f32 {
        let low = capped_low_bits(board);
        self.features
            .iter()
            .map(|f| self.weights[f.index(low)])
            .sum()
    }

    /// Moves the value of `board` by `delta`, shared equally among the weights it reads.
    #[inline]
    pub fn learn(&mut self, board: Board, delta: f32) {
        let low = capped_low_bits(board);
        let step = delta / self.features.len() as f32;
        for f in &self.features {
            self.weights[f.index(low)] += step;
        }
    }

    /// Temporal coherence learning (Jaśkowski 2018): moves each weight `board` reads by
    /// its share of `alpha × error`, scaled by the weight's coherence |E| / A (1 for a
    /// weight never moved), then adds `error` to its E and |`error`| to its A. A weight
    /// whose errors keep one sign learns at full rate; one whose errors cancel out
    /// slows down.
    pub fn learn_coherent(&mut self, board: Board, alpha: f32, error: f32) {
        let low = capped_low_bits(board);
        let step = alpha * error / self.features.len() as f32;
        let coherence = self
            .coherence
            .get_or_insert_with(|| vec![[0.0; 2]; self.weights.len()]);
        for f in &self.features {
            let i = f.index(low);
            let [e, a] = &mut coherence[i];
            let rate = if *a > 0.0 { e.abs() / *a } else { 1.0 };
            self.weights[i] += rate * step;
            *e += error;
            *a += error.abs();
        }
    }
}

/// The score a game has made to build `board`'s tiles from 2s: every merge into a tile
/// of 2^e scores 2^e, so a tile of 2^e implies (e - 1) × 2^e. Tiles that spawned as 4s
/// scored nothing for their first merge, so a game's real score is a little lower; the
/// gap is the same for every move, and cancels when moves are compared.
///
/// ```
/// use ai2048_ai::ntuple::implied_score;
/// use ai2048_engine::{Board, Dir};
/// let board: Board = "2 4 8 8/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert_eq!(implied_score(board), 0 + 4 + 16 + 16);
/// // A move's merges add exactly their score: 8 + 8 makes 16 and scores 16.
/// let (after, score) = board.shift_scored(Dir::Left);
/// assert_eq!(implied_score(after) - implied_score(board), u64::from(score));
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[must_use]
pub fn implied_score(board: Board) -> u64 {
    board
        .exponents()
        .iter()
        .filter(|&&e| e >= 2)
        .map(|&e| u64::from(e - 1) << e)
        .sum()
}

impl Evaluator for NTupleNetwork {
    /// The learned value plus the [`implied_score`] of the board.
    fn eval(&self, board: Board) -> f64 {
        f64::from(self.value(board)) + implied_score(board) as f64
    }

    /// A lost board has nothing to come: its [`implied_score`] alone.
    fn lost(&self, board: Board) -> f64 {
        implied_score(board) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntuple::parse_tuples;

    fn board(text: &str) -> Board {
        text.parse().expect("a board")
    }

    #[test]
    fn symmetric_boards_have_the_same_value() {
        let mut net = NTupleNetwork::new(parse_tuples("small").expect("valid"));
        let b = board("2 4 8 16/0 0 0 32/0 0 2 0/4 0 0 0");
        net.learn(b, 10.0);
        net.learn(board("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 4"), -3.0);
        let v = net.value(b);
        assert!(v > 5.0, "{v}");
        let images = [
            b.transpose(),
            board("16 8 4 2/32 0 0 0/0 2 0 0/0 0 0 4"),
            board("4 0 0 0/0 0 2 0/0 0 0 32/2 4 8 16"),
            board("0 0 0 4/0 2 0 0/32 0 0 0/16 8 4 2"),
        ];
        for image in images {
            assert_eq!(net.value(image), v, "{image}");
        }
    }

    #[test]
    fn learning_moves_the_value_by_delta() {
        let mut net = NTupleNetwork::new(parse_tuples("0,1;2,3,6").expect("valid"));
        assert_eq!(net.weights().len(), 256 + 4096);
        assert_eq!(net.features(), 16);
        // Every image of every tuple reads other tiles, so no two read one weight.
        let b = board("2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 32768 4");
        for _ in 0..3 {
            let before = net.value(b);
            net.learn(b, 0.5);
            assert!((net.value(b) - before - 0.5).abs() < 1e-5);
        }
        // Where images read one weight, a step moves the value further.
        let empty = Board::EMPTY;
        net.learn(empty, 0.5);
        assert!(net.value(empty) > 0.5 + 1e-3);
    }

    #[test]
    fn coherent_learning_slows_weights_whose_errors_cancel() {
        let b = board("2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 32768 4");
        let mut net = NTupleNetwork::new(parse_tuples("0,1").expect("valid"));
        assert!(net.coherence().is_none());
        // The first step moves at full rate.
        net.learn_coherent(b, 0.5, 2.0);
        assert!((net.value(b) - 1.0).abs() < 1e-6);
        assert!(net.coherence().expect("kept")[0..]
            .iter()
            .any(|&[e, a]| e == 2.0 && a == 2.0));
        // An error of the other sign: |E| / A = 1, still full rate; then E = 0.
        net.learn_coherent(b, 0.5, -2.0);
        assert!(net.value(b).abs() < 1e-6);
        // Now the errors have cancelled: the weights no longer move.
        net.learn_coherent(b, 0.5, 4.0);
        assert!(net.value(b).abs() < 1e-6);
        // Errors of one sign restore the rate: E = 4 then 8, A = 8 then 12.
        net.learn_coherent(b, 0.5, 4.0);
        assert!((net.value(b) - 0.5 * 4.0 * 0.5).abs() < 1e-6);
    }

    #[test]
    fn the_evaluation_adds_the_implied_score() {
        let net = NTupleNetwork::new(parse_tuples("small").expect("valid"));
        let b = board("131072 65536 4 2/0 0 0 0/0 0 0 0/0 0 0 0");
        assert_eq!(implied_score(b), 16 * 131072 + 15 * 65536 + 4);
        assert_eq!(net.eval(b), implied_score(b) as f64);
        assert_eq!(net.lost(b), implied_score(b) as f64);
    }
}
