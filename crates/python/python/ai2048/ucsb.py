"""``NextMove`` for the UCSB CS 165A 2048 assignment (Machine Problem 2, fall 2021).

A ``search.py`` that holds only ``from ai2048 import NextMove`` satisfies that grader:
``NextMove(Grid, Step)`` takes the 4x4 grid of tile values (0 for empty) and the step
(from 1), and returns a move code: 0 up, 1 down, 2 left, 3 right, or 4 (quit) when no
move is legal.

The moves come from the expectimax player with its default settings (about 5 ms a
move), kept in this module between calls so that its transposition table carries from
one move to the next.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from ._ai2048 import Board, Player

__all__ = ["NextMove", "QUIT", "reset_player"]

#: The move code that ends the game, returned only when no move is legal.
QUIT = 4

_player: Player | None = None
_lock = threading.Lock()


def _get_player() -> Player:
    global _player
    with _lock:
        if _player is None:
            _player = Player("expectimax")
        return _player


def reset_player(player: Player | None = None) -> None:
    """Replace the player ``NextMove`` uses (the default expectimax when None).

    For experiments: ``reset_player(Player("expectimax", time_ms=20))``.
    """
    global _player
    with _lock:
        _player = player


def NextMove(Grid: Sequence[Sequence[int]], Step: int) -> int:  # noqa: N802, N803 (the grader's names)
    """The move for ``Grid``: 0 up, 1 down, 2 left, 3 right, or 4 (quit) when no move is legal.

    ``Grid`` is four rows of four tile values, 0 for an empty cell; ``Step`` is the
    step of the game, from 1 (it is not needed: every move gets the same budget).

    Raises ValueError, naming the row and column, for a grid that is not 4x4 or holds
    a value that is not 0 or a power of two from 2 to 131072.
    """
    board = Board(Grid)
    if board.is_over:
        return QUIT
    direction = _get_player().best_move(board).direction
    return QUIT if direction is None else int(direction)
