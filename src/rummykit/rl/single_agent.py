"""Gymnasium single-agent environment: the agent holds one seat, rummykit bots the others.

Observations are the dict of the PettingZoo environment (``observation``: the flat array of
:mod:`rummykit.rl.observation`; ``action_mask``: legal ids of :mod:`rummykit.rl.actions`),
and ``info["action_mask"]`` / :meth:`RummyGymEnv.action_masks` give the mask too. The bots
(``opponents``: a level ``easy`` .. ``expert`` or a bot name such as ``random`` or
``greedy``; one name for all, or a list per other seat in seat order) move between the
agent's actions. The default opponent is ``easy`` (greedy play that now and then discards
at random: quick to run, beatable, and it punishes a careless agent; ``medium`` was the
default before); a family that encodes itself names its own (gin: ``greedy``, the greedy
gin player of :mod:`rummykit.bots.gin_greedy`). The reward is the agent's real points
(see :mod:`rummykit.rl.game`), including those of hands that end on a bot's move; by
default an episode is one hand and the points are zero-sum, so a lost hand pays less than
zero (``reward="match", zero_sum=False``: the former defaults).

An action outside the mask ends the episode (``terminated``) with ``illegal_reward``
(-100 by default; ``None`` raises ``ValueError`` instead), so that any id of the space is
a valid call, as Gymnasium expects.

>>> env = gym.make(ENV_ID, rules="basic", players=2, opponents="random", reward="hand")
>>> obs, info = env.reset(seed=5)
>>> obs["observation"].shape, int(info["action_mask"].sum())
((1266,), 2)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from rummykit.bots import AnyBot, make_bot_for
from rummykit.core.rules import Rules
from rummykit.display.terms import DEFAULT_RULE_SET
from rummykit.rl.actions import Mask
from rummykit.rl.games import make_game
from rummykit.rl.spaces import ActionIds

Obs = dict[str, np.ndarray[Any, Any]]


class RummyGymEnv(gym.Env[Obs, np.int64]):
    """One seat of a rummykit match, the other seats played by bots."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, rules: str | Rules | Any = DEFAULT_RULE_SET, players: int = 2, *,
                 seat: int = 0,
                 opponents: str | Sequence[str] | None = None,
                 options: Mapping[str, Any] | None = None, reward: str = "hand",
                 zero_sum: bool = True, normalize: bool = False, compact: bool = False,
                 illegal_reward: float | None = -100.0,
                 render_mode: str | None = None) -> None:
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r}: expected ansi or human")
        self.game = make_game(rules, players, options=options, reward=reward,
                              zero_sum=zero_sum, normalize=normalize, compact=compact)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: expected 0..{players - 1}")
        if opponents is None:
            opponents = self.game.default_opponent
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"opponents: expected {players - 1} names, got {len(names)}")
        others = [s for s in range(players) if s != seat]
        self.bots: dict[int, AnyBot] = {s: make_bot_for(name, self.game.rules)
                                        for s, name in zip(others, names, strict=True)}
        self.seat = seat
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        obs = self.game.observation
        size = self.game.num_actions
        self.observation_space = spaces.Dict({  # type: ignore[assignment]
            "observation": spaces.Box(low=np.zeros(obs.size, dtype=np.float32),
                                      high=self.game.high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
        })
        self.action_space = ActionIds(size)
        self._bot_rng = random.Random()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """A new match (or hand); the bots play until the agent is to move."""
        super().reset(seed=seed)
        self.game.reset(int(self.np_random.integers(2**63)))
        self._bot_rng.seed(int(self.np_random.integers(2**63)))
        self._bots_play()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The agent's action, then the bots' moves until it is to move again."""
        game = self.game
        if int(action) not in game.legal_ids():
            if self.illegal_reward is None:
                game.act(int(action))  # raises ValueError naming the legal ids
            return self._observe(), float(self.illegal_reward or 0.0), True, False, \
                {**self._info(), "illegal_action": True}
        game.act(int(action))
        reward = game.rewards[self.seat]
        reward += self._bots_play()
        if self.render_mode == "human":
            self.render()
        return self._observe(), float(reward), game.done and not game.truncated, \
            game.truncated, self._info()

    def _bots_play(self) -> float:
        """The bots move until the agent is to move or the episode ends; the agent's points."""
        game = self.game
        gained = 0.0
        while not game.done and game.to_move != self.seat:
            seat = game.to_move
            game.play(self.bots[seat].choose(game.seen(seat), self._bot_rng))
            gained += game.rewards[self.seat]
        return gained

    def _observe(self) -> Obs:
        return {"observation": self.game.observe(self.seat),
                "action_mask": self.game.mask(self.seat)}

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.game.mask(self.seat)}

    def action_masks(self) -> Mask:
        """The legal-action mask (the ``sb3-contrib`` MaskablePPO convention)."""
        mask: Mask = self.game.mask(self.seat)
        return mask

    def render(self) -> str | None:
        """The hand in words as the agent's seat sees it."""
        text: str = self.game.describe(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


#: the id under which :class:`RummyGymEnv` is registered with ``gymnasium.make``
ENV_ID = "rummykit/Rummy-v0"
if ENV_ID not in gym.registry:
    gym.register(ENV_ID, entry_point="rummykit.rl.single_agent:RummyGymEnv")
