//! `ai2048 plot`: a plot of strength against time from a CSV file of runs.

use std::path::PathBuf;

use clap::Args;

/// `ai2048 plot`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = "The CSV file has a header line naming its columns, in any order: series \
(the engine or player), ms_per_move (the mean time a move), and p16384, p32768, ... (the \
percentage of games reaching each tile, empty when not reported), with setting, games, where \
(here or published) and source optional; lines beginning with # are comments. Each tile \
column is a panel: the percentage against the time a move on a logarithmic scale, one mark a \
run, one colour and shape a series, filled for a run measured here and hollow for a \
published one, with the legend below. docs/img/strength-vs-time.csv is such a file."
)]
pub struct PlotArgs {
    /// The CSV file of runs.
    #[arg(value_name = "RUNS.csv")]
    pub runs: PathBuf,
    /// The plot to write, .svg or .png (default: the CSV file's path, ending in .svg).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The title above the panels.
    #[arg(
        long,
        default_value = "Strength against time a move",
        value_name = "TEXT"
    )]
    pub title: String,
}
