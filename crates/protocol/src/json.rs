//! Small helpers to read JSON values and to describe them in error messages.

use serde_json::{Map, Number, Value};

/// The longest piece of a request that an error message quotes, in characters.
const MAX_QUOTE: usize = 40;

/// What kind of JSON value `v` is, with its article: `"a string"`, `"null"`, ...
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `v` as compact JSON, cut to a few dozen characters so that a huge value does not
/// make a huge error message.
pub fn quote(v: &Value) -> String {
    let text = v.to_string();
    shorten(&text)
}

/// `text` cut to a few dozen characters (on a character boundary), with `…` when cut.
pub(crate) fn shorten(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTE) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// An integral number, as written or as a float with no fractional part (`2.0`,
/// `4e3`). `None` for numbers with a fraction. Integral floats beyond the `i128` range
/// saturate, which is far beyond every limit of the protocol.
pub(crate) fn integer(n: &Number) -> Option<i128> {
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u));
    }
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i));
    }
    let f = n.as_f64()?;
    // `as` saturates for floats out of range, and the protocol's limits are far below.
    (f.is_finite() && f.fract() == 0.0).then_some(f as i128)
}

/// The largest integer a JavaScript number holds exactly, 2^53 - 1: seeds and turns
/// stay within it so that the page keeps them exactly.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Parses `text` as a JSON object: the fields of a request named `what`.
///
/// # Errors
///
/// When `text` is not JSON or not an object.
pub fn object(text: &str, what: &str) -> Result<Map<String, Value>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    match value {
        Value::Object(fields) => Ok(fields),
        other => Err(format!(
            "a {what} request must be a JSON object, found {}",
            kind(&other)
        )),
    }
}

/// Checks that `fields` has only the keys in `known`.
///
/// # Errors
///
/// Names the first unknown field and lists those the request takes.
pub fn check_fields(fields: &Map<String, Value>, what: &str, known: &[&str]) -> Result<(), String> {
    match fields.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => Err(format!(
            "unknown field {} in a {what} request: it takes {}",
            quote(&Value::from(key.as_str())),
            known.join(", ")
        )),
        None => Ok(()),
    }
}

/// Field `key` as an integer from 0 to [`MAX_SAFE_INTEGER`]; `None` when absent or null.
///
/// # Errors
///
/// When it is anything else.
pub fn safe_integer(fields: &Map<String, Value>, key: &str) -> Result<Option<u64>, String> {
    let Some(value) = fields.get(key).filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let n = value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER as f64).contains(f))
            .map(|f| f as u64)
    });
    match n {
        Some(n) if n <= MAX_SAFE_INTEGER => Ok(Some(n)),
        _ => Err(format!(
            "\"{key}\" must be an integer from 0 to {MAX_SAFE_INTEGER}, found {}",
            quote(value)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        let n = |s: &str| serde_json::from_str::<Number>(s).unwrap();
        assert_eq!(integer(&n("2")), Some(2));
        assert_eq!(integer(&n("-2")), Some(-2));
        assert_eq!(integer(&n("2.0")), Some(2));
        assert_eq!(integer(&n("4e3")), Some(4000));
        assert_eq!(integer(&n("2.5")), None);
        assert_eq!(integer(&n("1e300")), Some(i128::MAX));
    }

    #[test]
    fn quotes_are_short() {
        let long = Value::String("x".repeat(1000));
        let q = quote(&long);
        assert!(q.chars().count() <= MAX_QUOTE + 1);
        assert!(q.ends_with('…'));
        assert_eq!(quote(&Value::from(2.5)), "2.5");
        assert_eq!(
            shorten("é".repeat(50).as_str()).chars().count(),
            MAX_QUOTE + 1
        );
    }
}

#[cfg(test)]
mod request_field_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers() {
        let fields = |v: Value| json!({ "seed": v }).as_object().unwrap().clone();
        assert_eq!(safe_integer(&fields(json!(7)), "seed"), Ok(Some(7)));
        assert_eq!(safe_integer(&fields(json!(7.0)), "seed"), Ok(Some(7)));
        assert_eq!(safe_integer(&fields(json!(null)), "seed"), Ok(None));
        assert_eq!(safe_integer(&Map::new(), "seed"), Ok(None));
        let max = MAX_SAFE_INTEGER;
        assert_eq!(safe_integer(&fields(json!(max)), "seed"), Ok(Some(max)));
        for bad in [
            json!(max + 1),
            json!(-1),
            json!(1.5),
            json!("3"),
            json!([1]),
        ] {
            let err = safe_integer(&fields(bad.clone()), "seed").unwrap_err();
            assert_eq!(
                err,
                format!("\"seed\" must be an integer from 0 to 9007199254740991, found {bad}")
            );
        }
    }

    #[test]
    fn objects_and_fields() {
        assert_eq!(
            object("[]", "step").unwrap_err(),
            "a step request must be a JSON object, found an array"
        );
        assert!(object("{", "step")
            .unwrap_err()
            .starts_with("invalid JSON: "));
        let fields = object(r#"{"a":1,"b":2}"#, "step").unwrap();
        assert_eq!(check_fields(&fields, "step", &["a", "b"]), Ok(()));
        assert_eq!(
            check_fields(&fields, "step", &["a"]).unwrap_err(),
            "unknown field \"b\" in a step request: it takes a"
        );
        assert_eq!(quote(&json!("x".repeat(100))).chars().count(), 41);
    }
}
