"""ai2048.Network: training, files, values and moves, and players that use a network."""

from __future__ import annotations

from pathlib import Path

import pytest

from ai2048 import Board, Direction, Game, Network, Player, derive_seed


def trained(games: int = 200, seed: int = 0) -> Network:
    net = Network("small")
    net.train(games, seed=seed)
    return net


def test_a_new_network_has_its_tuples_and_no_games() -> None:
    net = Network("0,1,2,3;4,5,6,7")
    assert net.tuples == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert net.stage_tuples == [[[0, 1, 2, 3], [4, 5, 6, 7]]]
    assert net.weight_count == 2 * 16**4
    assert net.games == 0
    assert net.value(Board()) == 0.0
    assert repr(net) == 'Network("0,1,2,3;4,5,6,7", games=0, weights=131072)'


def test_training_returns_the_learning_curve_and_learns() -> None:
    net = Network("small")
    curve = net.train(400, seed=0, learning="td")
    assert set(curve) == {"score", "max_tile", "moves"}
    assert [len(v) for v in curve.values()] == [400, 400, 400]
    assert net.games == 400
    first, last = sum(curve["score"][:100]), sum(curve["score"][300:])
    assert last > 1.5 * first


def test_training_in_parts_is_training_at_once(tmp_path: Path) -> None:
    whole = Network("small")
    all_scores = whole.train(30, seed=3)["score"]
    part = Network("small")
    scores = part.train(10, seed=3)["score"]
    path = tmp_path / "part.bin"
    part.save(path)
    part = Network.load(path)
    assert part.games == 10
    scores += part.train(20, seed=3)["score"]
    assert scores == all_scores
    board = Board("2 4 8 16/0 0 0 32/0 0 2 0/4 0 0 0")
    assert part.value(board) == whole.value(board)


def test_values_and_moves() -> None:
    net = trained()
    board = Board("2 2 4 8/0 0 0 0/0 0 0 0/0 0 0 2")
    direction, total = net.best_move(board)
    assert isinstance(direction, Direction)
    after, score = board.move_scored(direction)
    # The total is the move's score plus the value of the board it leaves, and the
    # evaluation adds the score the tiles imply.
    assert total == pytest.approx(score + net.value(after), rel=1e-5)
    assert net.evaluate(after) > net.value(after)
    lost = Board("2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2")
    assert net.best_move(lost) == (None, 0.0)


def test_players_play_with_a_saved_network(tmp_path: Path) -> None:
    path = tmp_path / "net.bin"
    trained(300).save(path)

    def total(player: Player) -> int:
        score = 0
        for i in range(10):
            game = Game(derive_seed(5, i))
            while not game.is_over:
                game.play(player.best_move(game.board).direction)
            score += game.score
        return score

    # Against greedy's hand-made evaluation, whatever network the build has.
    # Measured: 82760 against 42520 over these ten games.
    hand_made = total(Player("greedy", eval="simple"))
    assert total(Player("greedy", network=str(path))) > 1.5 * hand_made
    board = Board("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2")
    assert Player("expectimax", depth=1, network=str(path)).best_move(board).direction is not None
    with pytest.raises(ValueError, match="the network is the evaluation"):
        Player("greedy", network=str(path), eval="snake")


def test_bad_arguments_and_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="tuples: unknown tuple set"):
        Network("huge")
    with pytest.raises(ValueError, match="cell 1 comes twice"):
        Network("0,1,1")
    with pytest.raises(ValueError, match="alpha must be above 0"):
        Network("small").train(1, alpha=0)
    with pytest.raises(ValueError, match='unknown learning "sgd": expected td or tc'):
        Network("small").train(1, learning="sgd")
    with pytest.raises(ValueError, match="threads must be from 1 to 1024, not 0"):
        Network("small").train(1, threads=0)
    with pytest.raises(ValueError, match="restart must be above 0 and below 1"):
        Network("small").train(1, restart=1.5)
    with pytest.raises(ValueError, match="restart must be above 0 and below 1"):
        Network("small").train(1, restart=0.0)
    with pytest.raises(ValueError, match="invalid rules"):
        Network("small").train(1, p4=2)
    with pytest.raises(OSError):
        Network("0,1").save(tmp_path / "missing" / "net.bin")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(OSError, match="cannot load"):
        Network.load(tmp_path / "missing.bin")
    corrupt = tmp_path / "corrupt.bin"
    corrupt.write_bytes(b"ai2048nt\x01\x00\x00\x00")
    with pytest.raises(ValueError, match="corrupt.bin: the network file is corrupt: the file ends in the header"):
        Network.load(corrupt)
    with pytest.raises(ValueError, match="not an ai2048 n-tuple network"):
        Network.load(Path(__file__))


def test_threads_and_restarts_train_every_game_once() -> None:
    net = Network("small")
    curve = net.train(30, seed=1, threads=2, restart=0.5)
    assert net.games == 30
    assert len(curve["score"]) == 30
    # A network learning plainly may go on with temporal coherence (Guei et al.'s recipe).
    td = Network("small")
    td.train(5, learning="td")
    td.train(5, learning="tc")
    assert td.games == 10


