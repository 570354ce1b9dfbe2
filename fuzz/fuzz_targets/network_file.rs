//! Fuzzes the network loaders: the trained format (`NTupleNetwork::read_from`) and the
//! packed one (`NTupleNetwork::read_packed`) on any bytes. Neither may panic, nor ask
//! for more memory than a header's checked sizes allow; a network either reads back
//! and values a board, or comes with an error.
#![no_main]

use ai2048_ai::ntuple::NTupleNetwork;
use ai2048_engine::Board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let board = Board::from_u64(0x1234_0000_5000_0001);
    if let Ok(net) = NTupleNetwork::read_from(data) {
        assert!(net.value(board).is_finite());
    }
    if let Ok(net) = NTupleNetwork::read_packed(data) {
        assert!(net.value(board).is_finite());
    }
    // The same bytes under each format's magic, so that the fuzzer reaches past it.
    for magic in [&b"ai2048nt"[..], &b"ai2048np"[..]] {
        let bytes = [magic, data].concat();
        let _ = NTupleNetwork::read_from(&bytes[..]);
        let _ = NTupleNetwork::read_packed(&bytes);
    }
});
