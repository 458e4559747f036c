"""Measures of the reinforcement-learning environments (``rummykit.rl``) and their anchors.

- Env steps per second, random legal actions, one agent action per step, each env as its
  public ``env()`` constructor returns it, which is how a researcher meets it: our
  PettingZoo AEC environments (:func:`rummykit.rl.aec_env.env` with their defaults: the
  default rule set, 2-player ``basic``, and the rule set whose family names
  ``gin_rummy_v4`` as the same game, :func:`anchor_rule_set`: ``gin``) and PettingZoo's
  ``gin_rummy_v4`` (``pettingzoo[classic]==1.26.1``, the last
  release that has it; ``gin_rummy_v4.env()``) both wear PettingZoo's standard wrappers
  applied the same way (``TerminateIllegalWrapper``, then ``AssertOutOfBoundsWrapper``, then
  ``OrderEnforcingWrapper``), and are driven by the very same loop (:class:`AECRunner`:
  ``agent_iter``, ``last()``, a uniform choice among the mask's legal ids, ``step``);
  RLCard's ``gin-rummy`` env has no ``last()`` nor mask, so :class:`RLCardRunner` runs the
  same shape with its own API: its ``step`` returns the next player's state (observation
  and ``legal_actions``, what ``last()`` returns), and a uniform choice among
  ``legal_actions`` is the next action. So every engine's step pays for building the next
  observation and legal set and for sampling a legal action. The legal ids are listed by
  reading the mask's 0/1 ``int8`` bytes as booleans (a view, no copy) and calling
  ``nonzero``, numpy's cheapest listing for both masks, then a seeded ``random.Random``
  picks one. The engines take turns in slices (:data:`ROUNDS`), so that a shared machine's
  load changing during the run weighs on all of them alike.
- Observation building: :meth:`rummykit.rl.observation.Observation.build` over the views met
  along seeded random hands (every seat's view at every step), in microseconds per
  observation.

``python -m rummykit.benchmark.rl_envs [--seconds S] [--unwrapped] [--floor] [--cpu]`` runs
the env-steps measure alone and prints one JSON line per env (steps/s and microseconds per
step), then the ratios
(``--unwrapped`` adds our envs without the wrappers; ``--floor`` adds :func:`idle_env`, an
env that does nothing, in the same wrappers: the most steps/s the wrappers leave to an
env whose attributes they forward, which ours no longer are
(:class:`rummykit.rl.aec_env.WrappedRummyAECEnv` hands them its step attributes);
``--cpu`` times each env by the process's CPU time, so that the other processes of a
loaded machine do not count).

``--steps N --env NAME`` runs exactly N agent steps of one env (:func:`counted_envs`) with the
same loop and prints them: a fixed amount of work, for counting instructions, which the
machine's load does not move (``valgrind --tool=callgrind`` at two step counts; the
difference of the instructions over the difference of the steps is one step).
"""

from __future__ import annotations

import contextlib
import random
import statistics
import time
from collections.abc import Callable
from typing import Any, ClassVar

from rummykit.benchmark.report import OURS, PETTINGZOO, RLCARD, Measure
from rummykit.benchmark.timing import Config, timed
from rummykit.display.terms import DEFAULT_RULE_SET

Task = tuple[str, Callable[[], list[Measure]]]


class AECRunner:
    """Random legal actions in a PettingZoo AEC env, in slices of whole episodes, always
    with the same loop (``agent_iter``, ``last()``, a uniform choice among the mask's legal
    ids, ``step``)."""

    def __init__(self, env: Any, seed: int) -> None:
        self.env = env
        self.rng = random.Random(seed)
        env.reset(seed=seed)

    def run(self, seconds: float) -> int:
        """Whole episodes until ``seconds`` have passed; the agent actions taken."""
        steps = 0
        deadline = time.perf_counter() + seconds
        while True:
            steps += self._episode(None)
            self.env.reset()
            if time.perf_counter() >= deadline:
                return steps

    def steps(self, count: int) -> int:
        """Exactly ``count`` agent actions with :meth:`run`'s loop (a new episode whenever
        one ends): a fixed amount of work, for counting instructions; the actions taken."""
        steps = self._episode(count) if count > 0 else 0
        while steps < count:
            self.env.reset()
            steps += self._episode(count - steps)
        return steps

    def _episode(self, most: int | None) -> int:
        """The episode in play to its end, or until ``most`` agent actions; how many."""
        import numpy as np

        env = self.env
        randrange = self.rng.randrange
        as_bool = np.bool_
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].view(as_bool).nonzero()[0]
            env.step(int(legal[randrange(len(legal))]))
            steps += 1
            if steps == most:
                break
        return steps


