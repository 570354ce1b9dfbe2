"""``bench``: the statistics of ``ai2048 bench`` as a dict."""

from __future__ import annotations

import json
from typing import Any

from ._ai2048 import bench_json

__all__ = ["bench"]


def bench(
    ai: str = "expectimax",
    *,
    games: int = 100,
    first_game: int = 0,
    seed: int = 0,
    jobs: int | None = None,
    depth: int | None = None,
    time_ms: float | None = None,
    threads: int | None = None,
    timeout: float | None = None,
    start_tiles: int = 2,
    p4: float = 0.1,
    illegal_move_spawns: bool = False,
    **options: str | int | float | bool,
) -> dict[str, Any]:
    """Play ``games`` seeded games of the player ``ai`` and return their statistics.

    The arguments are those of the command line ``ai2048 bench``: ``ai`` is the player,
    optionally with options (``"expectimax:tt-mb=16"``), and ``**options`` adds more
    (``tt_mb=16``; ``_`` stands for ``-``); ``depth`` and ``time_ms`` limit every search;
    ``threads`` searches each move on that many threads; ``jobs`` plays that many games
    at once (all cores when None); ``timeout`` stops a game after that many seconds (it
    counts with what it reached); ``start_tiles``, ``p4`` and ``illegal_move_spawns``
    are the rules. The games are ``first_game`` to ``first_game + games - 1``, and game
    ``i`` is played from seed ``derive_seed(seed, i)``, so the outcome does not depend
    on ``jobs``, and a run split into parts plays the same games as the whole.

    Returns the document ``ai2048 bench --json`` writes, parsed: ``games``,
    ``mean_score``, ``median_score``, ``max_score``, ``min_score``, ``max_tile``,
    ``mean_moves``, ``total_moves``, ``moves_per_sec``, ``ms_per_move_mean``,
    ``ms_per_move_max``, ``nodes_per_sec``, ``timeouts``, ``reach`` (from each tile
    from 512 up, as a string, to the share of games that reached it), ``reach_ci``
    (its 95% Wilson interval ``[low, high]``), ``requested_games``, ``interrupted``,
    ``config`` (the run's settings) and ``runs`` (one record per game: ``index``,
    ``seed``, ``score``, ``max_tile``, ``moves``, ``seconds``, ``timed_out``,
    ``max_ms_per_move``, ``nodes``).

    The GIL is released while the games run. Ctrl-C stops them and raises
    KeyboardInterrupt. Raises ValueError for a bad argument or an unknown player or
    option (with the Rust library's message), RuntimeError if a player fails.
    """
    text = bench_json(
        ai,
        games=games,
        first_game=first_game,
        seed=seed,
        jobs=jobs,
        depth=depth,
        time_ms=time_ms,
        threads=threads,
        timeout=timeout,
        start_tiles=start_tiles,
        p4=p4,
        illegal_move_spawns=illegal_move_spawns,
        **options,
    )
    result: dict[str, Any] = json.loads(text)
    return result
