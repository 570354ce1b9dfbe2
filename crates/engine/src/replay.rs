//! Saved games: seed, rules, moves and spawns, in a small text format that replays
//! and verifies itself.

use core::fmt;
use core::str::FromStr;

use crate::keyed::SpawnKey;
use crate::{Board, Dir, Game, Rules, Spawn, SpawnStream};

/// The record of a game. Its text form (written by [`fmt::Display`], read by
/// [`Replay::from_str`]) looks like this:
///
/// ```text
/// ai2048-replay 1
/// seed 42
/// rules start_tiles=2 four_probability=0.1 illegal_move_spawns=false
/// start 5:2 12:2
/// L 3:2
/// U 15:4
/// end score=8 board=1000200000000000
/// ```
///
/// Each turn line holds a direction letter and the spawn that followed it, as
/// `cell:tile` (`-` for none). A game whose spawns come one generator per turn
/// ([`SpawnStream::PerTurn`], the games of `ai2048 serve`) has a line `spawns per-turn`
/// after its rules; a game of keyed spawns ([`SpawnStream::Keyed`], the ranked games
/// of `ai2048 serve`, once over) has instead `spawns keyed KEY`, its key in 64
/// hexadecimal digits. Without that line the spawns are [`SpawnStream::Sequential`].
/// A game set up from a position ([`Game::from_board`]) has, in place of the `start`
/// line, `from` and the board in 16 hexadecimal digits (one exponent a cell, as
/// [`Board::to_hex`] writes it).
/// [`Replay::verify`] replays the game from its seed (or key) and checks every spawn,
/// the score and the final board.
///
/// ```
/// use ai2048_engine::{Dir, Game, Replay, Rules};
/// let mut game = Game::new(7, Rules::default())?;
/// for dir in [Dir::Left, Dir::Up, Dir::Right, Dir::Down] {
///     let _ = game.try_play(dir);
/// }
/// let text = game.replay().to_string();
/// let replay: Replay = text.parse()?;
/// assert_eq!(replay.verify()?.board(), game.board());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// The seed of the game.
    pub seed: u64,
    /// Its rules.
    pub rules: Rules,
    /// Where its spawns come from.
    pub spawns: SpawnStream,
    /// The board the game started from, for a game of [`Game::from_board`] (which
    /// has no start tiles); `None` for a game that began on the empty board.
    pub origin: Option<Board>,
    /// The starting tiles.
    pub start: Vec<Spawn>,
    /// Every turn: the direction and the spawn that followed it.
    pub turns: Vec<(Dir, Option<Spawn>)>,
    /// The final score.
    pub score: u64,
    /// The final board.
    pub board: Board,
}

/// Why a replay does not hold: a line that does not parse, or a game that does not
/// replay to what was recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The line of the text (from 1) or the turn (from 1) where it went wrong; 0 for
    /// the whole file.
    pub at: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "at {}: {}", self.at, self.message)
        }
    }
}

impl std::error::Error for ReplayError {}

fn err(at: usize, message: impl Into<String>) -> ReplayError {
    ReplayError {
        at,
        message: message.into(),
    }
}

const MAGIC: &str = "ai2048-replay 1";

/// The line that marks a game of [`SpawnStream::PerTurn`].
const SPAWNS_PER_TURN: &str = "spawns per-turn";

/// The start of the line that marks a game of [`SpawnStream::Keyed`], before its key.
const SPAWNS_KEYED: &str = "spawns keyed ";

impl Replay {
    /// Replays the game from its seed and checks that every spawn, the score and the
    /// final board are what the replay says. Returns the replayed game.
    ///
    /// # Errors
    ///
    /// Names the first turn (counted from 1) that differs, or turn 0 for the start.
    pub fn verify(&self) -> Result<Game, ReplayError> {
        let mut game = match self.origin {
            Some(board) => Game::from_board(self.seed, self.rules, self.spawns, board),
            None => Game::with_spawns(self.seed, self.rules, self.spawns),
        }
        .map_err(|e| err(0, e.to_string()))?;
        let source = match self.spawns {
            SpawnStream::Keyed(_) => "key",
            SpawnStream::Sequential | SpawnStream::PerTurn => "seed",
        };
        if game.start_spawns() != self.start.as_slice() {
            return Err(err(
                0,
                format!("the starting tiles are not those the {source} gives"),
            ));
        }
        for (i, &(dir, spawn)) in self.turns.iter().enumerate() {
            let turn = game
                .try_play(dir)
                .map_err(|e| err(i + 1, format!("turn {}: {e}", i + 1)))?;
            if turn.spawn != spawn {
                return Err(err(
                    i + 1,
                    format!(
                        "turn {}: spawn {} recorded, the {source} gives {}",
                        i + 1,
                        spawn_text(spawn),
                        spawn_text(turn.spawn)
                    ),
                ));
            }
        }
        if game.score() != self.score {
            return Err(err(
                0,
                format!(
                    "final score {} recorded, replay gives {}",
                    self.score,
                    game.score()
                ),
            ));
        }
        if game.board() != self.board {
            return Err(err(
                0,
                format!(
                    "final board {} recorded, replay gives {}",
                    self.board.to_hex(),
                    game.board().to_hex()
                ),
            ));
        }
        Ok(game)
    }
}

fn spawn_text(spawn: Option<Spawn>) -> String {
    match spawn {
        Some(s) => format!("{}:{}", s.cell, s.tile()),
        None => "-".to_owned(),
    }
}

