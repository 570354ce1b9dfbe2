//! `cargo run --release --bin main`: the AI plays one game, as in the Rust course
//! lab's `main`. Takes the options of `ai2048 watch`.

use std::process::ExitCode;

use ai2048::args::WatchArgs;
use ai2048::interrupt::Outcome;

fn main() -> ExitCode {
    let about = "The AI plays one game of 2048 (same as `ai2048 watch`)";
    let args: WatchArgs = ai2048::lab_args("main", about);
    ai2048::report(ai2048::commands::watch::run(&args).map(|()| Outcome::Done))
}
