//! Property tests of board parsing: no input makes it panic, whatever it reads is a
//! board that reads back the same, and every board printed reads back as itself.

use ai2048_engine::{exponent_of_tile, Board, MAX_EXPONENT};
use proptest::prelude::*;

/// Pieces of text that board parsers look for, and some they should refuse.
const TOKENS: &[&str] = &[
    "0",
    "2",
    "4",
    "8",
    "1024",
    "2048",
    "32768",
    "65536",
    "131072",
    "262144",
    "3",
    "1",
    "00",
    "02",
    "-2",
    "2.5",
    "99999999999999999999999",
    "/",
    ",",
    ";",
    "[",
    "]",
    "],",
    ".",
    "-",
    "_",
    " ",
    "  ",
    "\n",
    "\r\n",
    "\t",
    "0x",
    "0X",
    "a",
    "f",
    "g",
    "h",
    "i",
    "z",
    "G",
    "é",
    "\u{feff}",
    "\u{3000}",
];

fn token_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..40).prop_map(|t| t.concat())
}

/// Text that looks like the hex form: 14 to 18 letters and digits, maybe after `0x`.
fn hexish_text() -> impl Strategy<Value = String> {
    (
        prop::sample::select(&["", "0x", "0X", " ", "0x "][..]),
        "[0-9a-zA-Z]{14,18}",
        prop::sample::select(&["", " ", "\n"][..]),
    )
        .prop_map(|(pre, digits, post)| format!("{pre}{digits}{post}"))
}

fn any_board() -> impl Strategy<Value = Board> {
    prop::collection::vec(0..=MAX_EXPONENT, 16).prop_map(|e| {
        let exps: [u8; 16] = e.try_into().expect("16 exponents");
        Board::from_exponents(exps).expect("exponents up to 17")
    })
}

/// Parses `text`; when it is a board, checks that its printed forms read back as it.
fn parse_and_check(text: &str) -> Result<(), TestCaseError> {
    if let Ok(board) = text.parse::<Board>() {
        prop_assert_eq!(board.to_hex().parse::<Board>(), Ok(board));
        prop_assert_eq!(board.to_string().parse::<Board>(), Ok(board));
    }
    Ok(())
}

proptest! {
    #[test]
    fn arbitrary_strings_never_panic(text in any::<String>()) {
        parse_and_check(&text)?;
    }

    #[test]
    fn token_strings_never_panic(text in token_text()) {
        parse_and_check(&text)?;
    }

    #[test]
    fn hexish_strings_never_panic(text in hexish_text()) {
        parse_and_check(&text)?;
    }

    #[test]
    fn from_rows_never_panics(values in prop::collection::vec(
        prop_oneof![
            4 => (0u32..=17).prop_map(|e| if e == 0 { 0 } else { 1u64 << e }),
            1 => any::<u64>(),
            1 => (0u32..64).prop_map(|e| 1u64 << e),
        ],
        16,
    )) {
        let mut rows = [[0u64; 4]; 4];
        for (i, v) in values.iter().enumerate() {
            rows[i / 4][i % 4] = *v;
        }
        let valid = values.iter().all(|&v| exponent_of_tile(v).is_ok());
        match Board::from_rows(rows) {
            Ok(board) => {
                prop_assert!(valid);
                let back: Vec<u64> = board.to_rows().iter().flatten().map(|&t| u64::from(t)).collect();
                prop_assert_eq!(back, values);
            }
            Err(_) => prop_assert!(!valid),
        }
    }

    #[test]
    fn display_reads_back(board in any_board()) {
        prop_assert_eq!(board.to_string().parse::<Board>(), Ok(board));
    }

    #[test]
    fn hex_reads_back(board in any_board()) {
        let hex = board.to_hex();
        prop_assert_eq!(hex.parse::<Board>(), Ok(board));
        prop_assert_eq!(format!("0x{hex}").parse::<Board>(), Ok(board));
    }

    #[test]
    fn rows_read_back(board in any_board()) {
        let rows = board.to_rows();
        // `[[2, 0, 0, 0], [...], ...]`, as JSON and Rust print them.
        prop_assert_eq!(format!("{rows:?}").parse::<Board>(), Ok(board));
        let wide: [[u64; 4]; 4] = rows.map(|r| r.map(u64::from));
        prop_assert_eq!(Board::from_rows(wide), Ok(board));
    }
}
