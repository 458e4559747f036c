"""Deals no play can end: the deadlock draw (RULES.md §3.3) and the blocked contract deal
(§4.8.1). Both look at the cards *outside* the table: every physical copy and every joker
in a hand, the stock or the discard pile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.core.cards import ALL_NATURALS, JOKER, NUM_NATURALS
from rummykit.core.melds import JOKER_AS, RUN
from rummykit.variants.contract.melds import can_make

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


def _jokers_outside(state: HandState) -> bool:
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


def _accepts_all(state: HandState) -> int:
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
    accepts = _accepts_all(state)
    if not state.multi:
        return not ALL_NATURALS & ~state.table_mask & accepts
    copies, jokers = outside(state)
    if jokers > 0 and accepts:
        return False  # a joker can stand wherever some natural card could go
    return not _presence(copies) & accepts


def _copies_on_table(state: HandState, card: int) -> int:
    return sum(meld.cards.count(card) for meld in state.table)


def blocked(state: HandState) -> bool:
    """RULES.md §4.8.1: B1 every player is down; B2 no card outside the table can be laid
    off or swapped for a run's joker; B3 no new meld may be started, or none can be formed
    from the cards outside the table together."""
    if state.down != (1 << state.num_players) - 1:
        return False
    accepts = _accepts_all(state)
    if accepts and _jokers_outside(state):
        return False
    decks = state.rules.pack_spec(state.num_players)[0]
    while accepts:
        low = accepts & -accepts
        accepts ^= low
        if _copies_on_table(state, low.bit_length() - 1) < decks:
            return False  # a copy outside can be laid off
    if state.rules.joker_swap:
        for meld in state.table:
            if meld.kind == RUN and any(c >= JOKER_AS and _copies_on_table(state, c - JOKER_AS)
                                        < decks for c in meld.cards):
                return False
    if not state.rules.extra_melds_after_contract:
        return True
    copies, jokers = outside(state)
    pool = [card for card, left in enumerate(copies) for _ in range(max(left, 0))]
    pool += [JOKER] * max(jokers, 0)
    return not (can_make(pool, 1, 0, state.rules) or can_make(pool, 0, 1, state.rules))
