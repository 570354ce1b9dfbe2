//! Every named evaluation, its weights and their defaults, as data: [`EVALS`].

use std::sync::Arc;

use super::cobb_douglas::COBB_DOUGLAS_EXPONENTS;
use super::matrix::{CORNER, DIAGONAL, SNAKE};
use super::{EvalConfig, EvalError, Evaluator, HeuristicWeights};

/// The largest magnitude of a weight, unless its [`WeightInfo`] says less: it keeps
/// every evaluation finite.
pub const MAX_WEIGHT: f64 = 1e9;

/// One tunable weight of an evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightInfo {
    /// Its name in weights files and in the `w.NAME` player option.
    pub name: &'static str,
    /// Its default value.
    pub default: f64,
    /// The smallest value it may take.
    pub min: f64,
    /// The largest value it may take.
    pub max: f64,
}

impl WeightInfo {
    /// A weight that may take any value up to [`MAX_WEIGHT`] in size.
    const fn free(name: &'static str, default: f64) -> WeightInfo {
        WeightInfo {
            name,
            default,
            min: -MAX_WEIGHT,
            max: MAX_WEIGHT,
        }
    }

    /// A weight from `min` to `max`.
    const fn bounded(name: &'static str, default: f64, min: f64, max: f64) -> WeightInfo {
        WeightInfo {
            name,
            default,
            min,
            max,
        }
    }
}

/// How an evaluation is built from its weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A [`super::RowTable`] of [`HeuristicWeights`].
    Heuristic,
    /// [`super::Simple`], without weights.
    Simple,
    /// [`super::Lines`], its weights the factors of a lost board's value and of a
    /// climb's cost.
    Lines,
    /// A [`super::MatrixEval`]: the sixteen matrix weights, then `empty`.
    Matrix,
    /// A [`super::Weighted`]: one weight per feature, named as the feature.
    Weighted,
    /// A [`super::CobbDouglas`]: the four exponents.
    CobbDouglas,
}

/// What a front end can tell users about an evaluation, and what it is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalInfo {
    /// The name to create it by (`eval=NAME`).
    pub name: &'static str,
    /// One line on what it does.
    pub about: &'static str,
    /// Its tunable weights, in the order of [`EvalConfig::params`].
    pub weights: &'static [WeightInfo],
    pub(crate) kind: Kind,
}

impl EvalInfo {
    /// Whether it is a weight-matrix evaluation: its first sixteen weights are a matrix
    /// (`m00` to `m33`, row then column), and it takes the `symmetric` option.
    #[must_use]
    pub fn has_matrix(&self) -> bool {
        self.kind == Kind::Matrix
    }

    /// The names of its weights, in order.
    pub fn weight_names(&self) -> impl Iterator<Item = &'static str> {
        self.weights.iter().map(|w| w.name)
    }

    /// The index of weight `name`.
    #[must_use]
    pub fn weight_index(&self, name: &str) -> Option<usize> {
        self.weights.iter().position(|w| w.name == name)
    }

    /// Its default weights.
    #[must_use]
    pub fn defaults(&self) -> Vec<f64> {
        self.weights.iter().map(|w| w.default).collect()
    }
}

/// The names of the matrix weights, row then column.
pub const MATRIX_NAMES: [&str; 16] = [
    "m00", "m01", "m02", "m03", "m10", "m11", "m12", "m13", "m20", "m21", "m22", "m23", "m30",
    "m31", "m32", "m33",
];

/// The weights of a matrix evaluation: the matrix, then the bonus per empty cell
/// (2 for `corner`, as the ZHAW blog adds one, and `diagonal`, which plays better with
/// it; 0 for `snake`, whose matrix alone plays best).
const fn matrix_weights(matrix: &[f64; 16], empty: f64) -> [WeightInfo; 17] {
    let mut out = [WeightInfo::free("empty", empty); 17];
    let mut i = 0;
    while i < 16 {
        out[i] = WeightInfo::free(MATRIX_NAMES[i], matrix[i]);
        i += 1;
    }
    out
}

/// The weights of `lines`: the factor of a lost board's value (2 is macroxue's; a large
/// one values a loss below every board), and of a climb's cost (12, macroxue's).
const LINES_WEIGHTS: [WeightInfo; 2] = [
    WeightInfo::bounded("lost", super::Lines::DEFAULT_LOST, 0.0, 1e6),
    WeightInfo::bounded("climb", super::Lines::DEFAULT_CLIMB, 0.0, 1e3),
];

const CORNER_WEIGHTS: [WeightInfo; 17] = matrix_weights(&CORNER, 2.0);
const SNAKE_WEIGHTS: [WeightInfo; 17] = matrix_weights(&SNAKE, 0.0);
const DIAGONAL_WEIGHTS: [WeightInfo; 17] = matrix_weights(&DIAGONAL, 2.0);

/// The powers of the heuristic must keep `e^p` finite and defined at `e = 0`.
const MAX_POWER: f64 = 10.0;

const HEURISTIC_WEIGHTS: [WeightInfo; 7] = {
    let d = HeuristicWeights::TUNED.to_array();
    let n = HeuristicWeights::NAMES;
    [
        WeightInfo::free(n[0], d[0]),
        WeightInfo::free(n[1], d[1]),
        WeightInfo::free(n[2], d[2]),
        WeightInfo::free(n[3], d[3]),
        WeightInfo::bounded(n[4], d[4], 0.0, MAX_POWER),
        WeightInfo::free(n[5], d[5]),
        WeightInfo::bounded(n[6], d[6], 0.0, MAX_POWER),
    ]
};

