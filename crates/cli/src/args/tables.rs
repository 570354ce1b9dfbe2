//! `ai2048 tables`: the endgame tables' subcommands.

use std::path::PathBuf;

use clap::{Args, Subcommand};

/// `ai2048 tables`: build, list, describe, verify and query endgame tables.
#[derive(Debug, Clone, Subcommand)]
pub enum TablesCommand {
    /// Build the default set of tables (or the named ones) into the tables folder, or one
    /// table of your own pattern with --pattern, --target and --out. A build that is
    /// stopped (Ctrl-C, or killed) goes on from where it was when run again.
    Build(TablesBuildArgs),
    /// The built-in tables and the table files in the tables folder, with their state.
    List(TablesDirArgs),
    /// Describe a table: its pattern, target, states, size and whether it is finished.
    Info(TablesFileArgs),
    /// Check tables' checksums: the named ones, or every table in the tables folder.
    Verify(TablesVerifyArgs),
    /// Each move's success probability for a board (or several), from a table.
    Query(TablesQueryArgs),
    /// Each move's success probability for a board (or several), as query gives it, for
    /// a built-in table or a pattern of your own, with no table built: only the states
    /// the board's moves and spawns reach are solved (seconds for a board well into its
    /// step; minutes and gigabytes for one at the start of a large table's step).
    Solve(TablesSolveArgs),
    /// Write a finished table again in another encoding (u8 halves a built-in
    /// table's size), in place or to --out; its checksum is checked on the way.
    Convert(TablesConvertArgs),
    /// Distil the tables into a few megabytes: play seeded games with the tables, and
    /// keep the tables' moves for the states those games met most often (what a
    /// build without the full tables plays from).
    Distill(TablesDistillArgs),
}

/// How a table file stores its values (`--encoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EncodingArg {
    /// 4 bytes a state, the solver's values as they are.
    F32,
    /// 2 bytes a state, 65535ths: the built-in tables' default.
    U16,
    /// 1 byte a state, 256 levels spaced in log-odds: fine near 0 and 1, coarse at 0.5.
    U8,
    /// A quarter of a byte a state: each state's best move, no probabilities (built so,
    /// not converted).
    Moves,
}

