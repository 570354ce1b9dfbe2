//! Rate limits per client: new players, new games, moves, the score API's reads (the
//! leaderboard, players' pages, games, replays), and every other request (the page's
//! files, the engine's API), each with its own allowance, so that a loop of reads
//! uses up neither the moves' nor the page's own game's. A client is an IPv4 address, or an IPv6 /64 ([`rate_key`]). Past its
//! allowance, the answer is 429 with `Retry-After`.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::http::StatusCode;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::proxy::rate_key_label;
use crate::{rate_key, ApiError};

/// An allowance: `count` requests per `period`, all of which may come at once, and
/// which come back evenly over the period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests allowed per period (at least 1).
    pub count: u32,
    /// The period.
    pub period: Duration,
}

impl Rate {
    /// `count` per second.
    #[must_use]
    pub const fn per_second(count: u32) -> Rate {
        Rate {
            count,
            period: Duration::from_secs(1),
        }
    }

    /// `count` per minute.
    #[must_use]
    pub const fn per_minute(count: u32) -> Rate {
        Rate {
            count,
            period: Duration::from_secs(60),
        }
    }

    /// `count` per hour.
    #[must_use]
    pub const fn per_hour(count: u32) -> Rate {
        Rate {
            count,
            period: Duration::from_secs(3600),
        }
    }

    fn quota(self) -> Quota {
        let count = NonZeroU32::new(self.count.max(1)).unwrap_or(NonZeroU32::MIN);
        let each = (self.period / count.get()).max(Duration::from_nanos(1));
        Quota::with_period(each)
            .unwrap_or_else(|| Quota::per_second(count))
            .allow_burst(count)
    }
}

/// The allowances of one client address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// `POST /api/players`.
    pub players: Rate,
    /// `POST /api/ranked`.
    pub games: Rate,
    /// `POST /api/ranked/G/move` and `POST /api/ranked/G/end`.
    pub moves: Rate,
    /// The score API's reads: `GET /api/leaderboard`, `/api/players/NAME`,
    /// `/api/ranked/G` and `/api/ranked/G/replay`.
    pub reads: Rate,
    /// Every other request: the page's files, the engine's API (the page's own game
    /// and AI on the server), unknown routes.
    pub requests: Rate,
}

impl Default for RateLimits {
    /// 20 new players an hour, 60 new games a minute, 200 moves a second (an AI
    /// playing 100 moves a second stays well within it), 50 reads a second, and 500
    /// other requests a second (the page's AI on the server at full speed sends 2 or 3
    /// a move).
    fn default() -> RateLimits {
        RateLimits {
            players: Rate::per_hour(20),
            games: Rate::per_minute(60),
            moves: Rate::per_second(200),
            reads: Rate::per_second(50),
            requests: Rate::per_second(500),
        }
    }
}

/// What a limit is for, to name it in the answer.
#[derive(Clone, Copy, Debug)]
pub enum Action {
    /// A new player.
    NewPlayer,
    /// A new game.
    NewGame,
    /// A move, or the end of a game.
    Move,
    /// A read of the score API.
    Read,
    /// Any other request.
    Request,
}

/// The limiters, one per action, keyed by client address.
pub struct Limiters {
    players: DefaultKeyedRateLimiter<IpAddr>,
    games: DefaultKeyedRateLimiter<IpAddr>,
    moves: DefaultKeyedRateLimiter<IpAddr>,
    reads: DefaultKeyedRateLimiter<IpAddr>,
    requests: DefaultKeyedRateLimiter<IpAddr>,
    limits: RateLimits,
    checks: AtomicU64,
}

impl Limiters {
    /// Limiters for `limits`.
    #[must_use]
    pub fn new(limits: RateLimits) -> Limiters {
        Limiters {
            players: DefaultKeyedRateLimiter::keyed(limits.players.quota()),
            games: DefaultKeyedRateLimiter::keyed(limits.games.quota()),
            moves: DefaultKeyedRateLimiter::keyed(limits.moves.quota()),
            reads: DefaultKeyedRateLimiter::keyed(limits.reads.quota()),
            requests: DefaultKeyedRateLimiter::keyed(limits.requests.quota()),
            limits,
            checks: AtomicU64::new(0),
        }
    }

    /// Counts one `action` of `client` (of its /64 for an IPv6 address).
    ///
    /// # Errors
    ///
    /// 429, saying when to try again (also in `Retry-After`), past the allowance.
    pub fn check(&self, action: Action, client: IpAddr) -> Result<(), ApiError> {
        let (limiter, rate, what) = match action {
            Action::NewPlayer => (&self.players, self.limits.players, "new players"),
            Action::NewGame => (&self.games, self.limits.games, "new games"),
            Action::Move => (&self.moves, self.limits.moves, "moves"),
            Action::Read => (&self.reads, self.limits.reads, "reads"),
            Action::Request => (&self.requests, self.limits.requests, "requests"),
        };
        // Forget the addresses that are back to a full allowance, now and then, so
        // that the tables stay small.
        if self.checks.fetch_add(1, Ordering::Relaxed) % 4096 == 4095 {
            self.players.retain_recent();
            self.games.retain_recent();
            self.moves.retain_recent();
            self.reads.retain_recent();
            self.requests.retain_recent();
        }
        let key = rate_key(client);
        let from = rate_key_label(client);
        limiter.check_key(&key).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many {what} from {from}: at most {} per {} s; try again in {} ms",
                    rate.count,
                    rate.period.as_secs_f64(),
                    wait.as_millis().max(1)
                ),
            )
            .retry_after(seconds.max(1))
        })
    }
}
