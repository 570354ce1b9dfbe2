"""ai2048.Env: the Gymnasium API and gymnasium-2048's conventions, with and without gymnasium."""

import subprocess
import sys

import numpy as np
import pytest

import ai2048
from ai2048 import Board, Direction
from ai2048.env import ENV_ID, Env


def test_reset_gives_a_one_hot_observation():
    env = Env()
    obs, info = env.reset(seed=1)
    assert obs.shape == (4, 4, 16) and obs.dtype == np.uint8
    assert (obs.sum(axis=2) == 1).all()
    exps = np.array(env.board.exponents()).reshape(4, 4)
    assert (obs.argmax(axis=2) == exps).all()
    assert (info["board"] == exps).all()
    assert obs[..., 0].sum() == 14
    assert info["total_score"] == 0 and not info["illegal"] and info["is_legal"]
    assert info["action_mask"].dtype == bool and info["action_mask"].shape == (4,)


def test_actions_follow_gymnasium_2048():
    assert Env.ACTIONS == (Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT)
    env = Env()
    for action, direction in enumerate(Env.ACTIONS):
        env.reset(seed=4)
        board = env.board
        if not board.can_move(direction):
            continue
        obs, reward, terminated, truncated, info = env.step(action)
        moved, score = board.move_scored(direction)
        assert reward == score
        assert info["direction"] == direction
        assert env.board.empty_count == moved.empty_count - 1
        assert not truncated
    assert env.action_of(Direction.DOWN) == 2
    assert env.action_of("left") == 3


def test_a_direction_is_taken_by_meaning_not_number():
    a, b = Env(), Env()
    a.reset(seed=8)
    b.reset(seed=8)
    legal = a.board.legal_moves()
    direction = Direction.DOWN if Direction.DOWN in legal else legal[0]
    a.step(direction)
    b.step(Env.ACTIONS.index(direction))
    assert a.board == b.board


def test_rewards_are_merge_scores_and_sum_to_the_score():
    env = Env()
    env.reset(seed=2)
    total, steps = 0.0, 0
    terminated = False
    while not terminated:
        mask = env.action_mask()
        action = int(np.flatnonzero(mask)[0])
        _, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        assert not info["illegal"]
    assert total == env.score == info["total_score"]
    assert info["max"] == env.board.max_tile
    assert env.board.is_over and steps == info["moves"]
    # Once over, any action is illegal and changes nothing.
    board = env.board
    _, reward, terminated, _, info = env.step(0)
    assert reward == 0 and terminated and info["illegal"] and env.board == board


def test_an_illegal_action_changes_nothing():
    env = Env()
    for seed in range(50):
        env.reset(seed=seed)
        mask = env.action_mask()
        if not mask.all():
            break
    board, score = env.board, env.score
    action = int(np.flatnonzero(~mask)[0])
    obs, reward, terminated, truncated, info = env.step(action)
    assert env.board == board and env.score == score
    assert reward == 0 and info["illegal"] and not info["is_legal"] and info["illegal_count"] == 1
    assert not terminated


def test_seeded_episodes_replay():
    a, b = Env(), Env()
    first_a = a.reset(seed=5)[0]
    second_a = a.reset()[0]
    first_b = b.reset(seed=5)[0]
    second_b = b.reset()[0]
    assert (first_a == first_b).all() and (second_a == second_b).all()
    assert a.game.seed == ai2048.derive_seed(5, 1)


def test_tiles_beyond_the_channels_saturate_the_last_one():
    env = Env(channels=2)
    obs, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_mask())[0]))
    obs = env._observation()
    assert obs.shape == (4, 4, 2) and (obs.sum(axis=2) == 1).all()
    # Every tile (2, 4, ...) lands in channel 1; exact exponents stay in info.
    assert (obs[..., 1] == (np.array(env.board.exponents()).reshape(4, 4) > 0)).all()
    assert int(np.array(env.board.exponents()).max()) >= 1


def test_render_and_errors():
    env = Env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text.startswith(str(env.board)) and text.endswith("score 0\n")
    assert Env().render() is None
    with pytest.raises(ValueError, match="render_mode"):
        Env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="channels"):
        Env(channels=1)
    with pytest.raises(ValueError, match="probability of a 4"):
        Env(p4=3)
    with pytest.raises(RuntimeError, match="reset"):
        Env().step(0)
    env.reset(seed=1)
    for bad in (4, -1, "up", 1.5, True):
        with pytest.raises(ValueError, match="invalid action"):
            env.step(bad)
    assert env.step(np.int64(0))[4]["direction"] == Direction.UP
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-3)


def test_registered_with_gymnasium():
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    assert ENV_ID == "ai2048/2048-v0"
    assert ENV_ID in gymnasium.registry
    env = gymnasium.make(ENV_ID)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert env.action_space.n == 4
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    assert env.observation_space.contains(obs)
    check_env(env.unwrapped, skip_render_check=True)
    assert isinstance(env.unwrapped, gymnasium.Env)


def test_works_without_gymnasium():
    code = (
        "import importlib.util, sys\n"
        "_find = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda name, *a: None if name == 'gymnasium' else _find(name, *a)\n"
        "import ai2048\n"
        "from ai2048.env import Env, register\n"
        "assert 'gymnasium' not in sys.modules\n"
        "env = ai2048.Env()\n"
        "assert env.observation_space is None and env.action_space is None\n"
        "obs, info = env.reset(seed=1)\n"
        "obs, reward, terminated, truncated, info = env.step(0)\n"
        "assert obs.shape == (4, 4, 16) and register() is False\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