/// The tables folder.
#[derive(Debug, Clone, Args)]
pub struct TablesDirArgs {
    /// The tables folder (default: $AI2048_TABLES, else ai2048/tables in the user's
    /// cache folder, as ~/.cache/ai2048/tables).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `ai2048 tables build`.
#[derive(Debug, Clone, Args)]
pub struct TablesBuildArgs {
    /// The built-in tables to build, as snake8-128 (default: the default set; `ai2048
    /// tables list` names them).
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Build the large set: the default set with open10-512 (the last step before 32768
    /// with the block's cells open) as u16, its probabilities, not its moves alone, and
    /// block10-1024 (the last step before 65536, as u8): 9.4 GiB on disk in all, not
    /// 3.5; about 15 minutes on 2 cores.
    #[arg(long, conflicts_with_all = ["names", "pattern"])]
    pub large: bool,
    #[command(flatten)]
    pub dir: TablesDirArgs,
    /// A table of your own: four groups of four of x (a fixed cell), . (a cell whose
    /// tile may move), t (a moving cell where the target counts) and a digit k from 1
    /// to 9 (a moving cell capped at the target over 2^k), top row first, as
    /// xxxx/xxxx/xx../..tt or xxxx/txxx/1122/2233. Needs --target and --out.
    #[arg(long, value_name = "ROWS", requires_all = ["target", "out"])]
    pub pattern: Option<String>,
    /// A goal of --pattern, repeatable: four groups of four of . (not in the goal) and
    /// a digit k (the cell must hold the target over 2^k), as ...2/..12/..../.... with
    /// target 256 (a 64, and a 128 and a 64 below it, lined up to merge into the 256).
    /// The board has succeeded when the cells of one goal hold its tiles, as when a t
    /// cell holds the target; with goals, the pattern needs no t cell.
    #[arg(long, value_name = "ROWS", requires = "pattern")]
    pub goal: Vec<String>,
    /// The target tile of --pattern: a power of two from 8 to 8192.
    #[arg(long, value_name = "T", requires = "pattern")]
    pub target: Option<u32>,
    /// The file to write the --pattern table to; its folder is made if missing.
    #[arg(long, value_name = "FILE", requires = "pattern")]
    pub out: Option<PathBuf>,
    /// Store the --pattern table's values as u16 (65535ths, half the size), as the
    /// built-in tables are, instead of f32: --encoding u16.
    #[arg(long, requires = "pattern", conflicts_with = "encoding")]
    pub compact: bool,
    /// How to store the values (default: u16 for the built-in tables, f32 for
    /// --pattern).
    #[arg(long, value_enum, value_name = "ENCODING")]
    pub encoding: Option<EncodingArg>,
    /// Build again tables that are built already.
    #[arg(long)]
    pub force: bool,
    /// Threads to solve on (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Save a stopped build's progress this often, in seconds.
    #[arg(long, default_value_t = 60, value_name = "SECS")]
    pub checkpoint: u64,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// A table named by its file or by its built-in name.
#[derive(Debug, Clone, Args)]
pub struct TablesFileArgs {
    /// The table: a file, or a built-in table's name (as snake8-128) in the tables folder.
    #[arg(value_name = "TABLE")]
    pub table: String,
    #[command(flatten)]
    pub dir: TablesDirArgs,
}

/// `ai2048 tables verify`.
#[derive(Debug, Clone, Args)]
pub struct TablesVerifyArgs {
    /// The tables: files or built-in names (default: every table in the tables folder).
    #[arg(value_name = "TABLE")]
    pub tables: Vec<String>,
    #[command(flatten)]
    pub dir: TablesDirArgs,
}

/// `ai2048 tables convert`.
#[derive(Debug, Clone, Args)]
pub struct TablesConvertArgs {
    #[command(flatten)]
    pub table: TablesFileArgs,
    /// The encoding to write.
    #[arg(long, value_enum, value_name = "ENCODING")]
    pub encoding: EncodingArg,
    /// Write the converted table here instead of over the table.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `ai2048 tables query`.
#[derive(Debug, Clone, Args)]
pub struct TablesQueryArgs {
    #[command(flatten)]
    pub table: TablesFileArgs,
    /// The board, in any form `ai2048 hint` takes. Several boards are answered in
    /// order, the table opened once; - or nothing reads standard input: one board, or
    /// one board a line.
    #[arg(value_name = "BOARD")]
    pub boards: Vec<String>,
    /// Print {"best": MOVE, "moves": {"up": P, ...}} (null where a move is illegal or
    /// leaves the table) instead of text, one line a board.
    #[arg(long)]
    pub json: bool,
}

/// `ai2048 tables solve`.
#[derive(Debug, Clone, Args)]
pub struct TablesSolveArgs {
    /// A built-in table's name (as block10-512; it need not be built), then the boards,
    /// in any form `ai2048 hint` takes; with --pattern, only the boards. No board, or -,
    /// reads standard input: one board, or one board a line.
    #[arg(value_name = "NAME|BOARD")]
    pub items: Vec<String>,
    /// A table of your own, as `tables build` takes it: four groups of four of x, .,
    /// t and the digits 1 to 9 (caps), top row first. Needs --target.
    #[arg(long, value_name = "ROWS", requires = "target")]
    pub pattern: Option<String>,
    /// A goal of --pattern, repeatable, as `tables build` takes it.
    #[arg(long, value_name = "ROWS", requires = "pattern")]
    pub goal: Vec<String>,
    /// The target tile of --pattern: a power of two from 8 to 8192.
    #[arg(long, value_name = "T", requires = "pattern")]
    pub target: Option<u32>,
    /// Stop with an error past this many states (each takes about 10 bytes at the
    /// solve's peak; the default, 300 million, about 3 GiB).
    #[arg(long, default_value_t = 300_000_000, value_name = "N")]
    pub max_states: u64,
    /// Print {"best": MOVE, "moves": {"up": P, ...}, "states": N} (null where a move is
    /// illegal or leaves the table) instead of text, one line a board.
    #[arg(long)]
    pub json: bool,
    /// Threads to solve on (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// No progress bar, nor the line of states and time after each answer.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `ai2048 tables distill`.
#[derive(Debug, Clone, Args)]
pub struct TablesDistillArgs {
    #[command(flatten)]
    pub dir: TablesDirArgs,
    /// The file to write (default: distilled.dt in the tables folder, where every
    /// player that reads the folder finds it).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Games to play.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub games: u64,
    /// The seed of the games: game i is played from derive_seed(SEED, i), as `bench`
    /// plays them.
    #[arg(long, default_value_t = 0x0D15_7111)]
    pub seed: u64,
    /// The depth the player searches at.
    #[arg(long, default_value_t = 3, value_name = "D")]
    pub depth: u32,
    /// The most bytes the distilled table may take, in MiB.
    #[arg(long, default_value_t = 8.0, value_name = "MIB")]
    pub max_mib: f64,
    /// The player whose games are watched (default: the default player with the
    /// folder's tables). Whoever plays, the tables' own answers are what is kept: a
    /// player of a distilled table (`expectimax:tables=FILE.dt`) shows the states it
    /// meets where its table has no answer.
    #[arg(long, value_name = "SPEC")]
    pub ai: Option<String>,
    /// Counts to go on from, if the file exists, and to save all the counts to at the
    /// end: distillations by several players, or of more games, add up.
    #[arg(long, value_name = "FILE")]
    pub counts: Option<PathBuf>,
    /// Games played at once (default: all cores).
    #[arg(long, short, value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}