fn parse_spawn(text: &str, line: usize) -> Result<Option<Spawn>, ReplayError> {
    if text == "-" {
        return Ok(None);
    }
    let bad = || {
        err(
            line,
            format!("{text:?} is not a spawn (cell:tile, like 5:2)"),
        )
    };
    let (cell, tile) = text.split_once(':').ok_or_else(bad)?;
    let cell: u8 = cell.parse().map_err(|_| bad())?;
    let exponent = match tile {
        "2" => 1,
        "4" => 2,
        _ => return Err(bad()),
    };
    if cell >= 16 {
        return Err(bad());
    }
    Ok(Some(Spawn { cell, exponent }))
}

impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{MAGIC}")?;
        writeln!(f, "seed {}", self.seed)?;
        writeln!(
            f,
            "rules start_tiles={} four_probability={} illegal_move_spawns={}",
            self.rules.start_tiles, self.rules.four_probability, self.rules.illegal_move_spawns
        )?;
        match self.spawns {
            SpawnStream::Sequential => {}
            SpawnStream::PerTurn => writeln!(f, "{SPAWNS_PER_TURN}")?,
            SpawnStream::Keyed(key) => writeln!(f, "{SPAWNS_KEYED}{}", key.to_hex())?,
        }
        if let Some(board) = self.origin {
            writeln!(f, "from {}", board.to_hex())?;
        } else {
            write!(f, "start")?;
            for &s in &self.start {
                write!(f, " {}", spawn_text(Some(s)))?;
            }
            writeln!(f)?;
        }
        for &(dir, spawn) in &self.turns {
            writeln!(f, "{} {}", dir.letter(), spawn_text(spawn))?;
        }
        writeln!(f, "end score={} board={}", self.score, self.board.to_hex())
    }
}

fn field<'a>(line: &'a str, key: &str, at: usize) -> Result<&'a str, ReplayError> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        .ok_or_else(|| err(at, format!("missing {key}=")))
}

impl FromStr for Replay {
    type Err = ReplayError;

    /// Reads the text form. Errors name the line, counted from 1.
    fn from_str(text: &str) -> Result<Replay, ReplayError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty());
        let mut next = |what: &str| {
            lines
                .next()
                .ok_or_else(|| err(0, format!("missing {what} line")))
        };
        let (at, magic) = next("first")?;
        if magic != MAGIC {
            return Err(err(at, format!("expected {MAGIC:?}, not a replay")));
        }
        let (at, seed) = next("seed")?;
        let seed = seed
            .strip_prefix("seed ")
            .and_then(|s| s.trim().parse().ok())
            .ok_or_else(|| err(at, "expected `seed N`"))?;
        let (at, rules_line) = next("rules")?;
        if !rules_line.starts_with("rules") {
            return Err(err(at, "expected `rules ...`"));
        }
        let rules = Rules {
            start_tiles: field(rules_line, "start_tiles", at)?
                .parse()
                .map_err(|_| err(at, "start_tiles is not a number"))?,
            four_probability: field(rules_line, "four_probability", at)?
                .parse()
                .map_err(|_| err(at, "four_probability is not a number"))?,
            illegal_move_spawns: field(rules_line, "illegal_move_spawns", at)?
                .parse()
                .map_err(|_| err(at, "illegal_move_spawns is not true or false"))?,
        };
        rules.validate().map_err(|e| err(at, e.to_string()))?;
        let (mut at, mut start_line) = next("start")?;
        let mut spawns = SpawnStream::Sequential;
        if let Some(stream) = start_line.strip_prefix("spawns") {
            spawns = if start_line == SPAWNS_PER_TURN {
                SpawnStream::PerTurn
            } else if let Some(key) = start_line.strip_prefix(SPAWNS_KEYED) {
                SpawnStream::Keyed(
                    key.trim()
                        .parse::<SpawnKey>()
                        .map_err(|e| err(at, format!("spawns keyed: {e}")))?,
                )
            } else {
                return Err(err(
                    at,
                    format!(
                        "unknown spawns {:?}: expected `{SPAWNS_PER_TURN}` or `{SPAWNS_KEYED}KEY`",
                        stream.trim()
                    ),
                ));
            };
            (at, start_line) = next("start")?;
        }
        let mut origin = None;
        if let Some(board) = start_line.strip_prefix("from ") {
            origin = Some(
                board
                    .trim()
                    .parse::<Board>()
                    .map_err(|e| err(at, format!("from: {e}")))?,
            );
            start_line = "start";
        }
        let start = start_line
            .strip_prefix("start")
            .ok_or_else(|| err(at, "expected `start cell:tile ...` or `from BOARD`"))?
            .split_whitespace()
            .map(|w| parse_spawn(w, at)?.ok_or_else(|| err(at, "a start tile cannot be -")))
            .collect::<Result<Vec<_>, _>>()?;
        let mut turns = Vec::new();
        while let Some((at, line)) = lines.next() {
            if let Some(rest) = line.strip_prefix("end") {
                if let Some((extra, _)) = lines.next() {
                    return Err(err(extra, "text after the `end` line"));
                }
                let score = field(rest, "score", at)?
                    .parse()
                    .map_err(|_| err(at, "score is not a number"))?;
                let board = field(rest, "board", at)?
                    .parse()
                    .map_err(|e| err(at, format!("board: {e}")))?;
                return Ok(Replay {
                    seed,
                    rules,
                    spawns,
                    origin,
                    start,
                    turns,
                    score,
                    board,
                });
            }
            let mut words = line.split_whitespace();
            let dir = words
                .next()
                .and_then(|w| w.parse::<Dir>().ok())
                .ok_or_else(|| err(at, format!("{line:?} is not a turn (like `L 5:2`)")))?;
            let spawn = parse_spawn(words.next().unwrap_or(""), at)?;
            if words.next().is_some() {
                return Err(err(at, format!("{line:?} has extra words")));
            }
            turns.push((dir, spawn));
        }
        Err(err(0, "missing `end` line: the replay is cut short"))
    }
}
