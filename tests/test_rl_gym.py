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


@pytest.mark.parametrize("zero_sum", [True, False])
def test_agent_reward_is_its_points_against_a_medium_bot(zero_sum: bool) -> None:
    env = gym_env("basic", 2, seat=1, opponents="medium", zero_sum=zero_sum)
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
    assert result is not None and result.winner == 0  # the random agent lost the hand
    mean = sum(result.scores) / 2 if zero_sum else 0.0
    assert total == result.scores[1] - mean
    assert (total < 0) == zero_sum


def test_defaults_teach() -> None:
    """Default: one hand per episode, zero-sum points, the ``easy`` bot as opponent."""
    env = gym_env("basic", 2)
    assert type(env.bots[1]).__name__ == "CarelessBot"
    assert (env.game.reward, env.game.zero_sum) == ("hand", True)
    wins = losses = 0
    for seed in range(6):
        env.reset(seed=seed)
        rng, total, done = random.Random(seed), 0.0, False
        while not done:
            action = rng.choice(np.flatnonzero(env.action_masks()).tolist())
            _, reward, terminated, truncated, _ = env.step(action)
            total += reward
            done = terminated or truncated
        result = env.game.result
        if result.winner is not None:
            assert (total > 0) == (result.winner == 0) and total != 0
            wins += result.winner == 0
            losses += result.winner != 0
    assert losses > 0


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
