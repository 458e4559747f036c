"""The greedy bot: melds and lays off whenever it can; discards its highest loose card."""

from __future__ import annotations

import random

from rummykit.bots.greedy_contract import choose_contract
from rummykit.core.cards import points_table
from rummykit.core.engine import DRAW_PHASE
from rummykit.core.melds import tables_for
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Take
from rummykit.core.views import PlayerView


class GreedyBot:
    """Takes the discard only to complete a meld; melds, lays off, then discards high."""

    name = "greedy"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """Deterministic greedy choice among ``view.legal``."""
        if view.rules.contract_schedule:
            return choose_contract(view)
        legal = view.legal
        if view.phase == DRAW_PHASE:
            return self._draw(view, legal)
        melds = [m for m in legal if isinstance(m, Meld)]
        if melds:
            wanted = set(tables_for(view.rules).best_arrangement(view.hand).melds)
            for meld in melds:
                if meld.groups[0] in wanted:
                    return meld
            return melds[0]
        for move in legal:
            if isinstance(move, LayOff):
                return move
        return self._discard(view, legal)

    def _draw(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        top = view.discard_top
        takes = [m for m in legal if isinstance(m, Take)]
        if not takes:
            return legal[0]
        if top is not None and not any(isinstance(m, Draw) for m in legal):
            return takes[0]
        if top is not None and self._completes(view, top):
            return takes[0]
        return next(m for m in legal if isinstance(m, Draw))

    @staticmethod
    def _completes(view: PlayerView, card: int) -> bool:
        if any(meld.accepts >> card & 1 for meld in view.table):
            return True
        return tables_for(view.rules).completes(view.hand, card)

    @staticmethod
    def _discard(view: PlayerView, legal: tuple[Move, ...]) -> Move:
        discards = [m for m in legal if isinstance(m, Discard)]
        if not discards:
            return legal[0]
        loose = view.hand & ~tables_for(view.rules).melded(view.hand)
        values = points_table(view.rules.ace_value)
        pool = [m for m in discards if loose >> m.card & 1] or discards
        return max(pool, key=lambda m: (values[m.card], m.card % 13, m.card))
