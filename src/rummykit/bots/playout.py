"""The playouts of the search bot: the greedy policy on a full (sampled) state.

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

from rummykit.bots.families import policies_for
from rummykit.bots.greedy import greedy_choice
from rummykit.bots.holding import holding_move
from rummykit.core.engine import HandState
from rummykit.core.moves import Move
from rummykit.core.views import view


def greedy_move(state: HandState) -> Move:
    """The greedy move of the seat to move (:mod:`rummykit.bots.greedy`, the policy the
    greedy bot plays on its view and :mod:`rummykit.bots.fastplay` on bit sets)."""
    own = policies_for(state.rules)
    if own is not None:
        return own.greedy(view(state, state.to_move))
    discard = state.discard
    return greedy_choice(state.phase, state.legal_moves(), state.hands[state.to_move],
                         state.table, discard[-1] if discard else None, state._tables,
                         state._values)


def play_out(state: HandState, *, max_turns: int, holder: int | None = None) -> None:
    """Play greedy moves until the hand ends or ``max_turns`` more turns have passed; seat
    ``holder``, if given, keeps its melds to go rummy while it may
    (:func:`rummykit.bots.holding.holding_move`)."""
    stop = state.turn_count + max_turns
    push = state.push
    while state.result is None and state.turn_count < stop:
        move = holding_move(state, holder) if holder is not None else None
        push(move if move is not None else greedy_move(state))


__all__ = ["greedy_move", "play_out"]
