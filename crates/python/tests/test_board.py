"""ai2048.Board: construction, forms, moves, legality, spawns, errors."""

import copy
import pickle

import pytest

from ai2048 import Board, Direction

GRID = [[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]]
EMPTY_ROW = [0, 0, 0, 0]


def grid_with(row: int, col: int, value: object) -> list:
    grid = [r[:] for r in GRID]
    grid[row][col] = value
    return grid


def test_round_trips_through_lists_and_hex():
    board = Board(GRID)
    assert board.to_list() == GRID
    assert board.to_hex() == "1100020000000003"
    assert Board.from_hex("1100020000000003") == board
    assert Board.from_hex("0x1100020000000003") == board
    assert Board(board.to_hex()) == board
    assert Board.parse("2 2 . . / 0 4 0 0 / 0 0 0 0 / 0 0 0 8") == board
    assert Board.from_exponents(board.exponents()) == board
    assert board.exponents() == [1, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]
    assert Board(board) == board
    assert Board() == Board([EMPTY_ROW] * 4)
    assert Board(tuple(tuple(r) for r in GRID)) == board


def test_every_tile_up_to_131072():
    big = Board([[131072, 65536, 32768, 2048], EMPTY_ROW, EMPTY_ROW, EMPTY_ROW])
    assert big.to_hex()[:4] == "hgfb"
    assert big.max_tile == 131072
    assert Board.from_hex(big.to_hex()) == big
    merged = Board([[65536, 65536, 0, 0], EMPTY_ROW, EMPTY_ROW, EMPTY_ROW]).move("left")
    assert merged[0, 0] == 131072


def test_moves_and_scores():
    board = Board(GRID)
    left, score = board.move_scored("left")
    assert left.to_list() == [[4, 0, 0, 0], [4, 0, 0, 0], EMPTY_ROW, [8, 0, 0, 0]]
    assert score == 4
    assert board.move(Direction.LEFT) == left
    assert board.move(2) == left
    assert board.move("L") == left
    # The pair nearest the wall merges first, and a tile merges once.
    row = Board([[2, 2, 2, 2], [4, 4, 4, 0], EMPTY_ROW, EMPTY_ROW]).move("right")
    assert row.to_list()[:2] == [[0, 0, 4, 4], [0, 0, 4, 8]]
    # An illegal move gives the same board.
    corner = Board([[2, 0, 0, 0], EMPTY_ROW, EMPTY_ROW, EMPTY_ROW])
    assert corner.move("up") == corner
    assert not corner.can_move("up")
    assert corner.can_move("down")


