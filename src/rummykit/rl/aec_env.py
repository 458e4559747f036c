"""PettingZoo AEC environment: every rule set, 2-8 players, a whole match or one hand.

A family that encodes itself (gin, oklahoma: :mod:`rummykit.rl.own_game`) has its own
action ids and observation parts; everything below holds for it too.

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Each observation is a dict:
``observation`` (the flat ``float32`` array of :mod:`rummykit.rl.observation`) and
``action_mask`` (``int8``, the legal ids of :mod:`rummykit.rl.actions` for the agent to
move, all zero for the others). A ``meld`` of several groups (going down in contract) is
one action per group by the same agent (the two-step decomposition of
:mod:`rummykit.rl.actions`). An illegal action raises ``ValueError`` naming the legal ones.

Rewards are real points (:mod:`rummykit.rl.game`), zero-sum by default (a lost hand pays
less than zero; ``zero_sum=False``: the raw points): with ``reward="hand"`` (the default) an
episode is one hand, ending with its scores (a hand stopped by the ``max_turns_per_hand``
safety valve is a truncation); with ``reward="match"`` each hand's scores come as the hand
ends and the episode ends with the match. ``normalize=True`` scales observations into
[0, 1]; ``compact=True`` numbers actions in the compact space (:mod:`rummykit.rl.compact`).
Make it with :func:`env` (PettingZoo's classic-env wrappers, as ``gin_rummy_v4``'s ``env()``
applies them) or :func:`raw_env` (unwrapped: it raises ``ValueError`` on an
illegal action, naming the legal ones); :func:`rummykit.rl.pettingzoo_env` is either.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rummykit.core.rules import Rules
from rummykit.display.terms import DEFAULT_RULE_SET
from rummykit.rl.games import make_game
from rummykit.rl.spaces import ActionIds

ObsDict = dict[str, np.ndarray[Any, Any]]


class RummyAECEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """The AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "rummykit_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, rules: str | Rules | Any = DEFAULT_RULE_SET, players: int = 2, *,
                 options: Mapping[str, Any] | None = None, reward: str = "hand",
                 zero_sum: bool = True, normalize: bool = False, compact: bool = False,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r}: expected ansi or human")
        self.game = make_game(rules, players, options=options, reward=reward,
                              zero_sum=zero_sum, normalize=normalize, compact=compact)
        self.render_mode = render_mode
        self.possible_agents = list(self.game.names)
        obs = self.game.observation
        size = self.game.num_actions
        observation = spaces.Dict({
            "observation": spaces.Box(low=np.zeros(obs.size, dtype=np.float32),
                                      high=self.game.high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: ActionIds(size) for a in self.possible_agents}
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []  # until reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match (a seed makes it reproducible); ``options`` are not used."""
        self.game.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._paid = False
        self.agent_selection = self.agents[self.game.to_move]

    def observe(self, agent: str) -> ObsDict:
        if not self.agents:
            raise RuntimeError("no agent is playing: call reset() to start a match")
        if agent == self.agent_selection and not self.game.done:  # the step loop's case
            observation, mask = self.game.observe_to_move()
            return {"observation": observation, "action_mask": mask}
        seat = self._seat[agent]
        return {"observation": self.game.observe(seat), "action_mask": self.game.mask(seat)}

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool,
                                                  dict[str, Any]]:
        """The agent to move's observation, cumulative reward, terminated, truncated and
        info (PettingZoo's ``last``, with the step loop's observation made in one call)."""
        agent = self.agent_selection
        game = self.game
        observation: ObsDict | None
        if not observe:
            observation = None
        elif self.agents and not game.done:  # the agent selected is the seat to move
            board, mask = game.observe_to_move()
            observation = {"observation": board, "action_mask": mask}
        else:
            observation = self.observe(agent)
        return (observation, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: int | None) -> None:
        if not self.agents:
            raise RuntimeError("no agent is playing: call reset() to start a match")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: expected an action id, got None")
        game = self.game
        self._cumulative_rewards[agent] = 0.0
        game.act(int(action))
        paid = game.rewards is not game.no_rewards and any(game.rewards)
        if paid or self._paid:  # rewards come only as hands end: mostly all zero
            for name, reward in zip(self.agents, game.rewards, strict=True):
                self.rewards[name] = reward
            self._paid = paid
        if game.done:
            ended = self.truncations if game.truncated else self.terminations
            for name in self.agents:
                ended[name] = True
        else:  # the hand's seat to move (an int attribute of every family's hand)
            selected = self.agents[game.state.to_move]
            if selected is not agent:  # set only when it changes (the wrappers get it too)
                self.agent_selection = selected
        if paid:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The hand in words, as the agent to move sees it (``ansi``: returned; ``human``:
        printed)."""
        text: str = self.game.describe()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


raw_env = RummyAECEnv

#: the reward of an illegal action under :func:`env` (PettingZoo's classic envs' value)
ILLEGAL_REWARD = -1.0


#: the attributes PettingZoo's ``BaseWrapper`` forwards to the env on every step
#: (``agent_iter``, ``last`` and the wrappers' ``step`` read them)
FORWARDED = frozenset(("agents", "agent_selection", "rewards", "_cumulative_rewards",
                       "terminations", "truncations", "infos"))


class WrappedRummyAECEnv(RummyAECEnv):
    """:class:`RummyAECEnv` inside the standard wrappers (:func:`env`): every attribute of
    :data:`FORWARDED` it is given is given to its wrappers too, so that they read it as
    their own instead of forwarding it.

    ``BaseWrapper.__getattr__`` forwards what a wrapper lacks to the env it wraps; on
    Python 3.11 each forwarded read first fails on the wrapper, building and dropping an
    ``AttributeError``, at each of the three levels (about 280,000 instructions a step,
    two thirds of a wrapped step). The wrappers hold the env's very objects (the same
    dicts and lists, the same agent name), so what they read is what forwarding would
    give; the wrapper outside (``OrderEnforcingWrapper``, which refuses these reads before
    ``reset``) gets them once it has been reset."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._wrappers: tuple[Any, ...] = ()
        self._outer: Any = None
        super().__init__(*args, **kwargs)

    def wear(self, inner: tuple[Any, ...], outer: Any) -> None:
        """Give :data:`FORWARDED` to the wrappers ``inner`` from now on, and to ``outer``
        once it has been reset."""
        self._wrappers = inner
        self._outer = outer

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name in FORWARDED:
            for wrapper in self._wrappers:
                object.__setattr__(wrapper, name, value)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        outer = self._outer
        if outer is not None and vars(outer).get("_has_reset"):  # reset through it
            self._wrappers = (*self._wrappers, outer)
            self._outer = None
        super().reset(seed, options)


def env(*args: Any, illegal_reward: float = ILLEGAL_REWARD, **kwargs: Any) -> Any:
    """The AEC environment in PettingZoo's standard wrappers, applied as ``gin_rummy_v4``'s
    ``env()`` applies them: an illegal action ends the episode with ``illegal_reward`` for
    its agent (``TerminateIllegalWrapper``), an id outside the space fails an assertion
    (``AssertOutOfBoundsWrapper``), and calls out of order are refused
    (``OrderEnforcingWrapper``). The env inside is a :class:`WrappedRummyAECEnv`, which
    hands the wrappers its step attributes instead of having them forwarded. Arguments:
    those of :class:`RummyAECEnv`.

    >>> wrapped = env(rules="basic", players=2)
    >>> wrapped.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = wrapped.last()
    >>> wrapped.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
    ('player_1', (1266,), 2)
    """
    inner = WrappedRummyAECEnv(*args, **kwargs)
    illegal = wrappers.TerminateIllegalWrapper(inner, illegal_reward=illegal_reward)
    bounds = wrappers.AssertOutOfBoundsWrapper(illegal)
    outer = wrappers.OrderEnforcingWrapper(bounds)
    inner.wear((illegal, bounds), outer)
    return outer
