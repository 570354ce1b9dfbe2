//! The command line, as clap definitions. Validation into library types happens here
//! too, in one place, so the commands receive only values that make sense.
#![allow(missing_docs)] // clap turns doc comments into help; flattened groups need none.

use std::path::PathBuf;
use std::time::Duration;

use ai2048_ai::{LimitsError, PlayerSpec, SearchLimits, DEFAULT_PLAYER};
use ai2048_bench::BenchConfig;
use ai2048_engine::Rules;
use anyhow::{anyhow, Context, Result};
use clap::{Args, FromArgMatches, Parser, Subcommand};

mod plot;
mod tables;
pub use plot::*;
pub use tables::*;

/// The 2048 engine and AI: watch the AI play, play yourself, benchmark players, or
/// serve the engine to other programs.
#[derive(Debug, Parser)]
#[command(name = "ai2048", version, about, long_about = None)]
pub struct Cli {
    /// What to do; `watch` when left out.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The AI plays one game in the terminal (the default).
    Watch(WatchArgs),
    /// Play a game yourself with the arrow keys, WASD or hjkl.
    Play(PlayArgs),
    /// The AI's move for one board, with the value of every move.
    Hint(HintArgs),
    /// Play many games and report statistics.
    Bench(BenchArgs),
    /// Play the same games at several search depths: a table and a plot of score against time.
    Sweep(SweepArgs),
    /// Draw the share of games reaching each tile against the time a move, from a CSV
    /// file of runs (as the README's plot of strength against time).
    Plot(PlotArgs),
    /// Tune the weights of an evaluation with CMA-ES, scoring them by seeded games.
    Tune(TuneArgs),
    /// Train an n-tuple network by TD learning over games it plays itself.
    Train(TrainArgs),
    /// Pack a trained network for play, or describe a network file.
    #[command(subcommand)]
    Net(NetCommand),
    /// Endgame tables: build them (once, into the user's cache), list, describe,
    /// verify and query them.
    #[command(subcommand)]
    Tables(TablesCommand),
    /// Answer JSON requests, one per line, on stdin (for other programs and graders).
    Engine(EngineArgs),
    /// Serve the game in the browser, with the AI beside it, and the engine over HTTP.
    Serve(ServeArgs),
    /// Check a saved replay and print its final board.
    Replay(ReplayArgs),
    /// List the players and evaluations with their options.
    Players,
    /// Search fixed positions at a fixed depth and print the node count (the search's
    /// deterministic signature, which CI checks).
    Signature,
}

/// Parses `line` (the arguments alone, without a program name) as one group of
/// arguments, as clap does inside a subcommand: for built-in defaults and for tests.
///
/// # Errors
///
/// clap's error for an unknown or malformed argument.
pub fn parse_args<T: Args + FromArgMatches>(line: &[&str]) -> Result<T, clap::Error> {
    let command = T::augment_args(clap::Command::new("ai2048"));
    let matches =
        command.try_get_matches_from(std::iter::once("ai2048").chain(line.iter().copied()))?;
    T::from_arg_matches(&matches)
}

/// Helpers for the commands' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// `line` parsed by [`parse_args`], which must accept it.
    pub(crate) fn args<T: Args + FromArgMatches>(line: &[&str]) -> T {
        parse_args(line).unwrap_or_else(|e| panic!("{line:?} does not parse: {e}"))
    }

    /// Asserts that `config` rejects each argument line of `cases` with an error whose
    /// text contains its message.
    pub(crate) fn assert_rejected<A: Args + FromArgMatches, C: std::fmt::Debug>(
        config: impl Fn(&A) -> Result<C>,
        cases: &[(&[&str], &str)],
    ) {
        for &(line, message) in cases {
            let err = config(&args(line)).expect_err("invalid");
            assert!(
                format!("{err:#}").contains(message),
                "{line:?}: {err:#} lacks {message}"
            );
        }
    }

    /// Argument lines that every command playing a run of games rejects (`bench`,
    /// `sweep`), with what the error says.
    pub(crate) const BAD_RUN_OPTIONS: &[(&[&str], &str)] = &[
        (&["--num-games", "0"], "--num-games"),
        (&["--jobs", "0"], "--jobs"),
        (&["--timeout", "0"], "--timeout"),
        (&["--ai", "nope"], "unknown player"),
        (&["--p4", "2"], "rules"),
    ];
}

