//! The ranked games the server referees: a move, the end of a game, a game and its
//! replay.

use super::*;

/// Whether `id` can be a game's id (20 hexadecimal digits), so that others are not
/// looked up.
pub(super) fn plausible_id(id: &str) -> bool {
    id.len() == 20 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

fn no_game(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no ranked game {}", quote(&Value::from(id))),
    )
}

/// The game `id`, ended first if it has been left alone for too long.
async fn load_game(scores: &Scores, id: &str) -> Result<GameRow, ApiError> {
    if !plausible_id(id) {
        return Err(no_game(id));
    }
    let game = scores.db.game(id).await?.ok_or_else(|| no_game(id))?;
    let idle_ms = scores.idle_ms();
    let now = now_ms();
    if !game.over && now.saturating_sub(game.last_move_at) >= idle_ms {
        scores
            .db
            .end_abandoned(now - idle_ms + 1, idle_ms, Some(id))
            .await?;
        return scores.db.game(id).await?.ok_or_else(|| no_game(id));
    }
    Ok(game)
}

/// Where the spawns of `game` come from: its key, or (the games of schema 2 and
/// before) its seed, one generator a turn.
fn spawn_stream(game: &GameRow) -> SpawnStream {
    game.spawn_key
        .map_or(SpawnStream::PerTurn, SpawnStream::Keyed)
}

/// The move `dir` at turn `turn` of `game`, as [`Game::try_play`] plays it in the
/// game's spawn stream: the board after it and its spawn, its points and the spawn.
/// `None` when the move changes nothing.
fn play_ranked(game: &GameRow, dir: Dir, turn: u64) -> Option<(Board, u32, Spawn)> {
    let Some(key) = game.spawn_key else {
        return play_turn(game.board, dir, game.seed, turn);
    };
    let (moved, points) = PlayableBoard::new(game.board).apply_scored(dir)?;
    let mut draws = KeyedRng::after_turn(&key, turn);
    let (after, spawn) = moved.with_random_tile_from(&mut draws, Rules::ORIGINAL.four_probability);
    Some((after.board(), points, spawn))
}

/// The game as it stands; with its spawn key (or seed) and moves once it is over.
fn game_json(game: &GameRow, moves: Option<&[MoveRow]>) -> Value {
    let mut value = json!({
        "id": game.id,
        "player": game.player,
        "board": board_to_json(game.board),
        "score": game.score,
        "turn": game.turn,
        "over": game.over,
        "max_tile": game.max_tile,
        "ai_moves": game.ai_moves,
        "started_at": rfc3339(game.started_at),
    });
    if game.over {
        value["ended_at"] = game.ended_at.map(rfc3339).into();
        value["end"] = game.end_reason.clone().into();
        match game.spawn_key {
            Some(key) => value["spawn_key"] = key.to_hex().into(),
            None => value["seed"] = game.seed.into(),
        }
        if let Some(moves) = moves {
            let list: Vec<Value> = moves
                .iter()
                .map(|m| {
                    let dir = letter_dir(m.dir).map_or("?", Dir::name);
                    json!({"dir": dir, "ai": m.ai, "spawn": {"cell": m.spawn_cell, "tile": m.spawn_tile}})
                })
                .collect();
            value["moves"] = list.into();
        }
    }
    value
}

fn letter_dir(letter: char) -> Option<Dir> {
    Dir::ALL.into_iter().find(|d| d.letter() == letter)
}

fn conflict(message: String, game: &GameRow) -> ApiError {
    let mut fields = Map::new();
    fields.insert("game".to_owned(), game_json(game, None));
    ApiError::new(StatusCode::CONFLICT, message).with_fields(fields)
}

/// The stored answer to the game's last move, when `(dir, turn, ai)` is that move
/// sent again.
fn retried(game: &GameRow, dir: Dir, turn: u64, ai: bool) -> Option<Response> {
    if turn.checked_add(1) != Some(game.turn) {
        return None;
    }
    let answer = game.last_answer.as_deref()?;
    let value: Value = serde_json::from_str(answer).ok()?;
    (value["dir"] == dir.name() && value["ai"] == ai)
        .then(|| json_response(StatusCode::OK, answer.to_owned()))
}

