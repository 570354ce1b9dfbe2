//! A CSV file of runs, for [`plot_strength`](crate::plot_strength): one row a run of
//! some engine at some setting, with its time a move and the share of its games that
//! reached each tile, as the guide's tables report them.
//!
//! Lines that begin with `#` are comments. The first other line names the columns, in
//! any order:
//!
//! - `series` (required): the engine or player, one series of the plot;
//! - `ms_per_move` (required): the mean time a move, in milliseconds;
//! - `p16384`, `p32768`, ... (at least one): the percentage of games that reached the
//!   tile, empty when the run does not report it; each is a panel of the plot;
//! - `setting`, `games` (a count, or empty), `where` (`here`, the default, for a run
//!   measured on this project's machine, or `published`, for an engine's own report)
//!   and `source` (the commit or the report): optional.

use std::fmt;
use std::path::Path;

use csv::{ReaderBuilder, StringRecord, Trim};

/// One run: a row of the CSV file.
#[derive(Clone, Debug, PartialEq)]
pub struct StrengthRun {
    /// The series it belongs to: the engine or player.
    pub series: String,
    /// The setting it ran at, or empty.
    pub setting: String,
    /// The mean time a move, in milliseconds: positive.
    pub ms_per_move: f64,
    /// How many games it played, when reported.
    pub games: Option<u64>,
    /// The percentage of its games that reached each tile of
    /// [`StrengthRuns::tiles`], in that order; `None` when not reported.
    pub rates: Vec<Option<f64>>,
    /// Whether it is an engine's own published figure rather than a run measured here.
    pub published: bool,
    /// Where it comes from: a commit, or the report; may be empty.
    pub source: String,
    /// Its line in the file.
    pub line: u64,
}

/// The runs of a CSV file, and the tiles whose rates it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct StrengthRuns {
    /// The tiles of the rate columns, in the order of the columns.
    pub tiles: Vec<u32>,
    /// The runs, in the order of the rows; at least one.
    pub runs: Vec<StrengthRun>,
}

/// Why a CSV file of runs could not be read: the file, and where in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunsError {
    /// The file, as it was named.
    pub file: String,
    /// The line, counting from 1, when the error is on one.
    pub line: Option<u64>,
    /// The column, counting from 1, when the error is in one.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RunsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        if let Some(column) = self.column {
            write!(f, ", column {column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for RunsError {}

/// What a column of the file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Series,
    Setting,
    MsPerMove,
    Games,
    /// The rate of the tile at this index of [`StrengthRuns::tiles`].
    Rate(usize),
    Where,
    Source,
}

/// The columns' names, but the rates'.
const NAMES: [(&str, Column); 6] = [
    ("series", Column::Series),
    ("setting", Column::Setting),
    ("ms_per_move", Column::MsPerMove),
    ("games", Column::Games),
    ("where", Column::Where),
    ("source", Column::Source),
];

