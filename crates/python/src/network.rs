//! `ai2048.Network`: an n-tuple network of `ai2048_ai::ntuple`, to train, save, load
//! and ask for values and moves.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use ai2048_ai::check_player;
use ai2048_ai::eval::Evaluator;
use ai2048_ai::ntuple::{
    best_afterstate, check_initial_value, parse_tuples, player_policy, Learning, NTupleNetwork,
    Restart, Stages, TrainConfig, Trainer,
};
use ai2048_bench::PoolGames;
use ai2048_engine::PlayableBoard;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::board::BoardArg;
use crate::direction::py_dir;
use crate::errors::{bench_error, network_error, player_error, value_error};
use crate::game::rules_of;
use crate::player::spec_of;
use crate::worker::run_stoppable;

/// How long training runs without the GIL before it looks for Ctrl-C.
const TRAIN_SLICE: Duration = Duration::from_millis(100);

/// An n-tuple network: a learned evaluation, trained by TD learning over games it
/// plays itself, as ``ai2048 train`` trains it.
///
/// ``Network("small")`` is a new network of the named tuple set (``"4x6"``, 256 MiB;
/// ``"small"``, 1.25 MiB) or of cells such as ``"0,1,2,3;4,5,6,7"``, every weight 0.
/// ``stages`` (such as ``"16384"``: sums of a board's distinct tiles, as ``ai2048 train
/// --stages``) gives each stage of the game tables of its own; ``init`` values every
/// board at that at first (an optimistic start, as ``--init``).
/// Save it with :meth:`save`, read it back with :meth:`load`, and play with it through
/// ``Player("greedy", network=path)`` or ``Player("expectimax", network=path)``.
#[pyclass(frozen, module = "ai2048", name = "Network")]
pub(crate) struct PyNetwork {
    inner: Mutex<NTupleNetwork>,
}

impl PyNetwork {
    fn net(&self) -> MutexGuard<'_, NTupleNetwork> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Makes the network train with a carousel over the stages `text`; one that goes
    /// round them already keeps its pools, and one that goes round others is an error.
    fn go_round(&self, text: &str) -> PyResult<()> {
        let stages: Stages = text
            .parse()
            .map_err(|e| value_error(format!("carousel: {e}")))?;
        self.net()
            .go_round(stages)
            .map_err(|e| value_error(format!("carousel: {e}")))
    }

    /// Fills the carousel's pools from `games` games of `player`, on the threads and
    /// rules of `config`, seeded from its seed and the games trained so far.
    fn fill_pools(
        &self,
        py: Python<'_>,
        player: &str,
        games: u64,
        config: &TrainConfig,
    ) -> PyResult<()> {
        let (carousel, trained_games) = {
            let net = self.net();
            (net.carousel().cloned(), net.games())
        };
        let Some(mut carousel) = carousel else {
            return Err(value_error(
                "pools_by fills the carousel's pools: give carousel (such as \"16384,24576\") too",
            ));
        };
        let spec = spec_of(player, None, None)?;
        check_player(&spec).map_err(|e| player_error(&e))?;
        if games == 0 {
            return Err(value_error("pool_games must be at least 1"));
        }
        let pool_games = PoolGames {
            threads: config.threads,
            rules: config.rules,
            ..PoolGames::new(spec, games, config.seed)
        };
        // A copy of the carousel fills, so that the network is not locked meanwhile.
        let filled = run_stoppable(py, None, |stop| {
            pool_games.fill(&mut carousel, trained_games, stop)
        })?
        .map_err(|e| bench_error(&e))?;
        if filled {
            self.net().set_carousel(Some(carousel));
        }
        Ok(())
    }
}

#[pymethods]
impl PyNetwork {
    #[new]
    #[pyo3(signature = (tuples = "4x6", *, stages = None, init = 0.0))]
    fn new(tuples: &str, stages: Option<&str>, init: f32) -> PyResult<PyNetwork> {
        let tuples = parse_tuples(tuples).map_err(|e| value_error(format!("tuples: {e}")))?;
        let stages = stages
            .map(str::parse::<Stages>)
            .transpose()
            .map_err(|e| value_error(format!("stages: {e}")))?;
        check_initial_value(init).map_err(|e| value_error(format!("init {e}")))?;
        Ok(PyNetwork {
            inner: Mutex::new(NTupleNetwork::with_stages(
                tuples,
                stages.unwrap_or_default(),
                init,
            )),
        })
    }

