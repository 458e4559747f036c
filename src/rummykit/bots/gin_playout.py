"""Fast gin playouts for the search bot: a greedy policy played on a :class:`GinHand` itself.

The policy reads the full state (it plays both seats of a determinized hand), never builds
a view and never lists the legal moves outside the show: it takes the discard top when that
lowers its minimum deadwood after its best discard, knocks as soon as it may (gin first,
then the discard leaving the least deadwood), else discards the card whose removal leaves
the least deadwood (the higher card on a tie); at the wall it takes to knock when it can;
in the show it lays off what lowers its deadwood, melds (when melds are explicit) and says
``done``. Every move it makes is legal (a test checks it against ``is_legal``).

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> playout(hand, random.Random(1)) in range(-400, 401)
True
>>> hand.result is not None
True
"""

from __future__ import annotations

import random

from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take
from rummykit.variants.gin.deadwood import (
    CARD_VALUES,
    arrangement_mask,
    implied_arrangement,
    knock_discards,
    min_deadwood,
)
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import BigGin, Done, Gin, GinMove, Knock, Pass
from rummykit.variants.gin.phases import DISCARD_STEP, DRAW_STEP, OFFER, SHOW, WALL, WALL_KNOCK

__all__ = ["best_discard", "knock_move", "playout", "policy_move", "take_helps"]

_DRAW, _TAKE, _PASS, _DONE = Draw(), Take(), Pass(), Done()
_DISCARDS = tuple(Discard(c) for c in range(52))


def best_discard(hand: int, banned: int) -> tuple[int, int]:
    """``(deadwood, card)``: the discard of an 11-card ``hand`` (not in ``banned``) that
    leaves the least minimum deadwood, the higher card value on a tie."""
    best, best_card, best_value = 1 << 30, -1, -1
    rest = hand & ~banned
    while rest:
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        left = min_deadwood(hand ^ low)
        value = CARD_VALUES[card]
        if left < best or (left == best and value > best_value):
            best, best_card, best_value = left, card, value
    return best, best_card


def take_helps(hand: int, top: int, rediscard_ban: bool) -> bool:
    """True if taking ``top`` lowers the least deadwood ``hand`` keeps after a discard."""
    bit = 1 << top
    after, _ = best_discard(hand | bit, bit if rediscard_ban else 0)
    return after < min_deadwood(hand)


def knock_move(state: GinHand, hand: int, banned: int) -> GinMove | None:
    """The best knock of the seat to move holding ``hand`` (gin first, then the least
    deadwood), or None when no knock is legal."""
    if state.may_meld_all_eleven(hand):
        return BigGin(implied_arrangement(hand))
    discards = knock_discards(hand, state.knock_limit, banned)
    if not discards or not state.knock_test_passes(hand):
        return None
    card = min(discards, key=lambda c: (min_deadwood(hand & ~(1 << c)), -CARD_VALUES[c]))
    rest = hand & ~(1 << card)
    groups = implied_arrangement(rest)
    if arrangement_mask(groups) == rest:
        return Gin(card, groups)
    return Knock(card, groups)


def _show_move(state: GinHand) -> GinMove:
    hand = state.hands[state.to_move]
    now = min_deadwood(hand)
    best: GinMove | None = None
    best_left = now
    melds: list[Meld] = []
    for move in state.iter_legal_moves():
        if isinstance(move, LayOff):
            left = min_deadwood(hand & ~(1 << move.card))
            if left < best_left:
                best, best_left = move, left
        elif isinstance(move, Meld):
            melds.append(move)
    if best is not None:
        return best
    if state.rules.defender_melds == "explicit" and melds:
        wanted = set(implied_arrangement(hand))
        for meld in melds:
            if meld.groups[0] in wanted:
                return meld
    return _DONE


def policy_move(state: GinHand) -> GinMove:
    """The playout policy's move for the seat to move in ``state`` (a hand not over)."""
    phase = state.phase
    seat = state.to_move
    hand = state.hands[seat]
    ban = state.rules.rediscard_ban
    if phase == DISCARD_STEP:
        taken = state.taken
        banned = 1 << taken if taken >= 0 and ban else 0
        knock = knock_move(state, hand, banned)
        if knock is not None:
            return knock
        return _DISCARDS[best_discard(hand, banned)[1]]
    if phase == DRAW_STEP:
        if not state.stock_only and take_helps(hand, state.discard[-1], ban):
            return _TAKE
        return _DRAW
    if phase == OFFER:
        return _TAKE if take_helps(hand, state.discard[-1], ban) else _PASS
    if phase == WALL:
        return _TAKE if state.wall_take_ok() else _PASS
    if phase == WALL_KNOCK:
        knock = knock_move(state, hand, 1 << state.taken if ban else 0)
        assert knock is not None  # the wall take is legal only when a knock follows
        return knock
    if phase == SHOW:
        return _show_move(state)
    raise ValueError(f"no move in phase {phase!r}: the hand is over")


def playout(state: GinHand, rng: random.Random, seat: int = 0) -> int:
    """Play ``state`` to its end with the policy (in place) and return ``seat``'s hand
    score: its points minus the other seat's. ``rng`` is kept for policies that draw
    on it; this one is deterministic given the state."""
    while state.result is None:
        state.push(policy_move(state))
    scores = state.result.scores
    return scores[seat] - scores[1 - seat]
