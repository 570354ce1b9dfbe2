//! The plot of a sweep: score against time per move, one point per game, coloured by
//! depth, as in the ZHAW blog post's scatter plot.

use core::fmt;
use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use crate::SweepRow;

mod mark;
mod time_axis;

pub(crate) use mark::{Mark, Shape};
pub(crate) use time_axis::{decades, draw_time_grid};

/// DejaVu Sans, cut down to ASCII (see `assets/LICENSE-DejaVu.txt`): embedded, so
/// that PNG plots have text on machines with no fonts installed.
static FONT: &[u8] = include_bytes!("../assets/DejaVuSans-subset.ttf");

/// The size of a plot, in pixels, unless it says otherwise ([`Drawing::size`]).
pub(crate) const SIZE: (u32, u32) = (960, 640);

/// One colour per depth, in the order of the rows (Tableau 10), then round again.
pub(crate) const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The file formats of [`plot_sweep`] and [`plot_curve`](crate::plot_curve).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotFormat {
    /// SVG: vector graphics, text as text.
    Svg,
    /// PNG: a bitmap, of 960 × 640 pixels for a sweep or a learning curve.
    Png,
}

impl PlotFormat {
    /// The format a file name asks for, by its extension (`.svg` or `.png`, in any
    /// case).
    ///
    /// # Errors
    ///
    /// A [`PlotError`] naming the file, for any other extension or none.
    ///
    /// ```
    /// use ai2048_bench::PlotFormat;
    /// use std::path::Path;
    /// assert_eq!(PlotFormat::from_path(Path::new("out/sweep.svg"))?, PlotFormat::Svg);
    /// assert_eq!(PlotFormat::from_path(Path::new("SWEEP.PNG"))?, PlotFormat::Png);
    /// assert!(PlotFormat::from_path(Path::new("sweep.pdf")).is_err());
    /// assert!(PlotFormat::from_path(Path::new("sweep")).is_err());
    /// # Ok::<(), ai2048_bench::PlotError>(())
    /// ```
    pub fn from_path(path: &Path) -> Result<PlotFormat, PlotError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("svg") => Ok(PlotFormat::Svg),
            Some("png") => Ok(PlotFormat::Png),
            _ => Err(PlotError(format!(
                "cannot tell the format of the plot {}: name it .svg or .png",
                path.display()
            ))),
        }
    }
}

/// Why a plot could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotError(pub String);

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlotError {}

/// Draws the rows of a sweep as a scatter plot, in `format`, and returns the file's
/// bytes: one point per game, its score against its mean time per move in
/// milliseconds on a logarithmic scale, coloured by depth, with a line through the
/// mean of each depth (mean time per move, mean score) and `title` above.
///
/// # Errors
///
/// When drawing or encoding fails, which it should not.
///
/// ```
/// use ai2048_bench::{plot_sweep, GameRecord, PlotFormat, SweepRow};
/// let game = |score, seconds| GameRecord { index: 0, seed: 0, score, max_tile: 1024,
///     moves: 1000, seconds, timed_out: false, max_ms_per_move: 1.0, nodes: 0,
///     table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0, board: None };
/// let rows = [
///     SweepRow::new(1, 2, vec![game(9000, 0.05), game(12000, 0.06)]),
///     SweepRow::new(2, 2, vec![game(20000, 0.9), game(25000, 1.1)]),
/// ];
/// let svg = plot_sweep(&rows, PlotFormat::Svg, "expectimax")?;
/// let text = String::from_utf8(svg).expect("SVG is text");
/// assert!(text.starts_with("<svg") && text.contains("depth 2"));
/// let png = plot_sweep(&rows, PlotFormat::Png, "expectimax")?;
/// assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
/// # Ok::<(), ai2048_bench::PlotError>(())
/// ```
pub fn plot_sweep(
    rows: &[SweepRow],
    format: PlotFormat,
    title: &str,
) -> Result<Vec<u8>, PlotError> {
    struct Sweep<'a>(&'a [SweepRow], &'a str);
    impl Drawing for Sweep<'_> {
        fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<(), PlotError> {
            draw(root, self.0, self.1)
        }
    }
    render(format, &Sweep(rows, title))
}

