//! `cargo run --release --bin bench -- --num-games 100 --timeout 180`, as in the Rust
//! course lab's `bench`. Takes the options of `ai2048 bench`.

use std::process::ExitCode;

use ai2048::args::BenchArgs;

fn main() -> ExitCode {
    let about = "Play many games and report statistics (same as `ai2048 bench`)";
    let args: BenchArgs = ai2048::lab_args("bench", about);
    ai2048::report(ai2048::commands::bench::run(&args))
}
