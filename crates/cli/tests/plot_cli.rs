//! `ai2048 plot`, run as a user runs it.

mod common;

use std::path::Path;

use common::{ai2048, assert_fails, assert_prints, path, temp_path, text, TempPath};

/// A CSV file of runs with `contents` in the temporary directory, with the plot drawn
/// from it; both removed when dropped.
struct Runs {
    csv: TempPath,
    svg: TempPath,
}

impl Runs {
    fn new(contents: &str) -> Runs {
        let csv = temp_path("runs", "csv");
        std::fs::write(&csv, contents).expect("CSV written");
        Runs {
            csv,
            svg: temp_path("plot", "svg"),
        }
    }

    /// `ai2048 plot` of the runs to the SVG file.
    fn plot(&self) -> std::process::Output {
        ai2048(&["plot", path(&self.csv), "-o", path(&self.svg)])
    }
}

#[test]
fn draws_a_panel_per_tile_and_a_mark_per_run() {
    let runs = Runs::new(
        "# two series, one with a published run\n\
         series,setting,ms_per_move,games,p16384,p32768,where,source\n\
         \"ai2048, the network\",depth 2,0.45,600,87.3,29.5,here,c336ceb\n\
         \"ai2048, the network\",depth 3,1.84,100,87,27,here,3f7f9ac\n\
         macroxue/2048-ai,-d3,0.12,50,78,,here,\n\
         macroxue/2048-ai,depth 5,2,,92.5,65.0,published,its README\n",
    );
    let out = runs.plot();
    let stdout = assert_prints(&out, "4 runs of 2 series");
    assert!(stdout.contains(path(&runs.csv)), "{stdout}");
    let svg = std::fs::read_to_string(&runs.svg).expect("plot written");
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    for text in [
        "Strength against time a move",
        "games reaching 16384",
        "games reaching 32768",
        "\nai2048, the network\n",
        "\nmacroxue/2048-ai\n",
        "\nmacroxue/2048-ai, published\n",
    ] {
        assert!(svg.contains(text), "no {text:?}");
    }
    // The network's runs are circles, each filled and outlined: two in each panel and
    // one in the legend. macroxue's are squares: three marks (its -d3 has no 32768)
    // and two in the legend.
    assert_eq!(svg.matches("<circle").count(), 2 * (2 + 2 + 1));
    assert_eq!(svg.matches("<polygon").count(), 3 + 2);
}

#[test]
fn malformed_runs_are_errors_that_say_where() {
    let header = "series,ms_per_move,p16384\n";
    for (contents, place, message) in [
        (
            "series,ms_per_move,p16384\n# a comment\na,fast,10\n",
            "line 3, column 2",
            "ms_per_move \"fast\" is not",
        ),
        (
            "series,ms,p16384\n",
            "line 1, column 2",
            "unknown column \"ms\"",
        ),
        (
            "series,ms_per_move,p16384\na,1\n",
            "line 2",
            "the row has 2 fields, but the header has 3",
        ),
        (
            "series,ms_per_move,p16384\na,1,ten\n",
            "line 2, column 3",
            "p16384 \"ten\" is not a percentage",
        ),
        (header, "", "it holds no runs"),
    ] {
        let runs = Runs::new(contents);
        let stderr = assert_fails(&runs.plot(), message);
        let expected = if place.is_empty() {
            format!("{}: ", runs.csv.display())
        } else {
            format!("{}, {place}: ", runs.csv.display())
        };
        assert!(stderr.contains(&expected), "{stderr:?} lacks {expected:?}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!runs.svg.exists(), "a plot was written from {contents:?}");
    }
}

#[test]
fn missing_files_and_other_formats_are_errors() {
    let missing = temp_path("missing", "csv");
    let stderr = assert_fails(&ai2048(&["plot", path(&missing)]), "cannot read it");
    assert!(stderr.contains(path(&missing)), "{stderr}");
    let runs = Runs::new("series,ms_per_move,p16384\na,1,10\n");
    assert_fails(
        &ai2048(&["plot", path(&runs.csv), "-o", "plot.pdf"]),
        "name it .svg or .png",
    );
}

/// The README's plot is what `ai2048 plot` draws from its CSV file: whoever changes
/// the one draws the other again.
#[test]
fn the_readmes_plot_is_drawn_from_its_runs() {
    let img = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/img");
    let committed = std::fs::read(img.join("strength-vs-time.svg")).expect("the README's plot");
    let svg = temp_path("strength-vs-time", "svg");
    let csv = img.join("strength-vs-time.csv");
    let out = ai2048(&["plot", path(&csv), "-o", path(&svg)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let drawn = std::fs::read(&svg).expect("plot written");
    let _ = std::fs::remove_file(&svg);
    assert!(
        drawn == committed,
        "docs/img/strength-vs-time.svg is not drawn from its CSV file: run \
         `ai2048 plot docs/img/strength-vs-time.csv -o docs/img/strength-vs-time.svg`"
    );
}