class RLCardRunner:
    """RLCard's gin-rummy env stepped with uniform random legal actions, in slices of whole
    episodes (its ``reset``/``step`` build each step's observation and legal actions)."""

    def __init__(self, seed: int) -> None:
        import rlcard

        self.env = rlcard.make("gin-rummy", config={"seed": seed})
        self.rng = random.Random(seed)

    def run(self, seconds: float) -> int:
        env = self.env
        choice = self.rng.choice
        steps = 0
        deadline = time.perf_counter() + seconds
        while True:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(choice(list(state["legal_actions"])))
                steps += 1
            if time.perf_counter() >= deadline:
                return steps


# ------------------------------------------------------------------------------ ours


def ours_tasks(cfg: Config, *, anchors: bool = True) -> list[Task]:
    """Raises ImportError when PettingZoo (the ``rl`` extra) is missing."""
    import pettingzoo  # noqa: F401

    table, own = observed_rule_sets()
    return [
        ("env steps, interleaved with the anchors", lambda: env_steps(cfg, anchors)),
        (f"observation build {table[0]} {table[1]}p", lambda: _observations(cfg, *table)),
        (f"observation build {own[0]} {own[1]}p", lambda: _observations(cfg, *own)),
    ]


#: the PettingZoo classic env that is the same game as one of our rule sets (the family's
#: encoding names it in ``anchors``)
ANCHOR = "gin_rummy_v4"


def anchor_rule_set(anchor: str = ANCHOR) -> str:
    """The first registered rule set whose family's encoding plays ``anchor``'s game."""
    from rummykit.rl.encodings import encoding_for
    from rummykit.variants.registry import all_rule_set_names

    for name in all_rule_set_names():
        encoding = encoding_for(name)
        if anchor in getattr(encoding, "anchors", {}).values():
            return name
    raise LookupError(f"no registered rule set plays {anchor}'s game")


def observed_rule_sets() -> tuple[tuple[str, int], tuple[str, int]]:
    """The rule sets whose observation build is measured: the default rule set at 2
    players, and the table rule set with the most seats and observation parts (the
    family with the most of its own parts) at its most players."""
    from rummykit.core.rules import find_rules
    from rummykit.rl.encodings import kind_of
    from rummykit.rl.observation import Observation
    from rummykit.variants.registry import rule_set_names

    def parts(name: str) -> tuple[int, int]:
        rules = find_rules(name)
        most = min(rules.player_range[1], 4)
        return len(Observation(rules, most).shapes), most

    tables = [n for n in rule_set_names() if kind_of(n) == "table"]
    richest = max(tables, key=parts)
    return (DEFAULT_RULE_SET, 2), (richest, parts(richest)[1])


#: each engine's time budget is spent in this many slices, taken in turn by the engines,
#: so that a machine's changing load weighs on all of them alike
ROUNDS = 5


#: the wrappers of both PettingZoo envs, innermost first
WRAPPERS = "TerminateIllegalWrapper, AssertOutOfBoundsWrapper, OrderEnforcingWrapper"


