"""NextMove for the UCSB CS 165A grader: its interface, and a game played its way."""

import subprocess
import sys
from pathlib import Path

import pytest
import ucsb_grader

import ai2048
from ai2048 import Board, NextMove

FULL_STUCK = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def test_returns_a_legal_move_code():
    grid = [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    move = NextMove(grid, 1)
    assert type(move) is int
    assert move in (0, 1, 2, 3)
    assert ucsb_grader.slide(grid, move) != grid
    assert grid == [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]


def test_quits_only_when_no_move_is_legal():
    assert NextMove(FULL_STUCK, 500) == 4
    # Full, but two 2s can merge: not over.
    full_mergeable = [row[:] for row in FULL_STUCK]
    full_mergeable[0][1] = 2
    move = NextMove(full_mergeable, 500)
    assert move != 4
    assert ucsb_grader.slide(full_mergeable, move) != full_mergeable


def test_move_codes_match_the_assignment():
    # Only one legal move each time: the code must be the assignment's.
    only_up = [[0, 0, 0, 0], [2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64]]
    assert Board(only_up).legal_moves() == [ai2048.Direction.UP]
    assert NextMove(only_up, 1) == 0
    only_down = only_up[::-1]
    assert NextMove(only_down, 1) == 1
    only_left = [[0, 8, 4, 2], [0, 16, 8, 4], [0, 32, 16, 8], [0, 64, 32, 16]]
    assert NextMove(only_left, 1) == 2
    only_right = [row[::-1] for row in only_left]
    assert NextMove(only_right, 1) == 3


def test_invalid_grids_raise_value_errors():
    with pytest.raises(ValueError, match="row 2, column 3"):
        NextMove([[0] * 4, [0, 0, 6, 0], [0] * 4, [0] * 4], 1)
    with pytest.raises(ValueError, match="wrong shape"):
        NextMove([[0] * 4] * 3, 1)


def test_a_search_py_with_one_import_satisfies_the_grader(tmp_path: Path):
    (tmp_path / "search.py").write_text("from ai2048 import NextMove\n")
    code = "from search import NextMove; print(NextMove([[2,2,0,0],[0]*4,[0]*4,[0]*4], 1))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() in {"0", "1", "2", "3"}


def test_the_player_is_kept_between_calls():
    from ai2048 import ucsb

    NextMove([[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]], 1)
    first = ucsb._player
    NextMove([[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]], 2)
    assert first is not None and ucsb._player is first


def test_the_grader_oracle_agrees_with_the_engine():
    """The test's own slide rules (from the assignment) agree with the engine's."""
    import random

    rng = random.Random(5)
    for _ in range(300):
        grid = [[rng.choice([0, 0, 2, 2, 4, 8, 16]) for _ in range(4)] for _ in range(4)]
        for move in range(4):
            assert Board(ucsb_grader.slide(grid, move)) == Board(grid).move(move)


def test_a_game_played_the_graders_way():
    """The grader's loop, with Python's random seeded: spawns follow even illegal
    moves, the game runs past 2048, and the score is the largest tile."""
    # The default player would play on for thousands of moves, 5 ms each: the loop is
    # what is tested here, so NextMove plays with a one-ply search for this game.
    ai2048.ucsb.reset_player(ai2048.Player("expectimax", depth=1))
    try:
        result = ucsb_grader.play(NextMove, seed=2021)
    finally:
        ai2048.ucsb.reset_player()
    print(f"\nUCSB game: max tile {result.max_tile} in {result.steps} steps, {result.seconds:.1f} s")
    assert result.illegal_moves == 0
    # The loop asks for a move only while one is legal, so NextMove never quits.
    assert not result.quit
    assert result.max_tile >= 1024
    assert result.steps > 500
