//! The score API against real servers on SQLite and, when `AI2048_TEST_POSTGRES`
//! names one, on PostgreSQL: every status, retries, abandoned games, the limits,
//! and games whose replays check. One test binary, a module a concern: `games`
//! (statuses, abandoned and seeded games, the referee), `limits` (rate limits,
//! trusted proxies, other origins) and `bad_input`.

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod games;
mod limits;
