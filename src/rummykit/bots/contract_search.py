"""Determinized search over a few contract moves: sampled worlds and greedy playouts.

Each world deals the hidden cards consistently with the seat's view
(:func:`rummykit.core.views.resample`); every candidate is played in the same worlds, then the
hand goes on with the fast greedy policy of :mod:`rummykit.bots.contract_playout` on the
full sampled state (the bot's guesses, never the true hidden cards) until it ends, or for
:data:`PLAYOUT_TURNS` turns. A finished
hand scores the others' mean penalty less the seat's; a hand still going scores the same
difference of the points in hand, discounted (:data:`CUT_WEIGHT`). The budget is a number
of worlds, so a seeded search is reproducible; ``max_seconds`` stops it early.

>>> from rummykit.core.engine import HandState
>>> from rummykit.variants import CONTRACT
>>> from rummykit.core.views import view
>>> from rummykit.bots.expert import Budget
>>> state = HandState.deal(CONTRACT, 4, dealer=0, rng=random.Random(2))
>>> state.play("draw")
Draw()
>>> seen = view(state, state.to_move)
>>> found = search(seen, [m for m in seen.legal][-2:], random.Random(1), Budget(16, 2))
>>> [c.simulations for c in found.candidates]  # 16 worlds / WORLDS_DIVISOR
[4, 4]
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from rummykit.bots import contract_playout
from rummykit.bots.analysis import Analysis, Candidate
from rummykit.bots.contract_worlds import weigh_for
from rummykit.core.engine import HandState
from rummykit.core.moves import Move
from rummykit.core.views import PlayerView, resample

if TYPE_CHECKING:
    from rummykit.bots.expert import Budget

PLAYOUT_TURNS = 120  # turns a playout runs before it is scored as it stands
SLOW_TURNS = 24  # ... and the turns and worlds at most in a deal the fast playouts do not
SLOW_WORLDS = 4  # model (:func:`rummykit.bots.contract_playout.modelled`)
CUT_WEIGHT = 0.5  # how much a hand still going counts of its points-in-hand difference
WEIGHED = True  # sample down seats' hands as :mod:`rummykit.bots.contract_worlds` says
WORLDS_DIVISOR = 4  # contract playouts are longer than basic's: a quarter of the worlds


def worlds_for(budget: Budget) -> int:
    """The worlds a contract search samples at this budget."""
    return max(1, budget.worlds // WORLDS_DIVISOR)


def search(view_: PlayerView, candidates: list[Move], rng: random.Random,
           budget: Budget, worlds_wanted: int | None = None) -> Analysis:
    """Every candidate played in the same sampled worlds (``worlds_wanted``, or the
    budget's :func:`worlds_for`); best mean value first (ties keep the given order, so the
    first candidate is the default)."""
    started = time.perf_counter()
    totals = [0.0] * len(candidates)
    wins = [0] * len(candidates)
    worlds = 0
    turns = min(PLAYOUT_TURNS, budget.max_turns)
    wanted = worlds_for(budget) if worlds_wanted is None else worlds_wanted
    if not contract_playout.modelled(view_):  # slow playouts: a hint within seconds
        turns, wanted = min(turns, SLOW_TURNS), min(wanted, SLOW_WORLDS)
    weigh = weigh_for(view_) if WEIGHED else None
    for _ in range(wanted):
        world = resample(view_, rng, weigh)
        for i, move in enumerate(candidates):
            state = world.copy()
            state.push(move)
            play_out(state, turns)
            value, won = outcome(state, view_.seat)
            totals[i] += value
            wins[i] += won
        worlds += 1
        if budget.max_seconds is not None and time.perf_counter() - started > budget.max_seconds:
            break
    n = max(worlds, 1)
    found = [Candidate(m, totals[i] / n, wins[i] / n, worlds) for i, m in enumerate(candidates)]
    order = sorted(range(len(found)), key=lambda i: (-found[i].value, i))
    return Analysis(view_.seat, tuple(found[i] for i in order), worlds * len(candidates),
                    time.perf_counter() - started)


def play_out(state: HandState, turns: int) -> None:
    """Fast greedy contract moves until the hand ends or ``turns`` more turns have passed."""
    contract_playout.play_out(state, turns)


def outcome(state: HandState, seat: int) -> tuple[float, int]:
    """(the others' mean penalty less the seat's, 1 if the seat went out)."""
    result = state.result
    if result is not None:
        scores = result.scores
        others = (sum(scores) - scores[seat]) / (len(scores) - 1)
        return others - scores[seat], int(result.winner == seat)
    values = [state.hand_value(s) for s in range(state.num_players)]
    others = (sum(values) - values[seat]) / (len(values) - 1)
    return CUT_WEIGHT * (others - values[seat]), 0


__all__ = ["CUT_WEIGHT", "PLAYOUT_TURNS", "outcome", "play_out", "search", "worlds_for"]
