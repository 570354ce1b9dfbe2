//! Learning the game's probability of a 4 from the tiles it spawns.
//!
//! The original game spawns a 4 with probability 0.1, but variants differ, and a
//! search that assumes the wrong probability weighs its chance nodes wrongly. A
//! [`SpawnModel`] watches the game and estimates that probability, as the React AI of
//! the seeds does: each spawn is a Bernoulli trial (a 4 or a 2), and with a Beta prior
//! the posterior is again a Beta, whose mean is the estimate.

use ai2048_engine::{Board, Spawn};

/// A Beta-Bernoulli estimate of the probability that a spawned tile is a 4 (one minus
/// the probability of a 2).
///
/// The prior is Beta(α, β): α pseudo-observations of a 4 and β of a 2. The default,
/// Beta(1, 9) ([`SpawnModel::DEFAULT_PRIOR`]), is centred on the original game's 0.1
/// and weighs as much as ten spawns, so a few dozen spawns of another game already
/// outweigh it. After `f` fours and `t` twos the posterior is Beta(α + f, β + t), and
/// [`SpawnModel::four_probability`] is its mean, `(α + f) / (α + β + f + t)`.
///
/// A spawn is seen as a pair of boards: the board right after the player's move,
/// before the spawn (the afterstate), and the next board the player sees. Give both
/// at once to [`SpawnModel::observe`], or give them as they come: the afterstate to
/// [`SpawnModel::before_move`] when the move is chosen, and the next board to
/// [`SpawnModel::on_board`] before the next search. A pair that is not one spawn (a
/// new game, a board set by hand) is ignored.
///
/// ```
/// use ai2048_ai::spawn_model::SpawnModel;
/// use ai2048_engine::{Dir, Game, Rules};
///
/// let mut model = SpawnModel::new();
/// assert!((model.four_probability() - 0.1).abs() < 1e-12); // the prior's mean
///
/// // A game where every spawn is a 4.
/// let mut game = Game::new(7, Rules { four_probability: 1.0, ..Rules::default() })?;
/// for _ in 0..30 {
///     let Some(dir) = game.board().legal_dirs().iter().next() else { break };
///     model.before_move(game.board().shift(dir)); // the afterstate of the move
///     game.try_play(dir)?;
///     model.on_board(game.board()); // the board the player sees next
/// }
/// assert_eq!(model.twos(), 0);
/// assert!(model.fours() >= 20);
/// assert!(model.four_probability() > 0.5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpawnModel {
    /// The prior's pseudo-count of fours (α).
    alpha: f64,
    /// The prior's pseudo-count of twos (β).
    beta: f64,
    /// The fours observed.
    fours: u64,
    /// The twos observed.
    twos: u64,
    /// The afterstate of the last move, waiting for the board that follows it.
    pending: Option<Board>,
}

impl Default for SpawnModel {
    fn default() -> SpawnModel {
        SpawnModel::new()
    }
}

impl SpawnModel {
    /// The default prior (α, β) = (1, 9): mean 0.1, the original game's probability of
    /// a 4, worth ten spawns.
    pub const DEFAULT_PRIOR: (f64, f64) = (1.0, 9.0);

    /// A model with the default prior, Beta(1, 9), and no observation.
    ///
    /// ```
    /// use ai2048_ai::spawn_model::SpawnModel;
    /// let model = SpawnModel::new();
    /// assert_eq!(model.prior(), SpawnModel::DEFAULT_PRIOR);
    /// assert_eq!(model.observations(), 0);
    /// ```
    #[must_use]
    pub const fn new() -> SpawnModel {
        SpawnModel {
            alpha: SpawnModel::DEFAULT_PRIOR.0,
            beta: SpawnModel::DEFAULT_PRIOR.1,
            fours: 0,
            twos: 0,
            pending: None,
        }
    }

    /// A model with the prior Beta(`alpha`, `beta`): `alpha` pseudo-observations of a
    /// 4 and `beta` of a 2. Its mean `alpha / (alpha + beta)` is the estimate before
    /// any spawn; their sum is how many spawns the prior is worth. `None` unless both
    /// are finite and above zero.
    ///
    /// ```
    /// use ai2048_ai::spawn_model::SpawnModel;
    /// let firm = SpawnModel::with_prior(10.0, 90.0).expect("a valid prior");
    /// assert!((firm.four_probability() - 0.1).abs() < 1e-12);
    /// assert!(SpawnModel::with_prior(0.0, 1.0).is_none());
    /// assert!(SpawnModel::with_prior(1.0, f64::INFINITY).is_none());
    /// ```
    #[must_use]
    pub fn with_prior(alpha: f64, beta: f64) -> Option<SpawnModel> {
        let ok = |x: f64| x.is_finite() && x > 0.0;
        (ok(alpha) && ok(beta)).then_some(SpawnModel {
            alpha,
            beta,
            ..SpawnModel::new()
        })
    }

