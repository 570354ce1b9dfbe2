//! The score API against real servers on SQLite and, when `AI2048_TEST_POSTGRES`
//! names one, on PostgreSQL: every status, retries, abandoned games, the limits,
//! and games whose replays check. One test binary, a module a concern: `games`
//! (statuses, abandoned and seeded games, the referee), `limits` (rate limits,
//! trusted proxies, other origins), `operations` (`/healthz`, graceful shutdown,
//! caps per client) and `bad_input`.

#[path = "../common/mod.rs"]
mod common;

/// Two tests of one check, `async fn $check(db: DbLocation)`: `$sqlite` on a throwaway
/// SQLite file named after `$file`, and `$postgres` on the PostgreSQL server that
/// `AI2048_TEST_POSTGRES` names, when it names one.
macro_rules! on_both_databases {
    ($check:ident: $sqlite:ident($file:literal), $postgres:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $sqlite() {
            let db = crate::common::ranked::TempSqlite::new($file);
            $check(db.location()).await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $postgres() {
            if let Some(db) = crate::common::ranked::postgres(stringify!($postgres)) {
                $check(db).await;
            }
        }
    };
}

mod bad_input;
mod games;
mod limits;
mod operations;

/// The PostgreSQL tests skip, saying so, only where no server was meant to run: with
/// `AI2048_REQUIRE_POSTGRES=1` (as `scripts/test` sets it) and no URL they fail.
#[test]
fn postgres_tests_fail_where_a_server_was_required() {
    use ai2048_web::scores::DbLocation;
    use common::ranked::postgres_from;
    let url = "postgres://ai2048@127.0.0.1:5432/ai2048";
    let server = Some(DbLocation::Postgres(url.to_owned()));
    assert_eq!(postgres_from(None, None), Ok(None));
    assert_eq!(postgres_from(Some(""), Some("0")), Ok(None));
    assert_eq!(postgres_from(Some(url), None), Ok(server.clone()));
    assert_eq!(postgres_from(Some(url), Some("1")), Ok(server));
    let missing = postgres_from(None, Some("1")).unwrap_err();
    assert!(missing.starts_with("AI2048_REQUIRE_POSTGRES=1 but AI2048_TEST_POSTGRES is not set"));
    assert!(postgres_from(Some(""), Some("1")).is_err());
    assert!(postgres_from(None, Some("yes"))
        .unwrap_err()
        .contains("expected 1"));
    let sqlite = postgres_from(Some("scores.db"), None).unwrap_err();
    assert_eq!(
        sqlite,
        "AI2048_TEST_POSTGRES=\"scores.db\" is not a postgres:// URL"
    );
}
