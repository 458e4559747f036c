"""Shared test helpers: a full snapshot of a hand state, and card conservation."""

from __future__ import annotations

from rummykit.engine import HandState


def snapshot(state: HandState) -> tuple[object, ...]:
    """Every field of a hand state that defines the position."""
    return (
        state.to_move, state.phase, tuple(state.hands), tuple(state.stock),
        tuple(state.discard), tuple(state.table), tuple(state.known), state.taken,
        state.melds_this_turn, state.placed_this_turn, state.ever_placed, state.rebuilds,
        state.turn_count, state.result, tuple(state.restocks),
    )


def cards_in_play(state: HandState) -> list[int]:
    """Every card of the hand, wherever it is; a one-deck pack gives 0..51 once each."""
    cards: list[int] = []
    for hand in state.hands:
        cards += [c for c in range(52) if hand >> c & 1]
    cards += state.stock + state.discard
    for meld in state.table:
        cards += [c for c in meld.cards]
    return sorted(cards)
