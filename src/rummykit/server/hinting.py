"""Hints for a seat at a table: the search bot's advice from that seat's view only (the
engine's for the draw-and-discard families, a family's own for those with their own view,
looked up by family name as :data:`rummykit.bots.FAMILY_BOTS` is)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rummykit.bots.gin_hints import gin_hint, gin_hint_lines
from rummykit.bots.hints import advice_lines, hint
from rummykit.core.views import PlayerView
from rummykit.server.wire import HintOut
from rummykit.variants.gin.variant import GIN_FAMILY
from rummykit.variants.registry import variant_of

#: candidate moves listed in a hint's lines
TOP = 3


def move_words(move: str) -> str:
    """A move in notation (FORMATS.md §1) said in words."""
    verb, _, rest = move.partition(" ")
    if verb == "draw":
        return "Draw a card from the stock"
    if verb == "take":
        return "Take the top card of the discard pile"
    if verb == "discard":
        return f"Discard {rest}"
    if verb == "meld":
        return f"Lay down the meld {rest}"
    if verb == "lay":
        cards, _, number = rest.rpartition(" on ")
        return f"Lay {cards} off on meld {number}"
    if verb == "pass":
        return "Pass"
    if verb == "done":
        return "End the show (done)"
    card, colon, groups = rest.partition(":")
    if colon and card.strip():  # a knock that discards (FORMATS.md §4.1: ``knock X: A``)
        return f"{verb.capitalize()}, discarding {card.strip()} face down and showing " \
            f"{groups.strip()}"
    return move[:1].upper() + move[1:]


def _family_advice(seen: Any, level: str, rng: random.Random) -> HintOut:
    """A gin seat's advice (:func:`rummykit.bots.gin_hints.gin_hint`)."""
    advice = gin_hint(seen, level, rng)
    found = advice.analysis
    best = str(found.best)
    text = move_words(best)
    top = found.candidates[0]
    if found.simulations:
        text += (f" (won {top.win_rate:.0%} of {top.simulations} simulated hands, "
                 f"level {level})")
    return HintOut(move=best, text=text + ".", lines=gin_hint_lines(advice, TOP))


#: the advice of the families with their own views, by family name
FAMILY_ADVICE: dict[str, Callable[[Any, str, random.Random], HintOut]] = {
    GIN_FAMILY.name: _family_advice,
}


def advise(seen: Any, level: str, seed: int) -> HintOut:
    """The advice for the seat to move in ``seen`` (blocking: run it in a thread)."""
    if not isinstance(seen, PlayerView):
        return FAMILY_ADVICE[variant_of(seen.rules).name](seen, level, random.Random(seed))
    advice = hint(seen, level, random.Random(seed))
    found = advice.analysis
    best = str(found.best)
    text = move_words(best)
    if found.simulations:
        top = found.candidates[0]
        text += (f" (won {top.win_rate:.0%} of {top.simulations} simulated games, "
                 f"level {level})")
    return HintOut(move=best, text=text + ".", lines=advice_lines(advice, TOP))
