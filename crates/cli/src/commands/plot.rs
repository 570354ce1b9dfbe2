//! `ai2048 plot`: draws the runs of a CSV file, the share of their games reaching each
//! tile against their time a move (see [`ai2048_bench::plot_strength`]), as the
//! README's plot of strength against time is drawn from
//! `docs/img/strength-vs-time.csv`.

use std::path::PathBuf;

use ai2048_bench::{plot_strength, PlotFormat, StrengthRuns};
use anyhow::{bail, Context, Result};

use crate::args::PlotArgs;
use crate::files::write_atomic;

/// Runs `ai2048 plot`: reads the runs, draws them and says what it wrote.
///
/// # Errors
///
/// A plot file of another format than SVG or PNG, a CSV file that cannot be read or
/// is malformed (the error names its line and column), or a plot that cannot be
/// written.
pub fn run(args: &PlotArgs) -> Result<()> {
    let (out, format) = out(args)?;
    let runs = StrengthRuns::read(&args.runs)?;
    let bytes = plot_strength(&runs, format, &args.title)
        .with_context(|| format!("cannot draw {}", out.display()))?;
    write_atomic(&out, &bytes)?;
    println!(
        "{}: {} runs of {} series, from {}",
        out.display(),
        runs.runs.len(),
        runs.series().len(),
        args.runs.display()
    );
    Ok(())
}

/// The plot's file and format: `--out`, else the CSV file's path ending in `.svg`.
fn out(args: &PlotArgs) -> Result<(PathBuf, PlotFormat)> {
    let out = match &args.out {
        Some(out) => out.clone(),
        None => args.runs.with_extension("svg"),
    };
    if out == args.runs {
        bail!(
            "the plot would overwrite the runs in {}: name it with --out",
            out.display()
        );
    }
    let format = PlotFormat::from_path(&out).context("--out")?;
    Ok((out, format))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::testing::{args, assert_rejected};

    #[test]
    fn the_plot_is_named_by_out_or_after_the_runs() {
        let plot = out(&args(&["docs/runs.csv"])).expect("valid");
        assert_eq!(plot, (PathBuf::from("docs/runs.svg"), PlotFormat::Svg));
        let plot = out(&args(&["runs.csv", "-o", "a/b.PNG"])).expect("valid");
        assert_eq!(plot, (PathBuf::from("a/b.PNG"), PlotFormat::Png));
        assert_rejected(
            out,
            &[
                (&["runs.csv", "--out", "plot.pdf"][..], ".svg or .png"),
                (&["runs.svg"], "would overwrite the runs in runs.svg"),
                (&["runs", "-o", "runs"], "would overwrite"),
            ],
        );
    }
}
