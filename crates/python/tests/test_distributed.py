"""ai2048.distributed on a local Ray cluster of 2 CPUs: sharded runs are the whole run."""

from __future__ import annotations

import json

import pytest

import ai2048
from ai2048.distributed import bench, merge_runs, slices, sweep

ray = pytest.importorskip("ray")

# Quick games: the greedy player, on the hand-made evaluation.
SETTINGS = {"ai": "greedy:eval=simple", "seed": 4}


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def outcomes(run: dict) -> list[tuple]:
    """The games, timings aside."""
    return [
        (r["index"], r["seed"], r["score"], r["max_tile"], r["moves"], r["timed_out"])
        for r in run["runs"]
    ]


def same_run(a: dict, b: dict) -> None:
    assert outcomes(a) == outcomes(b)
    for key in ("games", "mean_score", "median_score", "max_tile", "reach", "reach_ci"):
        assert a[key] == b[key], key
    assert a["interrupted"] == b["interrupted"] is False


def test_slices_cover_the_run_evenly():
    assert slices(5, 10, 3) == [(5, 4), (9, 3), (12, 3)]
    assert slices(0, 2, 8) == [(0, 1), (1, 1)]
    with pytest.raises(ValueError, match="shards must be at least 1"):
        slices(0, 2, 0)


def test_a_sharded_run_is_the_whole_run(cluster):
    whole = ai2048.bench(SETTINGS["ai"], games=12, seed=4)
    sharded = bench(SETTINGS["ai"], games=12, seed=4, shards=3, progress=False)
    same_run(sharded, whole)
    assert sharded["config"]["first_game"] == 0
    # A slice of the run, in more shards than CPUs.
    part = bench(SETTINGS["ai"], games=5, first_game=7, seed=4, shards=5, progress=False)
    assert outcomes(part) == outcomes(whole)[7:12]
    # By default a task takes the machine's 2 CPUs, and plays its games 2 at once.
    default = bench(SETTINGS["ai"], games=12, seed=4, progress=False)
    same_run(default, whole)
    assert default["config"]["jobs"] == 2


def test_the_module_examples_hold():
    import doctest

    import ai2048.distributed

    assert doctest.testmod(ai2048.distributed).failed == 0


def test_a_task_whose_worker_dies_is_retried(cluster, tmp_path):
    whole = ai2048.bench(SETTINGS["ai"], games=6, seed=4)
    marker = tmp_path / "killed-once"
    run = bench(
        SETTINGS["ai"], games=6, seed=4, shards=3, progress=False, _fail_once=str(marker)
    )
    assert marker.exists(), "a worker died"
    same_run(run, whole)


def test_bad_settings_raise_the_libraries_error(cluster):
    with pytest.raises(ValueError, match='unknown player "nope"'):
        bench("nope", games=2, shards=2, progress=False)
    with pytest.raises(ValueError, match="jobs"):
        bench(SETTINGS["ai"], games=2, jobs=2)
    with pytest.raises(ValueError, match="should_stop"):
        bench(SETTINGS["ai"], games=2, should_stop=lambda: False)


def test_sweep_rows_are_distributed_benches(cluster):
    rows = sweep("expectimax:eval=simple,tt-mb=1", depths=[0, 1], games=4, seed=2, progress=False)
    assert [r["depth"] for r in rows] == [0, 1]
    for row in rows:
        whole = ai2048.bench(
            "expectimax:eval=simple,tt-mb=1", games=4, seed=2, depth=row["depth"]
        )
        same_run(row["bench"], whole)
    with pytest.raises(ValueError, match="depths or time_ms"):
        sweep(SETTINGS["ai"], games=2)


def shard(first_game: int, games: int, **kwargs) -> str:
    settings = {**SETTINGS, **kwargs}
    return json.dumps(ai2048.bench(first_game=first_game, games=games, **settings))


def test_merging_in_any_order_gives_the_same_document():
    a, b, c = shard(0, 2), shard(2, 3), shard(5, 1)
    one = merge_runs([("a", a), ("b", b), ("c", c)])
    other = merge_runs([("c", c), ("b", b), ("a", a)])
    assert one == other
    same_run(one, ai2048.bench(SETTINGS["ai"], games=6, seed=4))


def test_merging_refuses_overlaps_and_other_settings():
    a = shard(0, 3)
    with pytest.raises(ValueError, match="a.json and b.json both hold game 2"):
        merge_runs([("a.json", a), ("b.json", shard(2, 2))])
    with pytest.raises(
        ValueError,
        match="o.json was played with other settings than a.json: seed 4 in a.json, 5 in o.json",
    ):
        merge_runs([("a.json", a), ("o.json", shard(3, 2, seed=5))])
    with pytest.raises(ValueError, match="bad.json is not the JSON of an ai2048 bench run"):
        merge_runs([("bad.json", a[:40])])


def test_missing_games_make_the_run_interrupted():
    run = merge_runs([("a", shard(0, 2))], first_game=0, games=5)
    assert run["games"] == 2
    assert run["requested_games"] == 5
    assert run["interrupted"] is True
    with pytest.raises(ValueError, match="give first_game and games together, or neither"):
        merge_runs([("a", shard(0, 2))], games=5)


def test_ctrl_c_returns_the_finished_games_marked_interrupted():
    import re
    import signal
    import subprocess
    import sys

    # Many small tasks (128): the child is interrupted once the progress bar shows the
    # first finished, with most still to play.
    ai, games = "expectimax:eval=simple,tt-mb=1", 200
    code = (
        # The child takes Ctrl-C as a terminal gives it (see test_bench).
        "import signal\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import json, ray, ai2048.distributed as d\n"
        "ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)\n"
        f"run = d.bench({ai!r}, games={games}, seed=4, depth=2, cpus_per_task=1, progress=True)\n"
        "print(json.dumps(run), flush=True)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        seen = b""
        while not re.search(rb"\] [1-9]\d*/\d+ games", seen):
            chunk = proc.stderr.read1(4096)
            assert chunk, f"the child ended before a game finished: {seen[-2000:]!r}"
            seen += chunk
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err[-2000:]
    run = json.loads(out)
    assert run["interrupted"] is True
    assert run["requested_games"] == games
    assert 1 <= run["games"] < games
    indices = [r["index"] for r in run["runs"]]
    assert len(set(indices)) == len(indices)
    # A finished game is the game the whole run plays at its index.
    first = run["runs"][0]
    alone = ai2048.bench(ai, games=1, first_game=first["index"], seed=4, depth=2)
    assert outcomes(alone) == outcomes({"runs": [first]})
