"""A hand as a multiset of cards in one ``int`` (two or three decks, jokers).

Layer ``k`` (bits ``64k .. 64k+51``) holds the cards held at least ``k + 1`` times; the
joker count sits from bit 192 up. A one-deck hand without jokers is just its bit set
(layer 0), so the one-deck code of the engine works on it unchanged.

>>> from rummykit.core.cards import JOKER, format_cards, parse_cards
>>> hand = of_cards(parse_cards("H8 H8 JK C2"))
>>> count(hand, parse_cards("H8")[0]), count(hand, JOKER), size(hand)
(2, 1, 4)
>>> format_cards(cards(remove(hand, parse_cards("H8")[0])))
'C2 H8 JK'
"""

from __future__ import annotations

from collections.abc import Iterable

from rummykit.core.cards import ALL_NATURALS, JOKER, Card, cards_of

LAYER = 64
JOKER_SHIFT = 192
ONE_JOKER = 1 << JOKER_SHIFT
NATURAL_LAYERS = (1 << JOKER_SHIFT) - 1


def add(hand: int, card: Card) -> int:
    """``hand`` with one more ``card``."""
    if card == JOKER:
        return hand + ONE_JOKER
    bit = 1 << card
    if not hand & bit:
        return hand | bit
    if not hand & bit << LAYER:
        return hand | bit << LAYER
    return hand | bit << 2 * LAYER


def remove(hand: int, card: Card) -> int:
    """``hand`` with one ``card`` fewer (the caller knows it is held)."""
    if card == JOKER:
        return hand - ONE_JOKER
    bit = 1 << card
    if hand & bit << 2 * LAYER:
        return hand ^ bit << 2 * LAYER
    if hand & bit << LAYER:
        return hand ^ bit << LAYER
    return hand ^ bit


def count(hand: int, card: Card) -> int:
    """How many copies of ``card`` the hand holds."""
    if card == JOKER:
        return hand >> JOKER_SHIFT
    return (hand >> card & 1) + (hand >> (card + LAYER) & 1) + (hand >> (card + 2 * LAYER) & 1)


def size(hand: int) -> int:
    """The number of cards."""
    return (hand & NATURAL_LAYERS).bit_count() + (hand >> JOKER_SHIFT)


def presence(hand: int) -> int:
    """Bit set of the natural cards held at least once."""
    return hand & ALL_NATURALS


def of_cards(cards: Iterable[Card]) -> int:
    """The hand holding these cards."""
    hand = 0
    for card in cards:
        hand = add(hand, card)
    return hand


def cards(hand: int) -> list[Card]:
    """Every card of the hand, sorted by suit then rank, jokers last."""
    found = cards_of(hand & ALL_NATURALS)
    found += cards_of(hand >> LAYER & ALL_NATURALS)
    found += cards_of(hand >> 2 * LAYER & ALL_NATURALS)
    found.sort()
    return found + [JOKER] * (hand >> JOKER_SHIFT)


def distinct(hand: int) -> list[Card]:
    """The different cards of the hand, jokers last."""
    return cards_of(hand & ALL_NATURALS) + ([JOKER] if hand >> JOKER_SHIFT else [])
