"""Advice for the seat to move in a gin hand, from its :class:`GinView` only: the gin
search bot's ranked moves (:mod:`rummykit.bots.gin_hints`) as the terminal faces show it.

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> from rummykit.variants.gin.view import gin_view
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> advice_lines(gin_view(hand, 1), "easy", random.Random(1))[0].startswith("Recommended: ")
True
"""

from __future__ import annotations

import random
from typing import Any

from rummykit.bots.gin_hints import GIN_HINT_LEVELS, gin_hint, gin_hint_json, gin_hint_lines
from rummykit.variants.gin.view import GinView

__all__ = ["GIN_HINT_LEVELS", "TOP", "advice", "advice_lines"]

#: how many candidate moves the advice lists
TOP = 5


def advice(seen: GinView, level: str, rng: random.Random, top: int = TOP) -> dict[str, Any]:
    """The advice as JSON data (``best``, ``candidates`` ..., as gin_hint_json gives it);
    ValueError when the seat is not to move or for an unknown level."""
    return gin_hint_json(gin_hint(seen, level, rng), top)


def advice_lines(seen: GinView, level: str, rng: random.Random, top: int = TOP) -> list[str]:
    """The advice in words."""
    return gin_hint_lines(gin_hint(seen, level, rng), top)
