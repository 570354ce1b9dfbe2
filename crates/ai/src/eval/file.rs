//! Weights files: an [`EvalConfig`] as JSON.
//!
//! ```json
//! {
//!   "eval": "heuristic",
//!   "note": "tuned by CMA-ES, 200 generations",
//!   "weights": {"empty": 270.0, "merges": 700.0, "mono": 47.0}
//! }
//! ```
//!
//! ```json
//! {
//!   "eval": "snake",
//!   "symmetric": true,
//!   "matrix": [[1, 0.5, 0.25, 0.125], [0.0078125, 0.015625, 0.03125, 0.0625],
//!              [0.00390625, 0.001953125, 0.0009765625, 0.00048828125],
//!              [3.0517578125e-05, 6.103515625e-05, 0.0001220703125, 0.000244140625]],
//!   "weights": {"empty": 0}
//! }
//! ```
//!
//! - `eval` (required): the evaluation's name, one of [`EVALS`](super::EVALS).
//! - `weights`: an object of the evaluation's weights by name ([`EvalInfo::weights`]);
//!   a weight left out keeps its default. The matrix weights may be set here too, as
//!   `m00` to `m33` (row, column), after `matrix`.
//! - `matrix` (matrix evaluations only): 4 rows of 4 numbers, the top row first.
//! - `symmetric` (matrix evaluations only): `true` to take the best of the board's
//!   eight symmetries.
//! - `note`: free text, kept as is.
//!
//! Any other key, a value of the wrong type, a matrix of the wrong shape, or a weight
//! out of its range is an error that names the key. [`EvalConfig::to_json`] writes
//! every weight, so a file records the whole evaluation; numbers are written in their
//! shortest form that reads back to the same `f64`.
//!
//! [`EvalInfo::weights`]: super::EvalInfo::weights

use std::fs;
use std::path::Path;

use serde_json::{Map, Value};

use super::{eval_info, EvalConfig, EvalError};

/// The keys a weights file may hold.
const KEYS: [&str; 5] = ["eval", "note", "symmetric", "matrix", "weights"];

/// What a JSON value is, for error messages.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(a) => format!("an array of {}", a.len()),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// An error about `key`.
fn key_error(key: &str, message: impl core::fmt::Display) -> EvalError {
    EvalError::Format(format!("key {key:?}: {message}"))
}

/// The number `value`, or an error about `key`.
fn number(key: &str, value: &Value) -> Result<f64, EvalError> {
    value
        .as_f64()
        .filter(|x| x.is_finite())
        .ok_or_else(|| key_error(key, format!("expected a number, found {}", describe(value))))
}

/// Writes `x` in its shortest form that reads back exactly.
fn write_number(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| "null".to_owned())
}

/// Writes `s` as a JSON string.
fn write_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

