"""Holding melds in hand to go rummy: when a seat may, and the playout policy that does.

Going rummy (every card placed in one turn) multiplies the hand's score, and catches the
others holding more cards; but a seat that holds its melds lays off nothing and can be
caught holding them. A person melds when they can; the expert search bot weighs holding
against melding by playing both out (:class:`rummykit.bots.expert.ExpertBot`), and its
playouts of a holding candidate keep holding with :func:`holding_move`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.bots.greedy import greedy_discard
from rummykit.core.engine import PLAY_PHASE, HandState
from rummykit.core.melds import tables_for
from rummykit.core.moves import Discard, Move
from rummykit.core.views import PlayerView

# melds are kept in hand for going rummy while every other seat holds at least this many
# cards (arenas against greedy, melding at once -> holding: 3p traditional, 90 matches, seed
# 2031: won 40.0% -> 65.6%, points per hand 7.6 -> 18.8, drawn matches 32 -> 14; 2p basic,
# 60 matches, seed 3001: won 88.3% -> 91.7%, points per hand 4.6 -> 14.3, hands 2021 -> 681)
HOLD_OPPONENT_CARDS = 3


def may_hold(state: PlayerView | HandState, seat: int, hand: int, sizes: Sequence[int],
             legal: Sequence[Move], layable: int) -> bool:
    """True when ``seat`` (holding ``hand``) can keep its melds to go rummy: it has placed
    nothing this hand, the rules pay going rummy, it cannot go out this turn, the stock has
    not been rebuilt and every other seat holds at least :data:`HOLD_OPPONENT_CARDS` cards
    (``sizes``, by seat)."""
    rules = state.rules
    if (rules.going_rummy_multiplier <= 1 or state.placed_this_turn
            or state.ever_placed >> seat & 1 or state.rebuilds
            or not any(isinstance(m, Discard) for m in legal)):
        return False
    if any(size < HOLD_OPPONENT_CARDS for s, size in enumerate(sizes) if s != seat):
        return False
    loose = hand & ~tables_for(rules).melded(hand) & ~layable
    return loose.bit_count() > 1  # else it goes out now: everything is placed this turn


def holds_for_rummy(view: PlayerView) -> bool:
    """:func:`may_hold` for the seat of ``view``."""
    layable = 0
    for meld in view.table:
        layable |= meld.accepts
    return may_hold(view, view.seat, view.hand, view.hand_sizes, view.legal, layable)


def holding_move(state: HandState, seat: int) -> Move | None:
    """The discard of ``seat`` keeping its melds, when it is to play and may hold; else
    ``None`` (the greedy policy moves). The discard is the highest card left out of melds,
    as the greedy policy throws."""
    if state.to_move != seat or state.phase != PLAY_PHASE:
        return None
    legal = state.legal_moves()
    hand = state.hands[seat]
    layable = 0
    for meld in state.table:
        layable |= meld.accepts
    sizes = [h.bit_count() for h in state.hands]
    if not may_hold(state, seat, hand, sizes, legal, layable):
        return None
    return greedy_discard(legal, tables_for(state.rules).melded(hand), state._values)
