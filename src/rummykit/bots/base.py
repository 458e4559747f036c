"""The bot interface."""

from __future__ import annotations

import random
from typing import Protocol

from rummykit.core.moves import Move
from rummykit.core.views import PlayerView


class Bot(Protocol):
    """Chooses one of ``view.legal`` from what its seat can see."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """The move to make; ``view`` is for the seat to move."""
        ...
