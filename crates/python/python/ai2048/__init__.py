"""ai2048: an exact, very fast 2048 engine and the strongest 2048 AI, from Python.

- :class:`Board`: an immutable 4x4 position, with moves, legal moves and spawns.
- :class:`Game`: a seeded game with undo and replays; :class:`Turn`: one move of it.
- :class:`Direction`: up, down, left, right as move codes 0 to 3.
- :class:`Player`: expectimax (the default), minimax, mcts, replica, greedy or random, with
  options; :meth:`Player.best_move` returns a :class:`SearchResult`.
- :class:`Network`: an n-tuple network to train by self-play, save, load and play
  with (``Player("expectimax", network=path)``).
- :class:`Table`: an endgame table (``ai2048 tables build``), opened, solved or built,
  with each move's exact success probability.
- :func:`bench`: many seeded games on all cores, with the statistics of ``ai2048 bench``;
  :func:`merge_runs` merges the shards of a run, and :mod:`ai2048.distributed` plays
  them on a Ray cluster.
- :func:`NextMove`: the UCSB CS 165A grader's entry point.
- :class:`Env`: a Gymnasium-style environment (registered as ``"ai2048/2048-v0"`` when
  Gymnasium is installed).

>>> from ai2048 import Board, Player
>>> board = Board([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
>>> board.move("left").to_list()[0]
[4, 0, 0, 0]
>>> direction, value = Player("greedy").best_move(board)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._ai2048 import (
    DEFAULT_PLAYER,
    MAX_DEPTH,
    MAX_TILE,
    Board,
    Game,
    GameOverError,
    IllegalMoveError,
    Network,
    Player,
    SearchResult,
    Table,
    Turn,
    __version__,
    bench,
    derive_seed,
    fresh_seed,
    merge_runs,
    players,
)
from ._direction import Direction
from .ucsb import NextMove

if TYPE_CHECKING:
    from .env import Env

__all__ = [
    "DEFAULT_PLAYER",
    "MAX_DEPTH",
    "MAX_TILE",
    "Board",
    "Direction",
    "Env",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Network",
    "NextMove",
    "Player",
    "SearchResult",
    "Table",
    "Turn",
    "__version__",
    "bench",
    "derive_seed",
    "fresh_seed",
    "merge_runs",
    "players",
]


def __getattr__(name: str) -> Any:
    # The environment needs NumPy: it is imported on first use, so that
    # `from ai2048 import NextMove` stays light.
    if name == "Env":
        from .env import Env

        return Env
    raise AttributeError(f"module 'ai2048' has no attribute {name!r}")


def _register_with_gymnasium() -> None:
    import importlib.util

    if importlib.util.find_spec("gymnasium") is None:
        return
    from .env import register

    register()


_register_with_gymnasium()