impl StrengthRuns {
    /// Reads the runs of a CSV file.
    ///
    /// # Errors
    ///
    /// A [`RunsError`] naming the file, and the line and column of what is wrong in it:
    /// a file that cannot be read, an unknown or missing column, a row whose fields
    /// are not the header's, a value that is not a number, or no runs at all.
    ///
    /// ```
    /// use ai2048_bench::StrengthRuns;
    /// let err = StrengthRuns::read("no/such/runs.csv".as_ref()).expect_err("no file");
    /// assert!(err.to_string().starts_with("no/such/runs.csv: cannot read it"));
    /// ```
    pub fn read(path: &Path) -> Result<StrengthRuns, RunsError> {
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| RunsError {
            file: file.clone(),
            line: None,
            column: None,
            message: format!("cannot read it: {e}"),
        })?;
        StrengthRuns::parse(&bytes, &file)
    }

    /// Parses the text of a CSV file of runs; `file` names it in errors.
    ///
    /// # Errors
    ///
    /// As [`read`](StrengthRuns::read), but for reading the file.
    ///
    /// ```
    /// use ai2048_bench::StrengthRuns;
    /// let csv = "# runs\nseries,ms_per_move,p16384,p32768,where\n\
    ///            ai2048,0.45,87.3,29.5,here\nother,2,92.5,,published\n";
    /// let runs = StrengthRuns::parse(csv.as_bytes(), "runs.csv")?;
    /// assert_eq!(runs.tiles, [16384, 32768]);
    /// assert_eq!(runs.runs[0].rates, [Some(87.3), Some(29.5)]);
    /// assert_eq!((runs.runs[1].rates[1], runs.runs[1].published), (None, true));
    ///
    /// let bad = "series,ms_per_move,p16384\nai2048,fast,87\n";
    /// let err = StrengthRuns::parse(bad.as_bytes(), "runs.csv").expect_err("not a number");
    /// assert_eq!((err.line, err.column), (Some(2), Some(2)));
    /// assert!(err.to_string().starts_with("runs.csv, line 2, column 2: ms_per_move"));
    /// # Ok::<(), ai2048_bench::RunsError>(())
    /// ```
    pub fn parse(bytes: &[u8], file: &str) -> Result<StrengthRuns, RunsError> {
        let error = |line, column, message| RunsError {
            file: file.to_owned(),
            line,
            column,
            message,
        };
        let mut reader = ReaderBuilder::new()
            .comment(Some(b'#'))
            .trim(Trim::All)
            .from_reader(bytes);
        let line_of = |pos: Option<&csv::Position>| pos.map(|p| first_line(bytes, p));
        let csv_error = |e: csv::Error| csv_error(e, &line_of, &error);
        let header = reader.headers().map_err(csv_error)?.clone();
        if header.iter().all(str::is_empty) {
            return Err(error(
                None,
                None,
                "it has no header: a line naming the columns, such as series,ms_per_move,p16384"
                    .to_owned(),
            ));
        }
        let header_line = line_of(header.position());
        let (columns, tiles) = columns(&header)
            .map_err(|(column, message)| error(header_line, column.map(|c| c + 1), message))?;
        let mut runs = Vec::new();
        for record in reader.records() {
            let record = record.map_err(csv_error)?;
            let line = line_of(record.position()).unwrap_or(0);
            let run = run(&record, &header, &columns, tiles.len(), line)
                .map_err(|(column, message)| error(Some(line), Some(column + 1), message))?;
            runs.push(run);
        }
        if runs.is_empty() {
            return Err(error(None, None, "it holds no runs".to_owned()));
        }
        Ok(StrengthRuns { tiles, runs })
    }

    /// The series, in the order of their first runs.
    ///
    /// ```
    /// use ai2048_bench::StrengthRuns;
    /// let csv = "series,ms_per_move,p16384\nb,1,50\na,2,60\nb,3,70\n";
    /// let runs = StrengthRuns::parse(csv.as_bytes(), "runs.csv")?;
    /// assert_eq!(runs.series(), ["b", "a"]);
    /// # Ok::<(), ai2048_bench::RunsError>(())
    /// ```
    pub fn series(&self) -> Vec<&str> {
        let mut series: Vec<&str> = Vec::new();
        for run in &self.runs {
            if !series.contains(&run.series.as_str()) {
                series.push(&run.series);
            }
        }
        series
    }
}

/// A column's index and what is wrong with it, or with the columns (no index).
type ColumnError = (Option<usize>, String);

/// What each column holds, and the tiles of the rate columns.
fn columns(header: &StringRecord) -> Result<(Vec<Column>, Vec<u32>), ColumnError> {
    let mut columns = Vec::new();
    let mut tiles = Vec::new();
    for (i, name) in header.iter().enumerate() {
        let column = if let Some(&(_, column)) = NAMES.iter().find(|(n, _)| *n == name) {
            column
        } else if let Some(tile) = rate_tile(name) {
            let tile = tile.map_err(|message| (Some(i), message))?;
            tiles.push(tile);
            Column::Rate(tiles.len() - 1)
        } else {
            return Err((
                Some(i),
                format!(
                    "unknown column {name:?}: the columns are series, setting, ms_per_move, \
                     games, where, source, and p<TILE> (such as p16384) for each tile"
                ),
            ));
        };
        if columns.contains(&column)
            || matches!(column, Column::Rate(t) if tiles[..t].contains(&tiles[t]))
        {
            return Err((Some(i), format!("column {name:?} is given twice")));
        }
        columns.push(column);
    }
    for required in [Column::Series, Column::MsPerMove] {
        if !columns.contains(&required) {
            let name = NAMES
                .iter()
                .find(|(_, c)| *c == required)
                .map_or("", |n| n.0);
            return Err((None, format!("the header has no column {name:?}")));
        }
    }
    if tiles.is_empty() {
        return Err((
            None,
            "the header has no column of a tile's rate, such as p16384".to_owned(),
        ));
    }
    Ok((columns, tiles))
}

/// The tile of a rate column's name (`p16384`): `None` for a name of another kind,
/// an error for a `p` and digits that are not a tile.
fn rate_tile(name: &str) -> Option<Result<u32, String>> {
    let digits = name.strip_prefix('p')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits.parse::<u32>() {
        Ok(tile) if tile >= 2 && tile.is_power_of_two() => Ok(tile),
        _ => Err(format!(
            "column {name:?}: {digits} is not a tile (a power of two from 2)"
        )),
    })
}

