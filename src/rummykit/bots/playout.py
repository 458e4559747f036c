"""The fast playout policy of the search bot: greedy play on a full (sampled) state.

Runs inside the search bot's own sampled worlds, so it reads the whole state it is given;
that state holds the bot's guesses, never the true hidden cards.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.variants import BASIC
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(3))
>>> play_out(state, max_turns=500)
>>> state.is_over
True
"""

from __future__ import annotations

from rummykit.bots.greedy_contract import choose_contract
from rummykit.core.engine import DRAW_PHASE, HandState
from rummykit.core.melds import SET, position_card
from rummykit.core.move_tables import DRAW_MOVE, TAKE_MOVE
from rummykit.core.moves import Discard, LayOff, Meld, Move
from rummykit.core.views import view


def greedy_move(state: HandState) -> Move:
    """What the greedy bot would play: take only to complete a meld, meld, lay off, then
    discard the highest card left out of melds."""
    if state.contract:
        return choose_contract(view(state, state.to_move))
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    seat = state.to_move
    hand = state.hands[seat]
    tables = state._tables
    if state.phase == DRAW_PHASE:
        top = state.discard[-1]
        accepts = 0
        for meld in state.table:
            accepts |= meld.accepts
        if TAKE_MOVE in legal and (accepts >> top & 1 or tables.completes(hand, top)):
            return TAKE_MOVE
        return DRAW_MOVE if DRAW_MOVE in legal else legal[0]
    melded = tables.melded(hand)
    melds = {move.groups[0]: move for move in legal if isinstance(move, Meld)}
    if melds:  # the best arrangement's melds in its order, as the fast playout lays them
        for group in tables.best_arrangement(hand).melds:
            if group in melds:
                return melds[group]
    layoff: Move | None = None
    layoff_key = (64, 3)
    for move in legal:  # the lowest card first, a run's high end, then its low end, a set
        if isinstance(move, LayOff):
            meld = state.table[move.target - 1]
            where = 2 if meld.kind == SET else (1 if move.end == "low" or (
                move.end is None and meld.low > 1 and move.card == position_card(
                    meld.suit, meld.low - 1)) else 0)
            key = (move.card, where)
            if key < layoff_key:
                layoff, layoff_key = move, key
    if layoff is not None:
        return layoff
    values = state._values
    top_move: Move | None = None
    top_key = (-1, -1)
    for move in legal:
        if isinstance(move, Discard):
            card = move.card
            key = (0 if melded >> card & 1 else 1, values[card] * 64 + card % 13 * 4)
            if key > top_key:
                top_move, top_key = move, key
    return top_move if top_move is not None else legal[0]


def play_out(state: HandState, *, max_turns: int) -> None:
    """Play greedy moves until the hand ends or ``max_turns`` more turns have passed."""
    stop = state.turn_count + max_turns
    push = state.push
    while state.result is None and state.turn_count < stop:
        push(greedy_move(state))


__all__ = ["greedy_move", "play_out"]
