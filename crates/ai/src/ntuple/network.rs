//! The network: one weight table per tuple and stage, read at every symmetric image of
//! the board.

use ai2048_engine::Board;

use super::carousel::{Carousel, GoRoundError};
use super::index::{capped_at, symmetries, TupleIndex};
use super::stages::Stages;
use super::tuple::Tuple;
use super::weights::{self, Weights};
use crate::eval::Evaluator;

mod reshape;

/// The most lookups one value takes: 16 tuples at 8 images each.
pub const MAX_LOOKUPS: usize = 128;

/// The largest value, either way, a new network's boards may start at
/// ([`NTupleNetwork::with_stages`]'s `initial_value`).
pub const MAX_INITIAL_VALUE: f32 = 1e7;

/// Checks a value new networks' boards start at: finite, and within
/// [`MAX_INITIAL_VALUE`] either way.
///
/// # Errors
///
/// What is wrong, to follow the name of the setting.
///
/// ```
/// use ai2048_ai::ntuple::check_initial_value;
/// assert!(check_initial_value(320000.0).is_ok());
/// let err = check_initial_value(f32::NAN).unwrap_err();
/// assert_eq!(err, "must be a number from -10000000 to 10000000, not NaN");
/// ```
pub fn check_initial_value(value: f32) -> Result<(), String> {
    if value.is_finite() && value.abs() <= MAX_INITIAL_VALUE {
        Ok(())
    } else {
        Err(format!(
            "must be a number from -{MAX_INITIAL_VALUE} to {MAX_INITIAL_VALUE}, not {value}"
        ))
    }
}

/// An n-tuple network: the value of a board is the sum, over its tuples and the eight
/// symmetric images of the board, of the weight each tuple's cells pick out of its
/// table. A network with [`Stages`] keeps a set of tables per stage of the game and
/// reads the set of the board's stage.
///
/// Trained by temporal-difference learning ([`super::Trainer`]), the value of an
/// afterstate (the board after a move, before the spawn) estimates the score still to
/// come. As an [`Evaluator`] the network adds to it the score the board's tiles imply
/// ([`implied_score`]), so that boards after different moves compare by the score
/// each move made plus what it leaves to come, and searches that sum no rewards still
/// rank them as a trained network does.
///
/// The weights are shared by the threads that train them without locks; see
/// [`super::Trainer`].
///
/// ```
/// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
/// use ai2048_engine::Board;
/// let net = NTupleNetwork::new(parse_tuples("small")?);
/// let board: Board = "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert_eq!(net.value(board), 0.0);
/// net.learn(board, 1.0);
/// // At least 1: where images of the board read one weight, its steps add up.
/// assert!(net.value(board) >= 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct NTupleNetwork {
    /// The tables of each stage, first stage first.
    tables: Vec<StageTables>,
    stages: Stages,
    weights: Weights,
    games: u64,
    /// What made the network: one line per training run.
    notes: String,
    /// The pools of carousel shaping, when it trains so.
    carousel: Option<Carousel>,
}

/// The tables of one stage: the tuples it reads, how each reads its index, and where
/// the tables lie among the weights. Every stage reads the same tuples unless the
/// network was joined from networks of other tuples ([`NTupleNetwork::join`]).
#[derive(Clone, Debug)]
struct StageTables {
    tuples: Vec<Tuple>,
    /// How each tuple reads its index, and where its table starts within the stage.
    index: Vec<(TupleIndex, u32)>,
    /// Whether the tuples are those of a set read by a path of its own.
    path: Path,
    /// The stage's first weight.
    start: usize,
    /// The number of the stage's first table, counting every stage's tables.
    first_table: usize,
}

impl StageTables {
    /// The tables of `tuples`, from weight `start` and table `first_table` on.
    fn new(tuples: Vec<Tuple>, start: usize, first_table: usize) -> StageTables {
        let mut index = Vec::with_capacity(tuples.len());
        let mut offset = 0;
        for tuple in &tuples {
            index.push((TupleIndex::new(tuple), offset as u32));
            offset += tuple.table_len();
        }
        let is = |name| super::tuple::parse_tuples(name).is_ok_and(|t| t == tuples);
        let path = if is("4x6") {
            Path::FourBySix
        } else if is("8x6") {
            Path::EightBySix
        } else {
            Path::General
        };
        StageTables {
            tuples,
            index,
            path,
            start,
            first_table,
        }
    }

