"""The play-step moves of a one-deck hand (RULES.md §1.5-§1.7): melds, lay-offs, discards.

The engine's default generator (``HandState._play_moves``), in the fixed order melds,
lay-offs, discards; a play that would strand the hand is left out (completability, §1.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.core.cards import SUIT_MASK, Card, cards_of
from rummykit.core.melds import lay_off
from rummykit.core.move_tables import lay_move, meld_move
from rummykit.core.moves import Meld, Move

if TYPE_CHECKING:
    from rummykit.core.engine import HandState


def _can_finish_with(state: HandState, rest: int, table_accepts: int) -> bool:
    """Completability (RULES.md §1.6) of a play that leaves ``rest`` in hand."""
    if not rest:
        return not state.rules.must_discard_to_go_out
    taken = state.taken
    if taken < 0 or rest != 1 << taken:
        return True
    return not state.rules.must_discard_to_go_out and bool(table_accepts & rest)


def _accepts_all(state: HandState) -> int:
    bits = 0
    for meld in state.table:
        bits |= meld.accepts
    return bits


def play_moves(state: HandState) -> list[Move]:
    hand = state.hands[state.to_move]
    caches = state._caches
    rules = state.rules
    taken = state.taken
    strict = taken >= 0 or rules.must_discard_to_go_out
    s0 = hand & SUIT_MASK
    s1 = hand >> 13 & SUIT_MASK
    s2 = hand >> 26 & SUIT_MASK
    s3 = hand >> 39 & SUIT_MASK
    moves: list[Move] = []
    if rules.max_melds_per_turn is None or state.melds_this_turn < rules.max_melds_per_turn:
        entries: list[tuple[Meld, int]] = []
        if (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1)):
            for options in state._tables.set_choices(hand):
                for mask in options[1:]:
                    entries.append((meld_move(tuple(cards_of(mask))), mask))
        # the suits' runs, read from the caches (filled on first sight)
        runs = caches.runs
        for suit, m in ((0, s0), (1, s1), (2, s2), (3, s3)):
            found = runs[suit][m]
            if found is None:
                found = caches.run_moves(suit, m)
            if found:
                entries += found
        if not strict:
            moves += [move for move, _ in entries]
        else:
            accepts = -1  # the table's lay-off cards, once a play could strand the hand
            for move, mask in entries:
                rest = hand & ~mask
                if rest and (taken < 0 or rest != 1 << taken):
                    moves.append(move)
                    continue
                if accepts < 0:
                    accepts = _accepts_all(state)
                if _can_finish_with(state, rest, accepts | _new_meld_accepts(state, move)):
                    moves.append(move)
    for index, meld in enumerate(state.table):
        fits = hand & meld.accepts
        while fits:
            low = fits & -fits
            fits ^= low
            card = low.bit_length() - 1
            ends = meld.ends_for(card, rules)
            rest = hand & ~low
            # only a lay-off that leaves nothing, or only the card taken, can strand the hand
            risky = strict and not (rest and (taken < 0 or rest != 1 << taken))
            for end in ends:
                if risky and not _lay_ok(state, rest, index, card, end):
                    continue
                moves.append(lay_move(card, index + 1, end if len(ends) > 1 else None))
    if taken >= 0 and hand >> taken & 1:  # the card just taken may not be thrown back
        hand &= ~(1 << taken)
        s0 = hand & SUIT_MASK
        s1 = hand >> 13 & SUIT_MASK
        s2 = hand >> 26 & SUIT_MASK
        s3 = hand >> 39 & SUIT_MASK
    discards = caches.discards
    for suit, m in ((0, s0), (1, s1), (2, s2), (3, s3)):
        found_discards = discards[suit][m]
        if found_discards is None:
            found_discards = caches.discard_moves(suit, m)
        moves += found_discards
    return moves


def _new_meld_accepts(state: HandState, move: Meld) -> int:
    bits = 0
    for group in move.groups:
        meld = state._make(group)
        bits |= meld.accepts
    return bits


def _lay_ok(state: HandState, rest: int, index: int, card: Card, end: str) -> bool:
    if rest and (state.taken < 0 or rest != 1 << state.taken):
        return True
    grown = lay_off(state.table[index], card, end, state.to_move, state.rules)
    accepts = grown.accepts
    for i, meld in enumerate(state.table):
        if i != index:
            accepts |= meld.accepts
    return _can_finish_with(state, rest, accepts)
