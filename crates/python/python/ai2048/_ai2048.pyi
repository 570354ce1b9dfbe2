"""Type stubs of the native module ``ai2048._ai2048`` (built from crates/python/src)."""

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal, SupportsIndex, Union

from ._direction import Direction

__version__: str
MAX_TILE: int
MAX_DEPTH: int
DEFAULT_PLAYER: str

#: A direction: a Direction, a move code 0 to 3 (0 up, 1 down, 2 left, 3 right), or a
#: name ("up", "down", "left", "right", their initials, any case).
DirectionLike = Union[Direction, SupportsIndex, str]
#: A board: a Board, four rows of four tile values (0 for empty), or board text.
BoardLike = Union["Board", Sequence[Sequence[SupportsIndex]], str]

class IllegalMoveError(ValueError):
    """A move that changes nothing, under rules that refuse such moves."""

class GameOverError(ValueError):
    """A move asked of a game that is over."""

class Board:
    """A 4x4 board of 2048, immutable and hashable."""

    def __init__(self, grid: BoardLike | None = None) -> None:
        """A board from four rows of four tile values, board text, another Board, or None (empty).

        Raises ValueError, naming the row and column, for a grid of the wrong shape or
        a value that is not 0 or a power of two from 2 to 131072.
        """
    @staticmethod
    def from_hex(text: str) -> Board:
        """The board of the 16-digit hex form (one exponent per cell; g, h for 65536, 131072)."""
    @staticmethod
    def parse(text: str) -> Board:
        """The board of any text form the engine reads (hex, rows of values, [[...]])."""
    @staticmethod
    def from_exponents(exponents: Sequence[int]) -> Board:
        """The board of sixteen exponents in reading order (0 empty, 1 for a 2, ... 17)."""
    def to_list(self) -> list[list[int]]:
        """The tile values as four lists of four ints, top row first, 0 for empty."""
    def to_hex(self) -> str:
        """The 16-digit hex form."""
    def exponents(self) -> list[int]:
        """The sixteen exponents in reading order."""
    def move(self, direction: DirectionLike) -> Board:
        """The board after sliding toward ``direction``, without a spawn (the same board if illegal)."""
    def move_scored(self, direction: DirectionLike) -> tuple[Board, int]:
        """The board after sliding toward ``direction``, and the score of its merges."""
    def can_move(self, direction: DirectionLike) -> bool:
        """Whether sliding toward ``direction`` changes the board."""
    def legal_moves(self) -> list[Direction]:
        """The directions whose move changes the board, in the order up, down, left, right."""
    def spawns(self, p4: float = 0.1) -> list[tuple[Board, float]]:
        """Every board the game can spawn from this one, with its probability."""
    def with_tile(self, row: int, col: int, value: int) -> Board:
        """This board with the cell at ``row``, ``col`` set to ``value`` (0 empties it)."""
    @property
    def max_tile(self) -> int:
        """The largest tile (0 for the empty board)."""
    @property
    def empty_count(self) -> int:
        """The number of empty cells."""
    @property
    def empty_cells(self) -> list[tuple[int, int]]:
        """The empty cells as (row, column) pairs, from 0, in reading order."""
    @property
    def tile_sum(self) -> int:
        """The sum of the tiles."""
    @property
    def is_over(self) -> bool:
        """Whether no move is legal."""
    def __getitem__(self, key: tuple[int, int] | int) -> int:
        """``board[row, col]`` or ``board[i]``: the tile value there, 0 when empty."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: Any) -> Board: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

class Turn:
    """One turn of a game."""

    @property
    def direction(self) -> Direction:
        """The direction played."""
    @property
    def moved(self) -> bool:
        """Whether the move changed the board."""
    @property
    def score(self) -> int:
        """The score of the move's merges."""
    @property
    def spawn(self) -> tuple[int, int, int] | None:
        """The tile spawned after the move as (row, column, value), or None."""

