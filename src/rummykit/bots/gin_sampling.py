"""Determinized gin hands for the search bot: worlds consistent with what a seat knows.

:func:`determinize` starts from :func:`~rummykit.variants.gin.view.resample` (the unseen
cards dealt at random between the opponent's hand and the stock) and, with ``inference``
on, deals the opponent's unknown cards by weight instead of uniformly: a card near one the
opponent threw away or passed (its own face-up discards, and this seat's discards still in
the pile, which it declined to take) is less likely in its hand, and a card near one it
took from the pile is more likely. "Near": the same rank, or the same suit one or two ranks
away. Only the view is read, so no hidden card is used.

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> from rummykit.variants.gin.view import gin_view
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> world = determinize(gin_view(hand, 1), random.Random(0))
>>> world.hands[1] == hand.hands[1], world.hands[0].bit_count(), len(world.stock)
(True, 10, 31)
"""

from __future__ import annotations

import random

from rummykit.core.cards import Card, cards_of
from rummykit.variants.gin.deadwood import min_deadwood
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.view import GinView, resample

__all__ = ["card_weights", "determinize", "draft_tries"]

#: weight factors for a card near a signal card: (same rank, one rank away, two away)
_AVOID = (0.45, 0.45, 0.75)
_WANT = (2.0, 2.0, 1.3)


def _near(card: Card, signal: Card) -> int:
    """0 same rank, 1 or 2 ranks away in the same suit, else -1."""
    if card % 13 == signal % 13:
        return 0
    if card // 13 == signal // 13:
        gap = abs(card % 13 - signal % 13)
        if gap <= 2:
            return gap
    return -1


def card_weights(seen: GinView, cards: list[Card]) -> list[float]:
    """The weight of each of ``cards`` being in the opponent's hand (1.0: no evidence)."""
    other = 1 - seen.seat
    pile = 0
    for card in seen.discard:
        pile |= 1 << card
    avoid = cards_of(seen.discarded[other] | (seen.discarded[seen.seat] & pile))
    want = cards_of(seen.known[other])
    weights = []
    for card in cards:
        weight = 1.0
        for signal in avoid:
            near = _near(card, signal)
            if near >= 0:
                weight *= _AVOID[near]
        for signal in want:
            near = _near(card, signal)
            if near >= 0:
                weight *= _WANT[near]
        weights.append(weight)
    return weights


def _weighted_pick(cards: list[Card], weights: list[float], count: int,
                   rng: random.Random) -> list[Card]:
    """``count`` of ``cards`` drawn without replacement with probability by weight."""
    # Efraimidis-Spirakis: the largest u ** (1 / w) keys are a weighted sample.
    keyed = sorted(((rng.random() ** (1.0 / w), c) for c, w in zip(cards, weights,
                                                                   strict=True)),
                   reverse=True)
    return [c for _, c in keyed[:count]]


def draft_tries(turns: int, most: int) -> int:
    """How many deals of the opponent's unknown cards :func:`determinize` keeps the best of
    after ``turns`` turns of the hand: one more every two turns, at most ``most``."""
    return max(1, min(most, 1 + turns // 2))


def determinize(seen: GinView, rng: random.Random, inference: bool = True,
                draft: int = 0) -> GinHand:
    """A full hand consistent with ``seen`` (a seat's view of a hand in progress).

    ``draft`` > 1 makes the opponent's hand a played one rather than a random one: its
    unknown cards are dealt :func:`draft_tries` times (up to ``draft``) and the deal
    leaving it the least deadwood is kept. A real opponent has kept its best cards for
    some turns, so a uniform deal overstates its deadwood (by about 13 points at a knock
    decision of the search bots' games), which makes waiting look safe."""
    world = resample(seen, rng)
    if seen.revealed or seen.knocker is not None:
        return world
    tries = draft_tries(seen.turn_count, draft) if draft > 1 else 1
    if not inference and tries == 1:
        return world
    other = 1 - seen.seat
    unknown = world.hands[other] & ~seen.known[other]
    count = unknown.bit_count()
    if not count:
        return world
    pool = cards_of(unknown) + world.stock
    weights = card_weights(seen, pool) if inference else [1.0] * len(pool)
    mask, best = 0, 1 << 30
    for _ in range(tries):
        chosen = 0
        for card in _weighted_pick(pool, weights, count, rng):
            chosen |= 1 << card
        left = min_deadwood(seen.known[other] | chosen) if tries > 1 else 0
        if left < best:
            mask, best = chosen, left
    world.hands[other] = seen.known[other] | mask
    stock = [c for c in pool if not mask >> c & 1]
    rng.shuffle(stock)
    world.stock = stock
    return world
