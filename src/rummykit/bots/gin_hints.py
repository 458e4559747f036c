"""Advice for the gin seat to move: the search bot's ranked moves and the hand's best shape.

The stable interface (for ``rummykit play``, the server and the web app):

- ``gin_hint(view, level, rng) -> GinHint``: ``view`` is the seat to move's
  :class:`~rummykit.variants.gin.view.GinView` of a hand in progress, ``level`` one of
  :data:`GIN_HINT_LEVELS` (``easy`` gives the greedy move without simulations; the others
  run the search bot of that level), ``rng`` a :class:`random.Random`. Raises
  ``ValueError`` when the seat is not to move or the hand is over, or for an unknown level.
- ``GinHint``: ``view``, ``level``, ``analysis`` (a
  :class:`~rummykit.bots.gin_search.GinAnalysis`: ``best`` the recommended move,
  ``candidates`` best first, each a ``GinCandidate`` with ``move``, ``value`` (mean hand
  score for the seat, points won minus lost), ``win_rate`` (0..1) and ``simulations``;
  ``simulations`` and ``seconds`` in all) and ``arrangement`` (a :class:`GinArrangement`
  of the seat's cards: ``melds``, ``deadwood_cards``, ``deadwood``).
- ``gin_hint_lines(hint, top) -> list[str]``: the advice as text lines, ``top`` candidates.
- ``gin_hint_json(hint, top) -> dict``: the advice as a JSON value (moves and cards in
  FORMATS.md notation, win rates in 0..1).

Only the view is read, so a hint never uses a card the seat cannot see.

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> from rummykit.variants.gin.view import gin_view
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> advice = gin_hint(gin_view(hand, 1), "medium", random.Random(0))
>>> advice.analysis.best in hand.legal_moves()
True
>>> gin_hint_lines(advice, 2)[0].startswith("Recommended: ")
True
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from rummykit.bots.analysis import analysis_lines
from rummykit.bots.gin_greedy import greedy_gin_move
from rummykit.bots.gin_search import SEARCH_LEVELS, GinAnalysis, GinCandidate, GinSearchBot
from rummykit.core.cards import Card, cards_of, format_card, format_cards
from rummykit.variants.gin.deadwood import arrangement_mask, implied_arrangement, mask_value
from rummykit.variants.gin.view import GinView

__all__ = ["GIN_HINT_LEVELS", "GinArrangement", "GinHint", "gin_arrangement", "gin_hint",
           "gin_hint_json", "gin_hint_lines"]

#: the levels a hint can use, weakest first (``easy``: the greedy move, no search)
GIN_HINT_LEVELS = ("easy", *SEARCH_LEVELS)


@dataclass(frozen=True, slots=True)
class GinArrangement:
    """The least-deadwood arrangement of a seat's cards (FORMATS.md §4.1's implied one)."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    def __str__(self) -> str:
        melds = " / ".join(format_cards(m) for m in self.melds) or "no melds"
        loose = format_cards(self.deadwood_cards) or "nothing"
        return f"{melds}; deadwood {loose} = {self.deadwood}"


@dataclass(frozen=True, slots=True)
class GinHint:
    """The advice for one decision: the view it is for, the level and its findings."""

    view: GinView
    level: str
    analysis: GinAnalysis
    arrangement: GinArrangement


def gin_arrangement(hand: int) -> GinArrangement:
    """The implied arrangement of the cards ``hand`` (a bit set) and its deadwood."""
    melds = implied_arrangement(hand)
    loose = hand & ~arrangement_mask(melds)
    return GinArrangement(melds, tuple(cards_of(loose)), mask_value(loose))


def gin_hint(view: GinView, level: str, rng: random.Random) -> GinHint:
    """The advice for the seat to move in ``view`` at ``level`` (see the module doc)."""
    if view.result is not None or view.seat != view.to_move or not view.legal:
        raise ValueError("a hint is for the seat to move in a hand in progress")
    if level not in GIN_HINT_LEVELS:
        raise ValueError(f"unknown hint level {level!r}: expected one of "
                         f"{', '.join(GIN_HINT_LEVELS)}")
    if level == "easy":
        started = time.perf_counter()
        move = greedy_gin_move(view)
        analysis = GinAnalysis(view.seat, (GinCandidate(move, 0.0, 0.0, 0),), 0,
                               time.perf_counter() - started)
    else:
        analysis = GinSearchBot.for_level(level).analyse(view, rng)
    return GinHint(view, level, analysis, gin_arrangement(view.hand))


def gin_hint_lines(hint: GinHint, top: int) -> list[str]:
    """The recommended move, the ``top`` candidates, the search effort and the best shape."""
    return analysis_lines(hint.analysis, hint.level, hint.arrangement, top)


def gin_hint_json(hint: GinHint, top: int) -> dict[str, Any]:
    """The advice as a JSON value (moves and cards in notation, win rates in 0..1)."""
    seen, found, best = hint.view, hint.analysis, hint.arrangement
    top_card = seen.discard_top
    return {
        "seat": seen.seat,
        "level": hint.level,
        "position": {
            "phase": seen.phase,
            "turn": seen.turn_count + 1,
            "hand": [format_card(c) for c in seen.hand_cards],
            "discard_top": None if top_card is None else format_card(top_card),
            "discard_size": len(seen.discard),
            "stock_size": seen.stock_size,
            "knock_limit": seen.knock_limit,
            "hand_sizes": list(seen.hand_sizes),
        },
        "best": str(found.best),
        "candidates": [{"move": str(c.move), "value": round(c.value, 4),
                        "win_rate": round(c.win_rate, 4), "simulations": c.simulations}
                       for c in found.candidates[:max(top, 1)]],
        "simulations": found.simulations,
        "seconds": round(found.seconds, 3),
        "arrangement": {"melds": [[format_card(c) for c in m] for m in best.melds],
                        "deadwood_cards": [format_card(c) for c in best.deadwood_cards],
                        "deadwood": best.deadwood},
    }
