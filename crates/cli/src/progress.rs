//! The progress bar of the commands that play many games.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar on stderr counting `total` games, with elapsed time and ETA, followed by
/// `trailer` (an indicatif template fragment such as `{msg}`); `style` may add keys the
/// trailer uses. With `total` `u64::MAX` (no end known) it counts games alone. Hidden
/// when `visible` is false, so callers pass whether the user wants it and stderr is a
/// terminal.
pub(crate) fn games_bar(
    total: u64,
    visible: bool,
    trailer: &str,
    style: impl FnOnce(ProgressStyle) -> ProgressStyle,
) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let endless = total == u64::MAX;
    let bar =
        ProgressBar::with_draw_target((!endless).then_some(total), ProgressDrawTarget::stderr());
    let template = if endless {
        format!("{{elapsed_precise}} {{pos}} games  {trailer}")
    } else {
        format!("{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} games, ETA {{eta}}  {trailer}")
    };
    let chosen = ProgressStyle::with_template(&template)
        .map(|s| style(s.progress_chars("=> ")))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(chosen);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// A duration in milliseconds with at most three decimals and no trailing zeros:
/// `3.7`, `0.4`, `5`.
pub(crate) fn millis(time: Duration) -> String {
    let text = format!("{:.3}", time.as_secs_f64() * 1e3);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millis_reads_as_written() {
        assert_eq!(millis(Duration::from_secs_f64(0.0037)), "3.7");
        assert_eq!(millis(Duration::from_micros(400)), "0.4");
        assert_eq!(millis(Duration::from_millis(5)), "5");
        assert_eq!(millis(Duration::from_millis(120)), "120");
    }
}
