"""The view a knock-family (gin) agent gets, as JSON: built from ``gin_view`` only.

Cards and moves are in gin's notation (FORMATS.md §4.1); the fields are documented in
docs/agents.md ("The gin view").

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> from rummykit.variants.gin.view import gin_view
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> seen = knock_view_json(gin_view(hand, 1))
>>> seen["phase"], seen["upcard"], len(seen["hand"]), seen["knock_limit"], seen["revealed"]
('offer', 'C6', 10, 10, [])
"""

from __future__ import annotations

from typing import Any

from rummykit.core.cards import cards_of, format_card
from rummykit.variants.gin.outcome import hand_json
from rummykit.variants.gin.text import KNOCK_KINDS
from rummykit.variants.gin.view import GinView


def _cards(mask: int) -> list[str]:
    return [format_card(c) for c in cards_of(mask)]


def _groups(groups: tuple[tuple[int, ...], ...]) -> list[list[str]]:
    return [[format_card(c) for c in group] for group in groups]


def knock_view_json(seen: GinView) -> dict[str, Any]:
    """The JSON form of a seat's gin view."""
    result = None
    if seen.result is not None and seen.outcome is not None:
        result = hand_json(seen.result, seen.outcome)
    return {
        "rules": seen.rules.name,
        "seat": seen.seat,
        "players": 2,
        "deal": seen.deal_index,
        "dealer": seen.dealer,
        "to_move": seen.to_move,
        "phase": seen.phase,
        "turn": seen.turn_count,
        "hand": _cards(seen.hand),
        "hand_sizes": list(seen.hand_sizes),
        "upcard": format_card(seen.upcard),
        "knock_limit": seen.knock_limit,
        "multiplier": seen.multiplier,
        "discard": [format_card(c) for c in seen.discard],
        "stock_size": seen.stock_size,
        "stock_only": seen.stock_only,
        "taken": format_card(seen.taken) if seen.taken >= 0 else None,
        "take_count": seen.take_count,
        "known": [_cards(k) for k in seen.known],
        "discarded": [_cards(d) for d in seen.discarded],
        "knocker": seen.knocker,
        "knock": KNOCK_KINDS.get(seen.kind),
        "face_down": format_card(seen.face_down) if seen.face_down >= 0 else None,
        "knock_melds": _groups(seen.knock_groups),
        "table": [{"number": n, "cards": _cards(m)} for n, m in enumerate(seen.table, 1)],
        "knocker_deadwood": _cards(seen.knocker_deadwood),
        "laid_off": _cards(seen.laid),
        "defender_melds": _groups(seen.defender_groups),
        "result": result,
        "revealed": [_cards(h) for h in seen.revealed],
    }