class Game:
    """A seeded game of 2048, with undo and replays."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        start_tiles: int = 2,
        p4: float = 0.1,
        illegal_move_spawns: bool = False,
    ) -> None:
        """A new game from ``seed`` (a fresh one when None) under the given rules."""
    @staticmethod
    def from_board(
        board: BoardLike,
        *,
        seed: int | None = None,
        p4: float = 0.1,
        illegal_move_spawns: bool = False,
    ) -> Game:
        """A game that starts from ``board``: no start tiles, the score from there on."""
    @staticmethod
    def from_replay(text: str) -> Game:
        """The game a replay text records, after checking it replays from its seed."""
    def play(self, direction: DirectionLike) -> Turn:
        """Plays ``direction``: slides, scores and spawns a tile.

        Raises IllegalMoveError or GameOverError (both ValueErrors).
        """
    def undo(self) -> Turn | None:
        """Takes back the last turn and returns it (None at the start)."""
    def copy(self) -> Game:
        """An independent copy of the game, generator included."""
    @property
    def board(self) -> Board:
        """The current board."""
    @property
    def score(self) -> int:
        """The score: the sum of all merged tiles."""
    @property
    def moves(self) -> int:
        """The number of turns played."""
    @property
    def max_tile(self) -> int:
        """The largest tile on the board."""
    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
    @property
    def seed(self) -> int:
        """The seed the game started from."""
    @property
    def start_tiles(self) -> int:
        """The number of tiles the game started with."""
    @property
    def p4(self) -> float:
        """The probability that a spawned tile is a 4."""
    @property
    def illegal_move_spawns(self) -> bool:
        """Whether a move that changes nothing still spawns a tile."""
    @property
    def turns(self) -> list[Turn]:
        """Every turn played so far."""
    @property
    def replay(self) -> str:
        """The game so far as replay text."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...

class SearchResult:
    """The outcome of a search; unpacks as ``(direction, value)``."""

    @property
    def direction(self) -> Direction | None:
        """The chosen direction, or None when no move is legal."""
    @property
    def value(self) -> float:
        """The value of the chosen move, on the player's own scale."""
    @property
    def values(self) -> dict[Direction, float]:
        """The value of each direction the player valued."""
    @property
    def depth(self) -> int:
        """The depth reached."""
    @property
    def nodes(self) -> int:
        """The nodes visited."""
    @property
    def table(self) -> Literal["kept", "played", "decided"] | None:
        """What an endgame table had to do with the move; None where none matched."""
    @property
    def table_name(self) -> str | None:
        """The endgame table that matched the board, by name; None where none did."""
    @property
    def table_keeps_odds(self) -> bool:
        """False where a table of moves matched: its values are no probabilities."""
    @property
    def time_ms(self) -> float:
        """The wall-clock time of the search in milliseconds."""
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...

class Player:
    """A player: expectimax (the default), minimax, mcts, replica, greedy or random, with options."""

    def __init__(
        self,
        name: str = "expectimax",
        *,
        depth: int | None = None,
        time_ms: float | None = None,
        threads: int | None = None,
        nodes: int | None = None,
        seed: int = 0,
        **options: str | int | float | bool,
    ) -> None:
        """The player ``name`` with its options; raises ValueError for unknown ones."""
    def best_move(
        self,
        board: BoardLike,
        *,
        time_ms: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        clock_ms: float | None = None,
    ) -> SearchResult:
        """Searches ``board`` (releasing the GIL) and returns a SearchResult."""
    def new_game(self) -> None:
        """Forgets what was learned in the game so far."""
    @property
    def name(self) -> str:
        """The player's name."""
    @property
    def spec(self) -> str:
        """The player with its options, as ``--ai`` takes it."""
    @property
    def seed(self) -> int:
        """The seed of the player's random numbers."""
    @property
    def depth(self) -> int | None:
        """The default search depth."""
    @property
    def time_ms(self) -> float | None:
        """The default time per move in milliseconds."""

