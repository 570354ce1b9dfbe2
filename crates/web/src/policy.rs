//! What a search over the web may ask for: the player options a server refuses or
//! caps, and the time limit every search gets.

use std::time::Duration;

use ai2048_ai::{option_matches, PlayerSpec, SearchLimits, DEFAULT_PLAYER, PLAYERS};

use crate::ServerConfig;

/// The player options a web client may set. The others a player takes are refused
/// with a reason (see [`refusal`]), so that an option added to a player later is not
/// open to the web until it is listed here.
const WEB_OPTIONS: &[&str] = &[
    "depth",
    "prune",
    "tt-mb",
    "p4",
    "learn-p4",
    "time-ms",
    "eval",
    "symmetric",
    "w.NAME",
    "order",
    "mode",
    "playouts",
    "iterations",
    "c",
    "playout",
    "cut",
    "cut-from",
    "ceiling",
];

/// Why option `key` is refused over the web.
fn refusal(key: &str) -> String {
    let why = match key {
        "weights" => {
            "it reads a file on the server, which the web API never does \
             (set single weights with w.NAME=VALUE instead)"
        }
        "network" => "it reads a file on the server, which the web API never does",
        "threads" => "every search runs on one thread of the server's fixed pool",
        "time-bank" => "every search gets at most the server's time limit",
        _ => "the server does not offer it",
    };
    format!("player option {key} is not available over the web: {why}")
}

/// The player a web search uses for `spec` (the default player when `None`): options
/// that read files, start threads or stretch the time are refused, and an expectimax
/// player's transposition table is at most [`ServerConfig::tt_mb`] (its size when the
/// spec names none).
///
/// Names and options the player does not know are left as they are, for the
/// protocol's own error message.
///
/// # Errors
///
/// Says which option is refused, and why.
pub fn web_spec(spec: Option<PlayerSpec>, config: &ServerConfig) -> Result<PlayerSpec, String> {
    let mut spec = spec.unwrap_or_else(|| PlayerSpec::new(DEFAULT_PLAYER));
    if let Some((key, _)) = spec
        .options
        .iter()
        .find(|(k, _)| k == "weights" || k == "network")
    {
        return Err(refusal(key));
    }
    let Some(info) = PLAYERS.iter().find(|p| p.name == spec.name) else {
        return Ok(spec);
    };
    for (key, _) in &spec.options {
        let known = info.options.iter().any(|(k, _)| option_matches(k, key));
        let allowed = WEB_OPTIONS.iter().any(|k| option_matches(k, key));
        if known && !allowed {
            return Err(refusal(key));
        }
    }
    if info.options.iter().any(|(k, _)| *k == "tt-mb") {
        match spec.option("tt-mb").map(str::parse::<usize>) {
            None => spec
                .options
                .push(("tt-mb".into(), config.tt_mb.to_string())),
            Some(Ok(mb)) if mb > config.tt_mb => {
                return Err(format!(
                    "player {} option tt-mb: {mb} MiB is more than this server gives a \
                     player (at most {} MiB)",
                    spec.name, config.tt_mb
                ))
            }
            // Within the cap, or not a number (which the player's own check reports).
            Some(_) => {}
        }
    }
    Ok(spec)
}

/// The limits a web search runs under: the time asked for, at most
/// [`ServerConfig::max_time`]; the whole cap when only a depth is asked for (the search
/// deepens to that depth within it); [`ServerConfig::default_time`] when neither. A
/// game clock (`clock_ms`) is dropped: each web search has its own time, not a share
/// of a game's.
#[must_use]
pub fn web_limits(limits: SearchLimits, config: &ServerConfig) -> SearchLimits {
    let time = match (limits.time, limits.depth) {
        (Some(time), _) => time,
        (None, Some(_)) => config.max_time,
        (None, None) => config.default_time,
    };
    SearchLimits {
        depth: limits.depth,
        time: Some(time.min(config.max_time)),
        nodes: limits.nodes,
        clock: None,
    }
}

/// Milliseconds of a duration, for answers.
#[must_use]
pub fn millis(time: Duration) -> u64 {
    u64::try_from(time.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> Option<PlayerSpec> {
        Some(text.parse().expect("a spec"))
    }

    #[test]
    fn files_threads_and_banks_are_refused() {
        let config = ServerConfig::default();
        let err = web_spec(spec("greedy:weights=/etc/passwd"), &config).unwrap_err();
        assert!(
            err.starts_with("player option weights is not available over the web: it reads a file"),
            "{err}"
        );
        // Even for a player that would reject it: no file is ever named to the registry.
        assert!(web_spec(spec("random:weights=x"), &config).is_err());
        let err = web_spec(spec("expectimax:network=/etc/passwd"), &config).unwrap_err();
        assert!(err.contains("network is not available over the web: it reads a file"));
        assert!(web_spec(spec("expectimax:threads=4"), &config)
            .unwrap_err()
            .contains("one thread"));
        let expectimax = PLAYERS.iter().find(|p| p.name == "expectimax").unwrap();
        if expectimax.options.iter().any(|(k, _)| *k == "time-bank") {
            assert!(web_spec(spec("expectimax:time-bank=true"), &config)
                .unwrap_err()
                .contains("time limit"));
        }
        // An option a player takes that is not listed for the web is refused.
        let minimax = PLAYERS.iter().find(|p| p.name == "minimax").unwrap();
        for (key, _) in minimax.options {
            let key = key.replace(".NAME", ".x");
            let allowed = WEB_OPTIONS.iter().any(|k| option_matches(k, &key));
            let text = format!("minimax:{key}=1");
            assert_eq!(web_spec(spec(&text), &config).is_ok(), allowed, "{text}");
        }
    }

    #[test]
    fn tables_are_capped() {
        let config = ServerConfig {
            tt_mb: 8,
            ..ServerConfig::default()
        };
        let s = web_spec(None, &config).unwrap();
        assert_eq!(s.to_string(), "expectimax:tt-mb=8");
        let s = web_spec(spec("expectimax:tt-mb=2,depth=3"), &config).unwrap();
        assert_eq!(s.to_string(), "expectimax:tt-mb=2,depth=3");
        let err = web_spec(spec("expectimax:tt-mb=64"), &config).unwrap_err();
        assert_eq!(
            err,
            "player expectimax option tt-mb: 64 MiB is more than this server gives a player (at most 8 MiB)"
        );
        // Players without a table, unknown players and unknown options pass untouched.
        for text in [
            "greedy:eval=snake,w.empty=3",
            "nope:x=1",
            "greedy:bogus=1",
            "mcts:mode=uct",
        ] {
            assert_eq!(web_spec(spec(text), &config).unwrap().to_string(), text);
        }
    }

    #[test]
    fn every_search_has_a_time_limit() {
        let config = ServerConfig::default();
        let cap = config.max_time;
        let l = web_limits(SearchLimits::default(), &config);
        assert_eq!(l.time, Some(config.default_time));
        let l = web_limits(SearchLimits::with_depth(9), &config);
        assert_eq!((l.depth, l.time), (Some(9), Some(cap)));
        let l = web_limits(SearchLimits::with_time(Duration::from_secs(60)), &config);
        assert_eq!(l.time, Some(cap));
        let l = web_limits(SearchLimits::with_time(Duration::from_millis(7)), &config);
        assert_eq!(l.time, Some(Duration::from_millis(7)));
        let clocked = SearchLimits {
            clock: Some(Duration::from_secs(3600)),
            ..SearchLimits::default()
        };
        let l = web_limits(clocked, &config);
        assert_eq!((l.time, l.clock), (Some(config.default_time), None));
    }
}
