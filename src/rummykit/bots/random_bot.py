"""The random bot: uniform over the legal moves."""

from __future__ import annotations

import random

from rummykit.core.moves import Move
from rummykit.core.views import PlayerView


class RandomBot:
    """Picks a legal move uniformly at random."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """A uniformly random legal move."""
        return rng.choice(view.legal)
