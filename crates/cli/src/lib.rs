//! The `ai2048` command line: parse, validate, dispatch. All game logic lives in the
//! library crates; this crate only reads arguments and talks to the terminal.

pub mod args;
pub mod commands;
pub mod files;

use std::process::ExitCode;

use args::{Cli, Command};

/// Runs a parsed command line and turns errors into a message and exit code 1.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        None => commands::watch::run(&default_watch()),
        Some(Command::Watch(a)) => commands::watch::run(&a),
        Some(Command::Play(a)) => commands::play::run(&a),
        Some(Command::Bench(a)) => commands::bench::run(&a),
        Some(Command::Sweep(a)) => commands::sweep::run(&a),
        Some(Command::Engine(a)) => commands::engine::run(&a),
        Some(Command::Replay(a)) => commands::replay::run(&a),
    };
    report(result)
}

/// Prints an error chain the way users expect, and picks the exit code.
pub fn report(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `watch` with all its defaults.
pub fn default_watch() -> args::WatchArgs {
    use clap::Parser;
    #[derive(Parser)]
    struct W {
        #[command(flatten)]
        w: args::WatchArgs,
    }
    W::parse_from(["ai2048"]).w
}