    /// The number of weights of the stage.
    fn len(&self) -> usize {
        self.tuples.iter().map(Tuple::table_len).sum()
    }
}

/// How a stage reads its tables: the tuple sets that the search reads most have paths
/// with their shifts known when compiling (the same lookups as the general path, in a
/// fraction of the instructions, and without bounds checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    /// Any tuples, each read as its runs of cells.
    General,
    /// The tuples of `4x6`.
    FourBySix,
    /// The tuples of `8x6`.
    EightBySix,
}

impl NTupleNetwork {
    /// A network of these tuples with every weight 0, one stage.
    ///
    /// # Panics
    ///
    /// When there are more than 16 tuples (see [`MAX_LOOKUPS`]).
    #[must_use]
    pub fn new(tuples: Vec<Tuple>) -> NTupleNetwork {
        NTupleNetwork::with_stages(tuples, Stages::one(), 0.0)
    }

    /// A network of these tuples and stages whose every board is first valued at
    /// `initial_value`: each weight starts at `initial_value / lookups`. An optimistic
    /// start (Guei et al. 2022's optimistic initialization) makes the network try
    /// what it has not seen.
    ///
    /// # Panics
    ///
    /// When there are more than 16 tuples (see [`MAX_LOOKUPS`]).
    #[must_use]
    pub fn with_stages(tuples: Vec<Tuple>, stages: Stages, initial_value: f32) -> NTupleNetwork {
        let stage_len: usize = tuples.iter().map(Tuple::table_len).sum();
        let lookups = 8 * tuples.len();
        let weights = Weights::plain(
            stage_len * stages.count(),
            initial_value / lookups.max(1) as f32,
        );
        let per_stage = vec![tuples; stages.count()];
        NTupleNetwork::from_parts(per_stage, stages, weights, 0, String::new())
    }

    /// A network from its parts: the tuples of each stage, first stage first.
    ///
    /// # Panics
    ///
    /// When there is not one set of tuples per stage, a stage has more than 16
    /// tuples, or the number of weights is not the sum of the tables' lengths.
    pub(crate) fn from_parts(
        per_stage: Vec<Vec<Tuple>>,
        stages: Stages,
        weights: Weights,
        games: u64,
        notes: String,
    ) -> NTupleNetwork {
        assert_eq!(
            per_stage.len(),
            stages.count(),
            "one set of tuples per stage"
        );
        let mut tables: Vec<StageTables> = Vec::with_capacity(per_stage.len());
        let (mut start, mut first_table) = (0, 0);
        for tuples in per_stage {
            assert!(8 * tuples.len() <= MAX_LOOKUPS, "at most 16 tuples");
            // Stages of the same tuples share how they read them.
            let stage = match tables.last() {
                Some(last) if last.tuples == tuples => StageTables {
                    start,
                    first_table,
                    ..last.clone()
                },
                _ => StageTables::new(tuples, start, first_table),
            };
            start += stage.len();
            first_table += stage.tuples.len();
            tables.push(stage);
        }
        assert_eq!(start, weights.len(), "one weight per table entry and stage");
        NTupleNetwork {
            tables,
            stages,
            weights,
            games,
            notes,
            carousel: None,
        }
    }

    /// The tuples of the first stage: those of every stage, unless the network is
    /// [mixed](NTupleNetwork::is_mixed).
    #[must_use]
    pub fn tuples(&self) -> &[Tuple] {
        &self.tables[0].tuples
    }