/// The run of a row, or the index of the column that is wrong and why.
fn run(
    record: &StringRecord,
    header: &StringRecord,
    columns: &[Column],
    tiles: usize,
    line: u64,
) -> Result<StrengthRun, (usize, String)> {
    let mut run = StrengthRun {
        series: String::new(),
        setting: String::new(),
        ms_per_move: 0.0,
        games: None,
        rates: vec![None; tiles],
        published: false,
        source: String::new(),
        line,
    };
    for (i, (value, &column)) in record.iter().zip(columns).enumerate() {
        let wrong = |what: &str| (i, format!("{} {value:?} is not {what}", &header[i]));
        match column {
            Column::Series if value.is_empty() => return Err((i, "series is empty".to_owned())),
            Column::Series => run.series = value.to_owned(),
            Column::Setting => run.setting = value.to_owned(),
            Column::MsPerMove => {
                run.ms_per_move = value
                    .parse::<f64>()
                    .ok()
                    .filter(|ms| ms.is_finite() && *ms > 0.0)
                    .ok_or_else(|| wrong("a positive number of milliseconds"))?;
            }
            Column::Games if value.is_empty() => {}
            Column::Games => {
                run.games = Some(value.parse().map_err(|_| wrong("a whole number"))?);
            }
            Column::Rate(_) if value.is_empty() => {}
            Column::Rate(t) => {
                let rate = value
                    .parse::<f64>()
                    .ok()
                    .filter(|p| (0.0..=100.0).contains(p))
                    .ok_or_else(|| wrong("a percentage from 0 to 100"))?;
                run.rates[t] = Some(rate);
            }
            Column::Where => {
                run.published = match value {
                    "" | "here" => false,
                    "published" => true,
                    _ => return Err(wrong("here or published")),
                }
            }
            Column::Source => run.source = value.to_owned(),
        }
    }
    Ok(run)
}

/// The line a record begins on, from the csv reader's position of it: that is where
/// the reader stood before it, so the blank lines and comments between are skipped
/// here.
fn first_line(bytes: &[u8], pos: &csv::Position) -> u64 {
    let mut line = pos.line();
    let mut rest = usize::try_from(pos.byte())
        .ok()
        .and_then(|at| bytes.get(at..))
        .unwrap_or_default();
    while let [b'\n', ..] | [b'\r', b'\n', ..] | [b'#', ..] = rest {
        let end = rest
            .iter()
            .position(|&b| b == b'\n')
            .map_or(rest.len(), |n| n + 1);
        rest = &rest[end..];
        line += 1;
    }
    line
}