/// The rules of the game, for every command that plays games.
#[derive(Debug, Clone, Args)]
pub struct RulesArgs {
    /// Tiles on a new board: 2 in the original game, 1 in the Rust course lab.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub start_tiles: u8,
    /// The probability that a spawned tile is a 4.
    #[arg(long = "p4", default_value_t = 0.1, value_name = "P")]
    pub four_probability: f64,
    /// A move that changes nothing still spawns a tile (as the UCSB grader does).
    #[arg(long)]
    pub illegal_move_spawns: bool,
}

impl RulesArgs {
    /// The validated rules.
    pub fn rules(&self) -> Result<Rules> {
        let rules = Rules {
            start_tiles: self.start_tiles,
            four_probability: self.four_probability,
            illegal_move_spawns: self.illegal_move_spawns,
        };
        rules.validate().context("invalid rules")?;
        Ok(rules)
    }
}

/// Which AI plays, with its options and limits.
#[derive(Debug, Clone, Args)]
pub struct AiArgs {
    /// The player: expectimax (the default), minimax, mcts, replica, greedy or random;
    /// `NAME:KEY=VALUE,...` sets its options (see `ai2048 players`).
    #[arg(long, default_value = DEFAULT_PLAYER, value_name = "NAME")]
    pub ai: String,
    /// An option of the player, as KEY=VALUE (repeatable).
    #[arg(long = "ai-opt", value_name = "KEY=VALUE")]
    pub ai_opts: Vec<String>,
    /// Search depth: chance (or adversary) layers below the root move, 0 = one ply.
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Time per move in milliseconds, fractions allowed (players that search).
    #[arg(long, value_name = "MS", allow_negative_numbers = true)]
    pub time_ms: Option<f64>,
    /// Threads searching each move (the player's `threads` option).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Endgame tables (the player's `tables` option): a folder of them, `off`, or
    /// `auto`, the default player's default: the tables folder of `ai2048 tables
    /// build`, when it holds tables. With a formation's block tables (the default
    /// set), the default player is the formation player.
    #[arg(long, value_name = "DIR|auto|off")]
    pub tables: Option<String>,
}

impl AiArgs {
    /// The validated player spec.
    pub fn spec(&self) -> Result<PlayerSpec> {
        let spec = self.parsed_spec()?;
        // Fail early, with the player's own message, on an unknown name or option.
        ai2048_ai::check_player(&spec)?;
        Ok(spec)
    }

    /// The player spec as written: known names and options, but the player not yet
    /// made, which may load a network (seconds in a debug build). Commands with other
    /// options to check take this, check the rest, and make the player last (as
    /// `BenchConfig::validate` does), so that a bad option fails at once.
    pub fn parsed_spec(&self) -> Result<PlayerSpec> {
        let mut spec: PlayerSpec = self.ai.parse()?;
        for opt in &self.ai_opts {
            spec.push_option(opt)?;
        }
        if let Some(threads) = self.threads {
            spec.push_option(&format!("threads={threads}"))?;
        }
        if let Some(tables) = &self.tables {
            spec.push_option(&format!("tables={tables}"))?;
        }
        Ok(spec)
    }

    /// The validated search limits.
    pub fn limits(&self) -> Result<SearchLimits> {
        SearchLimits::from_user(self.depth.map(u64::from), self.time_ms, None, None).map_err(|e| {
            anyhow!(e.message(match e {
                LimitsError::Depth(_) => "--depth",
                _ => "--time-ms",
            }))
        })
    }
}

/// `--jobs`, for the commands that play many games at once: `bench`, `sweep` and `tune`.
///
/// Their `--seed` is not shared: it has the same default, but each command's help says
/// what derives from it, and that differs.
#[derive(Debug, Clone, Args)]
pub struct JobsArgs {
    /// Games played at once, one per thread (default: all cores).
    #[arg(long, short = 'j', value_name = "J")]
    pub jobs: Option<usize>,
}