impl EvalConfig {
    /// Reads a weights file's text (see the [module](crate::eval::file)).
    ///
    /// # Errors
    ///
    /// When the text is not JSON, or a key is unknown, missing, of the wrong type or
    /// out of range; the message names the key.
    ///
    /// ```
    /// use ai2048_ai::eval::EvalConfig;
    /// let config = EvalConfig::from_json(r#"{"eval": "heuristic", "weights": {"empty": 300}}"#)?;
    /// assert_eq!(config.get("empty"), Some(300.0));
    /// assert_eq!(config.get("merges"), Some(700.0));
    /// let err = EvalConfig::from_json(r#"{"eval": "heuristic", "weights": {"empty": "x"}}"#);
    /// assert!(err.unwrap_err().to_string().contains("weights.empty"));
    /// # Ok::<(), ai2048_ai::eval::EvalError>(())
    /// ```
    pub fn from_json(text: &str) -> Result<EvalConfig, EvalError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| EvalError::Format(format!("not valid JSON: {e}")))?;
        let Value::Object(map) = value else {
            return Err(EvalError::Format(format!(
                "expected an object such as {{\"eval\": \"snake\", \"weights\": {{...}}}}, \
                 found {}",
                describe(&value)
            )));
        };
        if let Some(key) = map.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(key_error(
                key,
                format!("unknown key: expected {}", KEYS.join(", ")),
            ));
        }
        let name = match map.get("eval") {
            None => {
                return Err(key_error(
                    "eval",
                    "missing: which evaluation the weights are for",
                ))
            }
            Some(Value::String(s)) => s,
            Some(other) => {
                return Err(key_error(
                    "eval",
                    format!("expected a name, found {}", describe(other)),
                ))
            }
        };
        let mut config = EvalConfig::from_info(eval_info(name).map_err(|e| key_error("eval", e))?);
        match map.get("note") {
            None => {}
            Some(Value::String(s)) => config.set_note(Some(s.clone())),
            Some(other) => {
                return Err(key_error(
                    "note",
                    format!("expected a string, found {}", describe(other)),
                ))
            }
        }
        match map.get("symmetric") {
            None => {}
            Some(Value::Bool(b)) => config
                .set_symmetric(*b)
                .map_err(|e| key_error("symmetric", e))?,
            Some(other) => {
                return Err(key_error(
                    "symmetric",
                    format!("expected true or false, found {}", describe(other)),
                ))
            }
        }
        if let Some(value) = map.get("matrix") {
            if !config.info().has_matrix() {
                return Err(key_error(
                    "matrix",
                    format!(
                        "eval {} has no matrix (only {})",
                        config.name(),
                        super::error::matrix_eval_names()
                    ),
                ));
            }
            let matrix = read_matrix(value)?;
            config
                .set_matrix(&matrix)
                .map_err(|e| key_error("matrix", e))?;
        }
        if let Some(value) = map.get("weights") {
            read_weights(&mut config, value)?;
        }
        Ok(config)
    }

    /// The weights file of this evaluation (see the [module](crate::eval::file)): every weight, in
    /// the evaluation's order.
    ///
    /// ```
    /// use ai2048_ai::eval::EvalConfig;
    /// let mut config = EvalConfig::new("corner")?;
    /// config.set_symmetric(true)?;
    /// let text = config.to_json();
    /// assert!(text.contains("\"matrix\""));
    /// assert_eq!(EvalConfig::from_json(&text)?, config);
    /// # Ok::<(), ai2048_ai::eval::EvalError>(())
    /// ```
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut out = format!("{{\n  \"eval\": {}", write_string(self.name()));
        if let Some(note) = self.note() {
            out += &format!(",\n  \"note\": {}", write_string(note));
        }
        let mut weights: Vec<(&str, f64)> = self
            .param_names()
            .zip(self.params().iter().copied())
            .collect();
        if let Some(matrix) = self.matrix() {
            out += &format!(",\n  \"symmetric\": {}", self.symmetric());
            out += ",\n  \"matrix\": [";
            for (r, row) in matrix.chunks(4).enumerate() {
                let cells: Vec<_> = row.iter().map(|&x| write_number(x)).collect();
                out += &format!(
                    "{}\n    [{}]",
                    if r == 0 { "" } else { "," },
                    cells.join(", ")
                );
            }
            out += "\n  ]";
            weights.drain(..16);
        }
        out += ",\n  \"weights\": {";
        for (i, (name, x)) in weights.iter().enumerate() {
            out += &format!(
                "{}\n    {}: {}",
                if i == 0 { "" } else { "," },
                write_string(name),
                write_number(*x)
            );
        }
        out += if weights.is_empty() {
            "}\n}\n"
        } else {
            "\n  }\n}\n"
        };
        out
    }

    /// Reads the weights file at `path`.
    ///
    /// # Errors
    ///
    /// When the file cannot be read or is not a valid weights file; the message names
    /// the file and the key.
    pub fn load(path: &Path) -> Result<EvalConfig, EvalError> {
        let text = fs::read_to_string(path).map_err(|e| EvalError::Io {
            path: path.display().to_string(),
            action: "read",
            message: e.to_string(),
        })?;
        EvalConfig::from_json(&text).map_err(|e| EvalError::InFile {
            path: path.display().to_string(),
            error: Box::new(e),
        })
    }

    /// Writes this evaluation's weights file to `path` ([`EvalConfig::to_json`]).
    ///
    /// # Errors
    ///
    /// When the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), EvalError> {
        fs::write(path, self.to_json()).map_err(|e| EvalError::Io {
            path: path.display().to_string(),
            action: "write",
            message: e.to_string(),
        })
    }
}

