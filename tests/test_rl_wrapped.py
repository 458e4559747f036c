"""The wrapped env's wrappers hold the env's own step attributes (``aec_env.FORWARDED``)
instead of forwarding them: they must read exactly what forwarding would read, at every
step and after an illegal action, and refuse them before ``reset``."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from rummykit.rl import pettingzoo_env
from rummykit.rl.aec_env import FORWARDED


def _levels(env):
    """The three wrappers, outermost first, and the env inside them."""
    return [env, env.env, env.env.env], env.unwrapped


def _same(env) -> None:
    wrappers, inner = _levels(env)
    for wrapper in wrappers:
        for name in FORWARDED:
            assert getattr(wrapper, name) is getattr(inner, name), (type(wrapper), name)


@pytest.mark.parametrize("rules", ["basic", "gin"])
def test_every_level_reads_the_envs_objects_at_every_step(rules: str) -> None:
    env = pettingzoo_env(rules=rules, players=2)
    env.reset(seed=4)
    rng = random.Random(4)
    seen = set()
    for _ in range(2):
        for agent in env.agent_iter():
            _same(env)
            seen.add(agent)
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        _same(env)
        assert env.agents == []
        env.reset()
    assert seen == {"player_0", "player_1"}


def test_the_outer_wrapper_refuses_them_before_its_reset() -> None:
    env = pettingzoo_env(rules="basic", players=2)
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        _ = env.agents
    env.unwrapped.reset(seed=1)  # the env reset behind the wrapper's back
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        _ = env.agent_selection
    assert env.env.agent_selection == env.unwrapped.agent_selection
    env.reset(seed=1)
    _same(env)


def test_an_illegal_action_replaces_the_dicts_at_every_level() -> None:
    env = pettingzoo_env(rules="gin", players=2)
    env.reset(seed=2)
    agent = env.agent_selection
    before = env.terminations
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns of the illegal move
        env.step(240)  # a meld id: never legal at the offer
    assert env.terminations is not before
    _same(env)
    assert all(env.terminations.values()) and env.rewards[agent] == -1.0
    env.step(None)
    env.step(None)
    assert env.agents == [] and env.terminations == {}
    _same(env)

