"""Measures of the reinforcement-learning environments (``rummykit.rl``) and their anchors.

- Env steps per second, random legal actions, one agent action per step: our PettingZoo AEC
  environment (2-player ``basic``, ``reward="hand"``) and PettingZoo's ``gin_rummy_v4``
  (``pettingzoo[classic]==1.26.1``, the last release that has it) are driven by the very
  same loop (:func:`aec_steps`: ``agent_iter``, ``last()``, a uniform choice among the
  mask's legal ids with a seeded ``random.Random``, ``step``); RLCard's ``gin-rummy`` env by
  its own step API (``reset``/``step`` with a uniform choice among ``legal_actions``), which
  also builds each step's observation and legal actions.
- Observation building: :meth:`rummykit.rl.observation.Observation.build` over the views met
  along seeded random hands (every seat's view at every step), in microseconds per
  observation.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from rummykit.benchmark.report import OURS, PETTINGZOO, RLCARD, Measure
from rummykit.benchmark.timing import Config, timed

Task = tuple[str, Callable[[], list[Measure]]]


def aec_steps(env: Any, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play random legal actions in a PettingZoo AEC env for ``seconds``; returns (agent
    actions, episodes, elapsed seconds). Episodes are played to their end."""
    import numpy as np

    rng = random.Random(seed)
    randrange = rng.randrange
    flatnonzero = np.flatnonzero
    env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = flatnonzero(obs["action_mask"])
            env.step(int(legal[randrange(len(legal))]))
            steps += 1
        episodes += 1
        if time.perf_counter() >= deadline:
            return steps, episodes, time.perf_counter() - start
        env.reset()


def _env_measure(engine: str, steps: int, episodes: int, elapsed: float,
                 params: dict[str, Any]) -> list[Measure]:
    return [Measure(name="env_steps", engine=engine, unit="steps/s", value=steps / elapsed,
                    params={**params, "steps": steps, "episodes": episodes,
                            "seconds": round(elapsed, 3)})]


# ------------------------------------------------------------------------------ ours


def ours_tasks(cfg: Config) -> list[Task]:
    """Raises ImportError when PettingZoo (the ``rl`` extra) is missing."""
    import pettingzoo  # noqa: F401

    return [
        ("pettingzoo env steps basic 2p", lambda: _our_env(cfg)),
        ("observation build basic 2p", lambda: _observations(cfg, "basic", 2)),
        ("observation build contract 4p", lambda: _observations(cfg, "contract", 4)),
    ]


def _our_env(cfg: Config) -> list[Measure]:
    from rummykit.rl import pettingzoo_env

    env = pettingzoo_env(rules="basic", players=2, reward="hand")
    steps, episodes, elapsed = aec_steps(env, cfg.seconds, cfg.seed)
    return _env_measure(OURS, steps, episodes, elapsed, {
        "rules": "basic", "players": 2, "env": "rummykit.rl.pettingzoo_env(reward='hand')",
        "note": "random legal actions; steps = agent actions", "seed": cfg.seed})


def _observations(cfg: Config, rules: str, players: int) -> list[Measure]:
    from rummykit.rl.game import Game

    game = Game(rules, players, reward="hand")
    rng = random.Random(cfg.seed)
    seen: list[tuple[Any, list[int]]] = []
    limit = 2000 if cfg.quick else 20000
    game.reset(seed=cfg.seed)
    while len(seen) < limit:
        if game.done:
            game.reset()
        totals = list(game.match.totals)
        seen += [(game.seen(s), totals) for s in range(players)]
        game.act(rng.choice(game.legal_ids()))
    build = game.observation.build

    def sweep() -> int:
        for view, totals in seen:
            build(view, totals)
        return len(seen)

    t = timed(cfg.seconds, sweep)
    return [Measure(name="observation_build", engine=OURS, unit="us/observation",
                    value=1e6 / t.rate, params={
                        "rules": rules, "players": players, "views": len(seen),
                        "observations": t.units, "size": game.observation.size,
                        "note": "Observation.build(view, totals) -> new float32 array; "
                                "lower is better", "seconds": round(t.elapsed, 3)})]


# --------------------------------------------------------------------------- anchors


def pettingzoo_tasks(cfg: Config) -> list[Task]:
    """Raises ImportError when ``pettingzoo.classic`` (the ``anchors`` extra) is missing."""
    from pettingzoo.classic import gin_rummy_v4  # noqa: F401

    return [("pettingzoo gin_rummy_v4 env steps", lambda: _gin_env(cfg))]


def _gin_env(cfg: Config) -> list[Measure]:
    import warnings

    from pettingzoo.classic import gin_rummy_v4

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gin_rummy_v4.env()
        steps, episodes, elapsed = aec_steps(env, cfg.seconds, cfg.seed)
    return _env_measure(PETTINGZOO, steps, episodes, elapsed, {
        "game": "gin_rummy_v4", "players": 2, "env": "pettingzoo.classic.gin_rummy_v4.env()",
        "note": "random legal actions; steps = agent actions", "seed": cfg.seed})


def rlcard_env(cfg: Config) -> list[Measure]:
    """RLCard's gin-rummy env stepped with uniform random legal actions."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": cfg.seed})
    rng = random.Random(cfg.seed)
    choice = rng.choice

    def episode() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(choice(list(state["legal_actions"])))
            steps += 1
        return steps

    t = timed(cfg.seconds, episode)
    return _env_measure(RLCARD, t.units, t.batches, t.elapsed, {
        "game": "gin-rummy", "players": 2, "env": "rlcard.make('gin-rummy')",
        "note": "env.reset()/env.step(action) with random legal actions; steps = actions",
        "seed": cfg.seed})