impl JobsArgs {
    /// The validated number of games played at once: all cores when left out.
    pub fn jobs(&self) -> Result<usize> {
        Ok(BenchConfig::jobs_from_user(self.jobs, "--jobs")?)
    }
}

/// `--timeout`, for the commands that can cut a game short: `bench` and `sweep` (`tune`
/// takes none).
#[derive(Debug, Clone, Args)]
pub struct TimeoutArgs {
    /// Seconds per game: a game that runs out stops there and counts with what it reached.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
}

impl TimeoutArgs {
    /// The validated time limit per game; `None` when left out.
    pub fn timeout(&self) -> Result<Option<Duration>> {
        Ok(BenchConfig::timeout_from_user(self.timeout, "--timeout")?)
    }
}

/// `ai2048 watch`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "On a terminal (unless --plain): space pauses and resumes, + and - change the \
pace, n starts a new game, r saves the replay (to --save, else ai2048-SEED.replay), q quits. \
The AI's best score is kept apart from yours, in $XDG_STATE_HOME/ai2048/best-watch (else \
~/.local/state/ai2048/best-watch). On a pipe or with --plain, every board is printed as text, \
then a summary line."
)]
pub struct WatchArgs {
    #[command(flatten)]
    pub ai: AiArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The game's seed; random when left out (it is printed, so the game can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Milliseconds to pause after each move, so a person can follow.
    #[arg(long, default_value_t = 0, value_name = "MS")]
    pub delay_ms: u64,
    /// Print every board as plain text instead of redrawing the screen.
    #[arg(long)]
    pub plain: bool,
    /// Start from this position instead of a new board (as `hint` reads a board: rows
    /// joined by `/`, or 16 hex digits), the spawns from the seed; on the full screen,
    /// a new game (n) starts from it again.
    #[arg(long, value_name = "BOARD")]
    pub from: Option<String>,
    /// Save the finished game as a replay to this file.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

/// `ai2048 play`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "On a terminal: arrows, WASD or hjkl move; u undoes; i asks the AI (--ai) for \
a hint; space starts and stops autoplay, + and - change its pace; n starts a new game; r saves \
the replay (to --save, else ai2048-SEED.replay); q quits. The best score is kept in \
$XDG_STATE_HOME/ai2048/best (else ~/.local/state/ai2048/best). On a pipe, each line is one \
command: up, down, left, right (or u, d, l, r), undo (z), new (n), quit (q)."
)]
pub struct PlayArgs {
    #[command(flatten)]
    pub ai: AiArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The game's seed; random when left out.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Save the finished game as a replay to this file.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

/// `ai2048 hint`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Prints the board, the move the player picks with its search's depth and \
nodes, and the value of each move on the player's own scale (\"illegal\" for a move that \
changes nothing). With --json, the engine protocol's answer to a `best` request instead (see \
`ai2048 engine`). Without --depth or --time-ms, the player searches as it does in a game \
without a clock (expectimax: deepening within 5 ms). Exits with 0 even when no move is \
legal (the answer says so), and with 1 when the board or an option is wrong."
)]
pub struct HintArgs {
    /// The board: 4 rows of 4 tiles (0 or . for an empty cell), the rows on lines of their
    /// own or split by / or ; ("2 2 4 8/0 0 0 0/0 0 0 0/0 0 0 2"), JSON rows
    /// (`[[2,2,4,8],...]`) or 16 hex digits of exponents. - or nothing reads it from
    /// standard input.
    #[arg(value_name = "BOARD")]
    pub board: Option<String>,
    #[command(flatten)]
    pub ai: AiArgs,
    /// Print the engine protocol's JSON answer instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `ai2048 bench`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Prints the summary to stdout, with the share of games reaching each \
tile from 512 up and its 95% confidence interval. Ctrl-C stops the run cleanly: the games \
in progress are dropped, the finished ones are reported and written to the --json file, \
and the exit code is 130 (a second Ctrl-C quits at once). A complete run exits with 0. \
--resume FILE, with the same options, then plays only the games the file lacks."
)]
pub struct BenchArgs {
    #[command(flatten)]
    pub ai: AiArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// How many games to play.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub num_games: u64,
    /// The index of the first game: the run plays games I to I+N-1, so a run split into
    /// parts (--first-game 0 --num-games 50, then --first-game 50) plays the same games
    /// as the whole.
    #[arg(long, default_value_t = 0, value_name = "I")]
    pub first_game: u64,
    /// Start every game from this position instead of a new board (as `hint` reads a
    /// board: `"16384 8192 4096 0/512 1024 2048 0/0 0 0 0/0 0 2 2"` or 16 hex digits),
    /// each game's spawns from its own seed, its score counted from there: how often
    /// the player converts the position.
    #[arg(long, value_name = "BOARD")]
    pub from: Option<String>,
    /// Stop each game once it makes TILE, counted as reaching it: how often the player
    /// makes a tile, without the moves past it.
    #[arg(long, value_name = "TILE")]
    pub until: Option<u32>,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
    /// The seed of the run: game i plays seed derive(S, i), whatever the number of jobs.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    #[command(flatten)]
    pub jobs: JobsArgs,
    /// Write the statistics and every game's record to this JSON file: at the end,
    /// and as games finish, so that a killed run goes on with --resume.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Go on with the run saved in this --json file: give the same options (a larger
    /// --num-games extends it); its finished games are kept, only the others are played,
    /// and the whole run is reported and written back to the file (or to --json).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Merge the --json files of the shards of one run (each played with --first-game
    /// and --num-games, here or elsewhere) into the whole run: report it, and write it
    /// to --json. Files played with other settings, holding the same game, or corrupt
    /// are refused; games no file holds are reported, for --resume to play.
    #[arg(
        long,
        num_args = 1..,
        value_name = "FILE",
        conflicts_with_all = PLAYING
    )]
    pub merge: Vec<PathBuf>,
    /// Compare two runs' --json files over the games both played (the same --seed, and
    /// the same --from board and rules, or the runs are refused):
    /// the mean score difference game by game with its standard error, and for each
    /// tile from 2048 how often each reached it (95% Wilson intervals), the games only
    /// one reached, and McNemar's exact p-value on those. Given again (--compare A1 B1
    /// --compare A2 B2 ...), each pair is paired game by game and all are pooled: runs
    /// from several --from boards, each numbering its games from 0.
    #[arg(
        long,
        num_args = 2,
        value_names = ["A", "B"],
        conflicts_with_all = PLAYING.iter().chain(&["merge", "json"])
    )]
    pub compare: Vec<PathBuf>,
    /// Where the games of a run's --json file ended: grouped by the largest tile on
    /// their final boards and the largest tile below it missing there (the tile a game
    /// was making when it ended: a 16384 without an 8192 was lost building the 8192
    /// again), with the games' indices. Several files are the shards of one run
    /// (--first-game), joined as --merge joins them.
    #[arg(
        long,
        num_args = 1..,
        value_name = "FILE",
        conflicts_with_all = PLAYING.iter().chain(&["merge", "json", "compare"])
    )]
    pub ends: Vec<PathBuf>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The options of `bench` that play games: `--merge` and `--compare`, which read runs
