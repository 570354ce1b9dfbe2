"""ai2048.bench: the statistics of `ai2048 bench --json`, seeded, with its errors."""

import pytest

from ai2048 import Board, Game, Player, bench, derive_seed

KEYS = {
    "games", "mean_score", "median_score", "max_score", "min_score", "max_tile", "mean_moves",
    "total_moves", "moves_per_sec", "ms_per_move_mean", "ms_per_move_max", "nodes_per_sec",
    "mean_depth", "table_answers", "table_moves", "timeouts", "reach", "reach_ci", "requested_games", "interrupted", "config", "runs",
}


def test_the_document_of_the_cli():
    stats = bench("greedy", games=6, seed=3, jobs=2)
    assert set(stats) == KEYS
    assert stats["games"] == stats["requested_games"] == 6
    assert not stats["interrupted"]
    runs = stats["runs"]
    assert [r["index"] for r in runs] == list(range(6))
    assert [r["seed"] for r in runs] == [derive_seed(3, i) for i in range(6)]
    scores = sorted(r["score"] for r in runs)
    assert stats["min_score"] == scores[0] and stats["max_score"] == scores[-1]
    assert stats["mean_score"] == pytest.approx(sum(scores) / 6)
    assert stats["max_tile"] == max(r["max_tile"] for r in runs)
    # Greedy searches every move one ply deep.
    assert all(r["searches"] == r["moves"] == r["depth_sum"] for r in runs)
    assert stats["mean_depth"] == 1.0
    # Each record keeps the board its game ended on, as Board reads it.
    assert all(Board(r["board"]).max_tile == r["max_tile"] for r in runs)
    for tile, share in stats["reach"].items():
        assert share == sum(r["max_tile"] >= int(tile) for r in runs) / 6
        low, high = stats["reach_ci"][tile]
        assert low <= share <= high
    assert stats["config"] == {
        "ai": "greedy", "depth": None, "time_ms": None, "seed": 3, "games": 6,
        "first_game": 0, "jobs": 2, "timeout": None,
        "rules": {"start_tiles": 2, "four_probability": 0.1, "illegal_move_spawns": False},
    }


def test_a_run_in_parts_plays_the_games_of_the_whole():
    whole = bench("greedy", games=5, seed=2, jobs=2)
    head = bench("greedy", games=2, seed=2, jobs=1)
    tail = bench("greedy", games=3, first_game=2, seed=2, jobs=2)
    assert tail["config"]["first_game"] == 2
    assert [r["index"] for r in tail["runs"]] == [2, 3, 4]
    outcome = lambda s: [(r["index"], r["score"], r["moves"]) for r in s["runs"]]  # noqa: E731
    assert outcome(head) + outcome(tail) == outcome(whole)


def test_same_seed_same_games_whatever_the_jobs():
    a = bench("expectimax", games=3, seed=5, jobs=1, depth=0, tt_mb=1)
    b = bench("expectimax:tt-mb=1", games=3, seed=5, jobs=3, depth=0)
    outcome = lambda s: [(r["score"], r["moves"], r["max_tile"]) for r in s["runs"]]  # noqa: E731
    assert outcome(a) == outcome(b)
    assert a["config"]["ai"] == b["config"]["ai"] == "expectimax:tt-mb=1"
    assert a["config"]["depth"] == 0


def test_a_game_replays_from_its_seed():
    """Game i is played from derive_seed(seed, i) by a player seeded the same way."""
    stats = bench("random", games=2, seed=9, jobs=1)
    run = stats["runs"][1]
    game = Game(seed=run["seed"])
    player = Player("random", seed=run["seed"])
    while not game.is_over:
        game.play(player.best_move(game.board).direction)
    assert (game.score, game.moves, game.max_tile) == (run["score"], run["moves"], run["max_tile"])


