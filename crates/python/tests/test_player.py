"""ai2048.Player, SearchResult and players(): names, options, limits, errors, the GIL."""

import threading
import time

import pytest

from ai2048 import DEFAULT_PLAYER, Board, Direction, Game, Player, Table, players

BOARD = Board([[2, 2, 4, 8], [0, 0, 0, 16], [0, 0, 0, 0], [0, 0, 0, 2]])
FULL = Board([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])


@pytest.mark.parametrize("name", ["expectimax", "minimax", "mcts", "replica", "greedy", "random"])
def test_every_player_picks_a_legal_move(name):
    player = Player(name, depth=1) if name in ("expectimax", "minimax") else Player(name)
    if name == "mcts":
        player = Player("mcts", playouts=5)
    result = player.best_move(BOARD)
    assert isinstance(result.direction, Direction)
    assert result.direction in BOARD.legal_moves()
    assert player.best_move(FULL).direction is None
    assert player.name == name


def test_result_fields_and_unpacking():
    result = Player("expectimax", depth=2).best_move(BOARD)
    direction, value = result
    assert (direction, value) == (result.direction, result.value)
    assert len(result) == 2
    assert set(result.values) == set(BOARD.legal_moves())
    assert result.values[result.direction] == max(result.values.values())
    assert result.value == result.values[result.direction]
    assert result.depth == 2
    assert result.nodes > 0
    assert result.time_ms >= 0
    assert result.table is None  # no endgame table holds this board
    assert result.table_name is None
    assert repr(result).startswith("SearchResult(direction='")


def test_limits_per_player_and_per_call():
    player = Player("expectimax", depth=1)
    assert player.depth == 1 and player.time_ms is None
    assert player.best_move(BOARD).depth == 1
    assert player.best_move(BOARD, depth=3).depth == 3
    deeper = player.best_move(BOARD, depth=3).nodes
    assert deeper > player.best_move(BOARD, depth=1).nodes
    timed = Player("expectimax", time_ms=2)
    assert timed.time_ms == 2
    assert timed.best_move(BOARD).direction is not None
    assert timed.best_move(BOARD.to_list(), time_ms=1).direction is not None
    assert timed.best_move(BOARD.to_hex()).direction is not None


def test_a_game_clock_sets_the_time_of_a_move():
    player = Player("expectimax", tt_mb=1)
    # An hour left: this move's share (about 260 ms) searches deeper than the first
    # layer, up to the board's adaptive depth (3; how far it gets in that time
    # depends on the machine and its load, so the test asks less).
    long = player.best_move(BOARD, clock_ms=3_600_000)
    assert 2 <= long.depth <= 3
    # A millisecond left: no time to search past the first layer.
    short = player.best_move(BOARD, clock_ms=1)
    assert short.depth <= 1 and short.nodes < long.nodes
    # A depth wins over the clock.
    assert player.best_move(BOARD, clock_ms=1, depth=2).depth == 2
    for bad in (-1, float("nan"), 1e12):
        with pytest.raises(ValueError, match="clock_ms must be a number of milliseconds"):
            player.best_move(BOARD, clock_ms=bad)


