"""A Gymnasium-style environment of 2048, on the exact engine.

``Env`` follows the conventions of the `gymnasium-2048` package (TwentyFortyEight-v0),
so agents and wrappers written for it work unchanged:

- **Actions**: ``0`` up, ``1`` right, ``2`` down, ``3`` left (clockwise from up), as in
  gymnasium-2048. This is *not* the order of :class:`ai2048.Direction` (the engine's and
  the UCSB grader's 0 up, 1 down, 2 left, 3 right): the environment keeps the order that
  reinforcement-learning code for 2048 already expects. ``Env.ACTIONS`` maps action
  indices to directions, and ``step`` also accepts a :class:`~ai2048.Direction` member,
  which it maps by its meaning (``step(Direction.DOWN)`` moves down), never by its
  number.
- **Observation**: a ``uint8`` array of shape ``(4, 4, 16)``: a one-hot encoding of each
  cell's exponent, channel 0 for an empty cell, channel ``k`` for the tile ``2**k``. A
  tile above ``2**(channels - 1)`` (65536 and up with 16 channels) lands in the last
  channel; ``info["board"]`` always holds the exact exponents.
- **Reward**: the score of the move's merges (the sum of the merged tiles).
- **Illegal actions**: a move that changes nothing changes nothing (no spawn), gives
  reward 0 and is reported as ``info["illegal"] = True`` (and ``info["is_legal"] = False``
  as gymnasium-2048 reports it); ``info["action_mask"]`` lists the legal actions.
- **Termination**: ``terminated`` is True when no move is legal; ``truncated`` is always
  False (wrap the environment in ``gymnasium.wrappers.TimeLimit`` for a step limit).

The environment works without Gymnasium (it is then a plain class with the same
methods); when Gymnasium is installed it subclasses ``gymnasium.Env``, has
``observation_space`` and ``action_space``, and ``import ai2048`` registers it as
``"ai2048/2048-v0"`` for ``gymnasium.make``.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np

from ._ai2048 import Board, Game, derive_seed, fresh_seed
from ._direction import Direction

__all__ = ["ENV_ID", "Env", "register"]

#: The id under which :func:`register` registers the environment with Gymnasium.
ENV_ID = "ai2048/2048-v0"

if importlib.util.find_spec("gymnasium") is not None:
    import gymnasium
    from gymnasium import spaces

    _Base: Any = gymnasium.Env
else:  # pragma: no cover - exercised by a test that hides gymnasium
    gymnasium = None
    spaces = None
    _Base = object


class Env(_Base):  # type: ignore[misc]
    """2048 as a reinforcement-learning environment (see the module's documentation).

    ``Env(render_mode=None, *, start_tiles=2, p4=0.1, channels=16)``: ``render_mode``
    is None, ``"ansi"`` (``render()`` returns the board as text) or ``"human"``
    (``render()`` prints it); ``start_tiles`` and ``p4`` are the rules; ``channels``
    is the depth of the one-hot observation (at least 2).

    Episodes are seeded: ``reset(seed=s)`` starts game ``s``'s sequence, and each
    later ``reset()`` without a seed plays the next game of that sequence
    (``derive_seed(s, n)``), so a seeded run of episodes replays exactly.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    #: The direction of each action index: up, right, down, left.
    ACTIONS: tuple[Direction, ...] = (
        Direction.UP,
        Direction.RIGHT,
        Direction.DOWN,
        Direction.LEFT,
    )

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        start_tiles: int = 2,
        p4: float = 0.1,
        channels: int = 16,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}"
            )
        if isinstance(channels, bool) or not isinstance(channels, int) or channels < 2:
            raise ValueError(f"channels must be an integer of at least 2, not {channels!r}")
        # Checks the rules now, with the engine's message, rather than at reset.
        Game(0, start_tiles=start_tiles, p4=p4)
        self.render_mode = render_mode
        self.start_tiles = start_tiles
        self.p4 = p4
        self.channels = channels
        self.observation_space: Any = None
        self.action_space: Any = None
        if spaces is not None:
            self.observation_space = spaces.Box(
                low=0, high=1, shape=(4, 4, channels), dtype=np.uint8
            )
            self.action_space = spaces.Discrete(4)
        self._base_seed = fresh_seed()
        self._episode = -1
        self._game: Game | None = None
        self._illegal_count = 0

    # -- the game ---------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The :class:`~ai2048.Game` being played (after :meth:`reset`)."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    @property
    def board(self) -> Board:
        """The current :class:`~ai2048.Board`."""
        return self.game.board

    @property
    def score(self) -> int:
        """The score of the episode so far."""
        return self.game.score

    def action_of(self, direction: Direction | str) -> int:
        """The action index of ``direction`` (a :class:`Direction` or a name)."""
        return self.ACTIONS.index(Direction.parse(direction) if isinstance(direction, str) else Direction(direction))

    def action_mask(self) -> np.ndarray:
        """A boolean array of 4: which actions (in action order) are legal now."""
        board = self.board
        return np.array([board.can_move(d) for d in self.ACTIONS], dtype=bool)

    # -- the Gymnasium API ------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game; returns ``(observation, info)``.

        ``seed`` starts a new sequence of episodes; without it, the next episode of
        the current sequence is played. ``options`` is accepted and ignored.
        """
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0
        ):
            raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
        if _Base is not object:
            super().reset(seed=None if seed is None else int(seed))
        if seed is not None:
            self._base_seed = int(seed) % 2**64
            self._episode = -1
        self._episode += 1
        self._game = Game(
            derive_seed(self._base_seed, self._episode),
            start_tiles=self.start_tiles,
            p4=self.p4,
        )
        self._illegal_count = 0
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info(step_score=0, legal=True, direction=None)

    def step(self, action: int | Direction) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play ``action``; returns ``(observation, reward, terminated, truncated, info)``.

        ``action`` is an action index (0 up, 1 right, 2 down, 3 left) or a
        :class:`Direction`. An illegal action (or any action once the game is over)
        changes nothing, gives reward 0 and sets ``info["illegal"]``.
        """
        direction = self._direction(action)
        game = self.game
        legal = not game.is_over and game.board.can_move(direction)
        step_score = game.play(direction).score if legal else 0
        if not legal:
            self._illegal_count += 1
        if self.render_mode == "human":
            self.render()
        info = self._info(step_score=step_score, legal=legal, direction=direction)
        return self._observation(), float(step_score), game.is_over, False, info

    def render(self) -> str | None:
        """The board and score as text (``"ansi"``), or print them (``"human"``)."""
        if self.render_mode is None:
            return None
        text = f"{self.board}score {self.score}\n"
        if self.render_mode == "ansi":
            return text
        print(text, end="")
        return None

    def close(self) -> None:
        """Nothing to release."""

    # -- helpers ------------------------------------------------------------------

    def _direction(self, action: Any) -> Direction:
        if isinstance(action, Direction):
            return action
        if isinstance(action, bool):
            raise ValueError(f"invalid action {action!r}: expected 0 (up), 1 (right), 2 (down) or 3 (left)")
        try:
            index = int(np.asarray(action).item()) if isinstance(action, np.ndarray) else action.__index__()
        except (AttributeError, TypeError, ValueError):
            raise ValueError(
                f"invalid action {action!r}: expected 0 (up), 1 (right), 2 (down) or 3 (left)"
            ) from None
        if not 0 <= index < 4:
            raise ValueError(
                f"invalid action {index}: expected 0 (up), 1 (right), 2 (down) or 3 (left)"
            )
        return self.ACTIONS[index]

    def _exponents(self) -> np.ndarray:
        return np.array(self.board.exponents(), dtype=np.uint8).reshape(4, 4)

    def _observation(self) -> np.ndarray:
        exps = np.minimum(self._exponents(), self.channels - 1)
        obs = np.zeros((4, 4, self.channels), dtype=np.uint8)
        rows, cols = np.indices((4, 4))
        obs[rows, cols, exps] = 1
        return obs

    def _info(self, *, step_score: int, legal: bool, direction: Direction | None) -> dict[str, Any]:
        game = self.game
        return {
            "board": self._exponents(),
            "step_score": step_score,
            "total_score": game.score,
            "max": game.max_tile,
            "illegal": not legal,
            "is_legal": legal,
            "illegal_count": self._illegal_count,
            "action_mask": self.action_mask(),
            "direction": direction,
            "moves": game.moves,
        }


def register() -> bool:
    """Register :class:`Env` with Gymnasium as ``"ai2048/2048-v0"``.

    ``import ai2048`` calls it when Gymnasium is installed. Returns True when the
    environment is registered (now or before), False when Gymnasium is not installed.
    """
    if gymnasium is None:
        return False
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="ai2048.env:Env")
    return True
