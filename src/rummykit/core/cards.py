"""Cards as small integers, their notation (RULES.md §1.2), packs and bit sets.

A natural card is ``suit * 13 + rank - 1`` (suits C, D, H, S; ranks 1 = ace .. 13 = king),
so bit ``i`` of a Python ``int`` stands for card ``i`` and each suit is a 13-bit block:
runs are contiguous bits. The joker is card 52. A pack is a multiset, written as a tuple
that may repeat cards (two or three decks).

>>> parse_card("h10"), format_card(parse_card("H1"))
(35, 'HA')
>>> format_cards(sorted_cards(parse_cards("SA H8 C2")))
'C2 H8 SA'
>>> len(standard_pack(2, 1))
105
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from rummykit.core.errors import NotationError

Card = int

SUITS = "CDHS"
RANKS = "A23456789TJQK"
NUM_SUITS = 4
NUM_RANKS = 13
NUM_NATURALS = 52
JOKER: Card = 52
SUIT_MASK = (1 << NUM_RANKS) - 1
ALL_NATURALS = (1 << NUM_NATURALS) - 1

_RANK_ALIASES = {"10": "T", "1": "A"}


def make_card(suit: int, rank: int) -> Card:
    """The natural card of ``suit`` (0..3 for C, D, H, S) and ``rank`` (1..13)."""
    return suit * NUM_RANKS + rank - 1


def suit_of(card: Card) -> int:
    """Suit index 0..3 of a natural card."""
    return card // NUM_RANKS


def rank_of(card: Card) -> int:
    """Rank 1 (ace) .. 13 (king) of a natural card."""
    return card % NUM_RANKS + 1


def format_card(card: Card) -> str:
    """Canonical two-letter code, or ``JK``."""
    if card == JOKER:
        return "JK"
    return SUITS[card // NUM_RANKS] + RANKS[card % NUM_RANKS]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical notation separated by single spaces."""
    return " ".join(format_card(c) for c in cards)


def parse_card(text: str) -> Card:
    """Parse one card; accepts lowercase, ``10`` for T and ``1`` for A.

    A joker identity (``JK=H6``) is not a plain card: see :func:`parse_placed_card`.
    """
    token = text.strip()
    token = token.upper() if token.isascii() else "?"  # upper() folds some letters to ASCII
    if token == "JK":
        return JOKER
    if len(token) >= 2 and token[0] in SUITS:
        rank = _RANK_ALIASES.get(token[1:], token[1:])
        if len(rank) == 1 and rank in RANKS:
            return SUITS.index(token[0]) * NUM_RANKS + RANKS.index(rank)
    raise NotationError(
        f"bad card {text.strip()!r}: expected a suit C, D, H or S then a rank "
        "A, 2-9, T, J, Q or K (like H8, SA, DT), or JK"
    )


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by whitespace."""
    return [parse_card(tok) for tok in text.split()]


def sort_key(card: Card) -> int:
    """Order by suit then rank (jokers last), the order hands are shown in."""
    return card


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards sorted by suit then rank, jokers last."""
    return sorted(cards)


def standard_pack(decks: int = 1, jokers: int = 0) -> tuple[Card, ...]:
    """A pack of ``decks`` 52-card decks plus ``jokers`` jokers, in a fixed order."""
    return tuple(c for _ in range(decks) for c in range(NUM_NATURALS)) + (JOKER,) * jokers


def mask_of(cards: Iterable[Card]) -> int:
    """The bit set of some natural cards (a set, so each card at most once).

    >>> bin(mask_of([0, 2]))
    '0b101'
    """
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit set, in ascending order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def card_points(card: Card, ace_points: int, joker_points: int = 15) -> int:
    """Penalty / score value of one card (RULES.md §1.11)."""
    if card == JOKER:
        return joker_points
    rank = card % NUM_RANKS + 1
    if rank == 1:
        return ace_points
    return 10 if rank >= 10 else rank


@cache
def points_table(ace_points: int, joker_points: int = 15) -> tuple[int, ...]:
    """Value of every card index 0..52 under the given ace and joker values."""
    return tuple(card_points(c, ace_points, joker_points) for c in range(NUM_NATURALS + 1))