def test_td_lambda_trains_and_checks_its_arguments() -> None:
    net = Network("small")
    net.train(10, steps=5, lambda_=0.5)
    assert net.games == 10
    with pytest.raises(ValueError, match="steps must be from 1 to 64, not 0"):
        net.train(1, steps=0)
    with pytest.raises(ValueError, match="lambda_ must be from 0 to 1"):
        net.train(1, lambda_=2.0)


def test_searched_training_plays_longer_games_and_checks_its_depth() -> None:
    greedy = Network("small").train(5, seed=3)
    searched = Network("small").train(5, seed=3, search=1)
    assert sum(searched["score"]) > sum(greedy["score"])
    with pytest.raises(ValueError, match="search must be from 0 to 2, not 3"):
        Network("small").train(1, search=3)


def test_a_packed_network_loads_and_trains_on(tmp_path: Path) -> None:
    import subprocess
    import shutil

    net = trained(50)
    trained_path = tmp_path / "net.bin"
    net.save(trained_path)
    binary = shutil.which("ai2048") or str(Path(__file__).resolve().parents[3] / "target" / "debug" / "ai2048")
    if not Path(binary).exists():
        pytest.skip("the ai2048 binary is not built")
    packed = tmp_path / "net.np"
    subprocess.run([binary, "net", "pack", str(trained_path), str(packed), "--level", "1"], check=True, capture_output=True)
    back = Network.load(packed)
    assert back.games == 50
    board = Board("2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 2")
    assert back.value(board) == pytest.approx(net.value(board), abs=2.0)
    back.train(5)
    assert back.games == 55


def test_stages_and_an_optimistic_start_make_a_new_network() -> None:
    one = Network("small")
    two = Network("small", stages="256", init=5.0)
    assert two.weight_count == 2 * one.weight_count
    assert (one.stages, two.stages) == ("", "256")
    assert two.value(Board()) == pytest.approx(5.0)
    assert two.value(Board([[512, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])) == pytest.approx(5.0)
    for bad, message in [({"stages": "x"}, "stages"), ({"init": float("nan")}, "init")]:
        with pytest.raises(ValueError, match=message):
            Network("small", **bad)


def test_the_carousel_goes_round_its_stages_and_stays_with_the_network(tmp_path: Path) -> None:
    net = Network("small")
    assert net.carousel is None
    net.train(30, seed=4, carousel="256,512")
    pools = net.carousel
    assert pools is not None and pools.startswith("256: "), pools
    path = tmp_path / "carousel.bin"
    net.save(path)
    again = Network.load(path)
    assert again.carousel == pools
    again.train(5, seed=4, carousel="256,512")
    with pytest.raises(ValueError, match="goes round the stages 256,512 already"):
        again.train(1, carousel="1024")
    with pytest.raises(ValueError, match="carousel"):
        Network("small").train(1, carousel="")


def test_pools_by_fills_the_carousel_from_another_players_games() -> None:
    net = Network("small")
    net.train(0, carousel="128,256", pools_by="greedy:eval=heuristic", pool_games=4)
    # Each of these four games makes a 128 and a 256, entering both stages once.
    assert net.carousel == "128: 4 of 4 entries; 256: 4 of 4 entries"
    same = Network("small")
    same.train(0, carousel="128,256", pools_by="greedy:eval=heuristic", pool_games=4, threads=2)
    assert same.carousel == net.carousel
    # Another call adds four games' entries; training games add theirs after.
    net.train(0, pools_by="greedy:eval=heuristic", pool_games=4)
    assert net.carousel == "128: 8 of 8 entries; 256: 8 of 8 entries"
    net.train(3, seed=1)
    assert net.games == 3 and net.carousel != "128: 8 of 8 entries; 256: 8 of 8 entries"
    for bad, message in [
        ({"pools_by": "greedy"}, "give carousel"),
        ({"carousel": "256", "pools_by": "nobody"}, "nobody"),
        ({"carousel": "256", "pools_by": "random", "pool_games": 0}, "pool_games"),
    ]:
        with pytest.raises(ValueError, match=message):
            Network("small").train(1, **bad)


def test_a_policy_plays_the_training_games() -> None:
    net = Network("small")
    played = net.train(3, seed=2, policy="greedy:eval=simple")
    # On one thread the same games, the same network; the network's own are others.
    same = Network("small")
    assert same.train(3, seed=2, policy="greedy:eval=simple") == played
    assert Network("small").train(3, seed=2) != played
    assert net.value("2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0") == same.value("2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0")
    for bad, message in [
        ({"policy": "nobody"}, "nobody"),
        ({"policy": "greedy", "search": 1}, "search must be 0"),
    ]:
        with pytest.raises(ValueError, match=message):
            Network("small").train(1, **bad)
