"""The UCSB CS 165A (fall 2021, Machine Problem 2) grader's game loop, written from the
assignment's text, with its own slide rules (an oracle independent of the engine).

Run it to time 10 games the grader's way::

    python crates/python/tests/ucsb_grader.py --games 10 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

UP, DOWN, LEFT, RIGHT, QUIT = 0, 1, 2, 3, 4

Grid = list[list[int]]


def slide_row_left(row: list[int]) -> list[int]:
    """One row slid left: tiles move as far as they go, equal pairs nearest the wall
    merge first, and a merged tile does not merge again in the same move."""
    tiles = [v for v in row if v]
    out: list[int] = []
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(2 * tiles[i])
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (4 - len(out))


def slide(grid: Grid, move: int) -> Grid:
    """The grid after ``move`` (0 up, 1 down, 2 left, 3 right); other codes change nothing."""
    if move == LEFT:
        return [slide_row_left(r) for r in grid]
    if move == RIGHT:
        return [slide_row_left(r[::-1])[::-1] for r in grid]
    if move in (UP, DOWN):
        columns = [[grid[r][c] for r in range(4)] for c in range(4)]
        moved = slide(columns, LEFT if move == UP else RIGHT)
        return [[moved[c][r] for c in range(4)] for r in range(4)]
    return [row[:] for row in grid]


def can_slide(grid: Grid) -> bool:
    return any(slide(grid, m) != grid for m in (UP, DOWN, LEFT, RIGHT))


def spawn(grid: Grid, rng: random.Random) -> None:
    """A 2 (probability 0.9) or a 4 on a random empty cell."""
    empty = [(r, c) for r in range(4) for c in range(4) if grid[r][c] == 0]
    r, c = rng.choice(empty)
    grid[r][c] = 2 if rng.random() < 0.9 else 4


@dataclass
class GameResult:
    max_tile: int
    steps: int
    illegal_moves: int
    quit: bool
    seconds: float


def play(next_move: Callable[[Grid, int], int], seed: int) -> GameResult:
    """One game the grader's way: two 2s on distinct random cells; each step asks
    ``next_move(grid, step)``; an inapplicable move leaves the grid as it is and a tile
    still spawns; the game ends on quit (4), when no direction slides, or when the grid
    is full after the slide. The score is the largest tile."""
    rng = random.Random(seed)
    grid = [[0] * 4 for _ in range(4)]
    for r, c in rng.sample([(r, c) for r in range(4) for c in range(4)], 2):
        grid[r][c] = 2
    step, illegal, quit = 1, 0, False
    start = time.perf_counter()
    while can_slide(grid):
        move = next_move([row[:] for row in grid], step)
        if move == QUIT:
            quit = True
            break
        after = slide(grid, move)
        if after == grid:
            illegal += 1
        grid = after
        if all(v for row in grid for v in row):
            break
        spawn(grid, rng)
        step += 1
    return GameResult(
        max_tile=max(v for row in grid for v in row),
        steps=step,
        illegal_moves=illegal,
        quit=quit,
        seconds=time.perf_counter() - start,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from ai2048 import NextMove

    total = time.perf_counter()
    results = []
    for i in range(args.games):
        result = play(NextMove, args.seed + i)
        results.append(result)
        print(
            f"game {i + 1}: max tile {result.max_tile}, {result.steps} steps, "
            f"{result.seconds:.1f} s ({1e3 * result.seconds / result.steps:.2f} ms/step)"
        )
    elapsed = time.perf_counter() - total
    mean = sum(r.max_tile for r in results) / len(results)
    print(f"{len(results)} games in {elapsed:.1f} s; mean max tile {mean:.0f}")


if __name__ == "__main__":
    main()
