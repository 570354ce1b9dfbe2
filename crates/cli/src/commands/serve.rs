//! `ai2048 serve`: the game in the browser, with the AI beside it (see [`ai2048_web`]).
//!
//! Prints `listening on http://HOST:PORT` on stdout, flushed, once the server accepts
//! connections (with the port picked when `--port 0`), then serves until Ctrl-C or
//! SIGTERM, after which it answers the requests in flight and exits. Its logs, one
//! line a request, go to stderr through `tracing`, filtered by `AI2048_LOG`.

use std::io::{self, IsTerminal, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::process::{Command, Stdio};

use std::time::Duration;

use ai2048_web::scores::{DbLocation, Rate, RateLimits, ScoresConfig};
use ai2048_web::{serve_blocking_with_scores, ServerConfig};
use anyhow::{bail, Result};
use tracing_subscriber::filter::{LevelFilter, Targets};

use crate::args::ServeArgs;

/// Serves the page and the API until the process is stopped.
pub fn run(args: &ServeArgs) -> Result<()> {
    init_logs(std::env::var("AI2048_LOG").ok().as_deref())?;
    let addr = SocketAddr::new(args.host, args.port);
    let config = ServerConfig {
        trusted_proxies: args.trusted_proxy.clone(),
        max_connections_per_client: args.max_connections_per_client,
        max_requests_per_client: args.max_requests_per_client,
        ..ServerConfig::default()
    };
    let (workers, memory) = (config.workers, config.worst_case_memory_mb());
    let scores = scores_config(args)?;
    let kept = scores.as_ref().map_or_else(
        || "no scores kept (--db none)".to_owned(),
        |s| format!("scores kept in {}", s.db.display()),
    );
    serve_blocking_with_scores(addr, config, scores, |bound| {
        let url = format!("http://{bound}");
        let mut out = io::stdout().lock();
        // Nobody reading stdout is no reason not to serve.
        let _ = writeln!(out, "listening on {url}").and_then(|()| out.flush());
        tracing::info!(
            "{workers} search threads, players within {memory} MiB, {kept}; press Ctrl-C to stop"
        );
        if args.open {
            open_browser(&browser_url(bound));
        }
    })
    .map_err(|e| {
        // The database's errors say what they are about; the others are the address's.
        if e.kind() == io::ErrorKind::Other {
            anyhow::Error::msg(e.to_string())
        } else {
            anyhow::Error::new(e).context(format!("cannot serve on {addr}"))
        }
    })
}

/// The log filter of `AI2048_LOG` (`info` when unset): targets and levels as
/// `tracing_subscriber`'s `Targets` reads them, like `warn,ai2048_web=info`.
fn log_filter(text: Option<&str>) -> Result<Targets> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(Targets::new().with_default(LevelFilter::INFO));
    };
    let bad = |why: String| {
        anyhow::anyhow!(
            "AI2048_LOG={text:?} is not a log filter ({why}): expected a level (error, warn, \
             info, debug, trace, off) or TARGET=LEVEL pairs, like warn,ai2048_web=info"
        )
    };
    // A word alone is read as a target at every level: here it must be a level.
    for part in text.split(',').filter(|p| !p.contains('=')) {
        part.trim()
            .parse::<LevelFilter>()
            .map_err(|_| bad(format!("{:?} is not a level", part.trim())))?;
    }
    text.parse().map_err(|e| bad(format!("{e}")))
}

/// Sends the server's logs to stderr, filtered by `filter` (see [`log_filter`]),
/// coloured on a terminal. A second call (the tests run several servers in one
/// process) keeps the first's.
fn init_logs(filter: Option<&str>) -> Result<()> {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = log_filter(filter)?;
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(io::stderr)
                .with_ansi(io::stderr().is_terminal()),
        )
        .with(filter)
        .try_init();
    Ok(())
}

/// The scores' settings of `args`: `None` for `--db none`.
fn scores_config(args: &ServeArgs) -> Result<Option<ScoresConfig>> {
    let db = match args.db.as_deref() {
        Some("none") => return Ok(None),
        Some(text) => text.parse::<DbLocation>().map_err(anyhow::Error::msg)?,
        None => DbLocation::default_sqlite().map_err(anyhow::Error::msg)?,
    };
    for origin in &args.allow_origin {
        let ok = origin == "*"
            || ((origin.starts_with("http://") || origin.starts_with("https://"))
                && !origin.trim_end_matches('/').ends_with(':')
                && origin.split("://").nth(1).is_some_and(|host| {
                    !host.is_empty() && !host.contains('/') && !host.contains(char::is_whitespace)
                }));
        if !ok {
            bail!(
                "--allow-origin {origin:?} is not an origin: expected SCHEME://HOST[:PORT] (like https://example.org, with no path) or *"
            );
        }
    }
    Ok(Some(ScoresConfig {
        db,
        limits: RateLimits {
            players: Rate::per_hour(args.players_per_hour),
            games: Rate::per_minute(args.games_per_minute),
            moves: Rate::per_second(args.moves_per_second),
            reads: Rate::per_second(args.reads_per_second),
            requests: Rate::per_second(args.requests_per_second),
        },
        abandon_after: Duration::from_secs(args.abandon_after),
        max_open_games: args.max_open_games,
        cache_bytes: args.cache_mb.saturating_mul(1 << 20),
        allow_origins: args.allow_origin.clone(),
        sqlite_full_sync: args.sqlite_full_sync,
    }))
}

