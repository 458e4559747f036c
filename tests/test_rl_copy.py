"""Environments copied mid-hand (``copy.deepcopy``, as tree searches do) and pickled (as
process pools do) play on exactly as the original, and share nothing with it."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

from rummykit.rl import gym_env, pettingzoo_env
from rummykit.variants.registry import all_rule_set_names

COPIES = {"deepcopy": copy.deepcopy, "pickle": lambda env: pickle.loads(pickle.dumps(env))}


def _players(rules: str) -> int:
    return 3 if rules == "contract" else 2


def _legal(obs: dict[str, Any], rng: random.Random) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.randrange(len(legal))])


def _play_on(env: Any, seed: int, steps: int) -> list[tuple[Any, ...]]:
    """What the env shows over ``steps`` more steps of a seeded random legal player."""
    rng = random.Random(seed)
    seen = []
    for _ in range(steps):
        if not env.agents:
            break
        agent = env.agent_selection
        obs, reward, terminated, truncated, _ = env.last()
        seen.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                     terminated, truncated))
        env.step(None if terminated or truncated else _legal(obs, rng))
    return seen


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("rules", all_rule_set_names())
def test_a_copied_pettingzoo_env_plays_on_as_the_original(rules: str, how: str) -> None:
    env = pettingzoo_env(rules, _players(rules))
    env.reset(seed=9)
    _play_on(env, 1, 12)  # into the hand: melds, a rebuilt observation memory
    twin = COPIES[how](env)
    before = env.observe(env.agent_selection)["observation"].copy()
    theirs = _play_on(twin, 2, 400)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], before)  # untouched
    ours = _play_on(env, 2, 400)
    assert len(ours) > 20 and ours == theirs


@pytest.mark.parametrize("rules", all_rule_set_names())
def test_a_copied_gym_env_plays_on_as_the_original(rules: str) -> None:
    env = gym_env(rules, _players(rules), opponents="random")
    obs, _ = env.reset(seed=5)
    rng = random.Random(3)
    for _ in range(4):
        obs, *_ = env.step(_legal(obs, rng))
    twin = copy.deepcopy(env)
    lines = []
    for each in (twin, env):
        rng, now, steps = random.Random(7), obs, []
        for _ in range(200):
            now, reward, terminated, truncated, _ = each.step(_legal(now, rng))
            steps.append((now["observation"].tobytes(), reward, terminated, truncated))
            if terminated or truncated:
                break
        lines.append(steps)
    assert len(lines[0]) > 5 and lines[0] == lines[1]
