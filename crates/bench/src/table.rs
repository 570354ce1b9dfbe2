//! [`text_table`]: the aligned text tables that `bench`, `sweep` and `tune` print.

use core::fmt::Write as _;

/// How the last column of a [`text_table`] is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastColumn {
    /// Right-aligned, as the others.
    Right,
    /// Left as it is, unpadded (for text after the numbers).
    Left,
}

/// Rows of cells as an aligned table under `header`, with a rule under the header:
/// columns are as wide as their widest cell, right-aligned, joined by ` | `, with
/// the last column as `last` says. Lines carry no trailing spaces.
///
/// ```
/// use ai2048_bench::{text_table, LastColumn};
/// let rows = vec![vec!["1".to_owned(), "250.5".to_owned(), "yes".to_owned()]];
/// let text = text_table(&["depth", "score", "note"], &rows, LastColumn::Left);
/// assert_eq!(text, "depth | score | note\n------+-------+-----\n    1 | 250.5 | yes\n");
/// ```
#[must_use]
pub fn text_table(header: &[&str], rows: &[Vec<String>], last: LastColumn) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, cells: &mut dyn Iterator<Item = &str>| {
        let parts: Vec<String> = cells
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, &w))| {
                if last == LastColumn::Left && i + 1 == widths.len() {
                    cell.to_owned()
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", parts.join(" | ").trim_end());
    };
    line(&mut out, &mut header.iter().copied());
    let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
    let _ = writeln!(out, "{}", rule.join("-+-"));
    for row in rows {
        line(&mut out, &mut row.iter().map(String::as_str));
    }
    out
}
