//! `cargo run --release --bin main`: the AI plays one game, as in the Rust course
//! lab's `main`.
//! Takes the options of `ai2048 watch`.

use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "main",
    about = "The AI plays one game of 2048 (same as `ai2048 watch`)"
)]
struct Main {
    #[command(flatten)]
    watch: ai2048::args::WatchArgs,
}

fn main() -> ExitCode {
    ai2048::report(
        ai2048::commands::watch::run(&Main::parse().watch)
            .map(|()| ai2048::interrupt::Outcome::Done),
    )
}
