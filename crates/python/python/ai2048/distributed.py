"""``ai2048.distributed``: benchmarks and sweeps on a Ray cluster.

A run's games are split into slices of consecutive games (``first_game``, ``games``),
each played by a Ray task as ``ai2048.bench`` plays it, and the slices are merged back
into the run (as ``ai2048 bench --merge`` does). Game ``i`` plays seed
``derive_seed(seed, i)`` wherever it runs, so the runs and statistics are those of
``ai2048.bench`` over the whole run; only the timings differ.

It works with whatever ``ray.init()`` the caller made: a local cluster, or an existing
one's address (``ray.init(address="auto")``); without one, Ray starts a local cluster.
Ray is an optional dependency: ``pip install "ai2048[ray]"``.

>>> import ray, ai2048.distributed                             # doctest: +SKIP
>>> ray.init(address="auto")                                   # doctest: +SKIP
>>> run = ai2048.distributed.bench(games=100, timeout=180)     # doctest: +SKIP
>>> run["reach"]["16384"]                                      # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from ._ai2048 import bench as _bench
from ._ai2048 import merge_runs

__all__ = ["bench", "sweep", "slices", "merge_runs"]

#: How many times Ray runs a task again when its worker dies.
MAX_RETRIES = 3

#: Seconds between a task's looks at its run's stop flag.
STOP_POLL = 1.0

#: Seconds the tasks of a stopped run have to stop and return their finished games
#: before the workers of those still running are killed.
STOP_GRACE = 10.0


def slices(first_game: int, games: int, shards: int) -> list[tuple[int, int]]:
    """Games ``first_game`` to ``first_game + games - 1`` split into ``shards``
    slices of consecutive games, as ``(first_game, games)``, as even as can be.

    >>> slices(0, 10, 3)
    [(0, 4), (4, 3), (7, 3)]
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    if shards < 1:
        raise ValueError("shards must be at least 1")
    shards = min(shards, games)
    out = []
    start = first_game
    for k in range(shards):
        n = games // shards + (1 if k < games % shards else 0)
        out.append((start, n))
        start += n
    return out


