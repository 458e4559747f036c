"""What each search level plays in Contract Rummy (RULES.md §4): its :class:`Level`.

Every level above ``easy`` plays the shared heuristics
(:func:`rummykit.bots.contract_policy.choose`, with deal 7's shape); the levels differ by
the search they add:

- ``medium``: the heuristics alone;
- ``hard``: also searches the draw of a seat not yet down (stock, discard top, the
  shallowest dig, never deeper than three cards in a deal of sets) in 8 sampled worlds
  (:mod:`rummykit.bots.contract_worlds`), keeping the heuristic's draw unless another
  measured :data:`DRAW_MARGIN` points better;
- ``expert``: the same search in 24 worlds, and deal 7 played as a race
  (:mod:`rummykit.bots.contract_race`: the move leaving the least expected loss).

Against three ``greedy`` seats on mirrored deals (``python -m
rummykit.benchmark.contract_bots --table LEVEL,greedy``), ``medium`` is 24.5% below
greedy's penalty and ``expert`` 31.9%; ``easy`` < ``medium`` < ``hard`` < ``expert``.
Those figures, where the points go, and every change measured and not kept are in the
documentation's bench log, ``docs/contract-bots.md``.

>>> from rummykit.bots.expert import LEVELS
>>> [level_for(LEVELS[name]).draw_worlds for name in ("medium", "hard", "expert")]
[0, 8, 24]
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING

from rummykit.bots import contract_expert, contract_policy, contract_race
from rummykit.bots.analysis import Analysis
from rummykit.bots.contract_expert import Skill
from rummykit.bots.greedy_contract import all_at_once
from rummykit.core.moves import Move
from rummykit.core.views import PlayerView

if TYPE_CHECKING:
    from rummykit.bots.expert import Budget

DRAW_MARGIN = 3.0  # points another draw must measure better than the heuristic's
HARD_WORLDS = 48  # budget worlds from which a level searches its draws
EXPERT_WORLDS = 128  # ... and from which it searches them in more worlds


@dataclasses.dataclass(frozen=True, slots=True)
class Level:
    """A level's contract play: the heuristics it knows and the worlds of its draw search
    (0: none)."""

    skill: Skill
    draw_worlds: int = 0
    race: bool = False  # deal 7 played as a race (:mod:`rummykit.bots.contract_race`)


HEURISTICS = Skill(seventh_draws=True, pair_takes=False, race_discards=False)


def level_for(budget: Budget) -> Level:
    """The level of the search bot with ``budget``."""
    if budget.worlds >= EXPERT_WORLDS:
        return Level(HEURISTICS, 24, race=True)
    if budget.worlds >= HARD_WORLDS:
        return Level(HEURISTICS, 8)
    return Level(HEURISTICS)


def choose(view: PlayerView, rng: random.Random, budget: Budget) -> Move:
    """The level's contract move: always one of ``view.legal``."""
    level = level_for(budget)
    if level.race and all_at_once(view):
        return contract_race.choose(view)
    if not level.draw_worlds:
        return contract_policy.choose(view, level.skill)
    return contract_policy.searched(view, rng, budget, level.draw_worlds, DRAW_MARGIN,
                                    level.skill, waits=False, draws=True)


def analyse(view: PlayerView, rng: random.Random, budget: Budget) -> Analysis:
    """A contract hint at any level (:func:`rummykit.bots.contract_expert.analyse`): it
    recommends the level's own move (in deal 7 the race's, the strongest deal 7
    measured), with the alternatives' estimates. A seat that played the best estimate
    instead, ``medium``'s hint in deals 1-6, held 6.98 +- 1.07 points a deal more than
    ``medium`` itself (held-out seed 31, 720 mirrored deals)."""
    if len(view.legal) == 1:
        first = view.legal[0]
    elif all_at_once(view):
        first = contract_race.choose(view)
    else:
        first = choose(view, rng, budget)
    return contract_expert.analyse(view, rng, budget, first)


__all__ = ["DRAW_MARGIN", "HEURISTICS", "Level", "analyse", "choose", "level_for"]
