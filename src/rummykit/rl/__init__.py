"""Interfaces for reinforcement learning: action ids, observations, PettingZoo and Gymnasium
environments (ARCHITECTURE.md §1: above the core, which never imports this package).

Seats see only their :class:`~rummykit.core.views.PlayerView` (and the public match totals);
a family with its own hand (gin) only its own view, through its encoding
(:mod:`rummykit.rl.encodings`).
Importing this package needs only numpy; the environments import PettingZoo or Gymnasium
when they are made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rummykit.extras import MissingExtraError, require

try:
    import numpy  # noqa: F401  (the rl extra; actions and observations are numpy arrays)
except ImportError:
    raise MissingExtraError("rl", "numpy", "rummykit.rl") from None

from rummykit.core.rules import Rules
from rummykit.display.terms import DEFAULT_RULE_SET
from rummykit.rl.actions import ActionSpace, Decision
from rummykit.rl.observation import Observation

__all__ = ["ActionSpace", "Decision", "Observation", "gym_env", "pettingzoo_env"]


def pettingzoo_env(rules: str | Rules | Any = DEFAULT_RULE_SET, players: int = 2, *,
                   options: Mapping[str, Any] | None = None, reward: str = "hand",
                   zero_sum: bool = True, normalize: bool = False, compact: bool = False,
                   wrapped: bool = True, render_mode: str | None = None) -> Any:
    """The PettingZoo AEC environment of :mod:`rummykit.rl.aec_env`: in PettingZoo's
    standard wrappers (``aec_env.env``), or unwrapped with ``wrapped=False``."""
    require("rl", "pettingzoo", what="rummykit.rl.pettingzoo_env")
    from rummykit.rl import aec_env

    make = aec_env.env if wrapped else aec_env.raw_env
    return make(rules, players, options=options, reward=reward, zero_sum=zero_sum,
                normalize=normalize, compact=compact, render_mode=render_mode)


def gym_env(rules: str | Rules | Any = DEFAULT_RULE_SET, players: int = 2, *, seat: int = 0,
            opponents: str | Sequence[str] | None = None, options: Mapping[str, Any] | None = None,
            reward: str = "hand", zero_sum: bool = True, normalize: bool = False,
            compact: bool = False, illegal_reward: float | None = -100.0,
            render_mode: str | None = None) -> Any:
    """The Gymnasium single-agent environment of :mod:`rummykit.rl.single_agent` (also
    made by ``gymnasium.make("rummykit/Rummy-v0", rules=..., ...)``); ``opponents`` None:
    the family's default (``easy``; ``greedy`` in gin)."""
    require("rl", "gymnasium", what="rummykit.rl.gym_env")
    from rummykit.rl import single_agent

    return single_agent.RummyGymEnv(rules, players, seat=seat, opponents=opponents,
                                    options=options, reward=reward, zero_sum=zero_sum,
                                    normalize=normalize, compact=compact,
                                    illegal_reward=illegal_reward,
                                    render_mode=render_mode)
