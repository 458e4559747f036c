"""Tables and record shapes of :mod:`rummykit.variants.gin.hand`: the discard moves of any
set of cards read from per-suit tables, a run's end cards, and the undo records of
``GinHand.push`` / ``GinHand.pop``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rummykit.core.cards import Card, format_cards
from rummykit.core.errors import RecordError
from rummykit.core.moves import Discard
from rummykit.core.outcome import HandResult
from rummykit.variants.gin.deadwood import Arrangement
from rummykit.variants.gin.moves import GinMove
from rummykit.variants.gin.outcome import GinOutcome
from rummykit.variants.gin.phases import HAND_SIZE, STOCK_SIZE

DISCARDS = tuple(Discard(c) for c in range(52))
#: the bit of each card code
CARD_BITS = tuple(1 << c for c in range(52))
_SUIT = (1 << 13) - 1
#: the largest card value (a ten or a face card)
MAX_CARD_VALUE = 10


def _suit_discards(suit: int) -> tuple[tuple[Discard, ...], ...]:
    table: list[tuple[Discard, ...]] = [()] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = mask & -mask
        table[mask] = (DISCARDS[13 * suit + low.bit_length() - 1], *table[mask ^ low])
    return tuple(table)


#: per suit, per 13-bit mask of that suit: the discards of those cards in code order; built
#: at the first discard step (35 ms: not at import)
_SUIT_DISCARDS: tuple[tuple[tuple[Discard, ...], ...], ...] = ()


def _suit_tables() -> tuple[tuple[tuple[Discard, ...], ...], ...]:
    global _SUIT_DISCARDS
    _SUIT_DISCARDS = tuple(_suit_discards(suit) for suit in range(4))
    return _SUIT_DISCARDS


def discards_of(cards: int) -> list[GinMove]:
    """The discard of every card of the bit set ``cards``, in code order."""
    clubs, diamonds, hearts, spades = _SUIT_DISCARDS or _suit_tables()
    return [*clubs[cards & _SUIT], *diamonds[cards >> 13 & _SUIT],
            *hearts[cards >> 26 & _SUIT], *spades[cards >> 39]]


def run_ends(run: int) -> int:
    """The cards one below and one above a run (none below an ace or above a king)."""
    low = (run & -run).bit_length() - 1
    high = run.bit_length() - 1
    found = 0
    if low % 13:
        found |= 1 << (low - 1)
    if high % 13 != 12:
        found |= 1 << (high + 1)
    return found


#: the knock's and the show's fields, which only a knock or a show move changes
Show = tuple[int | None, int, int, Arrangement, int, tuple[int, ...], int, Arrangement, bool]
#: what push saves for pop: the turn's scalar fields, the stock's and the pile's length and
#: top card (a move changes each list by at most one card at its top), then the show's
#: fields for a knock or show move (None for a draw, take, pass or discard)
Snapshot = tuple[
    int, str, int, int, int, int, bool, bool, int, int, tuple[int, int], tuple[int, int],
    HandResult | None, GinOutcome | None, int, int, int, int, Show | None]
#: an undo record: its kind first, then for a discard (seat, card, phase, taken, stock_only,
#: echo, turn_count, known, discarded), for a draw (seat, card, phase, taken), for a take
#: (seat, phase, taken, take_count, known), for any other move the :data:`Snapshot` (Any:
#: the kinds are told apart by the first field, not by type)
Undo = tuple[Any, ...]


def check_deal(dealer: int, hands: Sequence[Sequence[Card]], upcard: Card,
               stock_top_first: Sequence[Card]) -> None:
    """Raise :class:`RecordError` unless the record form ``deal`` deals one 52-card deck:
    a dealer seat, two hands of 10, the upcard and a stock of 31, every card once."""
    if dealer not in (0, 1):
        raise RecordError(f"dealer {dealer!r}: expected seat 0 or 1")
    if len(hands) != 2 or any(len(h) != HAND_SIZE for h in hands):
        raise RecordError("deal: expected two hands of 10 cards")
    if len(stock_top_first) != STOCK_SIZE:
        raise RecordError(f"deal: expected a stock of 31 cards, got {len(stock_top_first)}")
    every = [*hands[0], *hands[1], upcard, *stock_top_first]
    if any(not isinstance(c, int) or not 0 <= c < 52 for c in every):
        raise RecordError("deal: gin uses one 52-card deck without jokers")
    if len(set(every)) != 52:
        twice = sorted(c for c, n in Counter(every).items() if n > 1)
        raise RecordError(f"deal: {format_cards(twice)} dealt twice")
