"""Advice for a seat to move in a gin hand, from its :class:`GinView` only.

The advice is the gin greedy bot's choice (least deadwood, knock as soon as it may) with
the hand's best arrangement and, for a discard or a knock, what each choice leaves.

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> from rummykit.variants.gin.view import gin_view
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> advice_lines(gin_view(hand, 1), "expert", random.Random(1))[0].startswith("Recommended: ")
True
"""

from __future__ import annotations

import random
from typing import Any

from rummykit.bots.gin_greedy import greedy_gin_move
from rummykit.core.cards import format_card
from rummykit.core.moves import Discard
from rummykit.variants.gin import text
from rummykit.variants.gin.deadwood import knock_deadwood
from rummykit.variants.gin.view import GinView

#: how many discards the advice compares
TOP = 5


def advice(seen: GinView, level: str, rng: random.Random) -> dict[str, Any]:
    """The advice as data: the recommended move and the discards by deadwood left."""
    if seen.result is not None or seen.seat != seen.to_move:
        raise ValueError("a hint is for the seat to move in a hand in progress")
    best = greedy_gin_move(seen)
    discards = sorted(((knock_deadwood(seen.hand, m.card), m.card) for m in seen.legal
                       if isinstance(m, Discard)), key=lambda item: (item[0], -item[1]))
    return {"recommended": str(best), "level": "greedy",
            "discards": [{"move": f"discard {format_card(card)}", "deadwood": dead}
                         for dead, card in discards[:TOP]],
            "legal": [str(m) for m in seen.legal]}


def advice_lines(seen: GinView, level: str, rng: random.Random) -> list[str]:
    """The advice in words."""
    found = advice(seen, level, rng)
    lines = [f"Recommended: {found['recommended']}  (the greedy gin player's choice)",
             f"Best arrangement now: {text.arranged_words(seen.hand)}"]
    if found["discards"]:
        lines.append("Deadwood left by each discard: " + ", ".join(
            f"{d['move'].split()[1]} {d['deadwood']}" for d in found["discards"]))
    return lines
