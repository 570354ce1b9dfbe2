//! The search signature: CI checks that the search still visits exactly these nodes.
//! A commit that changes the search on purpose updates these numbers, and says so.

#[test]
fn signature_is_unchanged() {
    let s = ai2048_ai::signature::run();
    assert_eq!(
        (s.nodes, s.moves),
        (EXPECTED_NODES, EXPECTED_MOVES),
        "the search changed: if on purpose, update the signature in this file"
    );
}

const EXPECTED_NODES: u64 = 1_508_484;
const EXPECTED_MOVES: u64 = 97_887;
