//! A game: a board, a score, the seeded generator and the record of every turn.

use core::fmt;

use crate::keyed::{KeyedRng, SpawnKey};
use crate::{Board, Dir, PlayableBoard, RandableBoard, Replay, Rng, Rules, RulesError, Spawn};

/// One turn of a game: the direction asked for and what came of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The direction played.
    pub dir: Dir,
    /// Whether the move changed the board (always true unless the rules let illegal
    /// moves spawn).
    pub moved: bool,
    /// The score of the move's merges.
    pub score: u32,
    /// The tile spawned after the move, if any.
    pub spawn: Option<Spawn>,
}

/// Why a move was not played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is over: nothing can be played.
    GameOver,
    /// The move changes nothing, and the rules refuse such moves.
    IllegalMove(Dir),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::IllegalMove(d) => write!(f, "moving {d} changes nothing"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Where a game's spawns come from.
///
/// The first two start from the game's seed, and deal the start tiles the same way;
/// they differ in the spawn after each turn. The third leaves the seed aside.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SpawnStream {
    /// One generator, seeded with the game's seed, draws the start tiles and then every
    /// spawn in turn: what [`Game::new`] plays.
    #[default]
    Sequential,
    /// The spawn after the turn numbered `n` (from 0) comes from a generator of its own,
    /// `Rng::new(derive_seed(seed, n))` (see [`derive_seed`](crate::rng::derive_seed)),
    /// so that a server can draw it from the seed and the turn alone, keeping no
    /// generator between moves: how `ai2048 serve` plays its games.
    PerTurn,
    /// Every draw, the start tiles included, comes from a secret key (see
    /// [`keyed`](crate::keyed)): the start tiles from [`KeyedRng::start`], the spawn
    /// after the turn numbered `n` from [`KeyedRng::after_turn`]. Nobody without the
    /// key can predict a spawn; with it, the game replays. The seed is not used: the
    /// ranked games of `ai2048 serve` record 0.
    Keyed(SpawnKey),
}

/// The spawn on `board`, from `keyed` when the game has keyed spawns, else from `rng`.
fn draw(
    board: RandableBoard,
    rng: &mut Rng,
    keyed: Option<&mut KeyedRng>,
    four_probability: f64,
) -> (PlayableBoard, Spawn) {
    match keyed {
        Some(keyed) => board.with_random_tile_from(keyed, four_probability),
        None => board.with_random_tile(rng, four_probability),
    }
}

/// A seeded game of 2048.
///
/// The same seed and rules give the same game, on every machine: all the randomness
/// comes from the game's own [`Rng`]. Every turn is recorded, so a game can be saved as a
/// [`Replay`], undone, and checked.
///
/// ```
/// use ai2048_engine::{Dir, Game, Rules};
/// let mut game = Game::new(42, Rules::default())?;
/// assert_eq!(game.board().empty_count(), 14);
/// while let Some(dir) = game.board().legal_dirs().iter().next() {
///     game.try_play(dir)?;
/// }
/// assert!(game.is_over());
/// let replay = game.replay();
/// assert_eq!(replay.verify()?.score(), game.score());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    seed: u64,
    rules: Rules,
    rng: Rng,
    board: Board,
    score: u64,
    /// The board a game set up from a position started on (see [`Game::from_board`]).
    origin: Option<Board>,
    start: Vec<Spawn>,
    turns: Vec<Turn>,
    spawns: SpawnStream,
    /// Set when an illegal move found no empty cell to spawn in (only under
    /// `illegal_move_spawns`): the UCSB grader ends the game there.
    stuck: bool,
}

impl Game {
    /// A new game from `seed`, with `rules.start_tiles` tiles spawned.
    ///
    /// # Errors
    ///
    /// When the rules are invalid (see [`Rules::validate`]).
    pub fn new(seed: u64, rules: Rules) -> Result<Game, RulesError> {
        Game::with_spawns(seed, rules, SpawnStream::Sequential)
    }