    /// The prior, as (α, β).
    #[must_use]
    pub const fn prior(&self) -> (f64, f64) {
        (self.alpha, self.beta)
    }

    /// The fours observed.
    #[must_use]
    pub const fn fours(&self) -> u64 {
        self.fours
    }

    /// The twos observed.
    #[must_use]
    pub const fn twos(&self) -> u64 {
        self.twos
    }

    /// The spawns observed: fours and twos.
    #[must_use]
    pub const fn observations(&self) -> u64 {
        self.fours + self.twos
    }

    /// The estimated probability that a spawned tile is a 4: the posterior mean,
    /// `(α + fours) / (α + β + fours + twos)`. Always strictly between 0 and 1.
    ///
    /// ```
    /// use ai2048_ai::spawn_model::SpawnModel;
    /// use ai2048_engine::Board;
    /// let mut model = SpawnModel::new();
    /// let before: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// let after: Board = "2 0 0 0/0 0 0 0/0 0 4 0/0 0 0 0".parse()?;
    /// model.observe(before, after);
    /// assert_eq!(model.four_probability(), 2.0 / 11.0); // (1 + 1) / (1 + 9 + 1)
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    #[must_use]
    pub fn four_probability(&self) -> f64 {
        let fours = self.alpha + self.fours as f64;
        fours / (fours + self.beta + self.twos as f64)
    }

    /// The estimated probability that a spawned tile is a 2: one minus
    /// [`SpawnModel::four_probability`].
    #[must_use]
    pub fn two_probability(&self) -> f64 {
        let twos = self.beta + self.twos as f64;
        twos / (self.alpha + self.fours as f64 + twos)
    }

    /// The posterior's standard deviation: how unsure the estimate still is. It
    /// shrinks like one over the square root of the observations.
    ///
    /// ```
    /// use ai2048_ai::spawn_model::SpawnModel;
    /// let prior = SpawnModel::new().std_dev();
    /// assert!((prior - 0.0905).abs() < 1e-3); // Beta(1, 9)
    /// ```
    #[must_use]
    pub fn std_dev(&self) -> f64 {
        let a = self.alpha + self.fours as f64;
        let b = self.beta + self.twos as f64;
        let n = a + b;
        (a * b / (n * n * (n + 1.0))).sqrt()
    }

    /// The tile the game spawned between `before`, the board right after the
    /// player's move, and `after`, the next board the player sees: the one cell empty
    /// in `before` that holds a 2 or a 4 in `after`, every other cell unchanged.
    /// `None` when the two boards differ in any other way (a new game, a board set by
    /// hand, no spawn at all).
    ///
    /// ```
    /// use ai2048_ai::spawn_model::SpawnModel;
    /// use ai2048_engine::{Board, Spawn};
    /// let before: Board = "4 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// let after: Board = "4 2 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse()?;
    /// assert_eq!(SpawnModel::spawn_between(before, after), Some(Spawn { cell: 15, exponent: 1 }));
    /// assert_eq!(SpawnModel::spawn_between(before, before), None);
    /// let eight: Board = "4 2 0 0/0 0 0 0/0 0 0 0/0 0 0 8".parse()?;
    /// assert_eq!(SpawnModel::spawn_between(before, eight), None);
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    #[must_use]
    pub fn spawn_between(before: Board, after: Board) -> Option<Spawn> {
        let mut spawn = None;
        for cell in 0..16 {
            let (was, is) = (before.exponent(cell), after.exponent(cell));
            if was == is {
                continue;
            }
            if was != 0 || !matches!(is, 1 | 2) || spawn.is_some() {
                return None;
            }
            spawn = Some(Spawn {
                cell: cell as u8,
                exponent: is,
            });
        }
        spawn
    }