    /// The network in the file at ``path``, as ``ai2048 train`` or :meth:`save` wrote
    /// it. Raises OSError when the file cannot be read and ValueError when it is not a
    /// whole network (the message says what is wrong).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<PyNetwork> {
        let net = py
            .detach(|| NTupleNetwork::load(&path))
            .map_err(|e| network_error(&path, &e))?;
        Ok(PyNetwork {
            inner: Mutex::new(net),
        })
    }

    /// Writes the network to ``path``: into a temporary file beside it, then renamed
    /// over it, so that an interrupted save leaves the old file whole.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| self.net().save(&path)).map_err(PyErr::from)
    }

    /// Trains the network on ``games`` more games (TD(0) on afterstates), played under
    /// the rules ``start_tiles`` and ``p4``; game g of the network's life plays from
    /// ``derive_seed(seed, g)``, so training in parts with one thread makes the
    /// network that training at once makes.
    ///
    /// ``learning`` is ``"tc"`` (temporal coherence: each weight's steps scaled by how
    /// consistent its errors are) or ``"td"`` (plain steps); a network goes on as it
    /// has learned unless told, and a new one learns with ``"tc"``. ``alpha``, the
    /// learning rate, is 1 for tc and 0.1 for td unless given. ``threads`` train at
    /// once on the same weights, without locks (with more than one the result varies
    /// from run to run). ``restart``, a fraction from 0 to 1, plays on from that far
    /// through each game once it ends, again and again, so the end game trains more.
    /// ``steps`` above 1 learns toward the TD(λ) return over that many moves ahead,
    /// with ``lambda_`` (1 makes it ``steps``-step TD). ``backward`` learns each game
    /// (and each restart's play) once it ends, from its end back to its start, toward
    /// the λ-return over the rest of it, with ``lambda_``. ``search``, 0 to 2, is the
    /// chance layers of expectimax that choose the training games' moves (0: the
    /// network one ply deep; 1 about 23 times slower). ``carousel`` (such as
    /// ``"16384,24576"``) starts the games in turn anew and from pools of positions
    /// where earlier games entered each of those stages (carousel shaping, as ``ai2048
    /// train --carousel``); the pools are kept with the network, which goes on with
    /// them. ``pools_by`` (a player, such as ``"expectimax:depth=1"``) first fills
    /// the carousel's pools from ``pool_games`` games of that player (as ``ai2048 train
    /// --pools-by``), played on ``threads`` threads and seeded from ``seed`` and the
    /// games trained so far (apart from the training games' seeds), so that stages
    /// the network's own games do not yet reach have positions to start from; Ctrl-C
    /// there stops before any training, the pools unchanged. ``policy`` (a player, such
    /// as ``"expectimax:depth=3"``) plays the training games' moves instead of the
    /// network (as ``ai2048 train --policy``): the network learns the values of that
    /// player's positions; ``search`` must then be 0.
    ///
    /// Returns the games' outcomes as a dict of lists, ``score``, ``max_tile`` and
    /// ``moves``, in the order they ended: the learning curve. The GIL is released
    /// while training; Ctrl-C stops it between games, and the games trained so far
    /// stay learned.
    #[pyo3(signature = (games, *, learning = None, alpha = None, seed = 0, start_tiles = 2, p4 = 0.1, threads = 1, restart = None, steps = 1, lambda_ = 0.0, backward = false, search = 0, carousel = None, pools_by = None, pool_games = 1000, policy = None))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn train<'py>(
        &self,
        py: Python<'py>,
        games: u64,
        learning: Option<&str>,
        alpha: Option<f32>,
        seed: u64,
        start_tiles: i64,
        p4: f64,
        threads: usize,
        restart: Option<f32>,
        steps: u32,
        lambda_: f32,
        backward: bool,
        search: u32,
        carousel: Option<&str>,
        pools_by: Option<&str>,
        pool_games: u64,
        policy: Option<&str>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let asked = learning
            .map(str::parse::<Learning>)
            .transpose()
            .map_err(|e| value_error(e.to_string()))?;
        let learning = self.net().learning_for(asked);
        let config = TrainConfig {
            alpha: alpha.unwrap_or_else(|| learning.default_alpha()),
            learning,
            seed,
            rules: rules_of(start_tiles, p4, false)?,
            threads,
            restart: restart.map(|at| Restart {
                at,
                ..Restart::default()
            }),
            steps,
            lambda: lambda_,
            backward,
            search,
        };
        config.validate().map_err(|e| {
            // Python spells the keyword `lambda_`.
            let name = match e.field() {
                "lambda" => "lambda_",
                field => field,
            };
            value_error(e.message(name))
        })?;
        if policy.is_some() && search > 0 {
            return Err(value_error(
                "policy plays the training games' moves: search must be 0 with it",
            ));
        }
        let policy = policy
            .map(|text| {
                player_policy(&spec_of(text, None, None)?, seed).map_err(|e| player_error(&e))
            })
            .transpose()?;
        if let Some(text) = carousel {
            self.go_round(text)?;
        }
        if let Some(player) = pools_by {
            self.fill_pools(py, player, pool_games, &config)?;
        }
        let mut trainer = Trainer::new(config);
        if let Some((_, make)) = policy {
            trainer = trainer.with_policy(make);
        }
        let played = Mutex::new((Vec::new(), Vec::new(), Vec::new()));
        let mut trained = 0;
        while trained < games {
            trained += py.detach(|| {
                let until = Instant::now() + TRAIN_SLICE;
                trainer.train(
                    &mut self.net(),
                    games - trained,
                    &|| Instant::now() < until,
                    &|game| {
                        let mut p = played.lock().unwrap_or_else(PoisonError::into_inner);
                        p.0.push(game.score);
                        p.1.push(game.max_tile);
                        p.2.push(game.moves);
                    },
                )
            });
            py.check_signals()?;
        }
        let (scores, tiles, moves) = played.into_inner().unwrap_or_else(PoisonError::into_inner);
        let out = PyDict::new(py);
        out.set_item("score", PyList::new(py, scores)?)?;
        out.set_item("max_tile", PyList::new(py, tiles)?)?;
        out.set_item("moves", PyList::new(py, moves)?)?;
        Ok(out)
    }

    /// The learned value of ``board``: for a board after a move, before the spawn,
    /// the score the network expects still to come.
    fn value(&self, board: BoardArg) -> f64 {
        f64::from(self.net().value(board.0))
    }

    /// The value as players see it: :meth:`value` plus the score the board's tiles
    /// imply, so that boards after different moves compare by the score each move made
    /// plus what it leaves to come.
    fn evaluate(&self, board: BoardArg) -> f64 {
        self.net().eval(board.0)
    }

    /// The move the network makes one ply deep, as it plays in training: the legal
    /// move with the highest score plus value, as ``(direction, total)``; ``(None,
    /// 0.0)`` when no move is legal.
    fn best_move<'py>(
        &self,
        py: Python<'py>,
        board: BoardArg,
    ) -> PyResult<(Option<Bound<'py, PyAny>>, f64)> {
        match best_afterstate(&self.net(), PlayableBoard::new(board.0)) {
            Some(a) => Ok((Some(py_dir(py, a.dir)?), f64::from(a.total))),
            None => Ok((None, 0.0)),
        }
    }

    /// The games the network has been trained on.
    #[getter]
    fn games(&self) -> u64 {
        self.net().games()
    }

    /// The tuples, as lists of cell numbers (cell ``4 * row + col``): those of the
    /// first stage, which are every stage's unless the network is mixed (joined from
    /// networks of other tuples; see ``stage_tuples``).
    #[getter]
    fn tuples(&self) -> Vec<Vec<u32>> {
        self.net()
            .tuples()
            .iter()
            .map(|t| t.cells().iter().map(|&c| u32::from(c)).collect())
            .collect()
    }

    /// The tuples of each stage, first stage first, as lists of cell numbers: one
    /// list per stage, each as ``tuples`` gives the first.
    #[getter]
    fn stage_tuples(&self) -> Vec<Vec<Vec<u32>>> {
        let net = self.net();
        (0..net.stages().count())
            .filter_map(|s| net.stage_tuples(s))
            .map(|tuples| {
                tuples
                    .iter()
                    .map(|t| t.cells().iter().map(|&c| u32::from(c)).collect())
                    .collect()
            })
            .collect()
    }

    /// The number of weights.
    #[getter]
    fn weight_count(&self) -> usize {
        self.net().weight_count()
    }

    /// Where each stage begins, as ``stages`` takes them (``"16384"``), or ``""`` for
    /// one stage.
    #[getter]
    fn stages(&self) -> String {
        let net = self.net();
        match net.stages().count() {
            1 => String::new(),
            _ => net.stages().to_string(),
        }
    }

    /// The carousel's pools, stage by stage (``"16384: 1000 of 5230 entries; ..."``),
    /// or ``None`` when the network trains without one.
    #[getter]
    fn carousel(&self) -> Option<String> {
        self.net().carousel().map(ToString::to_string)
    }

    fn __repr__(&self) -> String {
        let net = self.net();
        format!(
            "Network(\"{}\", games={}, weights={})",
            net.tuples_text(),
            net.games(),
            net.weight_count()
        )
    }
}
