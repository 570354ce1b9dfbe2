//! The tables `ai2048 tune` prints: the history, the weights and the validation.

use core::fmt::Write as _;

use ai2048_ai::eval::EvalConfig;
use ai2048_bench::{text_table, LastColumn};

use super::*;

/// The columns of [`format_history`]'s table, in order.
pub const HISTORY_COLUMNS: [&str; 7] = [
    "generation",
    "best",
    "mean",
    "centre",
    "incumbent",
    "sigma",
    "new best",
];

/// The generations as an aligned text table with the columns of [`HISTORY_COLUMNS`]:
/// the generation, the best and mean fitness of its samples, the fitness of the centre
/// and of the incumbent, sigma after the update, and `yes` when the incumbent changed.
/// Every fitness of a row is measured on that generation's games.
///
/// ```
/// use ai2048_tune::{format_history, GenerationRow, Objective};
/// let row = GenerationRow { generation: 1, best: 30500.0, mean: 25000.0, centre: 28000.0,
///     incumbent: 28000.0, sigma: 0.25, improved: true };
/// let text = format_history(&[row], Objective::Score);
/// let lines: Vec<&str> = text.lines().collect();
/// assert_eq!(lines[0], "generation |    best |    mean |  centre | incumbent | sigma | new best");
/// assert_eq!(lines[2], "         1 | 30500.0 | 25000.0 | 28000.0 |   28000.0 | 0.250 |      yes");
/// ```
#[must_use]
pub fn format_history(rows: &[GenerationRow], objective: Objective) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.generation.to_string(),
                objective.format(r.best),
                objective.format(r.mean),
                objective.format(r.centre),
                objective.format(r.incumbent),
                format!("{:.3}", r.sigma),
                if r.improved { "yes" } else { "" }.to_owned(),
            ]
        })
        .collect();
    text_table(&HISTORY_COLUMNS, &cells, LastColumn::Right)
}

/// A weight for a table: up to 6 significant digits, without trailing zeros.
pub(super) fn number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor();
    if !(-4.0..9.0).contains(&magnitude) {
        return format!("{x:.5e}");
    }
    let decimals = (5.0 - magnitude).max(0.0) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

/// The weights of `start` and `tuned` (the same evaluation) side by side: one row per
/// weight with its relative change, `fixed` for a weight `space` does not tune.
///
/// ```
/// use ai2048_ai::eval::EvalConfig;
/// use ai2048_tune::{format_weights, ParamSpace};
/// let start = EvalConfig::new("weighted")?;
/// let space = ParamSpace::new(&start, Some(&["empty".to_owned(), "sum".to_owned()]))?;
/// let tuned = space.weights(&[0.5, 0.25]);
/// let text = format_weights(&start, &tuned, &space);
/// assert!(text.contains("empty |   1.5 |  2.25 | +50.0%"), "{text}");
/// assert!(text.contains("merges |     2 |     2 |  fixed"), "{text}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn format_weights(start: &EvalConfig, tuned: &EvalConfig, space: &ParamSpace) -> String {
    let rows: Vec<Vec<String>> = start
        .param_names()
        .zip(start.params().iter().zip(tuned.params()))
        .map(|(name, (&a, &b))| {
            let change = if !space.is_tuned(name) {
                "fixed".to_owned()
            } else if a == b {
                "0".to_owned()
            } else if a == 0.0 {
                format!("{:+}", number(b - a))
            } else {
                format!("{:+.1}%", (b - a) / a.abs() * 100.0)
            };
            vec![name.to_owned(), number(a), number(b), change]
        })
        .collect();
    text_table(
        &["weight", "start", "tuned", "change"],
        &rows,
        LastColumn::Right,
    )
}

/// The validation as text: both means with their standard errors, and the paired
/// difference in standard errors.
///
/// ```
/// use ai2048_tune::{format_validation, MeanEstimate, Objective, Validation};
/// let m = |mean, std_error| MeanEstimate { n: 100, mean, std_error };
/// let v = Validation { games: 100, seed: 7, start: m(30000.0, 1500.0),
///     tuned: m(33000.0, 1400.0), difference: m(3000.0, 1000.0) };
/// let text = format_validation(&v, Objective::Score);
/// assert!(text.contains("start weights: mean score 30000.0 ± 1500.0"), "{text}");
/// assert!(text.contains("tuned weights: mean score 33000.0 ± 1400.0"), "{text}");
/// assert!(text.contains("+3000.0 ± 1000.0"), "{text}");
/// assert!(text.contains("3.0 standard errors: better beyond noise"), "{text}");
/// ```
#[must_use]
pub fn format_validation(v: &Validation, objective: Objective) -> String {
    let what = objective.describe();
    let se = |x: f64| {
        if x.is_nan() {
            "n/a".to_owned()
        } else {
            objective.format(x)
        }
    };
    let diff = |x: f64| {
        let text = objective.format(x.abs());
        format!("{}{text}", if x < 0.0 { '-' } else { '+' })
    };
    let z = v.z();
    let verdict = if !z.is_finite() {
        if v.difference.mean == 0.0 {
            "no difference".to_owned()
        } else {
            "too few games to tell".to_owned()
        }
    } else if z >= 2.0 {
        format!("{z:.1} standard errors: better beyond noise")
    } else if z <= -2.0 {
        format!("{z:.1} standard errors: worse beyond noise")
    } else {
        format!("{z:.1} standard errors: within noise")
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "validation on {} held-out games (seed {}), the same games for both:",
        v.games, v.seed
    );
    let _ = writeln!(
        out,
        "  start weights: {what} {} ± {}",
        objective.format(v.start.mean),
        se(v.start.std_error)
    );
    let _ = writeln!(
        out,
        "  tuned weights: {what} {} ± {}",
        objective.format(v.tuned.mean),
        se(v.tuned.std_error)
    );
    let _ = writeln!(
        out,
        "  difference:    {} ± {} (paired by game), {verdict}",
        diff(v.difference.mean),
        se(v.difference.std_error)
    );
    out
}
