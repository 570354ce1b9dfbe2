//! The `ai2048` binary: see `ai2048 --help`.
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    ai2048::run(ai2048::args::Cli::parse())
}
