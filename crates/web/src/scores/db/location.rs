//! Where the scores are kept, as `--db` names it: a SQLite file or a PostgreSQL
//! server.

use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where the scores are kept: a SQLite file or a PostgreSQL server. Its `Debug`, like
/// [`DbLocation::display`], masks a PostgreSQL URL's passwords.
#[derive(Clone, PartialEq, Eq)]
pub enum DbLocation {
    /// A SQLite database in this file (created when missing, with WAL).
    Sqlite(PathBuf),
    /// A PostgreSQL server, by its `postgres://` URL.
    Postgres(String),
}

impl std::fmt::Debug for DbLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbLocation::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
            DbLocation::Postgres(url) => f
                .debug_tuple("Postgres")
                .field(&mask_postgres_url(url))
                .finish(),
        }
    }
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
    /// assert_eq!(
    ///     format!("{:?}", "postgres://ann:s3cret@db/scores".parse::<DbLocation>().unwrap()),
    ///     "Postgres(\"postgres://ann:***@db/scores\")"
    /// );
    /// assert!("mysql://ann:s3cret@db/x".parse::<DbLocation>().unwrap_err().contains("ann:***@"));
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
            let text = mask_postgres_url(text);
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

    /// The location as it may be shown or logged: a PostgreSQL URL with its
    /// passwords masked (see [`mask_postgres_url`]).
    #[must_use]
    pub fn display(&self) -> String {
        match self {
            DbLocation::Sqlite(path) => path.display().to_string(),
            DbLocation::Postgres(url) => mask_postgres_url(url),
        }
    }
}

/// A PostgreSQL URL as it may be shown or logged: the password of
/// `postgres://user:PASSWORD@host` and the values of the parameters `password` and
/// `sslpassword` (in any case) written `***`.
///
/// ```
/// use ai2048_web::scores::mask_postgres_url;
/// assert_eq!(
///     mask_postgres_url("postgres://ann:s3cret@db:5432/scores?sslmode=require"),
///     "postgres://ann:***@db:5432/scores?sslmode=require"
/// );
/// assert_eq!(
///     mask_postgres_url("postgres://ann@db/scores?Password=s3cret&sslmode=require"),
///     "postgres://ann@db/scores?Password=***&sslmode=require"
/// );
/// assert_eq!(
///     mask_postgres_url("postgresql://a:b@db/s?password=c&sslpassword=d"),
///     "postgresql://a:***@db/s?password=***&sslpassword=***"
/// );
/// assert_eq!(mask_postgres_url("postgres://db/scores"), "postgres://db/scores");
/// ```
#[must_use]
pub fn mask_postgres_url(url: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let mut masked = match base.find("://") {
        Some(start) => {
            let authority_end = base[start + 3..]
                .find('/')
                .map_or(base.len(), |i| start + 3 + i);
            match base[start + 3..authority_end].rfind('@') {
                Some(at) => {
                    let at = start + 3 + at;
                    match base[start + 3..at].split_once(':') {
                        Some((user, _)) => {
                            format!("{}{user}:***{}", &base[..start + 3], &base[at..])
                        }
                        None => base.to_owned(),
                    }
                }
                None => base.to_owned(),
            }
        }
        None => base.to_owned(),
    };
    if let Some(query) = query {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _))
                    if key.eq_ignore_ascii_case("password")
                        || key.eq_ignore_ascii_case("sslpassword") =>
                {
                    format!("{key}=***")
                }
                _ => pair.to_owned(),
            })
            .collect();
        masked.push('?');
        masked.push_str(&pairs.join("&"));
    }
    masked
}
