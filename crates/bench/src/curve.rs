//! The plot of a learning curve: the mean score of each report window of a training
//! run, and the share of its games reaching each tile.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::plot::{chart_on, draw_legend, fail, render, Drawing, COLOURS};
use crate::{PlotError, PlotFormat};

/// One point of a learning curve: after `games` games of the network's life, the mean
/// score of the last window of games, and the share of them (in percent) that reached
/// each tile.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    /// Games trained when the window closed.
    pub games: u64,
    /// The window's mean score.
    pub mean: f64,
    /// (tile, percent of the window's games reaching it).
    pub rates: Vec<(u32, f64)>,
}

/// Draws a learning curve in `format` and returns the file's bytes: the mean score
/// against games trained on the left axis, and the reach of each tile (percent) on the
/// right, with `title` above.
///
/// # Errors
///
/// When drawing or encoding fails, which it should not.
///
/// ```
/// use ai2048_bench::{plot_curve, CurvePoint, PlotFormat};
/// let point = |games, mean, rate| CurvePoint { games, mean, rates: vec![(2048, rate)] };
/// let curve = [point(1000, 9000.0, 10.0), point(2000, 20000.0, 60.0)];
/// let svg = String::from_utf8(plot_curve(&curve, PlotFormat::Svg, "4x6")?).expect("text");
/// assert!(svg.starts_with("<svg") && svg.contains("2048"));
/// assert!(plot_curve(&curve, PlotFormat::Png, "4x6")?.starts_with(b"\x89PNG"));
/// # Ok::<(), ai2048_bench::PlotError>(())
/// ```
pub fn plot_curve(
    curve: &[CurvePoint],
    format: PlotFormat,
    title: &str,
) -> Result<Vec<u8>, PlotError> {
    struct Curve<'a>(&'a [CurvePoint], &'a str);
    impl Drawing for Curve<'_> {
        fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<(), PlotError> {
            draw(root, self.0, self.1)
        }
    }
    render(format, &Curve(curve, title))
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    curve: &[CurvePoint],
    title: &str,
) -> Result<(), PlotError> {
    let x_low = curve.first().map_or(0, |p| p.games.saturating_sub(1)) as f64;
    let x_high = curve
        .last()
        .map_or(1.0, |p| p.games as f64)
        .max(x_low + 1.0);
    let y_high = curve.iter().map(|p| p.mean).fold(100.0f64, f64::max) * 1.08;
    let mut chart = chart_on(&root, title)?
        .right_y_label_area_size(60)
        .build_cartesian_2d(x_low..x_high, 0.0..y_high)
        .map_err(fail)?
        .set_secondary_coord(x_low..x_high, 0.0..100.0);
    chart
        .configure_mesh()
        .x_desc("games trained")
        .y_desc("mean score")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(fail)?;
    chart
        .configure_secondary_axes()
        .y_desc("games reaching the tile (%)")
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(fail)?;
    let style = BLACK.stroke_width(2);
    chart
        .draw_series(LineSeries::new(
            curve.iter().map(|p| (p.games as f64, p.mean)),
            style,
        ))
        .map_err(fail)?
        .label("mean score")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], style));
    let tiles: Vec<u32> = curve
        .first()
        .map(|p| p.rates.iter().map(|r| r.0).collect())
        .unwrap_or_default();
    for (i, tile) in tiles.into_iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let points = curve.iter().filter_map(|p| {
            let rate = p.rates.iter().find(|r| r.0 == tile)?.1;
            Some((p.games as f64, rate))
        });
        chart
            .draw_secondary_series(LineSeries::new(points, colour.stroke_width(2)))
            .map_err(fail)?
            .label(format!("{tile} (%)"))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2)));
    }
    if !curve.is_empty() {
        draw_legend(&mut chart, SeriesLabelPosition::LowerRight)?;
    }
    root.present().map_err(fail)
}
