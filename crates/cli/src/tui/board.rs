//! The board as a widget: four rows of four tiles in the original game's colours,
//! each tile 8 columns by 3 rows with its number in the middle.

use ai2048_engine::Board;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

use super::palette;

/// Columns of one tile.
pub const TILE_WIDTH: u16 = 8;
/// Rows of one tile.
pub const TILE_HEIGHT: u16 = 3;
/// Columns between two tiles (terminal cells are about twice as tall as wide).
pub const GAP_X: u16 = 2;
/// Rows between two tiles.
pub const GAP_Y: u16 = 1;
/// Columns of the whole board, borders included.
pub const WIDTH: u16 = 4 * TILE_WIDTH + 5 * GAP_X;
/// Rows of the whole board, borders included.
pub const HEIGHT: u16 = 4 * TILE_HEIGHT + 5 * GAP_Y;

/// Draws a board into the top-left [`WIDTH`] × [`HEIGHT`] cells of its area.
#[derive(Clone, Copy, Debug)]
pub struct BoardWidget {
    /// The board to draw.
    pub board: Board,
}

impl Widget for BoardWidget {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(Rect::new(area.x, area.y, WIDTH, HEIGHT));
        buf.set_style(area, Style::new().bg(palette::BOARD));
        for (r, row) in self.board.to_rows().into_iter().enumerate() {
            for (c, tile) in row.into_iter().enumerate() {
                let (r, c) = (r as u16, c as u16);
                let cell = Rect::new(
                    area.x + GAP_X + c * (TILE_WIDTH + GAP_X),
                    area.y + GAP_Y + r * (TILE_HEIGHT + GAP_Y),
                    TILE_WIDTH,
                    TILE_HEIGHT,
                )
                .intersection(area);
                draw_tile(tile, cell, buf);
            }
        }
    }
}

fn draw_tile(tile: u32, cell: Rect, buf: &mut Buffer) {
    let bg = palette::tile_background(tile);
    buf.set_style(cell, Style::new().bg(bg));
    if tile == 0 || cell.height == 0 {
        return;
    }
    let text = tile.to_string();
    let width = text.len() as u16;
    let x = cell.x + cell.width.saturating_sub(width) / 2;
    let y = cell.y + cell.height / 2;
    let style = Style::new()
        .fg(palette::tile_text(tile))
        .bg(bg)
        .add_modifier(Modifier::BOLD);
    buf.set_stringn(x, y, &text, usize::from(cell.width), style);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_are_coloured_and_numbers_centred() {
        let board: Board = "2 0 0 0/0 2048 0 0/0 0 0 0/0 0 0 131072".parse().unwrap();
        let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, HEIGHT));
        BoardWidget { board }.render(buf.area, &mut buf);
        assert_eq!((WIDTH, HEIGHT), (42, 17));
        // The 2: columns 2..10, rows 1..4; its number on the middle row, centred.
        assert_eq!(buf[(5, 2)].symbol(), "2");
        assert_eq!(buf[(5, 2)].fg, palette::DARK_TEXT);
        assert_eq!(buf[(2, 1)].bg, palette::tile_background(2));
        assert_eq!(buf[(0, 0)].bg, palette::BOARD);
        assert_eq!(buf[(1, 2)].bg, palette::BOARD, "the gap");
        // The 2048 at row 1, column 1: x 12..20, y 5..8.
        let line: String = (12..20).map(|x| buf[(x, 6)].symbol().to_string()).collect();
        assert_eq!(line, "  2048  ");
        assert_eq!(buf[(14, 6)].fg, palette::LIGHT_TEXT);
        assert_eq!(buf[(12, 5)].bg, palette::tile_background(2048));
        // An empty cell.
        assert_eq!(buf[(22, 2)].bg, palette::EMPTY);
        // 131072 still fits its tile.
        let line: String = (32..40)
            .map(|x| buf[(x, 14)].symbol().to_string())
            .collect();
        assert_eq!(line, " 131072 ");
    }
}
