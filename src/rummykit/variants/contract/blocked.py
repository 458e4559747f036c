"""The blocked contract deal (RULES.md §4.8.1): every player down and no card outside the
table can ever be placed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.core.cards import JOKER
from rummykit.core.closed_table import accepts_all, jokers_outside, outside
from rummykit.core.melds import JOKER_AS, RUN
from rummykit.variants.contract.melds import can_make

if TYPE_CHECKING:
    from rummykit.variants.contract.hand import ContractHand


def _copies_on_table(state: ContractHand, card: int) -> int:
    return sum(meld.cards.count(card) for meld in state.table)


def blocked(state: ContractHand) -> bool:
    """RULES.md §4.8.1: B1 every player is down; B2 no card outside the table can be laid
    off or swapped for a run's joker; B3 no new meld may be started, or none can be formed
    from the cards outside the table together."""
    if state.down != (1 << state.num_players) - 1:
        return False
    accepts = accepts_all(state)
    if accepts and jokers_outside(state):
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
