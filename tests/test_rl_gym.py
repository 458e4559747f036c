"""The Gymnasium single-agent environment passes Gymnasium's ``check_env`` and pays the
agent's real points, bots playing the other seats."""

from __future__ import annotations

import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from rummykit.rl import gym_env
from rummykit.rl.single_agent import ENV_ID


@pytest.mark.parametrize(("rules", "players", "opponents"), [
    ("basic", 2, "random"), ("basic", 4, "easy"), ("traditional", 3, "greedy"),
    ("contract", 3, "greedy")])
def test_check_env(rules: str, players: int, opponents: str) -> None:
    env = gym.make(ENV_ID, rules=rules, players=players, opponents=opponents, reward="hand")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either
        check_env(env.unwrapped)


def test_agent_reward_is_its_points_against_a_medium_bot() -> None:
    env = gym_env("basic", 2, seat=1, opponents="medium", reward="hand")
    obs, info = env.reset(seed=8)
    rng = random.Random(8)
    total, done = 0.0, False
    while not done:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        action = rng.choice(np.flatnonzero(env.action_masks()).tolist())
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    result = env.unwrapped.game.result
    assert result is not None and total == result.scores[1]


def test_illegal_action_ends_the_episode_or_raises() -> None:
    env = gym_env("basic", 2, opponents="random")
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(100)
    assert (reward, terminated, info["illegal_action"]) == (-100.0, True, True)
    strict = gym_env("basic", 2, opponents="random", illegal_reward=None)
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(100)


def test_opponents_per_seat_and_render() -> None:
    env = gym_env("basic", 3, seat=2, opponents=["random", "greedy"], render_mode="ansi")
    env.reset(seed=3)
    assert env.unwrapped.game.to_move == 2
    assert "hand sizes" in env.render()
    with pytest.raises(ValueError, match="expected 2 names"):
        gym_env("basic", 3, opponents=["random"])
