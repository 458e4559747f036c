"""The expert's Contract Rummy play (RULES.md §4), on a :class:`PlayerView` only.

For now it plays the greedy contract policy; :class:`~rummykit.bots.expert.ExpertBot`
hands every contract decision here.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from rummykit.bots.analysis import Analysis, Candidate
from rummykit.bots.greedy_contract import choose_contract
from rummykit.moves import Move
from rummykit.views import PlayerView

if TYPE_CHECKING:
    from rummykit.bots.expert import Budget


def choose(view: PlayerView, rng: random.Random, budget: Budget) -> Move:
    """The expert's contract move."""
    return choose_contract(view)


def analyse(view: PlayerView, rng: random.Random, budget: Budget) -> Analysis:
    """The expert's contract advice (a hint)."""
    started = time.perf_counter()
    move = choose(view, rng, budget)
    return Analysis(view.seat, (Candidate(move, 0.0, 0.0, 0),), 0,
                    time.perf_counter() - started)
