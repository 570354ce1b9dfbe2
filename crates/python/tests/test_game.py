"""ai2048.Game and ai2048.Turn: seeded play, rules, undo, replays, errors."""

import copy

import pytest

from ai2048 import Board, Direction, Game, GameOverError, IllegalMoveError


def play_some(game: Game, moves: int) -> None:
    for _ in range(moves):
        legal = game.board.legal_moves()
        if not legal:
            break
        game.play(legal[0])


def test_same_seed_same_game():
    a, b = Game(seed=7), Game(seed=7)
    assert a.board == b.board
    for direction in ["left", "up", "right", "down"] * 5:
        if a.board.can_move(direction):
            assert a.play(direction).spawn == b.play(direction).spawn
    assert a.board == b.board and a.score == b.score
    assert Game(seed=8).board != Game(seed=7).board or Game(seed=9).board != Game(seed=7).board


def test_start_and_rules():
    game = Game(seed=1)
    assert game.board.empty_count == 14
    assert game.moves == 0 and game.score == 0 and not game.is_over
    assert (game.seed, game.start_tiles, game.p4, game.illegal_move_spawns) == (1, 2, 0.1, False)
    assert Game(seed=1, start_tiles=1).board.empty_count == 15
    assert Game(seed=1, start_tiles=16, p4=0.0).board.empty_count == 0
    assert Game(seed=1, p4=1.0).board.max_tile == 4
    fresh = Game()
    assert 0 <= fresh.seed < 2**64
    assert Game(seed=fresh.seed).board == fresh.board


def test_play_returns_turns_and_scores():
    game = Game(seed=3)
    before = game.board
    direction = before.legal_moves()[0]
    turn = game.play(direction)
    assert turn.direction == direction
    assert isinstance(turn.direction, Direction)
    assert turn.moved
    moved, score = before.move_scored(direction)
    assert turn.score == score
    row, col, tile = turn.spawn
    assert moved[row, col] == 0 and game.board[row, col] == tile and tile in (2, 4)
    assert game.board == moved.with_tile(row, col, tile)
    assert game.moves == 1 and game.score == score
    assert game.turns[0].spawn == turn.spawn
    assert "Turn(direction=" in repr(turn)


def test_illegal_moves_are_refused_or_spawn_by_the_rules():
    corner = "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"
    game = next(g for g in map(Game, range(100)) if len(g.board.legal_moves()) < 4)
    illegal = [d for d in Direction if not game.board.can_move(d)]
    board = game.board
    with pytest.raises(IllegalMoveError, match="changes nothing"):
        game.play(illegal[0])
    assert game.board == board and game.moves == 0
    # Under the UCSB grader's rules, an illegal move still spawns.
    ucsb = next(
        g
        for g in (Game(seed=s, illegal_move_spawns=True) for s in range(100))
        if len(g.board.legal_moves()) < 4
    )
    board = ucsb.board
    stuck = next(d for d in Direction if not board.can_move(d))
    turn = ucsb.play(stuck)
    assert not turn.moved and turn.score == 0 and turn.spawn is not None
    assert ucsb.board.empty_count == board.empty_count - 1
    assert isinstance(IllegalMoveError("x"), ValueError)
    assert Board(corner).legal_moves() == [Direction.DOWN, Direction.RIGHT]


def test_game_over():
    game = Game(seed=11)
    while not game.is_over:
        game.play(game.board.legal_moves()[0])
    assert game.board.is_over
    with pytest.raises(GameOverError, match="over"):
        game.play("up")


def test_undo_rewinds_the_generator():
    game = Game(seed=4)
    play_some(game, 10)
    board, score, moves = game.board, game.score, game.moves
    direction = board.legal_moves()[0]
    turn = game.play(direction)
    undone = game.undo()
    assert undone.spawn == turn.spawn and undone.direction == turn.direction
    assert (game.board, game.score, game.moves) == (board, score, moves)
    assert game.play(direction).spawn == turn.spawn
    assert Game(seed=4).undo() is None


def test_replay_text_round_trips_and_is_checked():
    game = Game(seed=9, p4=0.2)
    play_some(game, 30)
    text = game.replay
    assert text.startswith("ai2048-replay 1\nseed 9\n")
    again = Game.from_replay(text)
    assert (again.board, again.score, again.moves, again.p4) == (game.board, game.score, game.moves, 0.2)
    tampered = text.replace(f"score={game.score}", f"score={game.score + 2}")
    with pytest.raises(ValueError, match="invalid replay: .*score"):
        Game.from_replay(tampered)
    with pytest.raises(ValueError, match="invalid replay"):
        Game.from_replay("not a replay")


def test_copies_are_independent():
    game = Game(seed=6)
    play_some(game, 5)
    clone = game.copy()
    for other in (clone, copy.copy(game), copy.deepcopy(game)):
        assert other.board == game.board and other.score == game.score
    direction = game.board.legal_moves()[0]
    game.play(direction)
    assert clone.moves == game.moves - 1
    assert clone.play(direction).spawn == game.turns[-1].spawn
    assert repr(game).startswith("Game(seed=6, moves=6")
    assert str(game) == str(game.board)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"start_tiles": 0}, "start tiles must be from 1 to 16, not 0"),
        ({"start_tiles": 17}, "start tiles must be from 1 to 16, not 17"),
        ({"start_tiles": 300}, "start tiles must be from 1 to 16, not 300"),
        ({"p4": 1.5}, "the probability of a 4 must be from 0 to 1, not 1.5"),
        ({"p4": float("nan")}, "the probability of a 4"),
        ({"seed": -1}, "seed must be an integer from 0 to 2\\*\\*64 - 1, not -1"),
        ({"seed": 2**64}, "seed must be an integer"),
        ({"seed": "x"}, "seed must be an integer"),
    ],
)
def test_invalid_rules(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Game(**kwargs)


def test_invalid_directions():
    game = Game(seed=1)
    with pytest.raises(ValueError, match="unknown direction"):
        game.play("north")
    with pytest.raises(ValueError, match="not a move code"):
        game.play(7)
