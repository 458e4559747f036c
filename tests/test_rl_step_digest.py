"""Every step the envs return, pinned: seeded episodes through the PettingZoo env (wrapped
and unwrapped) hashed step by step — the agent selected, its observation and mask, its
reward, termination and truncation, and the other seat's observation and mask.

The digests were made by the code before the step-speed work (main at 9478444, branch
rl-speed2), so any change to what the envs return (an observation entry, a mask bit, a
reward, an episode's end) changes a digest here. A deliberate change to the observation or
the action ids must re-pin them and say so."""

from __future__ import annotations

import hashlib
import random
import struct

import numpy as np
import pytest

from rummykit.rl import pettingzoo_env

#: (rule set, players): (digest, agent actions taken) over EPISODES seeded hands
PINNED = {
    ("basic", 2): ("521109bda396ad34", 2266),
    ("basic", 3): ("79430e3c25c3e393", 1725),
    ("traditional", 4): ("fa05eb0091bd34eb", 519),
    ("gin", 2): ("7552564f184636ae", 368),
    ("oklahoma", 2): ("b88f516acd714bc1", 368),
    ("contract", 3): ("de2768da1ec4914e", 808),
}
EPISODES = 3
SEED = 7


def digest(rules: str, players: int, *, wrapped: bool) -> tuple[str, int]:
    """The digest of :data:`EPISODES` seeded hands with random legal actions."""
    env = pettingzoo_env(rules=rules, players=players, wrapped=wrapped)
    agents = env.possible_agents
    rng = random.Random(SEED)
    sha = hashlib.sha256()
    env.reset(seed=SEED)
    steps = 0
    for _ in range(EPISODES):
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            sha.update(agent.encode())
            sha.update(obs["observation"].tobytes())
            sha.update(obs["action_mask"].tobytes())
            sha.update(struct.pack("<d??", reward, terminated, truncated))
            other = env.observe(agents[(agents.index(agent) + 1) % players])
            sha.update(other["observation"].tobytes())
            sha.update(other["action_mask"].tobytes())
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        env.reset()
    return sha.hexdigest()[:16], steps


@pytest.mark.parametrize(("rules", "players"), list(PINNED))
def test_the_envs_return_what_they_returned_before(rules: str, players: int) -> None:
    expected = PINNED[rules, players]
    assert digest(rules, players, wrapped=False) == expected
    if rules in ("basic", "gin"):  # the benchmark's envs: the wrappers change nothing
        assert digest(rules, players, wrapped=True) == expected


def test_the_digest_sees_one_entry_changed() -> None:
    """The digest reads every observation entry: one entry changed changes it."""
    env = pettingzoo_env(rules="basic", players=2, wrapped=False)
    env.reset(seed=SEED)
    obs = env.last()[0]
    assert obs is not None
    board = obs["observation"]
    before = hashlib.sha256(board.tobytes()).hexdigest()
    board[-1] += 1.0
    assert hashlib.sha256(board.tobytes()).hexdigest() != before