/// already played, refuse them.
const PLAYING: [&str; 16] = [
    "ai",
    "ai_opts",
    "depth",
    "time_ms",
    "threads",
    "start_tiles",
    "four_probability",
    "illegal_move_spawns",
    "num_games",
    "first_game",
    "timeout",
    "seed",
    "jobs",
    "resume",
    "from",
    "until",
];

/// `ai2048 sweep`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Plays --num-games games at each depth, the same games (seeds) at every \
depth, and prints one row per depth: depth, games, max score, mean score, moves/s (of one \
thread), and the share of games reaching 2048, 4096, 8192 and 16384. --plot draws score \
against mean time per move, one point per game, coloured by depth. Ctrl-C stops the sweep \
cleanly: the depths finished and the finished games of the depth in progress are reported, \
plotted and written to the --json file, and the exit code is 130 (a second Ctrl-C quits at \
once). A complete sweep exits with 0."
)]
pub struct SweepArgs {
    #[command(flatten)]
    pub ai: AiArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The depths: a list (0,1,2), an inclusive range (1..4 is 1,2,3,4) or both (0,2..4);
    /// each from 0 to 20.
    #[arg(long, default_value = "1..3", value_name = "LIST")]
    pub depths: String,
    /// How many games to play at each depth.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub num_games: u64,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
    /// The seed of the sweep: game i of every depth plays seed derive(S, i).
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    #[command(flatten)]
    pub jobs: JobsArgs,
    /// Draw score against time per move to this file: .svg or .png.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Write the table and every game's record to this JSON file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The player `tune` scores weights with: expectimax at depth 1, fast enough for
/// thousands of games. Its transposition table is cut to 1 MiB: at depth 1 it changes
/// no move, and clearing the default 64 MiB for every game would take 20 times as long
/// as the game.
pub const DEFAULT_TUNE_PLAYER: &str = "expectimax:depth=1,tt-mb=1";

/// `ai2048 tune`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Each generation, CMA-ES draws --population candidate weights around its \
current estimate; every candidate, the best weights so far and the estimate itself play the \
same --games games (new ones each generation), and the ranking moves the search. The \
weights are searched relative to the starting ones (a step of --sigma 0.3 changes each by \
about 30%) and kept in their allowed ranges. The best weights so far are written to --out \
after every generation. At the end, the start and the best weights play the same --validate \
held-out games, and both means are printed with their standard errors. Ctrl-C stops the run \
cleanly: the generation in progress is dropped, the --out file keeps the best weights of the \
finished ones, and the exit code is 130 (a second Ctrl-C quits at once). Use the file with \
--ai expectimax:weights=FILE."
)]
pub struct TuneArgs {
    /// The evaluation to tune (default: that of --from, else of --ai, else heuristic).
    #[arg(long, value_name = "NAME")]
    pub eval: Option<String>,
    /// Start from the weights in this file instead of the evaluation's defaults.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// The player whose games score the weights (NAME:KEY=VALUE,...); its evaluation is
    /// the one tuned.
    #[arg(long, default_value = DEFAULT_TUNE_PLAYER, value_name = "SPEC")]
    pub ai: String,
    /// Tune only these weights (comma-separated names); the others stay as they start.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub params: Option<Vec<String>>,
    /// What to maximize, as a mean over games: score, max-tile-log or reach:TILE.
    #[arg(long, default_value = "score", value_name = "OBJ")]
    pub objective: String,
    /// How many generations to run.
    #[arg(long, default_value_t = 20, value_name = "G")]
    pub generations: u32,
    /// Candidates per generation (default: CMA-ES's 4 + 3 ln n for n weights).
    #[arg(long, value_name = "L")]
    pub population: Option<usize>,
    /// The initial step, relative to the starting weights (0.3: about 30%).
    #[arg(
        long,
        default_value_t = 0.3,
        value_name = "S",
        allow_negative_numbers = true
    )]
    pub sigma: f64,
    /// Games each candidate plays per generation.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub games: u64,
    /// Held-out games to compare the start and the best weights on (default: --games;
    /// 0 skips it).
    #[arg(long, value_name = "N")]
    pub validate: Option<u64>,
    /// The seed of the run: games, candidates and validation all derive from it.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    #[command(flatten)]
    pub jobs: JobsArgs,
    /// The weights file to write the best weights to, after every generation.
    #[arg(long, default_value = "weights.json", value_name = "FILE")]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// `ai2048 train`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "The network plays each game itself, one ply deep (or --search chance layers \