    /// Counts the spawn between `before`, the board right after the player's move
    /// (before the spawn), and `after`, the next board the player sees, and returns it.
    /// Anything but exactly one new 2 or 4 on an otherwise unchanged board is ignored
    /// and returns `None` (see [`SpawnModel::spawn_between`]).
    ///
    /// ```
    /// use ai2048_ai::spawn_model::SpawnModel;
    /// use ai2048_engine::Board;
    /// let mut model = SpawnModel::new();
    /// let before: Board = "2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// let four: Board = "2 4 8 16/0 4 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// let new_game: Board = "0 0 0 0/0 2 0 0/0 0 0 0/0 0 2 0".parse()?;
    /// assert!(model.observe(before, four).is_some());
    /// assert!(model.observe(before, new_game).is_none());
    /// assert_eq!((model.fours(), model.twos()), (1, 0));
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    pub fn observe(&mut self, before: Board, after: Board) -> Option<Spawn> {
        let spawn = SpawnModel::spawn_between(before, after)?;
        if spawn.exponent == 2 {
            self.fours += 1;
        } else {
            self.twos += 1;
        }
        Some(spawn)
    }

    /// Remembers `afterstate`, the board right after the move the player just chose
    /// (before the game spawns a tile), for the next [`SpawnModel::on_board`]. For a
    /// player: call it with `board.shift(dir)` when returning `dir`.
    pub fn before_move(&mut self, afterstate: Board) {
        self.pending = Some(afterstate);
    }

    /// Observes `board`, the board the player is now asked to move on, as the
    /// successor of the afterstate remembered by [`SpawnModel::before_move`], if any,
    /// and forgets that afterstate. Returns the spawn counted, if any. For a player:
    /// call it first thing in every search.
    ///
    /// ```
    /// use ai2048_ai::spawn_model::SpawnModel;
    /// use ai2048_engine::{Board, Dir};
    /// let mut model = SpawnModel::new();
    /// let board: Board = "2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// assert!(model.on_board(board).is_none()); // nothing remembered yet
    /// model.before_move(board.shift(Dir::Left)); // "4 0 0 0/..."
    /// let next: Board = "4 0 0 0/0 0 0 0/0 2 0 0/0 0 0 0".parse()?;
    /// assert!(model.on_board(next).is_some());
    /// assert!(model.on_board(next).is_none()); // each afterstate counts once
    /// assert_eq!(model.twos(), 1);
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    pub fn on_board(&mut self, board: Board) -> Option<Spawn> {
        let before = self.pending.take()?;
        self.observe(before, board)
    }

    /// Forgets the afterstate remembered by [`SpawnModel::before_move`], keeping what
    /// was learned: for a new game under the same rules.
    pub fn forget_move(&mut self) {
        self.pending = None;
    }

