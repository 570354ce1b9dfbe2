//! Embeds the default network, `nets/default.np` at the root of the repository, when
//! it is there: the library then plays with it by default (see
//! `ai2048_ai::ntuple::builtin`). Without it the defaults are the hand-made
//! evaluations. Embeds the distilled endgame table, `tables/distilled.dt`, likewise
//! (`ai2048_ai::endgame::builtin_distilled`).

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(ai2048_builtin_network)");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let nets = root.join("nets");
    let file = nets.join("default.np");
    // Adding or changing the file rebuilds.
    println!("cargo::rerun-if-changed={}", nets.display());
    println!("cargo::rerun-if-changed={}", file.display());
    // WebAssembly builds load the network as a file of its own, downloaded when asked.
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if file.is_file() && !wasm {
        let file = file.canonicalize().expect("an existing file has a path");
        println!("cargo::rustc-cfg=ai2048_builtin_network");
        println!("cargo::rustc-env=AI2048_BUILTIN_NETWORK={}", file.display());
    }

    // The distilled endgame table, `tables/distilled.dt`, the same way: what the
    // default player plays the endgame from when no full table is built.
    println!("cargo::rustc-check-cfg=cfg(ai2048_builtin_distilled)");
    let tables = root.join("tables");
    let distilled = tables.join("distilled.dt");
    println!("cargo::rerun-if-changed={}", tables.display());
    println!("cargo::rerun-if-changed={}", distilled.display());
    if distilled.is_file() && !wasm {
        let file = distilled
            .canonicalize()
            .expect("an existing file has a path");
        println!("cargo::rustc-cfg=ai2048_builtin_distilled");
        println!(
            "cargo::rustc-env=AI2048_BUILTIN_DISTILLED={}",
            file.display()
        );
    }
}