/// Reads the `matrix` key: 4 rows of 4 numbers.
fn read_matrix(value: &Value) -> Result<[f64; 16], EvalError> {
    let shape = "expected 4 rows of 4 numbers";
    let Value::Array(rows) = value else {
        return Err(key_error(
            "matrix",
            format!("{shape}, found {}", describe(value)),
        ));
    };
    if rows.len() != 4 {
        return Err(key_error(
            "matrix",
            format!(
                "{shape}, found {} row{}",
                rows.len(),
                if rows.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    let mut matrix = [0.0; 16];
    for (r, row) in rows.iter().enumerate() {
        let key = format!("matrix[{r}]");
        let cells = match row {
            Value::Array(cells) if cells.len() == 4 => cells,
            Value::Array(cells) => {
                return Err(key_error(
                    &key,
                    format!("{shape}, found a row of {}", cells.len()),
                ))
            }
            other => {
                return Err(key_error(
                    &key,
                    format!("{shape}, found {}", describe(other)),
                ))
            }
        };
        for (c, cell) in cells.iter().enumerate() {
            matrix[4 * r + c] = number(&format!("matrix[{r}][{c}]"), cell)?;
        }
    }
    Ok(matrix)
}

/// Reads the `weights` key into `config`.
fn read_weights(config: &mut EvalConfig, value: &Value) -> Result<(), EvalError> {
    let Value::Object(weights) = value else {
        return Err(key_error(
            "weights",
            format!(
                "expected an object of weights by name, found {}",
                describe(value)
            ),
        ));
    };
    let weights: &Map<String, Value> = weights;
    for (name, value) in weights {
        let key = format!("weights.{name}");
        let x = number(&key, value)?;
        config.set(name, x).map_err(|e| key_error(&key, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_eval_round_trips() {
        for info in super::super::EVALS {
            let mut config = EvalConfig::from_info(info);
            let params: Vec<f64> = config
                .params()
                .iter()
                .enumerate()
                .map(|(i, x)| x * 0.9 + 0.1 / (i + 3) as f64)
                .collect();
            config = config.with_params(&params).unwrap();
            config.set_note(Some("a \"quoted\" note".to_owned()));
            let text = config.to_json();
            assert_eq!(EvalConfig::from_json(&text).unwrap(), config, "{text}");
        }
    }

    #[test]
    fn errors_name_the_key() {
        let cases = [
            ("[1, 2]", "expected an object"),
            ("{", "not valid JSON"),
            (r#"{"weights": {}}"#, "\"eval\": missing"),
            (r#"{"eval": 3}"#, "\"eval\": expected a name"),
            (r#"{"eval": "nope"}"#, "heuristic, simple"),
            (r#"{"eval": "snake", "extra": 1}"#, "\"extra\": unknown key"),
            (r#"{"eval": "snake", "symmetric": "yes"}"#, "\"symmetric\""),
            (
                r#"{"eval": "weighted", "symmetric": true}"#,
                "\"symmetric\"",
            ),
            (
                r#"{"eval": "snake", "matrix": [[1, 2, 3, 4]]}"#,
                "found 1 row",
            ),
            (
                r#"{"eval": "snake", "matrix": [[1,2,3,4],[1,2,3,4],[1,2,3],[1,2,3,4]]}"#,
                "\"matrix[2]\"",
            ),
            (
                r#"{"eval": "snake", "matrix": [[1,2,3,4],[1,2,3,4],[1,2,3,4],[1,2,null,4]]}"#,
                "\"matrix[3][2]\"",
            ),
            (r#"{"eval": "weighted", "matrix": []}"#, "has no matrix"),
            (r#"{"eval": "snake", "weights": [1]}"#, "\"weights\""),
            (
                r#"{"eval": "snake", "weights": {"emty": 1}}"#,
                "\"weights.emty\"",
            ),
            (
                r#"{"eval": "snake", "weights": {"empty": true}}"#,
                "\"weights.empty\"",
            ),
            (
                r#"{"eval": "snake", "weights": {"empty": 1e10}}"#,
                "outside",
            ),
            (
                r#"{"eval": "snake", "weights": {"empty": 1e999}}"#,
                "not valid JSON",
            ),
            (r#"{"eval": "simple", "weights": {"x": 1}}"#, "has none"),
        ];
        for (text, expected) in cases {
            let err = EvalConfig::from_json(text).unwrap_err().to_string();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }
}