def idle_env(quick_space: bool = False) -> Any:
    """A 2-agent AEC env that does nothing (a constant observation and mask, 100 steps an
    episode) in the standard wrappers: what the wrappers (forwarding every attribute they
    read, as they do for ``gin_rummy_v4``) and the loop cost by themselves
    (``quick_space``: with our envs' action space, :class:`rummykit.rl.spaces.ActionIds`,
    whose membership test ``AssertOutOfBoundsWrapper`` calls every step)."""
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    from rummykit.rl.spaces import ActionIds

    class Idle(AECEnv):  # type: ignore[misc]
        metadata: ClassVar[dict[str, Any]] = {"name": "idle_v0"}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = ["a", "b"]
            self.obs = {"observation": np.zeros(8, np.float32),
                        "action_mask": np.ones(4, np.int8)}
            space = spaces.Dict({"observation": spaces.Box(0, 1, (8,), np.float32),
                                 "action_mask": spaces.Box(0, 1, (4,), np.int8)})
            self.observation_spaces = dict.fromkeys(self.possible_agents, space)
            self.action_spaces = dict.fromkeys(
                self.possible_agents, ActionIds(4) if quick_space else spaces.Discrete(4))

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def reset(self, seed: int | None = None, options: Any = None) -> None:
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection, self.count = "a", 0

        def observe(self, agent: str) -> Any:
            return self.obs

        def step(self, action: Any) -> None:
            if self.terminations[self.agent_selection]:
                self._was_dead_step(action)
                return
            self.count += 1
            if self.count >= 100:
                self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = "b" if self.agent_selection == "a" else "a"

    env: Any = wrappers.TerminateIllegalWrapper(Idle(), illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def env_steps(cfg: Config, anchors: bool, *, unwrapped: bool = False,
              floor: bool = False, cpu: bool = False) -> list[Measure]:
    """Env steps/s of our PettingZoo env and, when installed, of PettingZoo's
    ``gin_rummy_v4`` and RLCard's gin env, measured in interleaved slices (``unwrapped``:
    our env without its wrappers too, after the others: the report's ratios take the
    first of our measures)."""
    import warnings

    from rummykit.rl import pettingzoo_env

    same = anchor_rule_set()
    runners: list[tuple[str, Any, dict[str, Any]]] = []
    for name in (DEFAULT_RULE_SET, same):
        runners.append((OURS, AECRunner(pettingzoo_env(rules=name, players=2), cfg.seed), {
            "rules": name, "players": 2, "env": f"rummykit.rl.pettingzoo_env({name!r})",
            "wrappers": WRAPPERS}))
    if unwrapped:
        for name in (DEFAULT_RULE_SET, same):
            runners.append((OURS, AECRunner(pettingzoo_env(rules=name, players=2,
                                                           wrapped=False), cfg.seed), {
                "rules": name, "players": 2, "wrappers": "none",
                "env": f"rummykit.rl.pettingzoo_env({name!r}, wrapped=False)"}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if anchors:
            try:
                from pettingzoo.classic import gin_rummy_v4
            except ImportError:
                pass
            else:
                runners.append((PETTINGZOO, AECRunner(gin_rummy_v4.env(), cfg.seed), {
                    "game": "gin_rummy_v4", "players": 2, "wrappers": WRAPPERS,
                    "env": "pettingzoo.classic.gin_rummy_v4.env()"}))
            with contextlib.suppress(ImportError):
                runners.append((RLCARD, RLCardRunner(cfg.seed), {
                    "game": "gin-rummy", "players": 2, "env": "rlcard.make('gin-rummy')"}))
        if floor:
            for quick in (False, True):
                runners.append(("idle", AECRunner(idle_env(quick), cfg.seed), {
                    "game": "idle", "players": 2, "wrappers": WRAPPERS,
                    "env": f"rummykit.benchmark.rl_envs.idle_env(quick_space={quick})"}))
        steps = [0] * len(runners)
        spent = [0.0] * len(runners)
        #: CPU time of this process (``cpu``: the other processes' load does not count)
        clock = time.process_time if cpu else time.perf_counter
        for _ in range(ROUNDS):
            for i, (_, runner, _) in enumerate(runners):
                start = clock()
                steps[i] += runner.run(cfg.seconds / ROUNDS)
                spent[i] += clock() - start
    return [Measure(name="env_steps", engine=engine, unit="steps/s", value=n / t, params={
        **params, "steps": n, "seconds": round(t, 3), "seed": cfg.seed,
        "clock": "cpu" if cpu else "wall",
        "note": f"random legal actions, steps = agent actions; {ROUNDS} slices taken in "
                "turn with the other engines' env_steps"})
        for (engine, _, params), n, t in zip(runners, steps, spent, strict=True)]


def _ours(rules: str, wrapped: bool) -> Any:
    from rummykit.rl import pettingzoo_env

    return pettingzoo_env(rules=rules, players=2, wrapped=wrapped)


def _anchor() -> Any:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pettingzoo.classic import gin_rummy_v4

        return gin_rummy_v4.env()


def counted_envs() -> dict[str, Callable[[], Any]]:
    """The envs ``--steps`` runs alone, by name (our two rule sets, wrapped and not, the
    anchor, the idle env): the function making each."""
    ours, anchored = DEFAULT_RULE_SET, anchor_rule_set()
    return {
        ours: lambda: _ours(ours, True),
        anchored: lambda: _ours(anchored, True),
        f"{ours}-unwrapped": lambda: _ours(ours, False),
        f"{anchored}-unwrapped": lambda: _ours(anchored, False),
        ANCHOR: _anchor,
        "idle": idle_env,
    }


def count_steps(name: str, steps: int, seed: int) -> int:
    """Exactly ``steps`` agent actions of the env ``name`` (:func:`counted_envs`) with the
    benchmark's loop: run under ``valgrind --tool=callgrind`` twice, with two step counts,
    the difference of the instructions over the difference of the steps is one step's."""
    import warnings

    runner = AECRunner(counted_envs()[name](), seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return runner.steps(steps)


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
    sweeps: list[float] = []

    def sweep() -> int:
        start = time.perf_counter()
        for view, totals in seen:
            build(view, totals)
        sweeps.append((time.perf_counter() - start) / len(seen) * 1e6)
        return len(seen)

    t = timed(cfg.seconds, sweep)
    return [Measure(name="observation_build", engine=OURS, unit="us/observation",
                    value=statistics.median(sweeps), params={
                        "rules": rules, "players": players, "views": len(seen),
                        "observations": t.units, "size": game.observation.size,
                        "sweeps": len(sweeps), "best_sweep": round(min(sweeps), 3),
                        "note": "Observation.build(view, totals) -> new float32 array, "
                                "views in play order (one-deck rules build each seat's "
                                "observation from its previous one), mean per sweep over "
                                "every view, median of the sweeps; lower is better",
                        "seconds": round(t.elapsed, 3)})]


# --------------------------------------------------------------------------- anchors


def pettingzoo_tasks(cfg: Config) -> list[Task]:
    """Nothing of its own (``gin_rummy_v4`` is timed with ours in :func:`env_steps`); raises
    ImportError when ``pettingzoo.classic`` (the ``anchors`` extra) is missing, so that the
    report says it was skipped."""
    from pettingzoo.classic import gin_rummy_v4  # noqa: F401

    return []


def main(argv: list[str] | None = None) -> int:
    """``python -m rummykit.benchmark.rl_envs``: the env-steps measure alone, as JSON lines."""
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m rummykit.benchmark.rl_envs")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per env (default 5)")
    parser.add_argument("--seed", type=int, default=20260101)
    parser.add_argument("--unwrapped", action="store_true",
                        help="also our env without PettingZoo's wrappers")
    parser.add_argument("--floor", action="store_true",
                        help="also an env that does nothing, in the same wrappers")
    parser.add_argument("--cpu", action="store_true",
                        help="time each env by this process's CPU time, not the wall clock")
    parser.add_argument("--steps", type=int, default=None, metavar="N",
                        help="run exactly N agent steps of the --env alone and exit (for "
                             "counting instructions with valgrind --tool=callgrind)")
    parser.add_argument("--env", choices=sorted(counted_envs()), default=DEFAULT_RULE_SET,
                        help="the env --steps runs (default %(default)s)")
    args = parser.parse_args(argv)
    if args.steps is not None:
        if args.steps < 0:
            parser.error("--steps: expected 0 or more")
        done = count_steps(args.env, args.steps, args.seed)
        print(json.dumps({"env": args.env, "steps": done, "seed": args.seed}))
        return 0
    cfg = Config.make(quick=False, seconds=args.seconds, seed=args.seed)
    measures = env_steps(cfg, True, unwrapped=args.unwrapped, floor=args.floor,
                         cpu=args.cpu)
    for m in measures:
        print(json.dumps({"engine": m.engine, "steps_per_s": round(m.value, 1),
                          "us_per_step": round(1e6 / m.value, 1), **m.params}))
    for ours in measures:
        if ours.engine == "idle":  # the most an env whose attributes they forward reaches
            for m in measures:
                if m.engine == PETTINGZOO:
                    print(json.dumps({"ceiling": f"{ours.params['env']} / {m.engine}",
                                      "value": round(ours.value / m.value, 2)}))
        if ours.engine != OURS or ours.params["wrappers"] == "none":
            continue
        for m in measures:
            if m.engine in (PETTINGZOO, RLCARD):
                print(json.dumps({"ratio": f"{OURS} {ours.params['rules']} / {m.engine}",
                                  "value": round(ours.value / m.value, 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
