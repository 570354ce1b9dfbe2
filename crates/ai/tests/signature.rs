//! The search signature: CI checks that the search still visits exactly these nodes.
//! A commit that changes the search on purpose updates these numbers, and says so.

#[test]
fn signature_is_unchanged() {
    let s = ai2048_ai::signature::run();
    // The search runs over the default evaluation: the built-in network when the build
    // has one (each network has its own signature, keyed by its checksum), else the
    // row-table heuristic.
    let expected = match ai2048_ai::ntuple::builtin_file() {
        None => (EXPECTED_NODES, EXPECTED_MOVES),
        Some(file) => match NETWORK_SIGNATURES.iter().find(|n| n.0 == file.checksum) {
            Some(&(_, nodes, moves)) => (nodes, moves),
            None => panic!(
                "no signature for the built-in network fnv1a64:{:016x}: its search gives {} nodes, moves {}; add it to NETWORK_SIGNATURES",
                file.checksum, s.nodes, s.moves
            ),
        },
    };
    assert_eq!(
        (s.nodes, s.moves),
        expected,
        "the search changed: if on purpose, update the signature in this file"
    );
}

/// Over the row-table heuristic (a build without a network). The nodes changed from
/// 1,508,484 when the transposition table began to keep the probability a value was
/// reached with (a value cut more is not reused where less would be cut).
const EXPECTED_NODES: u64 = 1_523_532;
const EXPECTED_MOVES: u64 = 97_887;

/// Over each built-in network: its checksum, then nodes and moves. (The networks
/// built in before `nets/default.np` are no longer listed: their moves were not
/// checked again after the transposition table's change.)
const NETWORK_SIGNATURES: &[(u64, u64, u64)] = &[
    // nets/default.np: the 4x6 network of 1,233,070 games below 16384, joined to the
    // 8x6 late-game network of 176,913 games from 16384 on (see docs/networks.md).
    (0x0271_79db_326d_cf45, 1_523_532, 521_066),
];