/// `POST /api/ranked/G/move`: `{"dir": D, "turn": T, "ai": bool}`.
pub async fn play(
    State(app): State<AppState>,
    OwnGame { scores, game }: OwnGame,
    headers: HeaderMap,
    body: Body,
) -> Reply {
    let scores = &*scores;
    let id = game.id.clone();
    let MoveRequest {
        dir: Direction(dir),
        turn: SafeInteger(turn),
        ai,
    } = json_body(&app, &headers, body).await?;
    let ai = ai.unwrap_or(false);
    if let Some(answer) = retried(&game, dir, turn, ai) {
        return Ok(answer);
    }
    check_playable(&game, turn)?;
    let now = now_ms();
    let Some((board, points, spawn)) = play_ranked(&game, dir, turn) else {
        return Ok(ok(&json!({
            "board": board_to_json(game.board),
            "score": game.score,
            "turn": game.turn,
            "moved": false,
            "spawn": null,
            "over": game.over,
            "points": 0,
            "motions": [],
            "dir": dir.name(),
            "ai": ai,
        })));
    };
    let over = board.is_over();
    let answer = json!({
        "board": board_to_json(board),
        "score": game.score + u64::from(points),
        "turn": turn + 1,
        "moved": true,
        "spawn": spawn_json(spawn),
        "over": over,
        "points": points,
        "motions": motions_json(game.board, dir),
        "dir": dir.name(),
        "ai": ai,
    })
    .to_string();
    let update = MoveUpdate {
        board,
        points: u64::from(points),
        row: MoveRow {
            turn,
            dir: dir.letter(),
            ai,
            spawn_cell: spawn.cell,
            spawn_tile: spawn.tile(),
        },
        over,
        at: now,
        answer: answer.clone(),
    };
    if scores.db.play(&id, turn, &update).await? {
        return Ok(json_response(StatusCode::OK, answer));
    }
    // Another request played this turn first (or the game just ended).
    let game = load_game(scores, &id).await?;
    if let Some(answer) = retried(&game, dir, turn, ai) {
        return Ok(answer);
    }
    check_playable(&game, turn)?;
    Err(conflict(
        "the game changed while this move was played; try again".to_owned(),
        &game,
    ))
}

fn check_playable(game: &GameRow, turn: u64) -> Result<(), ApiError> {
    if game.over {
        let why = match game.end_reason.as_deref() {
            Some("abandoned") => "it was abandoned (no move for too long)",
            Some("resigned") => "its player ended it",
            _ => "no move is left",
        };
        return Err(conflict(format!("the game is over: {why}"), game));
    }
    if turn != game.turn {
        return Err(conflict(
            format!(
                "\"turn\" is {turn}, but the game is at turn {}: send the game's turn now",
                game.turn
            ),
            game,
        ));
    }
    Ok(())
}

/// `POST /api/ranked/G/end`: the player ends their game as it stands (it counts, as
/// an abandoned game does); the game once over, as `GET /api/ranked/G` shows it. A
/// game over already is shown as it is, so that the request may be sent again.
pub async fn end_game(
    State(app): State<AppState>,
    OwnGame { scores, game }: OwnGame,
    request: axum::extract::Request,
) -> Reply {
    let (parts, body) = request.into_parts();
    let EndRequest {} = json_body(&app, &parts.headers, body).await?;
    if !game.over {
        scores.db.end_game(&game.id, now_ms()).await?;
    }
    show_game(State(app), Segment(game.id)).await
}

/// The game of the path, for a request that plays or ends it: the client's allowance
/// for moves counted, and the request's token its player's (401 for no token or one
/// no player has, 403 for another player's, 404 for no such game).
pub struct OwnGame {
    scores: Arc<Scores>,
    game: GameRow,
}