/// A plot that draws on any backend.
pub(crate) trait Drawing {
    /// Draws the plot on `root`.
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<(), PlotError>;

    /// The size of the plot, in pixels.
    fn size(&self) -> (u32, u32) {
        SIZE
    }
}

/// Draws `plot` in `format` and returns the file's bytes.
pub(crate) fn render(format: PlotFormat, plot: &impl Drawing) -> Result<Vec<u8>, PlotError> {
    register_fonts()?;
    let size = plot.size();
    match format {
        PlotFormat::Svg => {
            let mut svg = String::new();
            plot.draw(SVGBackend::with_string(&mut svg, size).into_drawing_area())?;
            Ok(svg.into_bytes())
        }
        PlotFormat::Png => {
            let (w, h) = size;
            let mut pixels = vec![0u8; w as usize * h as usize * 3];
            plot.draw(BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area())?;
            encode_png(&pixels, size)
        }
    }
}

/// A drawing error of plotters', as a [`PlotError`].
pub(crate) fn fail<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> PlotError {
    PlotError(format!("cannot draw the plot: {e}"))
}

/// Fills `root` white and starts a chart on it: `title` above, and room for the labels
/// of the bottom and left axes.
pub(crate) fn chart_on<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
) -> Result<ChartBuilder<'a, 'b, DB>, PlotError> {
    root.fill(&WHITE).map_err(fail)?;
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(80);
    Ok(builder)
}

/// Draws the legend of a chart's labelled series at `position`.
pub(crate) fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), PlotError> {
    chart
        .configure_series_labels()
        .position(position)
        .label_font(("sans-serif", 14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.5))
        .draw()
        .map_err(fail)
}

/// Registers the embedded font as plotters' `sans-serif`, once.
fn register_fonts() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok =
        *REGISTERED.get_or_init(|| register_font("sans-serif", FontStyle::Normal, FONT).is_ok());
    if ok {
        Ok(())
    } else {
        Err(PlotError("the embedded font is invalid".to_owned()))
    }
}

/// The points of a row: (log10 of the mean ms per move, score) of each game that
/// moved.
fn points(row: &SweepRow) -> impl Iterator<Item = (f64, f64)> + '_ {
    row.records
        .iter()
        .filter(|r| r.moves > 0)
        .map(|r| (log_ms_per_move(r.seconds, r.moves), r.score as f64))
}

/// The decimal logarithm of a time per move in milliseconds, of at least a
/// nanosecond. The time axis is drawn as a linear axis of these logarithms, labelled
/// with the times: plotters' own logarithmic axis leaves partial decades unlabelled.
fn log_ms_per_move(seconds: f64, moves: u64) -> f64 {
    (seconds * 1e3 / moves as f64).max(1e-6).log10()
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    rows: &[SweepRow],
    title: &str,
) -> Result<(), PlotError> {
    let all: Vec<(f64, f64)> = rows.iter().flat_map(points).collect();
    let (x_low, x_high) = decades(all.iter().map(|p| p.0));
    let y_high = all.iter().map(|p| p.1).fold(100.0f64, f64::max) * 1.08;
    let mut chart = chart_on(&root, title)?
        .build_cartesian_2d(x_low..x_high, 0.0..y_high)
        .map_err(fail)?;
    draw_time_grid(
        &mut chart,
        "mean time per move (ms, log scale)",
        "score",
        &|y| format!("{y:.0}"),
    )?;
    for (i, row) in rows.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(points(row).map(|p| Circle::new(p, 3, colour.mix(0.75).filled())))
            .map_err(fail)?
            .label(format!("depth {} ({} games)", row.depth, row.games()))
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, colour.filled()));
    }
    let means: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|row| {
            let s = row.summary.as_ref()?;
            (s.total_moves > 0).then(|| {
                let x = log_ms_per_move(s.total_seconds, s.total_moves);
                (x, s.mean_score)
            })
        })
        .collect();
    if !means.is_empty() {
        let style = BLACK.mix(0.7).stroke_width(2);
        chart
            .draw_series(LineSeries::new(means.iter().copied(), style))
            .map_err(fail)?
            .label("mean of each depth")
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], style));
        chart
            .draw_series(
                means
                    .iter()
                    .map(|&p| Cross::new(p, 6, BLACK.stroke_width(2))),
            )
            .map_err(fail)?;
    }
    if !rows.is_empty() {
        draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
    }
    root.present().map_err(fail)
}

