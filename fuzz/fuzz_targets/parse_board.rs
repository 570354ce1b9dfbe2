//! Fuzzes board parsing: `str::parse::<Board>` on any text and `Board::from_rows` on
//! any 16 numbers. Neither may panic; a board read from text must print back to
//! itself, and `from_rows` must accept exactly the valid tiles.
#![no_main]

use ai2048_engine::{exponent_of_tile, Board};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(board) = text.parse::<Board>() {
            assert_eq!(board.to_hex().parse::<Board>(), Ok(board));
            assert_eq!(board.to_string().parse::<Board>(), Ok(board));
        }
    }

    // The same bytes as 16 numbers, one cell after another: byte 0 is an empty cell,
    // 1 to 20 the power of two 2^b (so 2^18 and up are too large), 21 to 127 the
    // small number b itself, and 128 and up take the next 8 bytes as any u64.
    let mut rows = [[0u64; 4]; 4];
    let mut bytes = data.iter().copied();
    for cell in rows.iter_mut().flatten() {
        let b = bytes.next().unwrap_or(0);
        *cell = match b {
            0 => 0,
            1..=20 => 1u64 << b,
            21..=127 => u64::from(b),
            _ => {
                let mut raw = [0u8; 8];
                for r in &mut raw {
                    *r = bytes.next().unwrap_or(0);
                }
                u64::from_le_bytes(raw)
            }
        };
    }
    let valid = rows.iter().flatten().all(|&v| exponent_of_tile(v).is_ok());
    match Board::from_rows(rows) {
        Ok(board) => {
            assert!(valid, "accepted {rows:?}");
            assert_eq!(board.to_rows().map(|r| r.map(u64::from)), rows);
        }
        Err(_) => assert!(!valid, "refused {rows:?}"),
    }
});
