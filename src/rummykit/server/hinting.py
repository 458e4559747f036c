"""Hints for a seat at a table: the search bot's advice from that seat's view only."""

from __future__ import annotations

import random

from rummykit.bots.hints import advice_lines, hint
from rummykit.core.views import PlayerView
from rummykit.server.wire import HintOut

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
    return move[:1].upper() + move[1:]


def advise(seen: PlayerView, level: str, seed: int) -> HintOut:
    """The advice for the seat to move in ``seen`` (blocking: run it in a thread)."""
    advice = hint(seen, level, random.Random(seed))
    found = advice.analysis
    best = str(found.best)
    text = move_words(best)
    if found.simulations:
        top = found.candidates[0]
        text += (f" (won {top.win_rate:.0%} of {top.simulations} simulated games, "
                 f"level {level})")
    return HintOut(move=best, text=text + ".", lines=advice_lines(advice, TOP))
