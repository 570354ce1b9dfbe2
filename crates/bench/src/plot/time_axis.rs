//! The time axis that the plots against time a move share: the decimal logarithm of
//! milliseconds, drawn as a linear axis labelled with the times, one label a power of
//! ten, with light lines at 2, 3, ... 9 times each. (plotters' own logarithmic axis
//! leaves partial decades unlabelled.)

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::fail;
use crate::PlotError;

/// A chart whose x axis is the decimal logarithm of a time in milliseconds.
pub(crate) type TimeChart<'a, DB> =
    ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws the grid and the axes of a chart against time: the light lines between the
/// powers of ten first, then the mesh, its time axis described by `x_desc` and its
/// value axis by `y_desc`, each value's label written by `y_label`.
pub(crate) fn draw_time_grid<DB: DrawingBackend>(
    chart: &mut TimeChart<'_, DB>,
    x_desc: &str,
    y_desc: &str,
    y_label: &dyn Fn(&f64) -> String,
) -> Result<(), PlotError> {
    let (x, y) = (chart.x_range(), chart.y_range());
    let minor = (x.start as i32..x.end as i32).flat_map(|d| {
        (2..10).map(move |k| {
            let at = f64::from(d) + f64::from(k).log10();
            PathElement::new([(at, y.start), (at, y.end)], BLACK.mix(0.07))
        })
    });
    chart.draw_series(minor).map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        // One label per power of ten.
        .x_labels((x.end - x.start) as usize + 1)
        .x_label_formatter(&|x| format_ms(10f64.powf(*x)))
        .y_label_formatter(y_label)
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(fail)
}

/// The time axis, as powers of ten: the whole decades around the logarithms of the
/// times, at least one.
pub(crate) fn decades(log_times: impl Iterator<Item = f64>) -> (f64, f64) {
    let (low, high) = log_times.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
        (l.min(x), h.max(x))
    });
    if low > high {
        return (-3.0, 0.0);
    }
    // A little room, so that no point sits on the frame.
    let room = 1.05f64.log10();
    let low = (low - room).floor();
    (low, (high + room).ceil().max(low + 1.0))
}

/// A tick of the time axis: `0.001`, `0.05`, `2`, `1500`.
pub(crate) fn format_ms(ms: f64) -> String {
    if ms >= 1.0 {
        format!("{ms:.0}")
    } else {
        // Enough decimals for the first significant digit, and no trailing zeros.
        let decimals = (-ms.log10()).ceil().clamp(1.0, 9.0) as usize;
        let text = format!("{ms:.decimals$}");
        let text = text.trim_end_matches('0');
        text.strip_suffix('.').unwrap_or(text).to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_axes_are_whole_decades() {
        let range = |ms: &[f64]| decades(ms.iter().map(|x| x.log10()));
        assert_eq!(range(&[0.04, 0.9]), (-2.0, 0.0));
        assert_eq!(range(&[0.0003, 45.0]), (-4.0, 2.0));
        assert_eq!(range(&[0.5]), (-1.0, 0.0));
        // A power of ten is not an end: the points stay off the frame.
        assert_eq!(range(&[1.0, 10.0]), (-1.0, 2.0));
        assert_eq!(range(&[]), (-3.0, 0.0));
    }

    #[test]
    fn time_ticks() {
        let ticks = [1500.0, 2.0, 0.5, 0.05, 0.001, 0.0002];
        let texts = ticks.map(format_ms);
        assert_eq!(texts, ["1500", "2", "0.5", "0.05", "0.001", "0.0002"]);
    }
}