/// A [`RunsError`] of the csv reader's, at its line (and field) when it has one;
/// `line_of` finds the line of a position.
fn csv_error(
    e: csv::Error,
    line_of: &impl Fn(Option<&csv::Position>) -> Option<u64>,
    error: &impl Fn(Option<u64>, Option<usize>, String) -> RunsError,
) -> RunsError {
    match e.kind() {
        csv::ErrorKind::UnequalLengths {
            pos,
            expected_len,
            len,
        } => error(
            line_of(pos.as_ref()),
            None,
            format!("the row has {len} fields, but the header has {expected_len}"),
        ),
        csv::ErrorKind::Utf8 { pos, err } => error(
            line_of(pos.as_ref()),
            Some(err.field() + 1),
            "the field is not UTF-8 text".to_owned(),
        ),
        csv::ErrorKind::Io(io) => error(None, None, format!("cannot read it: {io}")),
        _ => error(None, None, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "series,setting,ms_per_move,games,p16384,p32768,where,source";

    fn parse(text: &str) -> Result<StrengthRuns, RunsError> {
        StrengthRuns::parse(text.as_bytes(), "runs.csv")
    }

    #[test]
    fn rows_become_runs() {
        let text = format!(
            "# a comment\n# another\n{HEADER}\n\
             ai2048,\"2 chance layers, seed 1000\",0.45,600,87.3,29.5,here,c336ceb 54fe9b6\n\
             \n\
             other, depth 5 ,2,,92.5,,published,published\n"
        );
        let runs = parse(&text).expect("parses");
        assert_eq!(runs.tiles, [16384, 32768]);
        assert_eq!(
            runs.runs[0],
            StrengthRun {
                series: "ai2048".to_owned(),
                setting: "2 chance layers, seed 1000".to_owned(),
                ms_per_move: 0.45,
                games: Some(600),
                rates: vec![Some(87.3), Some(29.5)],
                published: false,
                source: "c336ceb 54fe9b6".to_owned(),
                line: 4,
            }
        );
        let other = &runs.runs[1];
        assert_eq!(other.setting, "depth 5");
        assert_eq!(
            (other.games, other.rates.clone()),
            (None, vec![Some(92.5), None])
        );
        assert!(other.published);
        assert_eq!(other.line, 6);
        assert_eq!(runs.series(), ["ai2048", "other"]);
    }

    #[test]
    fn columns_in_any_order_and_optional_ones_left_out() {
        let runs = parse("p2048,ms_per_move,series\n50,1.5,a\n").expect("parses");
        assert_eq!(runs.tiles, [2048]);
        let run = &runs.runs[0];
        assert_eq!((run.series.as_str(), run.ms_per_move), ("a", 1.5));
        assert_eq!(
            (run.rates.clone(), run.published),
            (vec![Some(50.0)], false)
        );
    }

    #[test]
    fn errors_say_the_line_and_column() {
        let cases: &[(&str, Option<u64>, Option<usize>, &str)] = &[
            ("", None, None, "no header"),
            ("# only\n\n", None, None, "no header"),
            (HEADER, None, None, "holds no runs"),
            (
                "series,ms_per_move\na,1\n",
                Some(1),
                None,
                "no column of a tile's rate",
            ),
            (
                "series,p16384\na,1\n",
                Some(1),
                None,
                "no column \"ms_per_move\"",
            ),
            (
                "#\nseries,ms,p16384\n",
                Some(2),
                Some(2),
                "unknown column \"ms\"",
            ),
            (
                "series,ms_per_move,p3\n",
                Some(1),
                Some(3),
                "3 is not a tile",
            ),
            (
                "series,ms_per_move,p1\n",
                Some(1),
                Some(3),
                "1 is not a tile",
            ),
            (
                "series,ms_per_move,p99999999999\n",
                Some(1),
                Some(3),
                "not a tile",
            ),
            (
                "series,ms_per_move,p16,series\n",
                Some(1),
                Some(4),
                "\"series\" is given twice",
            ),
            (
                "series,ms_per_move,p16,p16\n",
                Some(1),
                Some(4),
                "\"p16\" is given twice",
            ),
            (
                "series,ms_per_move,p16\na,1\n",
                Some(2),
                None,
                "2 fields, but the header has 3",
            ),
            (
                "series,ms_per_move,p16\n#\na,1,2,3\n",
                Some(3),
                None,
                "4 fields",
            ),
            (
                "series,ms_per_move,p16\na,fast,2\n",
                Some(2),
                Some(2),
                "ms_per_move \"fast\" is not a positive",
            ),
            (
                "series,ms_per_move,p16\na,0,2\n",
                Some(2),
                Some(2),
                "not a positive number",
            ),
            (
                "series,ms_per_move,p16\na,-1,2\n",
                Some(2),
                Some(2),
                "not a positive number",
            ),
            (
                "series,ms_per_move,p16\na,inf,2\n",
                Some(2),
                Some(2),
                "not a positive number",
            ),
            (
                "series,ms_per_move,p16\na,NaN,2\n",
                Some(2),
                Some(2),
                "not a positive number",
            ),
            (
                "series,ms_per_move,p16\na,1,\n,1,2\n",
                Some(3),
                Some(1),
                "series is empty",
            ),
            (
                "series,ms_per_move,p16\na,1,101\n",
                Some(2),
                Some(3),
                "p16 \"101\" is not a percentage",
            ),
            (
                "series,ms_per_move,p16\na,1,half\n",
                Some(2),
                Some(3),
                "percentage",
            ),
            (
                "series,ms_per_move,p16,games\na,1,2,1.5\n",
                Some(2),
                Some(4),
                "games \"1.5\" is not a whole number",
            ),
            (
                "series,ms_per_move,p16,where\na,1,2,there\n",
                Some(2),
                Some(4),
                "here or published",
            ),
        ];
        for &(text, line, column, message) in cases {
            let err = parse(text).expect_err(text);
            assert_eq!((err.line, err.column), (line, column), "{text:?}: {err}");
            assert!(err.message.contains(message), "{text:?}: {err}");
            assert!(err.to_string().starts_with("runs.csv"), "{err}");
        }
        let err = StrengthRuns::parse(b"series,ms_per_move,p16\na\xff,1,2\n", "runs.csv")
            .expect_err("not UTF-8");
        assert_eq!((err.line, err.column), (Some(2), Some(1)), "{err}");
    }

    #[test]
    fn errors_read_as_places() {
        let err = RunsError {
            file: "a.csv".to_owned(),
            line: Some(3),
            column: Some(2),
            message: "wrong".to_owned(),
        };
        assert_eq!(err.to_string(), "a.csv, line 3, column 2: wrong");
        let err = RunsError {
            line: None,
            column: None,
            ..err
        };
        assert_eq!(err.to_string(), "a.csv: wrong");
    }
}
