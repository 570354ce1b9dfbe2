//! The leaderboard, read page by page, and a player's page.

use super::ranked::plausible_id;
use super::*;

/// The largest `offset` of the leaderboard: deeper pages are read with `after`, whose
/// query starts at its entry instead of reading and skipping every entry before it.
pub const MAX_OFFSET: u64 = 10_000;

/// A page of the leaderboard: its size, where it starts, and whether it holds only
/// games with no AI move.
struct LeaderboardQuery {
    limit: u64,
    start: Start,
    human: bool,
}

/// Where a page of the leaderboard starts.
enum Start {
    /// After this many entries.
    Offset(u64),
    /// After this entry (the last of the page before), of this rank.
    After(u64, After),
}

impl Start {
    /// The rank of the entry before the page's first.
    fn rank(&self) -> u64 {
        match self {
            Start::Offset(offset) => *offset,
            Start::After(rank, _) => *rank,
        }
    }
}

/// The cursor of an entry, `RANK.SCORE.ENDED_AT.GAME`: the `next` of a page, which the
/// client gives back as `after` for the page that follows.
fn cursor(rank: u64, f: &Finished) -> String {
    format!("{rank}.{}.{}.{}", f.score, f.ended_at.unwrap_or(0), f.game)
}

/// The entry a cursor names (see [`cursor`]).
fn parse_cursor(text: &str) -> Option<(u64, After)> {
    let mut parts = text.split('.');
    let rank = parts.next()?.parse().ok()?;
    let score = parts.next()?.parse().ok()?;
    let ended_at = parts.next()?.parse().ok()?;
    let game = parts.next().filter(|id| plausible_id(id))?.to_owned();
    if parts.next().is_some() {
        return None;
    }
    Some((
        rank,
        After {
            score,
            ended_at,
            game,
        },
    ))
}

/// The leaderboard's query: `limit` (1 to 100, 20 when left out), `offset` (0 to
/// [`MAX_OFFSET`]) or `after` (the `next` of the page before), and `human` (true or
/// false).
fn leaderboard_query(uri: &Uri) -> Result<LeaderboardQuery, ApiError> {
    let params = leaderboard_params(uri)?;
    let number = |key: &str, value: &str, min: u64, max: u64| {
        value
            .parse::<u64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "{key}={} is not an integer from {min} to {max}",
                    shorten(value)
                ))
            })
    };
    let limit = match &params.limit {
        Some(value) => number("limit", value, 1, 100)?,
        None => 20,
    };
    let offset = match &params.offset {
        Some(value) => Some(number("offset", value, 0, MAX_OFFSET).map_err(|e| {
            ApiError::bad_request(format!(
                "{}; to read further, give as after= the \"next\" of the page before",
                e.message
            ))
        })?),
        None => None,
    };
    let after = match &params.after {
        Some(value) => Some(parse_cursor(value).ok_or_else(|| {
            ApiError::bad_request(format!(
                "after={} is not a place in the leaderboard: give the \"next\" of the page \
                 before",
                shorten(value)
            ))
        })?),
        None => None,
    };
    let human = match params.human.as_deref() {
        None | Some("false" | "0") => false,
        Some("true" | "1") => true,
        Some(value) => {
            return Err(ApiError::bad_request(format!(
                "human={} must be true or false",
                shorten(value)
            )))
        }
    };
    let start = match (offset, after) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "the leaderboard takes offset or after, not both",
            ))
        }
        (_, Some((rank, after))) => Start::After(rank, after),
        (offset, None) => Start::Offset(offset.unwrap_or(0)),
    };
    Ok(LeaderboardQuery {
        limit,
        start,
        human,
    })
}

fn shorten(text: &str) -> String {
    let value = quote(&Value::from(text));
    value.trim_matches('"').to_owned()
}

fn finished_json(f: &Finished) -> Value {
    json!({
        "game": f.game,
        "name": f.name,
        "score": f.score,
        "max_tile": f.max_tile,
        "moves": f.moves,
        "ai_moves": f.ai_moves,
        "over": f.over,
        "started_at": rfc3339(f.started_at),
        "ended_at": f.ended_at.map(rfc3339),
    })
}

/// `GET /api/leaderboard?limit=N&offset=K&human=true`, or `after=CURSOR` instead of
/// `offset`: `{"entries": [...], "next": CURSOR}`, `next` null on the last page.
/// `human=true` keeps the games whose client marked no move `ai`: the client's word,
/// which the server cannot check (it referees each move, not who chose it).
pub async fn leaderboard(State(app): State<AppState>, uri: Uri) -> Reply {
    let scores = scores(&app)?;
    let query = leaderboard_query(&uri)?;
    scores.sweep().await?;
    let (offset, after) = match &query.start {
        Start::Offset(offset) => (*offset, None),
        Start::After(_, after) => (0, Some(after)),
    };
    let games = scores
        .db
        .leaderboard(query.limit, offset, after, query.human)
        .await?;
    let first = query.start.rank() + 1;
    let entries: Vec<Value> = games
        .iter()
        .zip(first..)
        .map(|(f, rank)| {
            json!({
                "rank": rank,
                "name": f.name,
                "score": f.score,
                "max_tile": f.max_tile,
                "moves": f.moves,
                "ai_moves": f.ai_moves,
                "ended_at": f.ended_at.map(rfc3339),
                "game": f.game,
            })
        })
        .collect();
    let next = match games.last() {
        Some(last) if games.len() as u64 == query.limit => {
            Value::from(cursor(first + query.limit - 1, last))
        }
        _ => Value::Null,
    };
    Ok(ok(&json!({"entries": entries, "next": next})))
}

/// `GET /api/players/NAME`: the best score, the games played and the recent games.
pub async fn show_player(State(app): State<AppState>, Segment(name): Segment) -> Reply {
    let scores = scores(&app)?;
    scores.sweep().await?;
    let found = if check_name(&name).is_ok() {
        scores.db.player(&name_key(&name), 10).await?
    } else {
        None
    };
    let Some((name, best, played, recent)) = found else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no player named {}", quote(&Value::from(name.as_str()))),
        ));
    };
    let recent: Vec<Value> = recent.iter().map(finished_json).collect();
    Ok(ok(&json!({
        "name": name,
        "best_score": best,
        "games_played": played,
        "recent": recent,
    })))
}