    /// The tuples of stage `stage` (from 0), or `None` past the last stage.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
    /// let net = NTupleNetwork::with_stages(parse_tuples("0,1")?, "16384".parse()?, 0.0);
    /// assert_eq!(net.stage_tuples(1), Some(net.tuples()));
    /// assert_eq!(net.stage_tuples(2), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn stage_tuples(&self, stage: usize) -> Option<&[Tuple]> {
        self.tables.get(stage).map(|t| t.tuples.as_slice())
    }

    /// The tuples as text, as `--tuples` takes them (`0,1,2;4,5,6`); for a
    /// [mixed](NTupleNetwork::is_mixed) network, each stage's so, joined by ` | `.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
    /// let early = NTupleNetwork::new(parse_tuples("0,1")?);
    /// let late = NTupleNetwork::new(parse_tuples("0,1,2;4,5,6")?);
    /// assert_eq!(late.tuples_text(), "0,1,2;4,5,6");
    /// let joined = NTupleNetwork::join(&[&early, &late], "16384".parse()?)?;
    /// assert_eq!(joined.tuples_text(), "0,1 | 0,1,2;4,5,6");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn tuples_text(&self) -> String {
        self.per_stage_text(|tuples| {
            let each: Vec<String> = tuples.iter().map(ToString::to_string).collect();
            each.join(";")
        })
    }

    /// How many tuples the network reads, as [`NTupleNetwork::tuples_text`] gives them:
    /// one count, or for a [mixed](NTupleNetwork::is_mixed) network each stage's,
    /// joined by ` | `.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
    /// let early = NTupleNetwork::new(parse_tuples("0,1")?);
    /// let late = NTupleNetwork::new(parse_tuples("0,1,2;4,5,6")?);
    /// assert_eq!(late.tuple_counts_text(), "2");
    /// let joined = NTupleNetwork::join(&[&early, &late], "16384".parse()?)?;
    /// assert_eq!(joined.tuple_counts_text(), "1 | 2");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn tuple_counts_text(&self) -> String {
        self.per_stage_text(|tuples| tuples.len().to_string())
    }

    /// `text` of the tuples: of every stage, joined by ` | `, for a
    /// [mixed](NTupleNetwork::is_mixed) network, else of the one set.
    fn per_stage_text(&self, text: impl Fn(&[Tuple]) -> String) -> String {
        if self.is_mixed() {
            let each: Vec<String> = self.tables.iter().map(|t| text(&t.tuples)).collect();
            each.join(" | ")
        } else {
            text(self.tuples())
        }
    }

    /// Whether some stage reads other tuples than the first: a network joined from
    /// networks of other tuples ([`NTupleNetwork::join`]), such as a small network
    /// for the opening under a large one for the late game.
    #[must_use]
    pub fn is_mixed(&self) -> bool {
        self.tables
            .iter()
            .any(|t| t.tuples != self.tables[0].tuples)
    }

    /// The stages: which set of tables values a board.
    #[must_use]
    pub fn stages(&self) -> &Stages {
        &self.stages
    }

    /// The number of weights: every table of every stage.
    #[must_use]
    pub fn weight_count(&self) -> usize {
        self.weights.len()
    }

    /// Every weight: the tables of the first stage in the order of
    /// [`NTupleNetwork::tuples`], then those of the next stage. A table's index reads
    /// the tuple's first cell as its most significant hexadecimal digit.
    #[must_use]
    pub fn weights(&self) -> Vec<f32> {
        self.weights.values()
    }

    /// Weight `i` of [`NTupleNetwork::weights`].
    #[must_use]
    pub fn weight(&self, i: usize) -> f32 {
        self.weights.get(i)
    }

    pub(crate) fn storage(&self) -> &Weights {
        &self.weights
    }

    pub(crate) fn set_storage(&mut self, weights: Weights) {
        assert_eq!(weights.len(), self.weights.len(), "one entry per weight");
        self.weights = weights;
    }

    /// The temporal coherence of every weight, `[E, A]` (the sum of its steps and of
    /// their magnitudes), when the network learns with temporal coherence
    /// ([`Learning::Tc`](super::Learning::Tc)).
    #[must_use]
    pub fn coherence(&self) -> Option<Vec<[f32; 2]>> {
        self.weights.coherence()
    }

    /// Whether the network keeps the coherence of its weights.
    #[must_use]
    pub fn is_coherent(&self) -> bool {
        matches!(self.weights, Weights::Coherent(_))
    }

    /// How many games the network has been trained on.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    pub(crate) fn add_games(&mut self, games: u64) {
        self.games += games;
    }

    /// What made the network, one line per training run (`ai2048 train` writes its
    /// command, seed and times).
    #[must_use]
    pub fn notes(&self) -> &str {
        &self.notes
    }

    /// Adds a line to [`NTupleNetwork::notes`].
    pub fn add_note(&mut self, line: &str) {
        if !self.notes.is_empty() {
            self.notes.push('\n');
        }
        self.notes.push_str(line.trim());
    }

    /// Removes the last line of [`NTupleNetwork::notes`] and returns it: a training
    /// run replaces its own progress line at each save this way.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
    ///
    /// let mut net = NTupleNetwork::new(parse_tuples("0,1").unwrap());
    /// net.add_note("part 1");
    /// net.add_note("part 2 so far");
    /// assert_eq!(net.pop_note().as_deref(), Some("part 2 so far"));
    /// assert_eq!(net.notes(), "part 1");
    /// ```
    pub fn pop_note(&mut self) -> Option<String> {
        if self.notes.is_empty() {
            return None;
        }
        let start = self.notes.rfind('\n').map_or(0, |i| i + 1);
        let line = self.notes[start..].to_owned();
        self.notes.truncate(start.saturating_sub(1));
        Some(line)
    }

    /// The pools of carousel shaping ([`Carousel`]), when the network trains with it;
    /// the file keeps them, so training goes on with them.
    #[must_use]
    pub fn carousel(&self) -> Option<&Carousel> {
        self.carousel.as_ref()
    }

    /// Sets or removes the carousel the network trains with.
    pub fn set_carousel(&mut self, carousel: Option<Carousel>) {
        self.carousel = carousel;
    }

    /// Makes the network train with a carousel over `stages`: a network that goes
    /// round those stages already keeps its pools (so a resumed run goes on with
    /// them), and one that goes round others is an error, as is a carousel of no
    /// threshold.
    ///
    /// # Errors
    ///
    /// [`GoRoundError::OtherStages`] with the stages the network goes round already;
    /// [`GoRoundError::NoStages`] when `stages` has no threshold.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{GoRoundError, NTupleNetwork, Stages};
    /// let mut net = NTupleNetwork::new(vec!["0,1,2,3".parse()?]);
    /// net.go_round("256,512".parse()?)?;
    /// net.go_round("256,512".parse()?)?; // the same stages: the pools are kept
    /// assert_eq!(net.carousel().unwrap().stages().to_string(), "256,512");
    /// let other: Stages = "1024".parse()?;
    /// assert!(matches!(net.go_round(other), Err(GoRoundError::OtherStages(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn go_round(&mut self, stages: Stages) -> Result<(), GoRoundError> {
        match &self.carousel {
            Some(kept) if kept.stages() == &stages => Ok(()),
            Some(kept) => Err(GoRoundError::OtherStages(kept.stages().clone())),
            None => {
                self.carousel = Some(Carousel::new(stages)?);
                Ok(())
            }
        }
    }

    /// Takes the carousel out, for training to fill.
    pub(crate) fn take_carousel(&mut self) -> Option<Carousel> {
        self.carousel.take()
    }

    /// The number of lookups a value takes: eight per tuple (of the stage that reads
    /// the most, where the network is [mixed](NTupleNetwork::is_mixed)).
    #[must_use]
    pub fn features(&self) -> usize {
        self.tables
            .iter()
            .map(|t| 8 * t.tuples.len())
            .max()
            .unwrap_or(0)
    }

    /// The number of lookups the value of `board` takes: eight per tuple of its stage.
    #[must_use]
    #[inline]
    pub fn features_at(&self, board: Board) -> usize {
        8 * self.tables[self.stages.of(board)].tuples.len()
    }

    /// Calls `f` for each tuple with the number of its table (stage after stage, tuple
    /// after tuple), that table within `w` (one entry per weight), and the entries it
    /// reads on the board's eight images, the board read with tiles up to 2^`top`
    /// ([`NTupleNetwork::value_at`]).
    ///
    /// The table comes as its own slice, so that on the `4x6` and `8x6` paths, where its
    /// length and the indices' range are known when compiling, the reads need no bounds
    /// checks.
    #[inline(always)]
    fn each_tuple<X>(
        &self,
        w: &[X],
        board: Board,
        top: u8,
        mut f: impl FnMut(usize, &[X], [usize; 8]),
    ) {
        let stage = &self.tables[self.stages.of(board)];
        let base = stage.start;
        let table = stage.first_table;
        let images = symmetries(capped_at(board, top));
        // The tables of the known sets are each 16^6 entries long; `% T` lets the
        // compiler drop the bounds checks.
        const T: usize = 1 << 24;
        const M: u64 = 0xFFF;
        match stage.path {
            Path::FourBySix => {
                // The tuples of `4x6` with their shifts known when compiling.
                let w = &w[base..base + 4 * T];
                let (t0, rest) = w.split_at(T);
                let (t1, rest) = rest.split_at(T);
                let (t2, t3) = rest.split_at(T);
                f(table, t0, images.map(|b| (b >> 40) as usize % T));
                f(table + 1, t1, images.map(|b| (b >> 24) as usize % T));
                f(
                    table + 2,
                    t2,
                    images.map(|b| (((b >> 52 & M) << 12) | (b >> 36 & M)) as usize % T),
                );
                f(
                    table + 3,
                    t3,
                    images.map(|b| (((b >> 36 & M) << 12) | (b >> 20 & M)) as usize % T),
                );
                return;
            }
            Path::EightBySix => {
                // The tuples of `8x6`, cell k at bits 60 - 4k: each index its runs of
                // cells, the tuple's first cell the most significant digit.
                let w = &w[base..base + 8 * T];
                let t: [&[X]; 8] = core::array::from_fn(|k| &w[k * T..(k + 1) * T]);
                // 0,1,2,4,5,6
                let ix = images.map(|b| (((b >> 52 & M) << 12) | (b >> 36 & M)) as usize % T);
                f(table, t[0], ix);
                // 4,5,6,7,8,9
                f(table + 1, t[1], images.map(|b| (b >> 24) as usize % T));
                // 0,1,2,3,4,5
                f(table + 2, t[2], images.map(|b| (b >> 40) as usize % T));
                // 2,3,4,5,6,9
                let ix =
                    images.map(|b| (((b >> 36 & 0xF_FFFF) << 4) | (b >> 24 & 0xF)) as usize % T);
                f(table + 3, t[3], ix);
                // 0,1,2,5,9,10
                let ix = images.map(|b| {
                    (((b >> 52 & M) << 12) | ((b >> 40 & 0xF) << 8) | (b >> 20 & 0xFF)) as usize % T
                });
                f(table + 4, t[4], ix);
                // 3,4,5,6,7,8
                f(table + 5, t[5], images.map(|b| (b >> 28) as usize % T));
                // 1,3,4,5,6,7
                let ix =
                    images.map(|b| (((b >> 56 & 0xF) << 20) | (b >> 32 & 0xF_FFFF)) as usize % T);
                f(table + 6, t[6], ix);
                // 0,1,4,8,9,10
                let ix = images.map(|b| {
                    (((b >> 56 & 0xFF) << 16) | ((b >> 44 & 0xF) << 12) | (b >> 20 & M)) as usize
                        % T
                });
                f(table + 7, t[7], ix);
                return;
            }
            Path::General => {}
        }
        for (t, ((tuple, offset), spec)) in stage.index.iter().zip(&stage.tuples).enumerate() {
            let start = base + *offset as usize;
            let weights = &w[start..start + spec.table_len()];
            f(table + t, weights, images.map(|image| tuple.index(image)));
        }
    }

    /// The learned value of `board`: for an afterstate, the score still to come. A
    /// board holding tiles past 32768 is read downgraded (see [`NTupleNetwork::value_at`]).
    #[must_use]
    #[inline]
    pub fn value(&self, board: Board) -> f32 {
        self.value_at(board, 15)
    }

    /// The learned value of `board` read with tiles up to 2^`top` (`top` from 1 to 15):
    /// a board holding a larger tile is *downgraded* (Guei et al. 2022), its smallest
    /// missing tile filled by halving every tile above it, until its largest tile is
    /// 2^`top`. So a network that has learned little past some tile values the boards
    /// beyond it by the positions it knows that look most like them.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
    /// use ai2048_engine::Board;
    /// let net = NTupleNetwork::new(parse_tuples("small")?);
    /// let known: Board = "2 4 16384 8/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// net.learn(known, 1000.0);
    /// // Read up to 16384, its tiles above the 2 halve (the gap at 4 is filled):
    /// let past: Board = "2 8 32768 16/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// assert_eq!(net.value_at(past, 14), net.value(known));
    /// assert_ne!(net.value(past), net.value(known));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn value_at(&self, board: Board, top: u8) -> f32 {
        let mut sum = 0.0;
        match &self.weights {
            Weights::Plain(w) => self.each_tuple(w, board, top, |_, w, ix| {
                sum += ix.iter().map(|&i| weights::get(&w[i])).sum::<f32>();
            }),
            Weights::Coherent(w) => self.each_tuple(w, board, top, |_, w, ix| {
                sum += ix.iter().map(|&i| weights::get(&w[i][0])).sum::<f32>();
            }),
            Weights::Quantized(q) => {
                let scales = &q.scales;
                self.each_tuple(&q.values, board, top, |t, values, ix| {
                    let n: i32 = ix.iter().map(|&i| i32::from(values[i])).sum();
                    sum += n as f32 * scales[t];
                });
            }
        }
        sum
    }

    /// Asks the memory for the weights `board` reads (see [`crate::prefetch`]), so that
    /// a value or step of it soon after finds them in the cache. Changes nothing else.
    #[inline]
    pub(crate) fn prefetch(&self, board: Board) {
        use crate::prefetch::prefetch;
        match &self.weights {
            Weights::Plain(w) => self.each_tuple(w, board, 15, |_, w, ix| {
                ix.iter().for_each(|&i| prefetch(&w[i]));
            }),
            Weights::Coherent(w) => self.each_tuple(w, board, 15, |_, w, ix| {
                ix.iter().for_each(|&i| prefetch(&w[i]));
            }),
            Weights::Quantized(q) => self.each_tuple(&q.values, board, 15, |_, v, ix| {
                ix.iter().for_each(|&i| prefetch(&v[i]));
            }),
        }
    }

    /// Moves every weight `board` reads by `step` (scaled by its coherence when the
    /// network keeps it).
    ///
    /// # Panics
    ///
    /// When the weights are quantized: they are for play.
    #[inline]
    pub(crate) fn step(&self, board: Board, step: f32) {
        match &self.weights {
            Weights::Plain(w) => self.each_tuple(w, board, 15, |_, w, ix| {
                ix.iter().for_each(|&i| weights::step(&w[i], step));
            }),
            Weights::Coherent(w) => self.each_tuple(w, board, 15, |_, w, ix| {
                ix.iter().for_each(|&i| weights::step_coherent(&w[i], step));
            }),
            Weights::Quantized(_) => panic!("a quantized network does not learn"),
        }
    }

    /// [`NTupleNetwork::step`], returning the value of `board` after it, as
    /// [`NTupleNetwork::value`] would: the board's indices are found once for both.
    /// Each tuple's weights are read back after all eight of its steps, since a board
    /// that is its own mirror image reads some weight twice.
    ///
    /// # Panics
    ///
    /// When the weights are quantized: they are for play.
    #[inline]
    pub(crate) fn step_value(&self, board: Board, step: f32) -> f32 {
        let mut sum = 0.0;
        match &self.weights {
            Weights::Plain(w) => self.each_tuple(w, board, 15, |_, w, ix| {
                ix.iter().for_each(|&i| weights::step(&w[i], step));
                sum += ix.iter().map(|&i| weights::get(&w[i])).sum::<f32>();
            }),
            Weights::Coherent(w) => self.each_tuple(w, board, 15, |_, w, ix| {
                ix.iter().for_each(|&i| weights::step_coherent(&w[i], step));
                sum += ix.iter().map(|&i| weights::get(&w[i][0])).sum::<f32>();
            }),
            Weights::Quantized(_) => panic!("a quantized network does not learn"),
        }
        sum
    }

    /// Where each table starts among the weights, stage after stage, and the end.
    pub(crate) fn table_starts(&self) -> Vec<usize> {
        table_starts(self.tables.iter().map(|t| t.tuples.as_slice()))
    }

    /// The tuple of each table, stage after stage, tuple after tuple.
    pub(crate) fn table_tuples(&self) -> impl Iterator<Item = &Tuple> + '_ {
        self.tables.iter().flat_map(|t| &t.tuples)
    }

    /// The number of weights that are not 0.
    #[must_use]
    pub fn nonzero_weights(&self) -> usize {
        match &self.weights {
            Weights::Quantized(q) => q.values.iter().filter(|&&v| v != 0).count(),
            w => (0..w.len()).filter(|&i| w.get(i) != 0.0).count(),
        }
    }

    /// The weights counted by the largest tile their entry holds, as (not 0, all):
    /// element `e` for 2^`e` (0 for an entry of empty cells only). What a network has
    /// learned of each tile: training moves only the weights of boards it has seen.
    #[must_use]
    pub fn learned_by_largest_tile(&self) -> [(u64, u64); 16] {
        let mut counts = [(0u64, 0u64); 16];
        let starts = self.table_starts();
        for (pair, tuple) in starts.windows(2).zip(self.table_tuples()) {
            let cells = tuple.cells().len();
            for (entry, i) in (pair[0]..pair[1]).enumerate() {
                let largest = largest_exponent(entry, cells);
                counts[largest].0 += u64::from(self.weights.get(i) != 0.0);
                counts[largest].1 += 1;
            }
        }
        counts
    }

    /// Whether the weights are quantized ([`NTupleNetwork::quantized`]).
    #[must_use]
    pub fn is_quantized(&self) -> bool {
        matches!(self.weights, Weights::Quantized(_))
    }

    /// Moves the value of `board` by `delta`, shared equally among the weights it reads
    /// (scaled by their coherence when the network keeps it).
    ///
    /// # Panics
    ///
    /// When the weights are quantized ([`NTupleNetwork::is_quantized`]): a packed
    /// network learns through a [`Trainer`](super::Trainer), which turns its weights
    /// back into `f32` first.
    pub fn learn(&self, board: Board, delta: f32) {
        self.step(board, delta / self.features_at(board) as f32);
    }
}