class Network:
    """An n-tuple network: a learned evaluation, trained by TD learning over games it
    plays itself, as ``ai2048 train`` trains it."""

    def __init__(
        self, tuples: str = "4x6", *, stages: str | None = None, init: float = 0.0
    ) -> None: ...
    @staticmethod
    def load(path: str | os.PathLike[str]) -> Network: ...
    def save(self, path: str | os.PathLike[str]) -> None: ...
    def train(
        self,
        games: int,
        *,
        learning: str | None = None,
        alpha: float | None = None,
        seed: int = 0,
        start_tiles: int = 2,
        p4: float = 0.1,
        threads: int = 1,
        restart: float | None = None,
        steps: int = 1,
        lambda_: float = 0.0,
        backward: bool = False,
        search: int = 0,
        carousel: str | None = None,
        pools_by: str | None = None,
        pool_games: int = 1000,
        policy: str | None = None,
    ) -> dict[str, list[int]]: ...
    def value(self, board: BoardLike) -> float: ...
    def evaluate(self, board: BoardLike) -> float: ...
    def best_move(self, board: BoardLike) -> tuple[Direction | None, float]: ...
    @property
    def games(self) -> int: ...
    @property
    def tuples(self) -> list[list[int]]: ...
    @property
    def stage_tuples(self) -> list[list[list[int]]]: ...
    @property
    def weight_count(self) -> int: ...
    @property
    def stages(self) -> str: ...
    @property
    def carousel(self) -> str | None: ...

class Table:
    """An endgame table: for a pattern of fixed large tiles and a target tile, the exact
    probability that the moving tiles make the target in a target cell, as
    ``ai2048 tables`` builds and queries them. ``Table(path)`` maps a table file."""

    def __init__(self, path: str | os.PathLike[str]) -> None: ...
    @staticmethod
    def solve(pattern: str, target: int) -> Table:
        """Solves a small table (at most 2**27 states) in memory."""
    @staticmethod
    def build(
        pattern: str,
        target: int,
        path: str | os.PathLike[str],
        *,
        compact: bool = False,
        encoding: Literal["f32", "u16", "u8"] | None = None,
        force: bool = False,
    ) -> Table:
        """Builds the table into a file (resumable after Ctrl-C; opened as it is if built
        already, unless ``force``) and opens it; its values stored as ``encoding`` says
        (``f32`` unless told, ``compact`` is ``u16``)."""
    @staticmethod
    def query_from(
        table: str,
        board: BoardLike,
        *,
        target: int | None = None,
        max_states: int = 300_000_000,
    ) -> dict[Direction, float | None] | None:
        """Each move's success probability, as :meth:`query` gives it, from only the
        states the board reaches: ``table`` a built-in name (``"block10-512"``, need
        not be built) or a pattern with ``target``."""
    @property
    def pattern(self) -> str: ...
    @property
    def target(self) -> int: ...
    @property
    def states(self) -> int: ...
    def query(
        self, board: BoardLike, *, chain: bool = False
    ) -> dict[Direction, float | None] | None:
        """Each move's success probability (None: illegal or leaves the table); None
        if the board does not match the table."""
    def best_move(
        self, board: BoardLike, *, chain: bool = False
    ) -> tuple[Direction, float] | None: ...
    def value(self, board: BoardLike) -> float | None: ...

def players() -> list[dict[str, Any]]:
    """The players, the default first: name, about and options of each."""

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
    start: BoardLike | None = None,
    until: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    **options: str | int | float | bool,
) -> dict[str, Any]:
    """Play ``games`` seeded games of the player ``ai`` and return their statistics:
    the document ``ai2048 bench --json`` writes, parsed (see ``help(ai2048.bench)``)."""

def merge_runs(
    shards: list[tuple[str, str]],
    *,
    first_game: int | None = None,
    games: int | None = None,
) -> dict[str, Any]:
    """Merge the JSON documents of a run's shards, ``(name, text)`` pairs, into the
    document of the whole run, as ``ai2048 bench --merge`` does."""

def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run from ``seed``, as ``ai2048 bench`` derives it."""

def fresh_seed() -> int:
    """A fresh seed from the operating system's randomness."""
