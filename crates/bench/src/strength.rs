//! The plot of strength against time: for each tile of a CSV file of runs, a panel of
//! the share of games that reached it against the time a move, one mark a run, one
//! colour and shape a series, filled for runs measured here and hollow for published
//! ones.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::plot::{chart_on, decades, draw_time_grid, fail, render, Drawing, Mark, Shape, COLOURS};
use crate::{PlotError, PlotFormat, StrengthRuns};

/// The plot's width, in pixels.
const WIDTH: u32 = 960;

/// The height of the title and the panels, in pixels; the legend's rows come below.
const PANELS_HEIGHT: u32 = 470;

/// The height of a row of the legend, in pixels.
const LEGEND_ROW: u32 = 24;

/// Entries on a row of the legend.
const LEGEND_COLUMNS: usize = 3;

/// The width of a column of the legend, in pixels.
const LEGEND_COLUMN_WIDTH: i32 = 280;

/// Draws the runs in `format` and returns the file's bytes: a panel for each tile of
/// [`StrengthRuns::tiles`], side by side, with the percentage of games reaching it
/// against the time a move in milliseconds on a logarithmic scale, `title` above and
/// the legend below. Each series has a colour and a shape of its own; a run's mark is
/// filled when it was measured here, hollow when it is published. A run that does not
/// report a tile has no mark in its panel.
///
/// # Errors
///
/// When drawing or encoding fails, which it should not.
///
/// ```
/// use ai2048_bench::{plot_strength, PlotFormat, StrengthRuns};
/// let csv = "series,ms_per_move,p16384,p32768,where\n\
///            ai2048,0.45,87.3,29.5,here\nother,2,92.5,65,published\n";
/// let runs = StrengthRuns::parse(csv.as_bytes(), "runs.csv")?;
/// let svg = plot_strength(&runs, PlotFormat::Svg, "Strength against time a move")?;
/// let svg = String::from_utf8(svg).expect("SVG is text");
/// assert!(svg.contains("games reaching 32768") && svg.contains("other, published"));
/// assert!(plot_strength(&runs, PlotFormat::Png, "")?.starts_with(b"\x89PNG"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plot_strength(
    runs: &StrengthRuns,
    format: PlotFormat,
    title: &str,
) -> Result<Vec<u8>, PlotError> {
    struct Strength<'a>(&'a StrengthRuns, &'a str);
    impl Drawing for Strength<'_> {
        fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<(), PlotError> {
            draw(root, self.0, self.1)
        }

        fn size(&self) -> (u32, u32) {
            let rows = legend(self.0).len().div_ceil(LEGEND_COLUMNS) as u32;
            (WIDTH, PANELS_HEIGHT + rows * LEGEND_ROW + 16)
        }
    }
    render(format, &Strength(runs, title))
}

/// How a series' runs are drawn: its shape and colour, by the order of the series.
fn style(runs: &StrengthRuns, series: &str) -> (Shape, RGBColor) {
    let i = runs.series().iter().position(|s| *s == series).unwrap_or(0);
    (Shape::ALL[i % Shape::ALL.len()], COLOURS[i % COLOURS.len()])
}

/// An entry of the legend: a mark and its label.
struct Entry {
    label: String,
    shape: Shape,
    colour: RGBColor,
    filled: bool,
}

