//! The colours of the original 2048, for the board, the tiles and their numbers.

use ratatui::style::Color;

/// The board behind the tiles.
pub const BOARD: Color = rgb(0xbbada0);
/// An empty cell.
pub const EMPTY: Color = rgb(0xcdc1b4);
/// Numbers on the light tiles (2 and 4).
pub const DARK_TEXT: Color = rgb(0x776e65);
/// Numbers on every other tile.
pub const LIGHT_TEXT: Color = rgb(0xf9f6f2);
/// The score boxes, as in the original game.
pub const SCORE_BOX: Color = rgb(0xbbada0);
/// The labels of the score boxes.
pub const SCORE_LABEL: Color = rgb(0xeee4da);
/// Accent for keys in the help line and the AI's pick.
pub const ACCENT: Color = rgb(0xf67c5f);
/// Text that tells of success (a saved replay, a new best).
pub const GOOD: Color = rgb(0x8fbc6a);
/// Text that tells of a refusal or an error.
pub const BAD: Color = rgb(0xf65e3b);

/// A colour from its `0xRRGGBB` value.
const fn rgb(hex: u32) -> Color {
    Color::Rgb((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// The background of a tile: the original game's colour for each tile up to 2048,
/// and one dark colour for every larger tile.
pub fn tile_background(tile: u32) -> Color {
    rgb(match tile {
        0 => return EMPTY,
        2 => 0xeee4da,
        4 => 0xede0c8,
        8 => 0xf2b179,
        16 => 0xf59563,
        32 => 0xf67c5f,
        64 => 0xf65e3b,
        128 => 0xedcf72,
        256 => 0xedcc61,
        512 => 0xedc850,
        1024 => 0xedc53f,
        2048 => 0xedc22e,
        _ => 0x3c3a32,
    })
}

/// The colour of a tile's number: dark on 2 and 4, light on the others.
pub fn tile_text(tile: u32) -> Color {
    if tile <= 4 {
        DARK_TEXT
    } else {
        LIGHT_TEXT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_have_the_original_colours() {
        assert_eq!(tile_background(2), Color::Rgb(0xee, 0xe4, 0xda));
        assert_eq!(tile_background(64), Color::Rgb(0xf6, 0x5e, 0x3b));
        assert_eq!(tile_background(2048), Color::Rgb(0xed, 0xc2, 0x2e));
        assert_eq!(tile_background(4096), Color::Rgb(0x3c, 0x3a, 0x32));
        assert_eq!(tile_background(131072), tile_background(4096));
        assert_eq!(tile_background(0), EMPTY);
        assert_eq!(BOARD, Color::Rgb(0xbb, 0xad, 0xa0));
        assert_eq!(tile_text(2), DARK_TEXT);
        assert_eq!(tile_text(4), Color::Rgb(0x77, 0x6e, 0x65));
        assert_eq!(tile_text(8), Color::Rgb(0xf9, 0xf6, 0xf2));
    }
}
