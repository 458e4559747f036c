"""Measures of the reference engines (the ``anchors`` extra): OpenSpiel and RLCard.

Both are driven from Python exactly as our engine is, with the same seeded workloads where
the workload is shared (random 10-card hands for the deadwood solvers).

- OpenSpiel ``gin_rummy`` (C++ behind pybind11): random playouts (chance outcomes drawn
  uniformly with a seeded ``random.Random``, player actions uniformly from
  ``legal_actions()``; only player actions are counted as moves), ``clone()`` of a mid-game
  state, and ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood(hand)``.
- RLCard ``gin-rummy`` (pure Python): ``env.run(is_training=False)`` with two
  ``RandomAgent`` and ``melding.get_best_meld_clusters(hand)``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rummykit.benchmark.measures import playout_measures, time_solver
from rummykit.benchmark.report import OPENSPIEL, RLCARD, Measure
from rummykit.benchmark.timing import Config, random_hands, timed

Task = tuple[str, Callable[[], list[Measure]]]

#: OpenSpiel's game measured
GAME = "gin_rummy"
#: OpenSpiel's clone() is timed on the state after this many player moves (about 20 turns)
CLONE_MOVES = 40


def version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


# --------------------------------------------------------------------------- OpenSpiel


def openspiel_tasks(cfg: Config) -> list[Task]:
    """Raises ImportError when open_spiel is not installed."""
    import pyspiel

    game = pyspiel.load_game(GAME)
    return [
        ("random playout gin_rummy", lambda: _os_playout(cfg, game)),
        ("clone", lambda: _os_clone(cfg, game)),
        ("min_deadwood 10 cards", lambda: _os_min_deadwood(cfg)),
    ]


def _os_random_step(state: Any, rng: random.Random) -> bool:
    """Apply one uniformly random action; True if it was a player's (not chance) action."""
    chance = state.is_chance_node()
    state.apply_action(rng.choice(state.legal_actions()))
    return not chance


def os_random_game(initial: Any, choice: Callable[[Any], int]) -> Callable[[], int]:
    """One uniformly random game from a clone of ``initial`` (the chance nodes deal a new
    hand each time); returns the player moves. Cloning, not ``new_initial_state()``, which
    costs ``gin_rummy`` about 7 ms, more than the game itself."""

    def one_game() -> int:
        s = initial.clone()
        moves = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(choice(s.legal_actions()))
            else:
                s.apply_action(choice(s.legal_actions()))
                moves += 1
        return moves

    return one_game


def _os_playout(cfg: Config, game: Any) -> list[Measure]:
    rng = random.Random(cfg.seed)
    t = timed(cfg.seconds, os_random_game(game.new_initial_state(), rng.choice))
    params = {
        "game": GAME,
        "players": 2,
        "hands": t.batches,
        "moves": t.units,
        "note": "moves = player actions (draw, discard, knock, meld, layoff, pass); "
        "chance deals uncounted",
        "seconds": round(t.elapsed, 3),
        "seed": cfg.seed,
    }
    return playout_measures(OPENSPIEL, t, params)


def openspiel_mid_state(game: Any, seed: int) -> Any:
    """A seeded random gin_rummy state :data:`CLONE_MOVES` player moves in."""
    for k in range(1000):
        rng = random.Random(seed + k)
        s = game.new_initial_state()
        moves = 0
        while not s.is_terminal() and moves < CLONE_MOVES:
            moves += _os_random_step(s, rng)
        if not s.is_terminal():
            return s
    raise RuntimeError(f"no gin_rummy game lasted {CLONE_MOVES} moves")


def _os_clone(cfg: Config, game: Any) -> list[Measure]:
    s = openspiel_mid_state(game, cfg.seed)
    clone = s.clone

    def batch() -> int:
        for _ in range(1000):
            clone()
        return 1000

    t = timed(cfg.seconds, batch)
    return [
        Measure(
            name="copy",
            engine=OPENSPIEL,
            unit="copies/s",
            value=t.rate,
            params={
                "method": "State.clone()",
                "game": GAME,
                "players": 2,
                "player_moves_done": CLONE_MOVES,
                "copies": t.units,
                "seconds": round(t.elapsed, 3),
                "seed": cfg.seed,
            },
        )
    ]


