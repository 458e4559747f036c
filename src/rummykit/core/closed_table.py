"""Deals no play can end: the deadlock draw (RULES.md §3.3). It looks at the cards
*outside* the table: every physical copy and every joker in a hand, the stock or the
discard pile (:func:`outside`; the contract family's blocked deal uses it too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.core.cards import ALL_NATURALS, NUM_NATURALS
from rummykit.core.melds import JOKER_AS

if TYPE_CHECKING:
    from rummykit.core.engine import HandState


def outside(state: HandState) -> tuple[list[int], int]:
    """(copies of each natural card outside the table, jokers outside the table)."""
    decks, jokers = state.rules.pack_spec(state.num_players)
    copies = [decks] * NUM_NATURALS
    for meld in state.table:
        for code in meld.cards:
            if code >= JOKER_AS:
                jokers -= 1
            else:
                copies[code] -= 1
    return copies, jokers


def jokers_outside(state: HandState) -> bool:
    jokers = state.rules.pack_spec(state.num_players)[1]
    for meld in state.table:
        for code in meld.cards:
            if code >= JOKER_AS:
                jokers -= 1
    return jokers > 0


def _presence(copies: list[int]) -> int:
    bits = 0
    for card, left in enumerate(copies):
        if left > 0:
            bits |= 1 << card
    return bits


def accepts_all(state: HandState) -> int:
    bits = 0
    for meld in state.table:
        bits |= meld.accepts
    return bits


def _one_card_each(state: HandState) -> bool:
    # a hand of one card, natural or joker, is a single bit of its multiset int
    return not any(hand & (hand - 1) or not hand for hand in state.hands)


def deadlocked(state: HandState) -> bool:
    """RULES.md §3.3: D1 every hand holds one card; D2 no card outside the table (every
    copy, every joker) can be laid off onto a table meld."""
    if not _one_card_each(state):
        return False
    accepts = accepts_all(state)
    if not state.multi:
        return not ALL_NATURALS & ~state.table_mask & accepts
    copies, jokers = outside(state)
    if jokers > 0 and accepts:
        return False  # a joker can stand wherever some natural card could go
    return not _presence(copies) & accepts