deep), and after every move \
moves the value of the board its previous move left toward that move's score plus the value \
of the new board (TD(0) on afterstates, as Szubert and Jaśkowski's 2048 networks learn). \
Game g of the network's life plays from seed derive(--seed, g), so training in parts with \
--resume and --threads 1 plays the same games, and makes the same network, as training at \
once. With more threads (the default: every core) the threads share the weights without \
locks, and the network differs from run to run. Every --report games a line gives the mean \
score of those games and the share reaching each tile. With --learning tc the file also keeps \
every weight's coherence (three times the size). The network is written to --out about every \
--save-every seconds and at the end. Ctrl-C stops cleanly: the games in progress still finish, \
the network is written, and the exit code is 130 (a second Ctrl-C quits at once, and loses \
what was not written). Use the file with --ai greedy:network=FILE (the policy it learned) or \
--ai expectimax:network=FILE."
)]
pub struct TrainArgs {
    /// The network file to write (and, with --resume, to go on from).
    #[arg(long, default_value = "network.bin", value_name = "FILE")]
    pub out: PathBuf,
    /// Go on training the network in --out instead of starting a new one.
    #[arg(long)]
    pub resume: bool,
    /// The tuples of a new network: 4x6 (256 MiB), 5x6, 8x6, small (1.25 MiB), or
    /// cells such as 0,1,2,3;4,5,6,7 (default 4x6).
    #[arg(long, value_name = "SET")]
    pub tuples: Option<String>,
    /// The stages of a new network: where each further set of tables begins, as sums of
    /// the board's distinct tiles (16384: once the board holds a 16384; 16384,49152:
    /// also once it holds a 32768 and a 16384). Default: one stage. With --resume, a
    /// one-stage network splits into these stages, each starting from its tables.
    #[arg(long, value_name = "T,...")]
    pub stages: Option<String>,
    /// The value every board of a new network starts at (optimistic initialization,
    /// as Guei et al. 2022: 320000 makes it try what it has not seen). Default 0.
    #[arg(long, value_name = "V")]
    pub init: Option<f32>,
    /// Threads training at once on one set of weights, without locks (default: all
    /// cores). With 1, training is deterministic and --resume goes on exactly; with
    /// more, the network differs from run to run.
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// After each game, play on from a position late in it, again and again, so the
    /// end game is trained more: back to FRACTION of the way through each stretch
    /// (0.5 if only --restart is given), while it is at least 10 moves long.
    #[arg(long, value_name = "FRACTION", num_args = 0..=1, default_missing_value = "0.5")]
    pub restart: Option<f32>,
    /// Learn toward the λ-return over this many moves ahead, not the next move alone
    /// (default 1, TD(0); 5 when --lambda is given).
    #[arg(long, value_name = "N")]
    pub steps: Option<u32>,
    /// TD(λ): with --steps above 1, the return k moves ahead weighs (1 - λ) λ^(k-1),
    /// the rest on the last; 1 makes it --steps-step TD (default 0.5 when --steps is
    /// given).
    #[arg(long, value_name = "L")]
    pub lambda: Option<f32>,
    /// TD(λ) learned backward: each stretch of play (a game, or a restart's play to
    /// its end) is learned once it ends, from its last afterstate back to its first,
    /// toward the λ-return over the rest of it (λ from --lambda, default 0.5), so what
    /// the end taught reaches the whole stretch at once (as ziap/2048-tdl learns).
    #[arg(long, conflicts_with = "steps")]
    pub backward: bool,
    /// Chance layers the training games search to choose each move (default 0: the
    /// network one ply deep). 1 plays as the searching player does at its shallowest,
    /// so the network learns the positions such a player reaches; about 23 times
    /// slower a move. At most 2.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub search: u32,
    /// Play the training games with this player's moves, not the network's own (as
    /// expectimax:depth=3, which with the endgame tables built is the formation
    /// player): the network learns the score that player goes on to make from each of
    /// its afterstates, to judge its leaves by (blend-network=FILE). The player's
    /// options say how it plays, its depth among them. Not with --search.
    #[arg(long, value_name = "PLAYER", conflicts_with = "search")]
    pub policy: Option<String>,
    /// Carousel shaping (Jaśkowski 2018): keep, for each of these stages (sums of a
    /// board's distinct tiles, as --stages: 16384,24576,32768), a pool of positions
    /// where training games entered it, and start the games in turn anew and from each
    /// pool, so every stage gets games. The pools are kept in the file, and --resume
    /// goes on with them. Report lines count only the games started anew.
    #[arg(long, value_name = "T,...")]
    pub carousel: Option<String>,
    /// Before training, fill the carousel's pools (--carousel's, or the file's) from
    /// --pool-games games of this player: where each game entered each stage. Its games
    /// reach the stages that the network's own games do not yet: greedy:network=FILE
    /// (a trained network's policy, fast), or a searching player such as the default
    /// expectimax with depth=1.
    #[arg(long, value_name = "PLAYER")]
    pub pools_by: Option<String>,
    /// How many games --pools-by plays (default 1000), on --threads threads.
    #[arg(long, value_name = "N", requires = "pools_by")]
    pub pool_games: Option<u64>,
    /// Draw the learning curve (mean score and tile rates per report) to this SVG or
    /// PNG file at the end.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Games to train now (default 100000, or as many as --minutes allows).
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Stop starting games after this many minutes (the games under way finish), and
    /// end as when --games are done.
    #[arg(long, value_name = "M")]
    pub minutes: Option<f64>,
    /// Stop starting games once this many moves are trained (restarts' moves count):
    /// a budget by the work done, to compare ways of training fairly.
    #[arg(long, value_name = "N")]
    pub moves: Option<u64>,
    /// How weights learn: td (plain TD(0) steps) or tc (temporal coherence: each
    /// weight's steps also scaled by how consistent its errors are). Default: tc for a
    /// new network, the file's with --resume.
    #[arg(long, value_name = "HOW")]
    pub learning: Option<String>,
    /// The learning rate: the share of each error a step corrects (default 0.1 for td,
    /// 1 for tc).
    #[arg(long, value_name = "A")]
    pub alpha: Option<f32>,
    /// The seed of the training.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    /// Games per report line.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub report: u64,
    /// Write the network about this often (between games), and always at the end.
    #[arg(long, default_value_t = 300, value_name = "SECS")]
    pub save_every: u64,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// `ai2048 net`: the network files.
#[derive(Debug, Clone, Subcommand)]
pub enum NetCommand {
    /// Pack a network for play: its weights as i16 with one scale per table,
    /// compressed with zstd (a 4x6 network trained by TC is 1 GiB; packed, some 30 MB).
    Pack(NetPackArgs),
    /// Join one-stage networks into one network with a stage per network: the first
    /// values the boards before the first threshold, the next those from there on.
    /// Each stage reads its own network's tuples (a 4x6 opening under an 8x6 late
    /// game). Writes a trained (f32) file, to pack with `net pack`.
    Join(NetJoinArgs),
    /// Describe a network file, trained or packed: tuples, stages, games, format, size,
    /// checksum and what trained it.
    Info(NetInfoArgs),
}

/// `ai2048 net pack`.
#[derive(Debug, Clone, Args)]
pub struct NetPackArgs {
    /// The network to pack (`ai2048 train`'s file, or a packed one).
    pub trained: PathBuf,
    /// The packed file to write.
    pub out: PathBuf,
    /// The zstd level, 1 to 22: 19 makes small files in a minute or two.
    #[arg(long, default_value_t = 19, value_name = "N")]
    pub level: i32,
    /// Set every weight whose magnitude is below this to 0 before packing: rarely
    /// trained weights stay small, and zeros compress to almost nothing.
    #[arg(long, value_name = "W")]
    pub prune: Option<f32>,
    /// Round every weight to a multiple of this (default: each table's finest `i16`
    /// scale, its largest weight over 32767): coarser weights take fewer values and
    /// compress better, and unlike --prune they err by at most half a step, in both
    /// directions.
    #[arg(long, value_name = "W")]
    pub step: Option<f32>,
}

/// `ai2048 net join`.
#[derive(Debug, Clone, Args)]
pub struct NetJoinArgs {
    /// The networks, trained or packed, in the order of the stages: each fills one
    /// stage, or, if it has stages of its own (`train --stages`), as many, which must
    /// begin where its own do.
    #[arg(required = true, num_args = 2..)]
    pub parts: Vec<PathBuf>,
    /// Where each stage after the first begins, as `train --stages` says: tile sums of
    /// a board's distinct tiles (16384: once the board holds a 16384).
    #[arg(long, value_name = "T,...")]
    pub stages: String,
    /// The joined network to write (f32 weights, without coherence).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `ai2048 net info`.
#[derive(Debug, Clone, Args)]
pub struct NetInfoArgs {
    /// The network file.
    pub file: PathBuf,
}

/// `ai2048 engine`.
#[derive(Debug, Clone, Args)]
pub struct EngineArgs {
    /// The player for `best` requests that name none.
    #[arg(long, default_value = DEFAULT_PLAYER, value_name = "NAME")]
    pub ai: String,
}

/// `ai2048 serve`. Logs go to stderr, one line a request; `AI2048_LOG` filters them
/// (`info` by default; `warn` leaves out the requests' lines, `ai2048_web::request=off`
/// only them). Ctrl-C or SIGTERM stops the server once the requests in flight are
/// answered.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The address to listen on: 127.0.0.1 serves this machine only.
    #[arg(long, default_value = "127.0.0.1", value_name = "IP")]
    pub host: std::net::IpAddr,
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8048)]
    pub port: u16,
    /// Open the page in a browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// Where the saved scores (players, ranked games, the leaderboard) are kept: a
    /// SQLite file's path (created when missing), a postgres://USER:PASSWORD@HOST:PORT/DB
    /// URL, or `none` for a server that keeps no scores. Default: scores.db in
    /// $XDG_DATA_HOME/ai2048 (else ~/.local/share/ai2048).
    #[arg(long, value_name = "PATH|URL|none")]
    pub db: Option<String>,
    /// Lets the pages of this origin (like `https://example.org`, or `*` for any) call the
    /// score API from a browser (CORS): for the static site. Repeatable.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// Moves per second that one client address may send to ranked games.
    #[arg(long, default_value_t = 200, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub moves_per_second: u32,
    /// New ranked games per minute that one client address may start.
    #[arg(long, default_value_t = 60, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub games_per_minute: u32,
    /// Reads of the leaderboard, players, games and replays per second that one client
    /// address may send.
    #[arg(long, default_value_t = 50, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub reads_per_second: u32,
    /// Other requests per second that one client address may send: the page's files,
    /// the engine's API (the page's own game and AI on this server).
    #[arg(long, default_value_t = 500, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub requests_per_second: u32,
    /// New players per hour that one client address may register.
    #[arg(long, default_value_t = 20, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub players_per_hour: u32,
    /// A ranked game with no move for this many seconds ends as it stands, and counts.
    #[arg(long, default_value_t = 86_400, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub abandon_after: u64,
    /// Ranked games one player may have open at once; past it, a new game gets 409
    /// until one ends (played out, ended with POST /api/ranked/G/end, or abandoned).
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_open_games: u32,
    /// The memory, in MiB, for finished games' replays and moves kept to answer again
    /// (they never change); the least recently read go first. 0 keeps none.
    #[arg(long, default_value_t = 32, value_name = "MIB")]
    pub cache_mb: usize,
    /// SQLite: flush every move to the disk before answering it, so that it survives
    /// a power cut too (every move survives a crash of the server without it); slower.
    #[arg(long)]
    pub sqlite_full_sync: bool,
    /// The reverse proxies (like 127.0.0.1/32 or 10.0.0.0/8) whose Forwarded or
    /// X-Forwarded-For headers name the client, for the rate limits: the client is the
    /// rightmost address there that is not a trusted proxy. Any other peer is the client.
    #[arg(long = "trusted-proxy", value_name = "CIDR", num_args = 1..)]
    pub trusted_proxy: Vec<ai2048_web::Cidr>,
    /// Connections one address (an IPv6 /64) that is not a trusted proxy may have open
    /// at once; further ones are closed. 0: no cap.
    #[arg(long, default_value_t = 32, value_name = "N")]
    pub max_connections_per_client: usize,
    /// Requests one client may have in flight at once (behind a trusted proxy, the
    /// client its headers name); further ones get 429. 0: no cap.
    #[arg(long, default_value_t = 16, value_name = "N")]
    pub max_requests_per_client: usize,
}

/// `ai2048 replay`.
#[derive(Debug, Clone, Args)]
pub struct ReplayArgs {
    /// The replay file, as written by `watch --save` or `play --save`.
    pub file: PathBuf,
}