def test_legal_moves_are_directions_in_order():
    corner = Board([[2, 0, 0, 0], EMPTY_ROW, EMPTY_ROW, EMPTY_ROW])
    moves = corner.legal_moves()
    assert moves == [Direction.DOWN, Direction.RIGHT]
    assert all(isinstance(m, Direction) for m in moves)
    full = Board([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert full.legal_moves() == []
    assert full.is_over
    assert not corner.is_over


def test_spawns_cover_every_empty_cell():
    board = Board(GRID).move("left")
    spawns = board.spawns()
    assert len(spawns) == 2 * board.empty_count
    assert sum(p for _, p in spawns) == pytest.approx(1.0)
    for child, p in spawns:
        assert child.empty_count == board.empty_count - 1
        two = child.tile_sum - board.tile_sum == 2
        assert p == pytest.approx((0.9 if two else 0.1) / board.empty_count)
    assert {child.tile_sum - board.tile_sum for child, _ in spawns} == {2, 4}
    only_twos = board.spawns(p4=0.0)
    assert len(only_twos) == board.empty_count
    full = Board([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert full.spawns() == []
    with pytest.raises(ValueError, match="p4"):
        board.spawns(p4=1.5)


def test_properties_and_indexing():
    board = Board(GRID)
    assert board.max_tile == 8
    assert board.empty_count == 12
    assert board.empty_cells[:3] == [(0, 2), (0, 3), (1, 0)]
    assert len(board.empty_cells) == 12
    assert board.tile_sum == 16
    assert board[0, 1] == 2
    assert board[5] == 4
    assert board[3, 3] == 8
    with pytest.raises(IndexError):
        board[4, 0]
    with pytest.raises(IndexError):
        board[16]
    assert board.with_tile(2, 2, 1024)[2, 2] == 1024
    assert board.with_tile(0, 0, 0)[0, 0] == 0
    with pytest.raises(ValueError, match="row 3, column 3"):
        board.with_tile(2, 2, 3)


def test_equality_hash_repr_str_pickle_copy():
    a, b = Board(GRID), Board(Board(GRID).to_hex())
    assert a == b and hash(a) == hash(b)
    assert a != a.move("left")
    assert a != "not a board"
    assert len({a, b, a.move("left")}) == 2
    assert eval(repr(a), {"Board": Board}) == a
    assert repr(a).startswith("Board([[2, 2, 0, 0]")
    lines = str(a).splitlines()
    assert len(lines) == 4
    assert lines[0].split() == ["2", "2", ".", "."]
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.copy(a) == a and copy.deepcopy(a) == a


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ([[2, 0, 0, 0]] * 3, "expected 4 rows of 4 tiles, found 3 rows"),
        ([[2, 0, 0, 0]] * 5, "found 5 rows"),
        ([[2, 0, 0, 0], [0, 0, 0], EMPTY_ROW, EMPTY_ROW], "row 2 has 3 cells, expected 4"),
        ([[2, 0, 0, 0], EMPTY_ROW, EMPTY_ROW, [0, 0, 0, 0, 0]], "row 4 has 5 cells"),
        (grid_with(1, 2, 3), r'row 2, column 3: "3" is not a tile'),
        (grid_with(0, 0, 1), r'row 1, column 1: "1" is not a tile'),
        (grid_with(3, 0, -2), r'row 4, column 1: "-2" is not a tile'),
        (grid_with(2, 3, 262144), "row 3, column 4: 262144 is above the largest tile, 131072"),
        (grid_with(0, 1, 2**80), "row 1, column 2: .* is above the largest tile"),
        (grid_with(1, 1, 2.0), "row 2, column 2: 2.0 is a float, not an integer"),
        (grid_with(1, 1, 2.5), "row 2, column 2: 2.5 is a float"),
        (grid_with(0, 3, "2"), "row 1, column 4: '2' is a str, not an integer"),
        (grid_with(0, 0, None), "row 1, column 1: None is a NoneType, not an integer"),
        (grid_with(0, 0, True), "row 1, column 1: True is a bool"),
        ([2, 0, 0, 0], "row 1 is not a sequence"),
        (5, "the grid is not a sequence"),
    ],
)
def test_invalid_grids_raise_value_errors_saying_where(grid, message):
    with pytest.raises(ValueError, match=message):
        Board(grid)


def test_invalid_text_forms():
    with pytest.raises(ValueError, match="row 4, column 4"):
        Board.from_hex("000000000000000z")
    with pytest.raises(ValueError, match="not 16 hex digits"):
        Board.from_hex("123")
    with pytest.raises(ValueError, match="wrong shape"):
        Board.parse("2 2 2")
    with pytest.raises(ValueError, match="row 1, column 1"):
        Board("3 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0")
    with pytest.raises(ValueError, match="expected 16 exponents"):
        Board.from_exponents([1, 2])
    with pytest.raises(ValueError, match="row 1, column 2: exponent 18"):
        Board.from_exponents([0, 18] + [0] * 14)


def test_invalid_directions():
    board = Board(GRID)
    with pytest.raises(ValueError, match="unknown direction 'sideways'|unknown direction \"sideways\""):
        board.move("sideways")
    with pytest.raises(ValueError, match="4 is not a move code"):
        board.move(4)
    with pytest.raises(ValueError, match="-1 is not a move code"):
        board.can_move(-1)
    with pytest.raises(TypeError, match="not float"):
        board.move(1.0)
    with pytest.raises(TypeError, match="bool"):
        board.move(True)


def test_numpy_grids_and_directions():
    np = pytest.importorskip("numpy")
    array = np.array(GRID, dtype=np.int64)
    assert Board(array) == Board(GRID)
    assert Board(array.astype(np.uint32)) == Board(GRID)
    assert Board(GRID).move(np.int64(2)) == Board(GRID).move("left")
    with pytest.raises(ValueError, match="row 1, column 1: .* not an integer"):
        Board(array.astype(np.float64))
