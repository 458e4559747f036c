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
from rummykit.core.melds import SET, MeldTables, TableMeld, position_card
from rummykit.core.move_tables import DRAW_MOVE, TAKE_MOVE
from rummykit.core.moves import Discard, LayOff, Meld, Move
from rummykit.core.views import view


def greedy_move(state: HandState) -> Move:
    """The greedy playout move: take only to complete a meld or lay off, lay the best
    arrangement's melds in order, lay off the lowest card (a run's high end, its low end,
    a set), then discard the highest card left out of melds. The fast playouts
    (:mod:`rummykit.bots.fastplay`) play this policy on bit sets; the greedy bot's
    tie-breaks differ (:class:`rummykit.bots.greedy.GreedyBot`)."""
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
    layoff: Move | None = None
    layoff_key = (64, 3)
    melds: dict[tuple[int, ...], Move] | None = None
    for move in legal:
        kind = type(move)
        if kind is Meld:
            assert isinstance(move, Meld)
            if melds is None:
                melds = {}
            melds[move.groups[0]] = move
        elif kind is LayOff:
            assert isinstance(move, LayOff)
            key = (move.card, _where(state.table[move.target - 1], move))
            if key < layoff_key:
                layoff, layoff_key = move, key
    if melds is not None:  # the best arrangement's melds in its order, as fastplay lays them
        for group in _arranged(tables, hand):
            if group in melds:
                return melds[group]
    if layoff is not None:  # the lowest card first: a run's high end, its low end, a set
        return layoff
    melded = tables.melded(hand)
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


_ARRANGED: dict[tuple[MeldTables, int], tuple[tuple[int, ...], ...]] = {}
ARRANGED_SIZE = 200_000  # hands the arrangement memo keeps before it starts afresh


def _arranged(tables: MeldTables, hand: int) -> tuple[tuple[int, ...], ...]:
    """The best arrangement's melds of a hand, memoised (playouts meet the same hands)."""
    key = (tables, hand)
    groups = _ARRANGED.get(key)
    if groups is None:
        if len(_ARRANGED) >= ARRANGED_SIZE:
            _ARRANGED.clear()
        groups = _ARRANGED[key] = tuple(tables.best_arrangement(hand).melds)
    return groups


def _where(meld: TableMeld, move: LayOff) -> int:
    """0 for a run's high end, 1 for its low end, 2 for a set."""
    if meld.kind == SET:
        return 2
    if move.end is not None:
        return 1 if move.end == "low" else 0
    return 1 if meld.low > 1 and move.card == position_card(meld.suit, meld.low - 1) else 0


def play_out(state: HandState, *, max_turns: int) -> None:
    """Play greedy moves until the hand ends or ``max_turns`` more turns have passed."""
    stop = state.turn_count + max_turns
    push = state.push
    while state.result is None and state.turn_count < stop:
        push(greedy_move(state))


__all__ = ["greedy_move", "play_out"]
