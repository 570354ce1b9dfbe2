//! Players' names: what a name may hold, and the key that makes names unique
//! ignoring case.

/// The most characters a name may have.
pub const MAX_NAME_CHARS: usize = 20;

/// Checks a player's name: 1 to [`MAX_NAME_CHARS`] characters, each a letter, a
/// digit, a space, `-` or `_`, neither starting nor ending with a space.
///
/// ```
/// use ai2048_web::scores::check_name;
/// assert_eq!(check_name("Ada_L-2"), Ok(()));
/// assert_eq!(check_name("Émile Zola"), Ok(()));
/// assert_eq!(
///     check_name("<b>x</b>").unwrap_err(),
///     "character 1 of the name, \"<\", is not allowed: a name holds letters, digits, spaces, - and _"
/// );
/// ```
///
/// # Errors
///
/// Says what is wrong, and for a bad character which one and where.
pub fn check_name(name: &str) -> Result<(), String> {
    let count = name.chars().count();
    if count == 0 {
        return Err("the name is empty: a name has 1 to 20 characters".to_owned());
    }
    if count > MAX_NAME_CHARS {
        return Err(format!(
            "the name has {count} characters, more than {MAX_NAME_CHARS}, the most a name may have"
        ));
    }
    for (i, c) in name.chars().enumerate() {
        if !(c.is_alphanumeric() || c == ' ' || c == '-' || c == '_') {
            let shown = if c.is_control() {
                format!("U+{:04X}, a control character", u32::from(c))
            } else {
                serde_json::Value::from(c.to_string()).to_string()
            };
            return Err(format!(
                "character {} of the name, {shown}, is not allowed: a name holds letters, digits, spaces, - and _",
                i + 1
            ));
        }
    }
    if name.starts_with(' ') || name.ends_with(' ') {
        return Err("the name starts or ends with a space".to_owned());
    }
    Ok(())
}

/// The key under which a name is unique: the name in lower case, so that `Ada` and
/// `ADA` are the same player.
///
/// ```
/// use ai2048_web::scores::name_key;
/// assert_eq!(name_key("Ada Lovelace"), name_key("ADA LOVELACE"));
/// ```
#[must_use]
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(check_name("a"), Ok(()));
        assert_eq!(check_name(&"x".repeat(20)), Ok(()));
        assert_eq!(check_name("日本語 名前"), Ok(()));
        let refused = |name: &str| check_name(name).unwrap_err();
        assert_eq!(
            refused(&"x".repeat(10_000)),
            "the name has 10000 characters, more than 20, the most a name may have"
        );
        assert_eq!(
            refused(""),
            "the name is empty: a name has 1 to 20 characters"
        );
        assert_eq!(
            refused("a\u{7}b"),
            "character 2 of the name, U+0007, a control character, is not allowed: a name holds letters, digits, spaces, - and _"
        );
        assert_eq!(refused(" ada"), "the name starts or ends with a space");
        assert_eq!(
            refused("x'; DROP TABLE"),
            "character 2 of the name, \"'\", is not allowed: a name holds letters, digits, spaces, - and _"
        );
        assert_eq!(name_key("ÉMILE"), "émile");
    }
}