def test_options_as_spec_or_keywords():
    a = Player("expectimax:tt-mb=1,eval=snake", depth=1)
    b = Player("expectimax", depth=1, tt_mb=1, eval="snake")
    assert a.spec == b.spec == "expectimax:tt-mb=1,eval=snake"
    assert a.best_move(BOARD).direction == b.best_move(BOARD).direction
    c = Player("expectimax", learn_p4=True, threads=2, **{"w.empty": 100.5})
    assert c.spec == "expectimax:learn-p4=true,w.empty=100.5,threads=2"
    assert repr(c) == "Player('expectimax:learn-p4=true,w.empty=100.5,threads=2')"
    assert Player().name == DEFAULT_PLAYER == "expectimax"


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("nope",), {}, 'unknown player "nope": expected one of expectimax, minimax, mcts, replica, greedy, random'),
        (("expectimax:foo=1",), {}, 'player expectimax has no option "foo": expected one of depth'),
        (("random",), {"depth_limit": 3}, 'player random has no option "depth-limit" \\(it takes none\\)'),
        (("expectimax",), {"tt_mb": "lots"}, 'player expectimax option tt-mb: "lots" is not a size in MiB'),
        (("expectimax",), {"eval": "magic"}, "player expectimax option eval"),
        (("greedy:depth",), {}, 'player option "depth" is not KEY=VALUE'),
        (("",), {}, "empty player name"),
        (("expectimax",), {"depth": 21}, "depth 21 is above 20"),
        (("expectimax",), {"time_ms": 0}, "time_ms must be a number of milliseconds above 0"),
        (("expectimax",), {"time_ms": -5}, "time_ms must be"),
        (("expectimax",), {"nodes": 0}, "nodes must be at least 1"),
        (("expectimax",), {"threads": 0}, "player expectimax option threads: 0 is not from 1 to 256"),
        (("expectimax",), {"prune": [1]}, "player option prune: expected a string, a number or a bool"),
    ],
)
def test_unknown_players_and_options_raise_the_rust_message(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        Player(*args, **kwargs)


def test_bad_search_arguments():
    player = Player("greedy")
    with pytest.raises(ValueError, match="depth 50 is above 20"):
        player.best_move(BOARD, depth=50)
    with pytest.raises(ValueError, match="row 1, column 1"):
        player.best_move([[3, 0, 0, 0]] + [[0] * 4] * 3)


def test_a_player_plays_a_whole_game():
    game = Game(seed=12)
    player = Player("expectimax", depth=0)
    while not game.is_over:
        game.play(player.best_move(game.board).direction)
    assert game.max_tile >= 256
    player.new_game()


def test_searches_release_the_gil():
    """A search on one thread leaves Python free to run on another."""
    player = Player("expectimax", time_ms=300)
    ticks = 0
    done = threading.Event()

    def search():
        player.best_move(Board("2 4 8 16 / 32 64 128 256 / 0 0 0 0 / 0 0 0 2"), time_ms=300)
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    thread.join()
    # With the GIL held for 300 ms this loop could not have run more than once or twice.
    assert ticks >= 20


def test_players_catalogue():
    catalogue = players()
    assert [p["name"] for p in catalogue] == ["expectimax", "minimax", "mcts", "replica", "greedy", "random"]
    expectimax = catalogue[0]
    assert "tt-mb" in expectimax["options"]
    assert "transposition" in expectimax["options"]["tt-mb"]
    assert catalogue[-1]["options"] == {}
    assert all(p["about"] for p in catalogue)


def test_a_table_that_answers_is_named(tmp_path):
    # The two 8s make the 16 below the chain's 16: the table's move is left, far ahead.
    Table.build("xxxx/xxxx/t.../....", 16, tmp_path / "snake8-16.table")
    player = Player("expectimax", depth=1, tables=str(tmp_path), tables_slack=0)
    result = player.best_move(Board.parse("16384 8192 4096 2048/16 32 64 128/8 8 0 0/0 0 0 0"))
    assert (result.direction, result.table) == (Direction.LEFT, "decided")
    assert result.table_name == "snake8-16"
    assert result.table_keeps_odds and any(0 < v < 1 for v in result.values.values())
    assert player.best_move(BOARD).table_name is None  # no chain ends in the target


def test_a_table_of_moves_keeps_no_odds(tmp_path):
    Table.build("xxxx/xxxx/t.../....", 16, tmp_path / "snake8-16.table", encoding="moves")
    player = Player("expectimax", depth=1, tables=str(tmp_path), tables_slack=0)
    result = player.best_move(Board.parse("16384 8192 4096 2048/16 32 64 128/8 8 0 0/0 0 0 0"))
    assert (result.direction, result.table, result.table_name) == (Direction.LEFT, "decided", "snake8-16")
    assert not result.table_keeps_odds
    assert result.value == 1.0 and set(result.values.values()) <= {0.0, 1.0}
    with pytest.raises(ValueError, match="moves"):
        Table.build("xxxx/xxxx/t.../....", 16, tmp_path / "x.table", encoding="bits")
