"""The gin greedy player: least deadwood, knock as soon as it may (RULES.md §6).

From a seat's :class:`~rummykit.variants.gin.view.GinView` alone: it takes the discard top
when that lowers its minimum deadwood (after its best discard), knocks whenever a knock is
legal (gin first, then the knock leaving the least deadwood), else discards the card whose
removal leaves the least deadwood (the higher card on a tie). At the wall it takes and knocks
when it can. In the show it lays off every card whose removal lowers its deadwood, melds
its best arrangement when the rules count unmelded cards, and says ``done``.

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> from rummykit.variants.gin.view import gin_view
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> while hand.result is None:
...     _ = hand.play(greedy_gin_move(gin_view(hand, hand.to_move)))
>>> hand.result.result in ("win", "draw")
True
"""

from __future__ import annotations

import random

from rummykit.core.errors import IllegalMoveError
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take
from rummykit.variants.gin.deadwood import (
    CARD_VALUES,
    arrangement_mask,
    implied_arrangement,
    mask_value,
    min_deadwood,
)
from rummykit.variants.gin.moves import BigGin, Done, Gin, GinMove, Knock, Pass
from rummykit.variants.gin.view import GinView


def _after_best_discard(hand: int, banned: int) -> int:
    """The least deadwood an 11-card ``hand`` keeps after one discard (not ``banned``)."""
    best = 1 << 30
    rest = hand & ~banned
    while rest:
        low = rest & -rest
        rest ^= low
        best = min(best, min_deadwood(hand ^ low))
    return best


def _take_helps(view: GinView) -> bool:
    top = view.discard_top
    if top is None:
        return False
    bit = 1 << top
    banned = bit if view.rules.rediscard_ban else 0
    return _after_best_discard(view.hand | bit, banned) < min_deadwood(view.hand)


def _knock_deadwood(view: GinView, move: Knock | Gin | BigGin) -> int:
    groups = move.groups or ()
    held = view.hand if isinstance(move, BigGin) else view.hand & ~(1 << move.card)
    return mask_value(held & ~arrangement_mask(groups))


def _discard(view: GinView, discards: list[Discard]) -> GinMove:
    def key(move: Discard) -> tuple[int, int]:
        return (min_deadwood(view.hand & ~(1 << move.card)), -CARD_VALUES[move.card])

    return min(discards, key=key)


def _show(view: GinView, legal: tuple[GinMove, ...]) -> GinMove:
    hand = view.hand
    now = min_deadwood(hand)
    lays = [m for m in legal if isinstance(m, LayOff)
            and min_deadwood(hand & ~(1 << m.card)) < now]
    if lays:
        return min(lays, key=lambda m: min_deadwood(hand & ~(1 << m.card)))
    if view.rules.defender_melds == "explicit":
        wanted = {tuple(g) for g in implied_arrangement(hand)}
        for move in legal:
            if isinstance(move, Meld) and move.groups[0] in wanted:
                return move
    return Done()


def greedy_gin_move(view: GinView) -> GinMove:
    """The greedy move for the seat to move in ``view`` (one of ``view.legal``)."""
    legal = view.legal
    if not legal:
        raise IllegalMoveError("greedy: no move to choose (this seat is not to move)")
    knocks = [m for m in legal if isinstance(m, (Knock, Gin, BigGin))]
    if knocks:
        return min(knocks, key=lambda m: (not isinstance(m, (Gin, BigGin)),
                                          _knock_deadwood(view, m)))
    if view.phase == "show":
        return _show(view, legal)
    has_take = any(isinstance(m, Take) for m in legal)
    if view.phase == "wall":
        return Take() if has_take else Pass()
    if has_take and _take_helps(view):
        return Take()
    for move in legal:
        if isinstance(move, (Draw, Pass)):
            return move
    discards = [m for m in legal if isinstance(m, Discard)]
    return _discard(view, discards) if discards else legal[0]


class GinGreedyBot:
    """The greedy gin player as a bot (see the module docstring)."""

    name = "greedy"

    def choose(self, view: GinView, rng: random.Random) -> GinMove:
        """The greedy move; ``rng`` is not used (the policy is deterministic)."""
        return greedy_gin_move(view)