def _os_utils() -> Any:
    """OpenSpiel's ``GinRummyUtils(13, 4, 10)`` (ranks, suits, hand size)."""
    import pyspiel

    return getattr(pyspiel, GAME).GinRummyUtils(13, 4, 10)


def openspiel_min_deadwood(hands: list[list[int]]) -> list[int]:
    utils = _os_utils()
    return [int(utils.min_deadwood(h)) for h in hands]


def _os_min_deadwood(cfg: Config) -> list[Measure]:
    solve = _os_utils().min_deadwood
    hands = random_hands(cfg.hands, 10, cfg.seed + 10)
    return time_solver(cfg, OPENSPIEL, solve, hands, {
        "cards": 10, "function": "GinRummyUtils(13, 4, 10).min_deadwood(hand)",
        "seed": cfg.seed + 10})


# ------------------------------------------------------------------------------ RLCard


def _rlcard_random_agent() -> Any:
    """rlcard's ``RandomAgent`` class.

    ``import rlcard.agents`` runs ``python -m pip freeze`` at import time (to see whether
    torch is there), which fails in a uv virtual environment, where there is no pip; so
    load ``rlcard/agents/random_agent.py`` (which needs only numpy) on its own.
    """
    loaded = sys.modules.get("rlcard.agents.random_agent")
    if loaded is not None:
        return loaded.RandomAgent
    import rlcard

    path = Path(rlcard.__file__).parent / "agents" / "random_agent.py"
    spec = importlib.util.spec_from_file_location("_rummykit_bench_rlcard_random_agent", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.RandomAgent


class _Counting:
    """Wraps an rlcard agent to count the actions it takes."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.use_raw: bool = inner.use_raw
        self.count = 0

    def step(self, state: Any) -> Any:
        self.count += 1
        return self.inner.step(state)

    def eval_step(self, state: Any) -> Any:
        self.count += 1
        return self.inner.eval_step(state)


def rlcard_tasks(cfg: Config) -> list[Task]:
    """Raises ImportError when rlcard is not installed."""
    import rlcard  # noqa: F401
    from rlcard.games.gin_rummy.utils import melding  # noqa: F401

    return [
        ("random playout gin-rummy", lambda: _rl_playout(cfg)),
        ("get_best_meld_clusters 10 cards", lambda: _rl_min_deadwood(cfg)),
    ]


def _rl_playout(cfg: Config) -> list[Measure]:
    import rlcard

    random_agent = _rlcard_random_agent()
    # RandomAgent draws from numpy's global generator (numpy comes with rlcard).
    importlib.import_module("numpy").random.seed(cfg.seed)
    env = rlcard.make("gin-rummy", config={"seed": cfg.seed})
    agents = [_Counting(random_agent(num_actions=env.num_actions)) for _ in range(2)]
    env.set_agents(agents)

    def one_game() -> int:
        before = sum(a.count for a in agents)
        env.run(is_training=False)
        return sum(a.count for a in agents) - before

    t = timed(cfg.seconds, one_game)
    params = {
        "game": "gin-rummy",
        "players": 2,
        "hands": t.batches,
        "moves": t.units,
        "note": "env.run(is_training=False), two RandomAgent; moves = agent actions",
        "seconds": round(t.elapsed, 3),
        "seed": cfg.seed,
    }
    return playout_measures(RLCARD, t, params)


def rlcard_min_deadwood(hands: list[list[int]]) -> list[int]:
    from rlcard.games.gin_rummy.utils import melding, utils

    out = []
    for ids in hands:
        hand = [utils.get_card(c) for c in ids]
        best = melding.get_best_meld_clusters(hand)
        if best:
            out.append(int(utils.get_deadwood_count(hand, best[0])))
        else:
            out.append(sum(int(utils.get_deadwood_value(c)) for c in hand))
    return out


def _rl_min_deadwood(cfg: Config) -> list[Measure]:
    from rlcard.games.gin_rummy.utils import melding, utils

    solve = melding.get_best_meld_clusters
    # card ids are rank + 13 * suit in RLCard too; the Card objects are built beforehand
    hands = [[utils.get_card(c) for c in h] for h in random_hands(cfg.hands, 10, cfg.seed + 10)]
    return time_solver(cfg, RLCARD, solve, hands, {
        "cards": 10, "function": "melding.get_best_meld_clusters(hand)", "seed": cfg.seed + 10})
