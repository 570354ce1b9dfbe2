"""The four directions of a move, numbered as the engine and the UCSB grader number them."""

from __future__ import annotations

import enum

__all__ = ["Direction"]


class Direction(enum.IntEnum):
    """A direction to slide the tiles.

    The values are the move codes of the UCSB CS 165A assignment and of the engine:
    0 up, 1 down, 2 left, 3 right. Being an :class:`enum.IntEnum`, a direction *is* its
    move code (``Direction.LEFT == 2``), so it can be returned from ``NextMove`` as is.

    Every function of this package that takes a direction also accepts its name
    (``"up"``, ``"down"``, ``"left"``, ``"right"``, their initials, any case) or its
    move code as a plain int.

    >>> Direction.parse("l")
    <Direction.LEFT: 2>
    >>> Direction(3).name.lower()
    'right'
    """

    UP = 0
    DOWN = 1
    LEFT = 2
    RIGHT = 3

    @classmethod
    def parse(cls, value: str | int) -> Direction:
        """The direction named by ``value`` (a name or an initial, any case) or with move code ``value``.

        Raises ValueError for anything else.
        """
        if isinstance(value, str):
            key = value.strip().lower()
            for member in cls:
                if key in (member.name.lower(), member.name[0].lower()):
                    return member
            raise ValueError(
                f"unknown direction {value!r}: expected up, down, left or right"
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"a direction is a name or a move code 0 to 3, not {value!r}")
        try:
            return cls(value)
        except ValueError:
            raise ValueError(
                f"{value} is not a move code: expected 0 (up), 1 (down), 2 (left) or 3 (right)"
            ) from None
