//! The `ai2048` command line: parse, validate, dispatch. All game logic lives in the
//! library crates; this crate only reads arguments and talks to the terminal.

pub mod args;
pub mod commands;
mod describe;
pub mod files;
pub mod interrupt;
mod memory;
mod progress;
mod tui;

use std::process::ExitCode;

use args::{Cli, Command};
use interrupt::Outcome;

/// Runs a parsed command line and turns its outcome into the exit code: 1 with a
/// message for an error, 130 for a run stopped by Ctrl-C (see [`interrupt`]).
pub fn run(cli: Cli) -> ExitCode {
    let done = |r: anyhow::Result<()>| r.map(|()| Outcome::Done);
    let result = match cli.command {
        None => done(commands::watch::run(&default_watch())),
        Some(Command::Watch(a)) => done(commands::watch::run(&a)),
        Some(Command::Play(a)) => done(commands::play::run(&a)),
        Some(Command::Hint(a)) => done(commands::hint::run(&a)),
        Some(Command::Bench(a)) => commands::bench::run(&a),
        Some(Command::Sweep(a)) => commands::sweep::run(&a),
        Some(Command::Plot(a)) => done(commands::plot::run(&a)),
        Some(Command::Tune(a)) => commands::tune::run(&a),
        Some(Command::Train(a)) => commands::train::run(&a),
        Some(Command::Net(c)) => done(commands::net::run(&c)),
        Some(Command::Tables(c)) => commands::tables::run(&c),
        Some(Command::Engine(a)) => done(commands::engine::run(&a)),
        Some(Command::Replay(a)) => done(commands::replay::run(&a)),
        Some(Command::Serve(a)) => done(commands::serve::run(&a)),
        Some(Command::Players) => done(commands::players::run()),
        Some(Command::Signature) => done(commands::signature::run()),
    };
    report(result)
}

/// Prints an error chain the way users expect, and picks the exit code.
pub fn report(result: anyhow::Result<Outcome>) -> ExitCode {
    match result {
        Ok(outcome) => outcome.exit_code(),
        // The reader went away (`ai2048 players | head`): nothing is wrong.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Whether an error comes from writing to a closed pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `watch` with all its defaults.
pub fn default_watch() -> args::WatchArgs {
    args::parse_args(&[]).expect("watch's defaults parse")
}

/// The options of one command, parsed from the process's arguments under a program
/// name of its own: the Rust course lab's binaries (`main`, `bench`) take those of
/// `ai2048 watch` and `ai2048 bench`. On an error or `--help` it prints and exits, as
/// `ai2048` does.
pub fn lab_args<A: clap::Args + clap::FromArgMatches>(
    name: &'static str,
    about: &'static str,
) -> A {
    let matches = A::augment_args(clap::Command::new(name).about(about)).get_matches();
    A::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}
