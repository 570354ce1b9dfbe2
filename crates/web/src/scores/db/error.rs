//! A database error, and whether it is worth trying again, told by the database's
//! own code.

/// A database error, and whether it is worth trying again (the server could not be
/// reached, or was busy).
#[derive(Debug)]
pub struct DbError {
    /// What failed.
    pub message: String,
    /// Whether it may pass: an answer of 503 rather than 500.
    pub transient: bool,
}

impl From<sqlx::Error> for DbError {
    fn from(e: sqlx::Error) -> DbError {
        let transient = match &e {
            sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => true,
            sqlx::Error::Database(d) => retryable(d.as_ref()),
            _ => false,
        };
        DbError {
            message: e.to_string(),
            transient,
        }
    }
}

/// Whether a database's error says that the same request may pass if sent again, by
/// its code (see [`sqlite_retryable`] and [`postgres_retryable`]).
fn retryable(e: &dyn sqlx::error::DatabaseError) -> bool {
    let Some(code) = e.code() else {
        return false;
    };
    if e.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
        code.parse().is_ok_and(sqlite_retryable)
    } else if e
        .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
        .is_some()
    {
        postgres_retryable(&code)
    } else {
        false
    }
}

/// Whether a SQLite error of this (extended) result code may pass when tried again:
/// `SQLITE_BUSY` (5) and `SQLITE_LOCKED` (6), with their extended codes, whose low
/// byte is the primary code (261 `SQLITE_BUSY_RECOVERY`, 517 `SQLITE_BUSY_SNAPSHOT`,
/// 773 `SQLITE_BUSY_TIMEOUT`, 262 `SQLITE_LOCKED_SHAREDCACHE`, ...).
///
/// ```
/// use ai2048_web::scores::sqlite_retryable;
/// assert!(sqlite_retryable(5) && sqlite_retryable(517) && sqlite_retryable(262));
/// assert!(!sqlite_retryable(2067)); // SQLITE_CONSTRAINT_UNIQUE
/// assert!(!sqlite_retryable(11)); // SQLITE_CORRUPT
/// ```
#[must_use]
pub fn sqlite_retryable(code: u32) -> bool {
    matches!(code & 0xff, 5 | 6)
}

/// Whether a PostgreSQL error of this SQLSTATE may pass when tried again: a
/// serialization failure (40001), a deadlock (40P01), a lock not available (55P03),
/// too many connections (53300), a server shutting down or starting (57P01, 57P02,
/// 57P03), or a connection lost (class 08).
///
/// ```
/// use ai2048_web::scores::postgres_retryable;
/// assert!(postgres_retryable("40001") && postgres_retryable("40P01"));
/// assert!(postgres_retryable("55P03") && postgres_retryable("08006"));
/// assert!(!postgres_retryable("23505")); // unique_violation
/// assert!(!postgres_retryable("42P01")); // undefined_table
/// ```
#[must_use]
pub fn postgres_retryable(sqlstate: &str) -> bool {
    matches!(
        sqlstate,
        "40001" | "40P01" | "55P03" | "53300" | "57P01" | "57P02" | "57P03"
    ) || sqlstate.starts_with("08")
}
