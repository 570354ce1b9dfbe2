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
    watch(&nets, &file);
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
    watch(&tables, &distilled);
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

/// Has cargo run this script again when `file` or anything else in `folder` changes,
/// or when a file appears there. Only paths that exist are named: cargo counts a
/// missing one as changed on every build, which compiled this crate and every crate
/// above it again at each `cargo` command (the README's main command, run after the
/// tests at the end of CI, waited 38 s for it). Both folders are committed, so that a
/// file put in one later is seen.
fn watch(folder: &Path, file: &Path) {
    for path in [folder, file] {
        if path.exists() {
            println!("cargo::rerun-if-changed={}", path.display());
        }
    }
}