/// RGB pixels as a PNG file.
fn encode_png(pixels: &[u8], (w, h): (u32, u32)) -> Result<Vec<u8>, PlotError> {
    let fail = |e: png::EncodingError| PlotError(format!("cannot encode the PNG: {e}"));
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(pixels).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::GameRecord;

    fn game(score: u64, moves: u64, seconds: f64) -> GameRecord {
        GameRecord::fixture(score, 512, moves, seconds, 0.1)
    }

    fn rows() -> Vec<SweepRow> {
        vec![
            SweepRow::new(
                0,
                3,
                vec![
                    game(3000, 300, 0.0003),
                    game(4000, 350, 0.0004),
                    game(0, 0, 0.0),
                ],
            ),
            SweepRow::new(1, 3, vec![game(9000, 700, 0.02), game(15000, 900, 0.03)]),
            SweepRow::new(3, 3, vec![game(30000, 1500, 3.0)]),
        ]
    }

    /// The text of a drawn SVG plot, which must be a whole SVG document holding each
    /// of `texts`.
    pub(crate) fn svg_with(drawn: Result<Vec<u8>, PlotError>, texts: &[&str]) -> String {
        let svg = String::from_utf8(drawn.expect("draws")).expect("utf-8");
        assert!(svg.starts_with("<svg"), "{}", &svg[..100]);
        assert!(svg.trim_end().ends_with("</svg>"));
        for text in texts {
            assert!(svg.contains(text), "no {text:?}");
        }
        svg
    }

    /// The width and height of a drawn PNG plot.
    pub(crate) fn png_size(drawn: Result<Vec<u8>, PlotError>) -> (u32, u32) {
        let png = drawn.expect("draws");
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        let reader = png::Decoder::new(std::io::Cursor::new(&png))
            .read_info()
            .expect("a valid PNG");
        (reader.info().width, reader.info().height)
    }

    #[test]
    fn svg_has_a_point_per_game_and_a_legend() {
        let svg = svg_with(
            plot_sweep(&rows(), PlotFormat::Svg, "a title"),
            &[
                "a title",
                "depth 0 (3 games)",
                "depth 3 (1 games)",
                "mean of each depth",
                "score",
                "log scale",
            ],
        );
        // 5 games that moved, plus a legend circle per depth.
        assert_eq!(svg.matches("<circle").count(), 5 + 3);
    }

    #[test]
    fn png_is_a_png_of_the_size() {
        assert_eq!(
            png_size(plot_sweep(&rows(), PlotFormat::Png, "a title")),
            SIZE
        );
    }

    #[test]
    fn empty_sweeps_still_draw() {
        for format in [PlotFormat::Svg, PlotFormat::Png] {
            assert!(plot_sweep(&[], format, "nothing").is_ok());
            let row = SweepRow::new(2, 5, Vec::new());
            assert!(plot_sweep(&[row], format, "nothing").is_ok());
        }
    }

    #[test]
    fn formats() {
        assert_eq!(
            PlotFormat::from_path(Path::new("a.Svg")),
            Ok(PlotFormat::Svg)
        );
        let err = PlotFormat::from_path(Path::new("dir/a.jpg")).expect_err("jpg");
        assert!(err.to_string().contains("dir/a.jpg"), "{err}");
        assert!(err.to_string().contains(".svg or .png"), "{err}");
        assert!(PlotFormat::from_path(Path::new("svg")).is_err());
        assert!(PlotFormat::from_path(Path::new(".svg")).is_err());
    }

    #[test]
    fn times_per_move() {
        assert_eq!(log_ms_per_move(0.5, 1000), -std::f64::consts::LOG10_2);
        assert_eq!(log_ms_per_move(0.0, 1000), -6.0);
    }
}