impl FromRequestParts<AppState> for OwnGame {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<OwnGame, ApiError> {
        let Segment(id) = Segment::from_request_parts(parts, app).await?;
        let client: Client = parts.extensions.get::<ClientAddr>().copied().map(Extension);
        let scores = Arc::clone(limited(app, Action::Move, &client)?);
        let hash = bearer_hash(&parts.headers)?;
        let game = load_game(&scores, &id).await?;
        if game.token_hash == hash {
            return Ok(OwnGame { scores, game });
        }
        Err(match scores.db.player_by_token(&hash).await? {
            None => unauthorized("unknown token: no player has it"),
            Some(_) => ApiError::new(
                StatusCode::FORBIDDEN,
                format!("game {id} is not yours: it is {}'s", game.player),
            ),
        })
    }
}

/// `GET /api/ranked/G`; a finished game's answer is kept (see [`Kept`]).
pub async fn show_game(State(app): State<AppState>, Segment(id): Segment) -> Reply {
    let scores = scores(&app)?;
    if let Some(body) = scores.finished.get(&id, Kept::Game) {
        return Ok(json_response(StatusCode::OK, body));
    }
    let game = load_game(scores, &id).await?;
    if !game.over {
        return Ok(ok(&game_json(&game, None)));
    }
    let moves = scores.db.moves(&id).await?;
    let body = Bytes::from(game_json(&game, Some(&moves)).to_string());
    scores.finished.insert(&id, Kept::Game, body.clone());
    Ok(json_response(StatusCode::OK, body))
}

/// `GET /api/ranked/G/replay`: the finished game in the replay format of
/// `ai2048 replay`, checked before it is first sent, then kept (see [`Kept`]).
pub async fn replay(State(app): State<AppState>, Segment(id): Segment) -> Reply {
    let scores = scores(&app)?;
    let text = match scores.finished.get(&id, Kept::Replay) {
        Some(text) => text,
        None => {
            let game = load_game(scores, &id).await?;
            if !game.over {
                return Err(conflict(
                    "the game is still being played: its replay is given once it is over"
                        .to_owned(),
                    &game,
                ));
            }
            let moves = scores.db.moves(&id).await?;
            let replay = stored_replay(&game, &moves).map_err(internal)?;
            let text = Bytes::from(replay.to_string());
            scores.finished.insert(&id, Kept::Replay, text.clone());
            text
        }
    };
    let mut response = (StatusCode::OK, text).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if let Ok(value) = HeaderValue::from_str(&format!("inline; filename=\"ai2048-{id}.replay\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// The replay of a stored game, verified: its key's (or seed's) start, its stored
/// moves and spawns, and its stored score and board must all replay.
///
/// # Errors
///
/// When they do not (a stored game that its own key or seed does not give).
fn stored_replay(game: &GameRow, moves: &[MoveRow]) -> Result<Replay, String> {
    let start = Game::with_spawns(game.seed, Rules::ORIGINAL, spawn_stream(game))
        .map_err(|e| e.to_string())?;
    let mut turns = Vec::with_capacity(moves.len());
    for (n, m) in moves.iter().enumerate() {
        let dir = letter_dir(m.dir).ok_or_else(|| format!("stored move {n} has no direction"))?;
        let exponent = match m.spawn_tile {
            2 => 1,
            4 => 2,
            t => return Err(format!("stored move {n} spawned a {t}")),
        };
        if m.turn != n as u64 {
            return Err(format!("stored move {n} is numbered {}", m.turn));
        }
        turns.push((
            dir,
            Some(Spawn {
                cell: m.spawn_cell,
                exponent,
            }),
        ));
    }
    let replay = Replay {
        seed: game.seed,
        rules: Rules::ORIGINAL,
        spawns: spawn_stream(game),
        origin: None,
        start: start.start_spawns().to_vec(),
        turns,
        score: game.score,
        board: game.board,
    };
    replay
        .verify()
        .map_err(|e| format!("game {} does not replay: {e}", game.id))?;
    Ok(replay)
}