/// The default weights of the features, set by hand from a few hundred games at
/// expectimax depth 1.
const WEIGHTED_WEIGHTS: [WeightInfo; 6] = [
    WeightInfo::free("empty", 1.5),
    WeightInfo::free("smoothness", 0.1),
    WeightInfo::free("monotonicity", 2.0),
    WeightInfo::free("merges", 2.0),
    WeightInfo::free("sum", 0.0),
    WeightInfo::free("max", 2.0),
];

/// Cobb-Douglas exponents: non-negative, so the utility stays in [0, 1].
const COBB_DOUGLAS_WEIGHTS: [WeightInfo; 4] = {
    let d = COBB_DOUGLAS_EXPONENTS;
    [
        WeightInfo::bounded("monotonicity", d[0], 0.0, 100.0),
        WeightInfo::bounded("emptiness", d[1], 0.0, 100.0),
        WeightInfo::bounded("mergeability", d[2], 0.0, 100.0),
        WeightInfo::bounded("max_tile", d[3], 0.0, 100.0),
    ]
};

/// A single feature with weight 1.
const fn single(name: &'static str) -> [WeightInfo; 1] {
    [WeightInfo::free(name, 1.0)]
}

/// The evaluation by one feature, of [`Kind::Weighted`] with the [`single`] weight.
macro_rules! one_feature {
    ($name:literal, $about:literal) => {
        EvalInfo {
            name: $name,
            about: $about,
            weights: &single($name),
            kind: Kind::Weighted,
        }
    };
}

/// Every named evaluation, the default first.
pub const EVALS: &[EvalInfo] = &[
    EvalInfo {
        name: "heuristic",
        about: "nneonneo's row-table heuristic (empty cells, merges, monotonicity, tile sums \
                of every row and column), precomputed for all 65536 rows",
        weights: &HEURISTIC_WEIGHTS,
        kind: Kind::Heuristic,
    },
    EvalInfo {
        name: "simple",
        about: "the snake matrix on tile values plus 64 per empty cell (greedy's default)",
        weights: &[],
        kind: Kind::Simple,
    },
    EvalInfo {
        name: "lines",
        about: "rows and columns scored as they descend from the top-left corner, tiles \
                weighted e * 2^e (macroxue's heuristic), a climb costing w.climb times the \
                weights' difference; a lost board scores minus w.lost times its largest \
                tile's weight (or 2^17)",
        weights: &LINES_WEIGHTS,
        kind: Kind::Lines,
    },
    EvalInfo {
        name: "corner",
        about: "tile values weighted by a corner matrix (ZHAW), plus a bonus per empty cell",
        weights: &CORNER_WEIGHTS,
        kind: Kind::Matrix,
    },
    EvalInfo {
        name: "snake",
        about: "tile values weighted along a snake path from the top-left corner (DTU)",
        weights: &SNAKE_WEIGHTS,
        kind: Kind::Matrix,
    },
    EvalInfo {
        name: "diagonal",
        about: "tile values weighted by anti-diagonals from the top-left corner (DTU)",
        weights: &DIAGONAL_WEIGHTS,
        kind: Kind::Matrix,
    },
    EvalInfo {
        name: "weighted",
        about: "a weighted sum of features on exponents: empty, smoothness, monotonicity, \
                merges, sum, max",
        weights: &WEIGHTED_WEIGHTS,
        kind: Kind::Weighted,
    },
    EvalInfo {
        name: "cobb-douglas",
        about: "a product of normalized heuristics in [0, 1] (monotonicity, emptiness, \
                mergeability, max tile) raised to exponents (React AI)",
        weights: &COBB_DOUGLAS_WEIGHTS,
        kind: Kind::CobbDouglas,
    },
    one_feature!("empty", "the number of empty cells"),
    one_feature!(
        "smoothness",
        "minus the differences of neighbouring exponents"
    ),
    one_feature!(
        "monotonicity",
        "minus the non-monotonicity of the rows and columns"
    ),
    one_feature!("merges", "the number of neighbouring pairs of equal tiles"),
];

/// The name of the default evaluation of the searches.
pub const DEFAULT_EVAL: &str = "heuristic";

/// The evaluation called `name`.
///
/// # Errors
///
/// When no evaluation has that name; the message lists the known ones.
pub fn eval_info(name: &str) -> Result<&'static EvalInfo, EvalError> {
    EVALS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| EvalError::UnknownEval {
            name: name.to_owned(),
        })
}

/// Creates the evaluation called `name`, with the weights of `config` if given, else
/// its defaults.
///
/// # Errors
///
/// When the name is unknown (the message lists the known ones) or `config` is for
/// another evaluation.
///
/// ```
/// use ai2048_ai::eval::{create_eval, EvalConfig};
/// use ai2048_engine::Board;
/// let snake = create_eval("snake", None)?;
/// let board: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert_eq!(snake.eval(board), 2.0);
///
/// let mut config = EvalConfig::new("snake")?;
/// config.set("empty", 10.0)?;
/// assert_eq!(create_eval("snake", Some(&config))?.eval(board), 2.0 + 150.0);
/// assert!(create_eval("corner", Some(&config)).is_err());
/// assert!(create_eval("nope", None).err().unwrap().to_string().contains("snake"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn create_eval(
    name: &str,
    config: Option<&EvalConfig>,
) -> Result<Arc<dyn Evaluator>, EvalError> {
    let info = eval_info(name)?;
    match config {
        None => Ok(EvalConfig::from_info(info).build()),
        Some(c) if c.name() == info.name => Ok(c.build()),
        Some(c) => Err(EvalError::WrongEval {
            weights_for: c.name().to_owned(),
            eval: name.to_owned(),
        }),
    }
}