    /// A new game from `seed` whose spawns come from `spawns`: [`Game::new`] with
    /// [`SpawnStream::Sequential`].
    ///
    /// ```
    /// use ai2048_engine::rng::derive_seed;
    /// use ai2048_engine::{Dir, Game, PlayableBoard, Rng, Rules, SpawnStream};
    /// let mut game = Game::with_spawns(9, Rules::ORIGINAL, SpawnStream::PerTurn)?;
    /// let before = game.board();
    /// let dir = before.legal_dirs().iter().next().unwrap();
    /// let turn = game.try_play(dir)?;
    /// // The spawn of turn 0 comes from the seed and the turn alone.
    /// let (moved, _) = PlayableBoard::new(before).apply_scored(dir).unwrap();
    /// let (after, spawn) = moved.with_random_tile(&mut Rng::new(derive_seed(9, 0)), 0.1);
    /// assert_eq!((game.board(), turn.spawn), (after.board(), Some(spawn)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the rules are invalid (see [`Rules::validate`]).
    pub fn with_spawns(seed: u64, rules: Rules, spawns: SpawnStream) -> Result<Game, RulesError> {
        rules.validate()?;
        let mut rng = Rng::new(seed);
        let mut keyed = match spawns {
            SpawnStream::Keyed(key) => Some(KeyedRng::start(&key)),
            SpawnStream::Sequential | SpawnStream::PerTurn => None,
        };
        let mut board = Board::EMPTY;
        let mut start = Vec::with_capacity(usize::from(rules.start_tiles));
        for _ in 0..rules.start_tiles {
            let randable = RandableBoard::new(board).expect("at most 16 start tiles");
            let (next, spawn) = draw(randable, &mut rng, keyed.as_mut(), rules.four_probability);
            board = next.board();
            start.push(spawn);
        }
        Ok(Game {
            seed,
            rules,
            rng,
            board,
            score: 0,
            origin: None,
            start,
            turns: Vec::new(),
            spawns,
            stuck: false,
        })
    }

    /// A game that starts from `board`, as if it had been played to there: no start
    /// tiles spawn, the score counts the merges from `board` on, and the spawns come
    /// from `seed` through `spawns` as in [`Game::with_spawns`]. The way to study a
    /// position: many seeds from one board.
    ///
    /// ```
    /// use ai2048_engine::{Board, Dir, Game, Rules, SpawnStream};
    /// let board: Board = "16384 8192 4096 0/512 1024 2048 0/0 0 0 0/0 0 2 2".parse()?;
    /// let mut game = Game::from_board(7, Rules::ORIGINAL, SpawnStream::Sequential, board)?;
    /// assert_eq!((game.board(), game.score(), game.origin()), (board, 0, Some(board)));
    /// game.try_play(Dir::Left)?;
    /// assert_eq!(game.score(), 4);
    /// // Its record replays from the same board.
    /// assert_eq!(game.replay().verify()?.board(), game.board());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the rules are invalid (see [`Rules::validate`]).
    pub fn from_board(
        seed: u64,
        rules: Rules,
        spawns: SpawnStream,
        board: Board,
    ) -> Result<Game, RulesError> {
        rules.validate()?;
        Ok(Game {
            seed,
            rules,
            rng: Rng::new(seed),
            board,
            score: 0,
            origin: Some(board),
            start: Vec::new(),
            turns: Vec::new(),
            spawns,
            stuck: false,
        })
    }

    /// The game as it was before its first turn: a new game's start tiles, or the
    /// board of [`Game::from_board`].
    fn restarted(&self) -> Game {
        match self.origin {
            Some(board) => Game::from_board(self.seed, self.rules, self.spawns, board),
            None => Game::with_spawns(self.seed, self.rules, self.spawns),
        }
        .expect("rules were valid")
    }

