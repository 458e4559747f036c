"""The careless bot (level ``easy``): plays like the greedy bot, but now and then throws
a card at random instead of its highest loose card.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.variants import BASIC
>>> from rummykit.core.views import view
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(3))
>>> CarelessBot().choose(view(state, state.to_move), random.Random(0)) in state.legal_moves()
True
"""

from __future__ import annotations

import random

from rummykit.bots.greedy import GreedyBot
from rummykit.core.moves import Discard, Move
from rummykit.core.views import PlayerView

SLIP = 0.4  # the share of discards thrown at random


class CarelessBot:
    """Greedy play with random discards: a beginner's opponent."""

    name = "careless"

    def __init__(self) -> None:
        self._greedy = GreedyBot()

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """The greedy move, except that a discard is sometimes any legal discard."""
        move = self._greedy.choose(view, rng)
        if isinstance(move, Discard) and rng.random() < SLIP:
            return rng.choice([m for m in view.legal if isinstance(m, Discard)])
        return move
