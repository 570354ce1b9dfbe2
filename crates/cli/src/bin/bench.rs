//! `cargo run --release --bin bench -- --num-games 100 --timeout 180`, as in the Rust
//! course lab's `bench`. Takes the options of `ai2048 bench`.

use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "bench",
    about = "Play many games and report statistics (same as `ai2048 bench`)"
)]
struct Bench {
    #[command(flatten)]
    bench: ai2048::args::BenchArgs,
}

fn main() -> ExitCode {
    ai2048::report(ai2048::commands::bench::run(&Bench::parse().bench))
}
