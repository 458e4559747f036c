"""The greedy policy, the one the greedy bot, the careless bot and every playout follow.

Take the discard only to complete a meld or lay it off; lay the best arrangement's melds in
its order; lay off the lowest card (a run's high end, then its low end, then a set); then
throw the highest card left out of melds (ties: the higher rank, then the first legal).
:class:`GreedyBot` plays it on a seat's view, :func:`rummykit.bots.playout.greedy_move` on a
whole (sampled) state, :mod:`rummykit.bots.fastplay` on bit sets (tests/test_fastplay.py
checks the three agree). A family with its own greedy bot plays that one
(:mod:`rummykit.bots.families`).

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.variants import BASIC
>>> from rummykit.core.views import view
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(3))
>>> GreedyBot().choose(view(state, state.to_move), random.Random(0)) in state.legal_moves()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummykit.bots.families import policies_for
from rummykit.core.cards import Card, points_table
from rummykit.core.engine import DRAW_PHASE
from rummykit.core.melds import SET, MeldTables, TableMeld, position_card, tables_for
from rummykit.core.move_tables import DRAW_MOVE, TAKE_MOVE
from rummykit.core.moves import Discard, LayOff, Meld, Move
from rummykit.core.views import PlayerView

_ARRANGED: dict[tuple[MeldTables, int], tuple[tuple[int, ...], ...]] = {}
ARRANGED_SIZE = 200_000  # hands the arrangement memo keeps before it starts afresh


def greedy_choice(phase: str, legal: Sequence[Move], hand: int,
                  table: Sequence[TableMeld], top: Card | None, tables: MeldTables,
                  values: Sequence[int]) -> Move:
    """The greedy move among ``legal`` (module docstring) for a seat holding ``hand``."""
    if len(legal) == 1:
        return legal[0]
    if phase == DRAW_PHASE:
        if top is not None and TAKE_MOVE in legal:
            accepts = 0
            for meld in table:
                accepts |= meld.accepts
            if accepts >> top & 1 or tables.completes(hand, top):
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
            key = (move.card, _where(table[move.target - 1], move))
            if key < layoff_key:
                layoff, layoff_key = move, key
    if melds is not None:  # the best arrangement's melds in its order, as fastplay lays them
        for group in arranged(tables, hand):
            if group in melds:
                return melds[group]
    if layoff is not None:
        return layoff
    return greedy_discard(legal, tables.melded(hand), values) or legal[0]


def greedy_discard(legal: Sequence[Move], melded: int, values: Sequence[int]) -> Move | None:
    """The highest legal discard left out of ``melded`` (any card if all are melded): by
    value, then rank, the first legal one on a tie; ``None`` if no discard is legal."""
    best: Move | None = None
    best_key = (-1, -1)
    for move in legal:
        if isinstance(move, Discard):
            card = move.card
            key = (0 if melded >> card & 1 else 1, values[card] * 64 + card % 13 * 4)
            if key > best_key:
                best, best_key = move, key
    return best


def arranged(tables: MeldTables, hand: int) -> tuple[tuple[int, ...], ...]:
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


_VALUES: dict[tuple[int, int], tuple[int, ...]] = {}


def card_values(ace_value: int, joker_points: int) -> tuple[int, ...]:
    """Every card's points (memoised :func:`~rummykit.core.cards.points_table`)."""
    key = (ace_value, joker_points)
    found = _VALUES.get(key)
    if found is None:
        found = _VALUES[key] = points_table(ace_value, joker_points)
    return found


class GreedyBot:
    """Takes the discard only to complete a meld; melds, lays off, then discards high."""

    name = "greedy"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """The greedy move (module docstring) among ``view.legal``; deterministic."""
        rules = view.rules
        own = policies_for(rules)
        if own is not None:
            return own.greedy(view)
        return greedy_choice(view.phase, view.legal, view.hand, view.table, view.discard_top,
                             tables_for(rules), card_values(rules.ace_value, rules.joker_points))
