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
