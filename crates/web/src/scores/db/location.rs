//! Where the scores are kept, as `--db` names it: a SQLite file or a PostgreSQL
//! server.

use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where the scores are kept: a SQLite file or a PostgreSQL server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbLocation {
    /// A SQLite database in this file (created when missing, with WAL).
    Sqlite(PathBuf),
    /// A PostgreSQL server, by its `postgres://` URL.
    Postgres(String),
}

impl FromStr for DbLocation {
    type Err = String;

    /// `postgres://...` or `postgresql://...` is a PostgreSQL server; `sqlite:PATH`
    /// or a plain path is a SQLite file.
    ///
    /// ```
    /// use ai2048_web::scores::DbLocation;
    /// assert_eq!("scores.db".parse(), Ok(DbLocation::Sqlite("scores.db".into())));
    /// assert!(matches!("postgres://u@localhost/db".parse(), Ok(DbLocation::Postgres(_))));
    /// assert_eq!(
    ///     "mysql://localhost/db".parse::<DbLocation>().unwrap_err(),
    ///     "--db \"mysql://localhost/db\": unknown database mysql: expected a SQLite file \
    ///      (a path, or sqlite:PATH) or a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)"
    /// );
    /// ```
    fn from_str(text: &str) -> Result<DbLocation, String> {
        if text.trim().is_empty() {
            return Err("--db is empty: give a SQLite file's path or a postgres:// URL".to_owned());
        }
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(DbLocation::Postgres(text.to_owned()));
        }
        if let Some(path) = text
            .strip_prefix("sqlite://")
            .or(text.strip_prefix("sqlite:"))
        {
            if path.is_empty() {
                return Err(format!("--db {text:?}: no file after sqlite:"));
            }
            return Ok(DbLocation::Sqlite(PathBuf::from(path)));
        }
        if let Some((scheme, _)) = text.split_once("://") {
            return Err(format!(
                "--db {text:?}: unknown database {scheme}: expected a SQLite file (a path, or \
                 sqlite:PATH) or a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)"
            ));
        }
        Ok(DbLocation::Sqlite(PathBuf::from(text)))
    }
}

impl DbLocation {
    /// The default: `scores.db` in the user's data directory,
    /// `$XDG_DATA_HOME/ai2048` or else `~/.local/share/ai2048`.
    ///
    /// # Errors
    ///
    /// When neither `XDG_DATA_HOME` nor `HOME` is set.
    pub fn default_sqlite() -> Result<DbLocation, String> {
        let base = match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
            Some(dir) => PathBuf::from(dir),
            None => match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
                Some(home) => Path::new(&home).join(".local").join("share"),
                None => {
                    return Err(
                        "neither XDG_DATA_HOME nor HOME is set, so there is no data \
                         directory for the scores: give one with --db PATH"
                            .to_owned(),
                    )
                }
            },
        };
        Ok(DbLocation::Sqlite(base.join("ai2048").join("scores.db")))
    }

    /// The location as it may be shown: a PostgreSQL URL without its password.
    #[must_use]
    pub fn display(&self) -> String {
        match self {
            DbLocation::Sqlite(path) => path.display().to_string(),
            DbLocation::Postgres(url) => match (url.find("://"), url.rfind('@')) {
                (Some(start), Some(at)) if at > start => {
                    let user = &url[start + 3..at];
                    match user.split_once(':') {
                        Some((name, _)) => format!("{}{name}:***{}", &url[..start + 3], &url[at..]),
                        None => url.clone(),
                    }
                }
                _ => url.clone(),
            },
        }
    }
}