/// The legend's entries: each series, and apart each series' published runs, in the
/// order of their first runs.
fn legend(runs: &StrengthRuns) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for run in &runs.runs {
        let label = if run.published {
            format!("{}, published", run.series)
        } else {
            run.series.clone()
        };
        if !entries.iter().any(|e| e.label == label) {
            let (shape, colour) = style(runs, &run.series);
            let filled = !run.published;
            entries.push(Entry {
                label,
                shape,
                colour,
                filled,
            });
        }
    }
    entries
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    runs: &StrengthRuns,
    title: &str,
) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(fail)?;
    let (top, bottom) = root.split_vertically(PANELS_HEIGHT);
    let top = top.titled(title, ("sans-serif", 24)).map_err(fail)?;
    let (x_low, x_high) = decades(runs.runs.iter().map(|r| r.ms_per_move.log10()));
    let panels = top.split_evenly((1, runs.tiles.len()));
    for (t, (panel, tile)) in panels.iter().zip(&runs.tiles).enumerate() {
        let mut chart = chart_on(panel, &format!("games reaching {tile}"))?
            .build_cartesian_2d(x_low..x_high, 0.0..104.0)
            .map_err(fail)?;
        draw_time_grid(
            &mut chart,
            "time a move (ms, log scale)",
            "games (%)",
            &|y| format!("{y:.0}%"),
        )?;
        let marks = runs.runs.iter().filter_map(|run| {
            let (shape, colour) = style(runs, &run.series);
            let at = (run.ms_per_move.log10(), run.rates[t]?);
            Some(Mark::new(at, shape, colour, !run.published, 6))
        });
        chart.draw_series(marks).map_err(fail)?;
    }
    let font = ("sans-serif", 15).into_font().color(&BLACK);
    let text = font.pos(Pos::new(HPos::Left, VPos::Center));
    for (k, entry) in legend(runs).into_iter().enumerate() {
        let x = 80 + (k % LEGEND_COLUMNS) as i32 * LEGEND_COLUMN_WIDTH;
        let y = 8 + (k / LEGEND_COLUMNS) as i32 * LEGEND_ROW as i32;
        bottom
            .draw(&Mark::new(
                (x, y),
                entry.shape,
                entry.colour,
                entry.filled,
                5,
            ))
            .map_err(fail)?;
        bottom
            .draw(&Text::new(entry.label, (x + 14, y), text.clone()))
            .map_err(fail)?;
    }
    root.present().map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::tests::{png_size, svg_with};

    fn runs() -> StrengthRuns {
        let csv = "series,setting,ms_per_move,games,p16384,p32768,where\n\
                   net,a,0.45,600,87.3,29.5,here\n\
                   net,b,9.4,100,96,40,here\n\
                   hand,c,0.51,55,7,,here\n\
                   tables,d,2,,92.5,65,here\n\
                   tables,e,67,,98.7,80.5,published\n";
        StrengthRuns::parse(csv.as_bytes(), "runs.csv").expect("parses")
    }

    #[test]
    fn svg_has_a_panel_per_tile_a_mark_per_rate_and_a_legend() {
        // Each entry of the legend is a text of its own.
        let labels = ["net", "hand", "tables", "tables, published"].map(|l| format!("\n{l}\n"));
        let mut texts = vec!["a title", "time a move (ms, log scale)", "100%"];
        texts.extend(["games reaching 16384", "games reaching 32768"]);
        texts.extend(labels.iter().map(String::as_str));
        let svg = svg_with(plot_strength(&runs(), PlotFormat::Svg, "a title"), &texts);
        // "net", the first series, has circles, filled then outlined: four in the
        // panels and one in the legend.
        assert_eq!(svg.matches("<circle").count(), 2 * (4 + 1));
        // "hand", the second, has a square in a panel (it reports no 32768) and one in
        // the legend; "tables", the third, triangles: four in the panels and two in the
        // legend.
        assert_eq!(svg.matches("<polygon").count(), 2 + 4 + 2);
    }

    #[test]
    fn series_take_shapes_and_colours_in_order() {
        let runs = runs();
        assert_eq!(style(&runs, "net"), (Shape::Circle, COLOURS[0]));
        assert_eq!(style(&runs, "hand"), (Shape::Square, COLOURS[1]));
        assert_eq!(style(&runs, "tables"), (Shape::Triangle, COLOURS[2]));
        let labels: Vec<(String, bool)> = legend(&runs)
            .into_iter()
            .map(|e| (e.label, e.filled))
            .collect();
        assert_eq!(
            labels,
            [
                ("net".to_owned(), true),
                ("hand".to_owned(), true),
                ("tables".to_owned(), true),
                ("tables, published".to_owned(), false),
            ]
        );
    }

    #[test]
    fn png_is_as_tall_as_its_legend() {
        let size = png_size(plot_strength(&runs(), PlotFormat::Png, "a title"));
        assert_eq!(size, (WIDTH, PANELS_HEIGHT + 2 * LEGEND_ROW + 16));
    }
}