    /// Forgets everything observed, and the remembered afterstate; keeps the prior.
    ///
    /// ```
    /// use ai2048_ai::spawn_model::SpawnModel;
    /// use ai2048_engine::Board;
    /// let mut model = SpawnModel::new();
    /// let before: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// let after: Board = "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// model.observe(before, after);
    /// model.reset();
    /// assert_eq!(model, SpawnModel::new());
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    pub fn reset(&mut self) {
        *self = SpawnModel {
            alpha: self.alpha,
            beta: self.beta,
            ..SpawnModel::new()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai2048_engine::{Dir, Game, Rules};

    fn board(text: &str) -> Board {
        text.parse().expect("a board")
    }

    /// Plays seeded games under `p4` (a new one whenever one ends) with a simple
    /// policy, feeding the model as a player would, until it has seen `spawns`
    /// spawns. Checks each spawn found against the game's own record.
    fn learn(p4: f64, spawns: u64, seed: u64) -> SpawnModel {
        let rules = Rules {
            four_probability: p4,
            ..Rules::default()
        };
        let mut model = SpawnModel::new();
        let mut seed = seed;
        let mut game = Game::new(seed, rules).expect("rules");
        while model.observations() < spawns {
            model.forget_move();
            while !game.is_over() && model.observations() < spawns {
                let found = model.on_board(game.board());
                if let Some(last) = game.turns().last() {
                    assert_eq!(found, last.spawn, "the spawn found is the game's");
                }
                // Down, left, right, up: corner play lasts longer than random.
                let dir = [Dir::Down, Dir::Left, Dir::Right, Dir::Up]
                    .into_iter()
                    .find(|&d| game.board().can_move(d))
                    .expect("not over");
                model.before_move(game.board().shift(dir));
                game.play(dir);
            }
            seed += 1;
            game = Game::new(seed, rules).expect("rules");
        }
        model
    }

    #[test]
    fn the_prior_alone_gives_one_tenth() {
        let model = SpawnModel::new();
        assert!((model.four_probability() - 0.1).abs() < 1e-12);
        assert!((model.two_probability() - 0.9).abs() < 1e-12);
        assert_eq!(SpawnModel::default(), model);
        let custom = SpawnModel::with_prior(3.0, 1.0).expect("valid");
        assert_eq!(custom.four_probability(), 0.75);
        for (a, b) in [
            (0.0, 1.0),
            (1.0, -1.0),
            (f64::NAN, 1.0),
            (1.0, f64::INFINITY),
        ] {
            assert!(SpawnModel::with_prior(a, b).is_none(), "{a} {b}");
        }
    }

    #[test]
    fn learns_three_tenths_from_a_thousand_spawns() {
        let model = learn(0.3, 1000, 1);
        assert_eq!(model.observations(), 1000);
        let p = model.four_probability();
        assert!((p - 0.3).abs() < 0.05, "estimated {p}");
        assert!((p + model.two_probability() - 1.0).abs() < 1e-12);
        assert!(model.std_dev() < 0.02, "{}", model.std_dev());
    }

    #[test]
    fn learns_the_original_game_too() {
        let model = learn(0.1, 1000, 99);
        let p = model.four_probability();
        assert!((p - 0.1).abs() < 0.03, "estimated {p}");
    }

    #[test]
    fn ignores_what_is_not_one_spawn() {
        let mut model = SpawnModel::new();
        let before = board("2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
        for after in [
            // No change.
            "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0",
            // Two new tiles.
            "2 4 2 0/0 0 0 0/0 0 0 0/0 0 0 2",
            // An 8 appears.
            "2 4 0 8/0 0 0 0/0 0 0 0/0 0 0 0",
            // A tile changed where one was.
            "2 8 0 0/0 0 0 0/0 0 0 0/0 0 0 0",
            // A tile vanished and another appeared.
            "2 0 4 0/0 0 0 0/0 0 0 0/0 0 0 0",
            // A new game.
            "0 0 0 0/0 2 0 0/0 0 0 0/0 0 2 0",
            "0 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0",
        ] {
            assert_eq!(model.observe(before, board(after)), None, "{after}");
        }
        assert_eq!(model, SpawnModel::new());
        // A spawn, of each kind.
        let two = model.observe(before, board("2 4 0 0/0 0 0 0/0 0 0 0/2 0 0 0"));
        assert_eq!(
            two,
            Some(Spawn {
                cell: 12,
                exponent: 1
            })
        );
        let four = model.observe(before, board("2 4 4 0/0 0 0 0/0 0 0 0/0 0 0 0"));
        assert_eq!(
            four,
            Some(Spawn {
                cell: 2,
                exponent: 2
            })
        );
        assert_eq!((model.fours(), model.twos()), (1, 1));
    }

    #[test]
    fn pending_afterstates_count_once() {
        let mut model = SpawnModel::new();
        let board0 = board("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
        model.before_move(board0.shift(Dir::Left));
        // A new game instead of the successor: ignored, and the afterstate is gone.
        assert_eq!(
            model.on_board(board("0 0 0 2/0 0 0 0/0 0 0 0/0 0 0 4")),
            None
        );
        assert_eq!(
            model.on_board(board("4 0 0 4/0 0 0 0/0 0 0 0/0 0 0 0")),
            None
        );
        assert_eq!(model.observations(), 0);
        model.before_move(board0.shift(Dir::Left));
        model.forget_move();
        assert_eq!(
            model.on_board(board("4 0 0 4/0 0 0 0/0 0 0 0/0 0 0 0")),
            None
        );
        model.before_move(board0.shift(Dir::Left));
        assert!(model
            .on_board(board("4 0 0 4/0 0 0 0/0 0 0 0/0 0 0 0"))
            .is_some());
        assert_eq!((model.fours(), model.twos()), (1, 0));
    }

    #[test]
    fn reset_keeps_the_prior() {
        let mut model = SpawnModel::with_prior(2.0, 2.0).expect("valid");
        model.observe(
            board("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0"),
            board("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 4"),
        );
        model.before_move(Board::EMPTY);
        model.reset();
        assert_eq!(model.prior(), (2.0, 2.0));
        assert_eq!(model.observations(), 0);
        assert_eq!(model.four_probability(), 0.5);
        assert_eq!(
            model.on_board(board("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0")),
            None
        );
    }

    #[test]
    fn the_estimate_moves_towards_the_data() {
        let mut model = SpawnModel::new();
        let before = board("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
        let four = board("2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
        let mut last = model.four_probability();
        for _ in 0..50 {
            model.observe(before, four);
            let p = model.four_probability();
            assert!(p > last && p < 1.0);
            last = p;
        }
        // Past the middle, more of the same makes the estimate surer.
        let sd = model.std_dev();
        model.observe(before, four);
        assert!(model.std_dev() < sd);
    }
}