/// The largest tile exponent that `entry` of a table of a `cells`-cell tuple shows
/// (0 when its cells are all empty): each cell's exponent is a hexadecimal digit of the
/// entry.
fn largest_exponent(entry: usize, cells: usize) -> usize {
    (0..cells)
        .map(|k| entry >> (4 * k) & 0xF)
        .max()
        .unwrap_or(0)
}

/// Where each table starts among the weights, stage after stage (each with its
/// tuples), tuple after tuple, and the end.
pub(crate) fn table_starts<'a>(per_stage: impl IntoIterator<Item = &'a [Tuple]>) -> Vec<usize> {
    let mut starts = vec![0];
    for tuples in per_stage {
        for tuple in tuples {
            starts.push(starts.last().copied().unwrap_or(0) + tuple.table_len());
        }
    }
    starts
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
#[inline]
pub fn implied_score(board: Board) -> u64 {
    if board.has_high_tiles() {
        return board
            .exponents()
            .iter()
            .filter(|&&e| e >= 2)
            .map(|&e| u64::from(e - 1) << e)
            .sum();
    }
    let b = board.low_bits();
    (0..8)
        .map(|k| u64::from(IMPLIED_PAIR[(b >> (8 * k)) as usize & 0xFF]))
        .sum()
}

/// [`implied_score`] of two cells, by the byte holding their exponents.
static IMPLIED_PAIR: [u32; 256] = {
    const fn one(e: u32) -> u32 {
        if e >= 2 {
            (e - 1) << e
        } else {
            0
        }
    }
    let mut table = [0; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = one(i as u32 >> 4) + one(i as u32 & 0xF);
        i += 1;
    }
    table
};

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
        let net = NTupleNetwork::new(parse_tuples("small").expect("valid"));
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
    fn a_step_returns_the_value_after_it() {
        // The 4x6 tables (their own path) and others, plain and coherent; a board that
        // is its own mirror image reads some weights twice, and the value must count
        // both steps of each.
        for tuples in ["4x6", "0,1;2,3,6"] {
            let plain = NTupleNetwork::new(parse_tuples(tuples).expect("valid"));
            let mut coherent = plain.clone();
            let tc = crate::ntuple::TrainConfig {
                learning: crate::ntuple::Learning::Tc,
                ..crate::ntuple::TrainConfig::default()
            };
            crate::ntuple::Trainer::new(tc).prepare(&mut coherent);
            assert!(coherent.is_coherent());
            for net in [&plain, &coherent] {
                for text in [
                    "2 0 0 2/0 0 0 0/0 0 0 0/2 0 0 2",
                    "2 4 8 16/0 0 0 32/0 0 2 0/4 0 0 0",
                ] {
                    let b = board(text);
                    net.step(b, 1.5);
                    let returned = net.step_value(b, -0.25);
                    assert_eq!(returned, net.value(b), "{tuples} {text}");
                }
            }
        }
    }

    #[test]
    fn learning_moves_the_value_by_delta() {
        let net = NTupleNetwork::new(parse_tuples("0,1;2,3,6").expect("valid"));
        assert_eq!(net.weight_count(), 256 + 4096);
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
    fn the_fast_paths_read_what_the_general_path_reads() {
        for (name, path) in [("4x6", Path::FourBySix), ("8x6", Path::EightBySix)] {
            a_fast_path_reads_what_the_general_path_reads(name, path);
        }
        assert_eq!(
            NTupleNetwork::new(parse_tuples("small").expect("valid")).tables[0].path,
            Path::General
        );
    }

    fn a_fast_path_reads_what_the_general_path_reads(name: &str, path: Path) {
        let mut fast = NTupleNetwork::new(parse_tuples(name).expect("valid"));
        assert_eq!(fast.tables[0].path, path);
        let mut rng = ai2048_engine::Rng::new(5);
        let boards: Vec<Board> = (0..200)
            .map(|_| Board::from_u64(rng.next_u64() & 0xBBBB_BBBB_BBBB_BBBB))
            .chain(["131072 65536 4 2/0 0 0 0/0 0 0 0/0 0 0 0"
                .parse()
                .expect("a board")])
            .collect();
        for (i, &b) in boards.iter().enumerate() {
            fast.learn(b, i as f32 * 0.37 - 20.0);
        }
        let mut general = fast.clone();
        general.tables[0].path = Path::General;
        for &b in &boards {
            assert_eq!(fast.value(b).to_bits(), general.value(b).to_bits(), "{b}");
        }
        // And steps land on the same weights.
        fast.tables[0].path = path;
        fast.learn(boards[3], 100.0);
        general.learn(boards[3], 100.0);
        assert_eq!(fast.value(boards[3]), general.value(boards[3]));
    }

    #[test]
    fn each_stage_has_its_tables() {
        let stages: Stages = "16384".parse().expect("valid");
        let net = NTupleNetwork::with_stages(parse_tuples("0,1").expect("valid"), stages, 16.0);
        assert_eq!(net.weight_count(), 2 * 256);
        let early = board("2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 8192");
        let late = board("2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 16384");
        // Every board starts at the initial value: 8 lookups of 2.
        assert_eq!(net.value(early), 16.0);
        net.learn(late, 8.0);
        assert_eq!(net.value(early), 16.0);
        assert!(net.value(late) >= 24.0, "{}", net.value(late));
    }

    #[test]
    fn the_implied_score_by_pairs_is_the_sum_over_tiles() {
        let mut rng = ai2048_engine::Rng::new(9);
        for _ in 0..1000 {
            let b = Board::from_u64(rng.next_u64());
            let slow: u64 = b
                .exponents()
                .iter()
                .filter(|&&e| e >= 2)
                .map(|&e| u64::from(e - 1) << e)
                .sum();
            assert_eq!(implied_score(b), slow, "{b}");
        }
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
