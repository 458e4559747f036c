"""Shared, immutable move objects and per-suit tables of them, so that generating legal
moves allocates almost nothing (hands are bit sets; see :mod:`rummykit.core.cards`)."""

from __future__ import annotations

from rummykit.core.cards import NUM_RANKS
from rummykit.core.melds import MeldTables, position_card
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take

DRAW_MOVE = Draw()
TAKE_MOVE = Take()
DISCARDS = tuple(Discard(c) for c in range(52))

_MELD_MOVES: dict[tuple[int, ...], Meld] = {}
_LAY_MOVES: dict[tuple[int, int, str | None], LayOff] = {}


def meld_move(group: tuple[int, ...]) -> Meld:
    """The shared :class:`Meld` object of one canonical group."""
    move = _MELD_MOVES.get(group)
    if move is None:
        move = _MELD_MOVES[group] = Meld((group,))
    return move


def lay_move(card: int, target: int, end: str | None) -> LayOff:
    """The shared :class:`LayOff` object."""
    key = (card, target, end)
    move = _LAY_MOVES.get(key)
    if move is None:
        move = _LAY_MOVES[key] = LayOff(card, target, end)
    return move


class SuitCaches:
    """Per-rule-set caches: for each suit and 13-bit suit mask, its discards and runs."""

    def __init__(self, tables: MeldTables) -> None:
        self.tables = tables
        self.discards: list[list[tuple[Discard, ...] | None]] = [
            [None] * (1 << NUM_RANKS) for _ in range(4)]
        self.runs: list[list[tuple[tuple[Meld, int], ...] | None]] = [
            [None] * (1 << NUM_RANKS) for _ in range(4)]

    def discard_moves(self, suit: int, m: int) -> tuple[Discard, ...]:
        """The discards of the cards of one suit mask, in rank order."""
        found = self.discards[suit][m]
        if found is None:
            base = suit * NUM_RANKS
            found = tuple(DISCARDS[base + r] for r in range(NUM_RANKS) if m >> r & 1)
            self.discards[suit][m] = found
        return found

    def run_moves(self, suit: int, m: int) -> tuple[tuple[Meld, int], ...]:
        """Every run in one suit mask as (its meld move, its cards' bit set)."""
        found = self.runs[suit][m]
        if found is None:
            entries = []
            for lo, hi in self.tables.runs_in(m):
                group = tuple(position_card(suit, p) for p in range(lo, hi + 1))
                entries.append((meld_move(group), sum(1 << c for c in group)))
            found = self.runs[suit][m] = tuple(entries)
        return found


_CACHES: dict[int, SuitCaches] = {}


def caches_for(tables: MeldTables) -> SuitCaches:
    """The (shared) caches of one set of meld tables."""
    found = _CACHES.get(id(tables))
    if found is None:
        found = _CACHES[id(tables)] = SuitCaches(tables)
    return found
