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
    moves: list[Move] = []
    strict = state.taken >= 0 or rules.must_discard_to_go_out
    if rules.max_melds_per_turn is None or state.melds_this_turn < rules.max_melds_per_turn:
        entries: list[tuple[Meld, int]] = []
        s0 = hand & SUIT_MASK
        s1 = hand >> 13 & SUIT_MASK
        s2 = hand >> 26 & SUIT_MASK
        s3 = hand >> 39 & SUIT_MASK
        if (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1)):
            for options in state._tables.set_choices(hand):
                for mask in options[1:]:
                    entries.append((meld_move(tuple(cards_of(mask))), mask))
        entries += caches.run_moves(0, s0)
        entries += caches.run_moves(1, s1)
        entries += caches.run_moves(2, s2)
        entries += caches.run_moves(3, s3)
        if not strict:
            moves += [move for move, _ in entries]
        else:
            accepts = _accepts_all(state)
            for move, mask in entries:
                rest = hand & ~mask
                stranded = not rest or (state.taken >= 0 and rest == 1 << state.taken)
                if not stranded or _can_finish_with(state,
                        rest, accepts | _new_meld_accepts(state, move)):
                    moves.append(move)
    for index, meld in enumerate(state.table):
        fits = hand & meld.accepts
        while fits:
            low = fits & -fits
            fits ^= low
            card = low.bit_length() - 1
            ends = meld.ends_for(card, rules)
            for end in ends:
                if strict and not _lay_ok(state, hand & ~low, index, card, end):
                    continue
                moves.append(lay_move(card, index + 1, end if len(ends) > 1 else None))
    if state.taken >= 0:  # the card just taken may not be thrown back
        hand &= ~(1 << state.taken)
    moves += caches.discard_moves(0, hand & SUIT_MASK)
    moves += caches.discard_moves(1, hand >> 13 & SUIT_MASK)
    moves += caches.discard_moves(2, hand >> 26 & SUIT_MASK)
    moves += caches.discard_moves(3, hand >> 39 & SUIT_MASK)
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
