//! Small helpers to read JSON values and to describe them in error messages.

use serde_json::{Number, Value};

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