def test_rules_limits_and_timeouts_reach_the_games():
    stats = bench(
        "expectimax", games=2, seed=1, jobs=2, time_ms=0.5, timeout=0.05,
        start_tiles=1, p4=0.5, illegal_move_spawns=True,
    )
    assert stats["config"]["time_ms"] == 0.5
    assert stats["config"]["timeout"] == 0.05
    assert stats["config"]["rules"] == {
        "start_tiles": 1, "four_probability": 0.5, "illegal_move_spawns": True,
    }
    assert stats["timeouts"] == 2
    assert all(r["timed_out"] for r in stats["runs"])


def test_games_from_a_position_stop_at_the_tile_asked_for():
    start = "256 128 64 32/16 8 4 2/0 0 0 0/0 0 0 2"
    stats = bench("greedy", games=6, jobs=2, start=start, until=512)
    assert stats["config"]["from"] == "8765432100000001"
    assert stats["config"]["until"] == 512
    assert all(256 <= r["max_tile"] <= 512 for r in stats["runs"])
    # A game replays from the same position, and stops where 512 first stands.
    run = stats["runs"][0]
    game = Game.from_board(Board(start), seed=run["seed"])
    player = Player("greedy", seed=run["seed"])
    while not game.is_over and game.max_tile < 512:
        game.play(player.best_move(game.board).direction)
    assert (game.score, game.moves) == (run["score"], run["moves"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ai": "nope"}, 'unknown player "nope"'),
        ({"ai": "greedy", "depth_x": 1}, 'player greedy has no option "depth-x"'),
        ({"games": 0}, "games must be at least 1"),
        ({"first_game": 2**63}, "past the last game index"),
        ({"jobs": 0}, "jobs must be at least 1"),
        ({"timeout": 0}, "timeout must be a positive number of seconds, not 0"),
        ({"timeout": float("nan")}, "timeout must be a positive number"),
        ({"timeout": 1e300}, "is too large"),
        ({"depth": 21}, "depth 21 is above 20"),
        ({"time_ms": -1}, "time_ms must be"),
        ({"p4": 2}, "the probability of a 4 must be from 0 to 1"),
        ({"start_tiles": 0}, "start tiles must be from 1 to 16"),
        ({"start": "2 4 8"}, "row"),
        ({"start": "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2"}, "has no move left"),
        ({"until": 100}, "until 100: not a tile"),
    ],
)
def test_bad_arguments(kwargs, message):
    kwargs = {"ai": "greedy", "games": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        bench(kwargs.pop("ai"), **kwargs)


def test_ctrl_c_stops_the_games_and_raises_keyboard_interrupt():
    import signal
    import subprocess
    import sys
    import time

    code = (
        # Python keeps SIGINT ignored when it starts with it ignored (a background job
        # of a script): the child takes Ctrl-C as a terminal gives it.
        "import signal\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import ai2048, sys\n"
        "print('started', flush=True)\n"
        "try:\n"
        "    ai2048.bench('expectimax', games=10000, jobs=1, time_ms=5)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(0)\n"
        "print('finished')\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert out.strip() == "interrupted"
    assert proc.returncode == 0


def test_should_stop_returns_the_finished_games_marked_interrupted():
    import time

    # Asked to stop once the first games are in: those come back, the rest do not.
    start = time.monotonic()
    run = bench(
        "greedy", games=100000, jobs=1, seed=3, should_stop=lambda: time.monotonic() - start > 0.3
    )
    assert run["interrupted"] is True
    assert run["requested_games"] == 100000
    assert 1 <= run["games"] < 100000
    assert [r["index"] for r in run["runs"]] == list(range(run["games"]))
    # Each is the game the whole run plays at its index.
    last = run["runs"][-1]
    alone = bench("greedy", games=1, first_game=last["index"], jobs=1, seed=3)
    assert alone["runs"][0]["score"] == last["score"]
    # Never asked, the run is whole.
    whole = bench("greedy", games=3, jobs=1, should_stop=lambda: False)
    assert whole["interrupted"] is False and whole["games"] == 3


def test_an_error_in_should_stop_stops_the_games_and_is_raised():
    def broken():
        raise RuntimeError("the flag is unreadable")

    with pytest.raises(RuntimeError, match="the flag is unreadable"):
        bench("greedy", games=100000, jobs=1, should_stop=broken)