    /// The seed the game started from.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Where the spawns after the start tiles come from.
    #[must_use]
    pub fn spawn_stream(&self) -> SpawnStream {
        self.spawns
    }

    /// The current board.
    #[must_use]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The score: the sum of all merged tiles.
    #[must_use]
    pub fn score(&self) -> u64 {
        self.score
    }

    /// The number of turns played.
    #[must_use]
    pub fn moves(&self) -> usize {
        self.turns.len()
    }

    /// The largest tile on the board.
    #[must_use]
    pub fn max_tile(&self) -> u32 {
        self.board.max_tile()
    }

    /// The board the game started from, for a game of [`Game::from_board`]; `None`
    /// for a game that started with its start tiles on the empty board.
    #[must_use]
    pub fn origin(&self) -> Option<Board> {
        self.origin
    }

    /// The tiles spawned when the game started (none for a game of
    /// [`Game::from_board`]).
    #[must_use]
    pub fn start_spawns(&self) -> &[Spawn] {
        &self.start
    }

    /// Every turn played so far.
    #[must_use]
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// Whether the game is over: no legal move (or, under `illegal_move_spawns`, an
    /// illegal move on a full board).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.stuck || self.board.is_over()
    }

    /// Plays `dir`: slides, scores, and spawns a tile.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] when the game is over; [`PlayError::IllegalMove`] when
    /// the move changes nothing and the rules refuse it (nothing happens then).
    pub fn try_play(&mut self, dir: Dir) -> Result<Turn, PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        let p4 = self.rules.four_probability;
        let index = self.turns.len() as u64;
        let mut keyed = match self.spawns {
            SpawnStream::Sequential => None,
            SpawnStream::PerTurn => {
                self.rng = Rng::new(crate::rng::derive_seed(self.seed, index));
                None
            }
            SpawnStream::Keyed(key) => Some(KeyedRng::after_turn(&key, index)),
        };
        let turn = match PlayableBoard::new(self.board).apply_scored(dir) {
            Some((after, score)) => {
                let (next, spawn) = draw(after, &mut self.rng, keyed.as_mut(), p4);
                self.board = next.board();
                self.score += u64::from(score);
                Turn {
                    dir,
                    moved: true,
                    score,
                    spawn: Some(spawn),
                }
            }
            None if self.rules.illegal_move_spawns => {
                let spawn = RandableBoard::new(self.board).map(|r| {
                    let (next, spawn) = draw(r, &mut self.rng, keyed.as_mut(), p4);
                    self.board = next.board();
                    spawn
                });
                self.stuck = spawn.is_none();
                Turn {
                    dir,
                    moved: false,
                    score: 0,
                    spawn,
                }
            }
            None => return Err(PlayError::IllegalMove(dir)),
        };
        self.turns.push(turn);
        Ok(turn)
    }

    /// Plays `dir`.
    ///
    /// # Panics
    ///
    /// Panics when [`Game::try_play`] would return an error.
    pub fn play(&mut self, dir: Dir) -> Turn {
        match self.try_play(dir) {
            Ok(turn) => turn,
            Err(e) => panic!("Game::play: {e}"),
        }
    }

    /// Takes back the last turn, spawn included, and returns it. The generator is
    /// rewound too, so playing the same move again gives the same spawn.
    pub fn undo(&mut self) -> Option<Turn> {
        let last = *self.turns.last()?;
        let mut game = self.restarted();
        for turn in &self.turns[..self.turns.len() - 1] {
            game.try_play(turn.dir).expect("a recorded turn replays");
        }
        *self = game;
        Some(last)
    }

    /// The record of the game so far, which can be saved and verified.
    #[must_use]
    pub fn replay(&self) -> Replay {
        Replay {
            seed: self.seed,
            rules: self.rules,
            spawns: self.spawns,
            origin: self.origin,
            start: self.start.clone(),
            turns: self.turns.iter().map(|t| (t.dir, t.spawn)).collect(),
            score: self.score,
            board: self.board,
        }
    }
}