def bench(
    ai: str = "expectimax",
    *,
    games: int = 100,
    first_game: int = 0,
    shards: int | None = None,
    cpus_per_task: int | None = None,
    progress: bool | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """Play the games of ``ai2048.bench(ai, games=..., first_game=..., **kwargs)`` as
    Ray tasks, and return the same dict: the same runs and statistics, other timings.

    Each task asks Ray for ``cpus_per_task`` CPUs (by default, the CPUs of the
    cluster's smallest machine) and plays that many games at once (fewer when
    ``threads`` searches each move on several; it asks for at least ``threads``
    CPUs). A task's games share one copy of the network in one process: a task per
    CPU, a process each, runs the same games 11% slower on a 2-CPU machine (see the
    README). ``shards`` is the number of tasks: by default one game a task on one
    CPU, and about 8 games for each game a task plays at once on more, as many
    tasks for each slot of the cluster (see ``_default_shards``). ``kwargs`` are those
    of ``ai2048.bench`` (``seed``, ``depth``, ``time_ms``, ``timeout``, player options
    ...) but ``jobs``, which ``cpus_per_task`` sets. A progress bar on stderr counts
    the finished games (by default when stderr is a terminal).

    A task whose worker dies is run again by Ray (up to ``MAX_RETRIES`` times); its
    games are counted once. Ctrl-C stops the run as ``ai2048 bench`` does: the tasks
    under way drop their games in progress, and the games finished are returned, the
    run marked ``interrupted`` (a task still running ``STOP_GRACE`` seconds later is
    killed; a second Ctrl-C kills them at once and raises KeyboardInterrupt).
    """
    plans = [(ai, games, first_game, kwargs)]
    run = _run(plans, shards, cpus_per_task, progress)[0]
    if run is None:
        raise KeyboardInterrupt("stopped before any game finished")
    return run


def sweep(
    ai: str = "expectimax",
    *,
    depths: list[int] | None = None,
    time_ms: list[float] | None = None,
    games: int = 20,
    first_game: int = 0,
    shards: int | None = None,
    cpus_per_task: int | None = None,
    progress: bool | None = None,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """A strength table on a Ray cluster: the same ``games`` at each search depth of
    ``depths``, or at each time budget of ``time_ms`` (one of the two), all the tasks
    of every row at once. Returns one row per setting, in order: ``{"depth": d,
    "bench": run}`` or ``{"time_ms": t, "bench": run}``, ``run`` as
    :func:`bench` returns it.
    """
    if (depths is None) == (time_ms is None):
        raise ValueError("give depths or time_ms (one of the two)")
    key, values = ("depth", depths) if depths is not None else ("time_ms", time_ms)
    if not values:
        raise ValueError(f"{'depths' if key == 'depth' else 'time_ms'} is empty")
    for k in ("depth", "time_ms"):
        if k in kwargs:
            raise ValueError(f"{k}: the sweep sets it for each row")
    plans = [(ai, games, first_game, {**kwargs, key: v}) for v in values]
    runs = _run(plans, shards, cpus_per_task, progress)
    # Stopped with Ctrl-C, the rows with finished games (each marked interrupted if
    # some of its games are missing).
    return [{key: v, "bench": run} for v, run in zip(values, runs) if run is not None]


def _ray() -> Any:
    try:
        import ray
    except ImportError as e:
        raise ImportError(
            'ai2048.distributed needs Ray: pip install "ai2048[ray]"'
        ) from e
    return ray


class _StopFlag:
    """A Ray actor that the tasks of a run look at: set, they stop and return the
    games they finished."""

    def __init__(self) -> None:
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True

    def is_set(self) -> bool:
        return self.stopped


def _play(
    ai: str, first_game: int, games: int, jobs: int, kwargs: dict[str, Any], flag: Any
) -> str | None:
    """One task: a slice of a run, as the JSON document of ``ai2048 bench``, or None
    if its run was stopped before it finished a game.

    It looks at the run's ``flag`` every ``STOP_POLL`` seconds (a flag that is gone
    counts as set: its run is over)."""
    ray = _ray()
    fail_once = kwargs.pop("_fail_once", None)
    if fail_once is not None and not os.path.exists(fail_once):
        # For the tests: the first attempt dies as a worker killed mid-run does.
        open(fail_once, "w").close()
        os._exit(1)
    last_look, stopped = -STOP_POLL, False

    def should_stop() -> bool:
        nonlocal last_look, stopped
        if not stopped and time.monotonic() - last_look >= STOP_POLL:
            last_look = time.monotonic()
            try:
                stopped = ray.get(flag.is_set.remote())
            except ray.exceptions.RayError:
                stopped = True
        return stopped

    if should_stop():
        return None
    run = _bench(
        ai, games=games, first_game=first_game, jobs=jobs, should_stop=should_stop, **kwargs
    )
    return json.dumps(run) if run["games"] else None


def _run(
    plans: list[tuple[str, int, int, dict[str, Any]]],
    shards: int | None,
    cpus_per_task: int | None,
    progress: bool | None,
) -> list[dict[str, Any] | None]:
    """Plays every plan's games as tasks, all at once, and merges each plan's."""
    ray = _ray()
    if cpus_per_task is not None and cpus_per_task < 1:
        raise ValueError("cpus_per_task must be at least 1")
    for _, games, first_game, kwargs in plans:
        if "jobs" in kwargs:
            raise ValueError("jobs: each task plays on the cpus_per_task CPUs it asks Ray for")
        if "should_stop" in kwargs:
            raise ValueError("should_stop: the run stops with Ctrl-C, and its tasks with it")
        if games < 1:
            raise ValueError("games must be at least 1")
        if first_game < 0:
            raise ValueError("first_game must be at least 0")
    if not ray.is_initialized():
        ray.init()
    if cpus_per_task is None:
        cpus_per_task = _smallest_machine(ray)
    cluster_cpus = int(ray.cluster_resources().get("CPU", 1))
    task = ray.remote(max_retries=MAX_RETRIES)(_play)
    # The tasks are stopped through this flag, not ray.cancel: cancelling a task that
    # is just finishing can crash the driver (a failed check in Ray's task manager,
    # "Tried to complete task that was not pending"; ray-project/ray#54527), as one
    # run of the Ctrl-C test in ten did.
    flag = ray.remote(num_cpus=0)(_StopFlag).remote()
    pending: dict[Any, tuple[int, str]] = {}
    for p, (ai, games, first_game, kwargs) in enumerate(plans):
        # A task plays games side by side, each searched on `threads` threads: it asks
        # for the CPUs that takes.
        threads = kwargs.get("threads") or 1
        jobs = max(1, cpus_per_task // threads)
        cpus = max(cpus_per_task, threads)
        slots = max(1, cluster_cpus // cpus)
        n_shards = shards or _default_shards(games, jobs, slots)
        for start, n in slices(first_game, games, n_shards):
            ref = task.options(num_cpus=cpus).remote(ai, start, n, jobs, dict(kwargs), flag)
            pending[ref] = (p, f"games {start} to {start + n - 1}")
    finished: list[list[tuple[str, str]]] = [[] for _ in plans]
    total = sum(games for _, games, _, _ in plans)
    bar = _Progress(total, sys.stderr.isatty() if progress is None else progress)

    def collect(ref: Any) -> None:
        p, name = pending.pop(ref)
        text = ray.get(ref)
        if text is not None:
            finished[p].append((name, text))
            bar.add(json.loads(text)["games"])

    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                collect(ref)
    except KeyboardInterrupt:
        # The tasks under way drop their games in progress and return the finished.
        flag.stop.remote()
        _wait_for_stopped(ray, pending, collect)
        if not any(finished):
            raise
    finally:
        # After a task failed (a bad option fails them all), the others stop too.
        ray.kill(flag)
        bar.close()
    # After Ctrl-C, a plan none of whose tasks finished has no run.
    return [
        merge_runs(done, first_game=first_game, games=games) if done else None
        for (_, games, first_game, _), done in zip(plans, finished)
    ]


def _default_shards(games: int, jobs: int, slots: int) -> int:
    """How many tasks play ``games`` by default, ``jobs`` at once in each, on
    ``slots`` task slots.

    Ray gives the next task to whichever slot is free, so that a long game does not
    hold the end up: with one game at a time, a task per game (at most 64 a slot).
    A task playing games side by side leaves CPUs idle while its last games finish,
    so it gets about 8 games for each it plays at once, and the tasks are a multiple
    of the slots, so that every slot has as much to play.

    >>> _default_shards(40, 1, 2), _default_shards(40, 2, 1), _default_shards(100, 2, 5)
    (40, 2, 5)
    """
    if jobs == 1:
        return min(games, 64 * slots)
    rounds = max(1, round(games / (slots * 8 * jobs)))
    return max(1, min(games, slots * min(rounds, 64)))


def _smallest_machine(ray: Any) -> int:
    """The CPUs of the cluster's smallest machine (alive, with CPUs)."""
    cpus = [
        int(node["Resources"]["CPU"])
        for node in ray.nodes()
        if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) >= 1
    ]
    return min(cpus, default=1)


def _wait_for_stopped(ray: Any, pending: dict[Any, Any], collect: Any) -> None:
    """Collects the tasks of a stopped run as they end, for up to ``STOP_GRACE``
    seconds; the workers of those still running then are killed (a second Ctrl-C
    kills them at once and is raised)."""
    deadline = time.monotonic() + STOP_GRACE
    try:
        while pending and time.monotonic() < deadline:
            timeout = deadline - time.monotonic()
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=max(0.0, timeout))
            for ref in ready:
                try:
                    collect(ref)
                except ray.exceptions.RayError:
                    pass
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


class _Progress:
    """Finished games out of the total, on one line of stderr."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self._draw()

    def add(self, games: int) -> None:
        self.done += games
        self._draw()

    def _draw(self) -> None:
        if self.enabled:
            width = 30
            filled = width * self.done // max(1, self.total)
            bar = "#" * filled + "-" * (width - filled)
            sys.stderr.write(f"\r[{bar}] {self.done}/{self.total} games")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()