/// The address a browser on this machine reaches the server at: a server on every
/// interface (0.0.0.0) is reached on loopback.
fn browser_url(bound: SocketAddr) -> String {
    let ip = match bound.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}/", SocketAddr::new(ip, bound.port()))
}

/// Opens `url` in the desktop's browser, at best: a failure is only a warning.
fn open_browser(url: &str) {
    let (program, args): (&'static str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let warn = move |why: &dyn std::fmt::Display, url: &str| {
        eprintln!("warning: could not open a browser ({program}: {why}); open {url} yourself");
    };
    let started = Command::new(program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match started {
        // The opener may take its time (a browser starting): wait for it aside.
        Ok(mut child) => {
            let url = url.to_owned();
            std::thread::spawn(move || match child.wait() {
                Ok(status) if !status.success() => warn(&status, &url),
                Ok(_) => {}
                Err(e) => warn(&e, &url),
            });
        }
        Err(e) => warn(&e, url),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trusted_proxies_are_address_ranges() {
        use crate::args::{parse_args, testing::args};
        let a: ServeArgs = args(&[
            "--trusted-proxy",
            "127.0.0.1/32",
            "10.0.0.0/8",
            "--port",
            "0",
        ]);
        let shown: Vec<String> = a.trusted_proxy.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["127.0.0.1/32", "10.0.0.0/8"]);
        assert!(args::<ServeArgs>(&[]).trusted_proxy.is_empty());
        let e = parse_args::<ServeArgs>(&["--trusted-proxy", "10.0.0.0/40"]).unwrap_err();
        assert!(e.to_string().contains("is not an address range"), "{e}");
    }

    #[test]
    fn open_games_are_capped_at_five_by_default() {
        use crate::args::{parse_args, testing::args};
        assert_eq!(args::<ServeArgs>(&[]).max_open_games, 5);
        let a: ServeArgs = args(&["--max-open-games", "1", "--db", "none"]);
        assert_eq!(a.max_open_games, 1);
        let e = parse_args::<ServeArgs>(&["--max-open-games", "0"]).unwrap_err();
        assert!(e.to_string().contains("0 is not in 1.."), "{e}");
    }

    #[test]
    fn reads_and_the_cache_have_their_options() {
        use crate::args::{parse_args, testing::args};
        let config = |a: &[&str]| scores_config(&args::<ServeArgs>(a)).unwrap().unwrap();
        let default = config(&["--db", "x.db"]);
        assert_eq!(default.limits.reads, Rate::per_second(50));
        assert_eq!(default.limits.requests, Rate::per_second(500));
        assert_eq!(default.cache_bytes, 32 << 20);
        let set = config(&["--db", "x.db", "--reads-per-second", "7", "--cache-mb", "0"]);
        assert_eq!(
            (set.limits.reads, set.cache_bytes),
            (Rate::per_second(7), 0)
        );
        assert!(parse_args::<ServeArgs>(&["--reads-per-second", "0"]).is_err());
    }

    #[test]
    fn logs_are_filtered_by_ai2048_log() {
        let shown = |filter: Option<&str>, target: &str, level| {
            log_filter(filter).unwrap().would_enable(target, &level)
        };
        use tracing::Level;
        assert!(shown(None, "ai2048_web::request", Level::INFO));
        assert!(!shown(None, "ai2048_web", Level::DEBUG));
        assert!(!shown(Some("warn"), "ai2048_web::request", Level::INFO));
        let quiet = Some("info,ai2048_web::request=off");
        assert!(!shown(quiet, "ai2048_web::request", Level::INFO));
        assert!(shown(quiet, "ai2048_web::server", Level::INFO));
        let e = log_filter(Some("loud")).unwrap_err().to_string();
        assert!(
            e.starts_with("AI2048_LOG=\"loud\" is not a log filter"),
            "{e}"
        );
    }

    #[test]
    fn client_caps_have_their_options() {
        use crate::args::testing::args;
        let a = args::<ServeArgs>(&[]);
        assert_eq!(
            (a.max_connections_per_client, a.max_requests_per_client),
            (32, 16)
        );
        let a = args::<ServeArgs>(&[
            "--max-connections-per-client",
            "0",
            "--max-requests-per-client",
            "4",
        ]);
        assert_eq!(
            (a.max_connections_per_client, a.max_requests_per_client),
            (0, 4)
        );
    }

    #[test]
    fn browsers_reach_every_interface_on_loopback() {
        let url = |s: &str| browser_url(s.parse().unwrap());
        assert_eq!(url("0.0.0.0:80"), "http://127.0.0.1:80/");
        assert_eq!(url("[::]:80"), "http://[::1]:80/");
        assert_eq!(url("192.0.2.1:8048"), "http://192.0.2.1:8048/");
    }
}
