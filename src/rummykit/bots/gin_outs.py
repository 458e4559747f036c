"""Gin choices by one draw of lookahead: what the next card from the stock is worth.

The search bot's own policy (:func:`lookahead_move`) and its discard candidates
(:func:`best_discards`).

A 10-card hand is valued by its expected deadwood after the next draw and the best discard
(:func:`expected_deadwood`): the mean, over the cards the seat has not seen, of the least
deadwood the hand keeps with that card added and one card thrown. So of two discards
leaving the same deadwood, the one keeping more ways to improve (runs open at both ends,
pairs with live cards) wins. The unseen cards are those not in the seat's hand, not in the
discard pile, not known in the opponent's hand, and not on the table.

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> from rummykit.variants.gin.view import gin_view
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> seen = gin_view(hand, 1)
>>> 0 <= expected_deadwood(seen.hand, unseen_cards(seen)) <= 100
True
"""

from __future__ import annotations

from rummykit.bots.gin_greedy import greedy_gin_move
from rummykit.bots.gin_playout import best_discard
from rummykit.core.cards import Card, cards_of
from rummykit.core.moves import Discard, Draw, Take
from rummykit.variants.gin.deadwood import CARD_VALUES, arrangement_mask, min_deadwood
from rummykit.variants.gin.moves import BigGin, Gin, GinMove, Knock, Pass
from rummykit.variants.gin.phases import DISCARD_STEP, DRAW_STEP, OFFER
from rummykit.variants.gin.view import GinView

__all__ = ["best_discards", "discard_order", "expected_deadwood", "feed_chance",
           "lookahead_move", "take_value", "unseen_cards"]

_DRAW, _TAKE, _PASS = Draw(), Take(), Pass()


def unseen_cards(seen: GinView) -> list[Card]:
    """The cards the seat cannot place: in the stock or unknown in the opponent's hand."""
    visible = seen.hand | seen.known[0] | seen.known[1] | seen.laid
    visible |= arrangement_mask(seen.knock_groups) | arrangement_mask(seen.defender_groups)
    for card in seen.discard:
        visible |= 1 << card
    if seen.face_down >= 0:
        visible |= 1 << seen.face_down
    return [c for c in range(52) if not visible >> c & 1]


def expected_deadwood(hand: int, unseen: list[Card]) -> float:
    """The mean least deadwood of the 10 cards ``hand`` after drawing one of ``unseen``
    and throwing the best card."""
    if not unseen:
        return float(min_deadwood(hand))
    total = 0
    for card in unseen:
        total += best_discard(hand | 1 << card, 0)[0]
    return total / len(unseen)


def discard_order(hand: int, banned: int, unseen: list[Card]) -> list[tuple[float, Card]]:
    """The discards of the 11 cards ``hand`` (not in ``banned``), best first, each with
    the expected deadwood it leaves (ties: the higher card value first)."""
    found = []
    rest = hand & ~banned
    for card in cards_of(rest):
        left = hand & ~(1 << card)
        found.append((expected_deadwood(left, unseen), -CARD_VALUES[card], card))
    found.sort()
    return [(value, card) for value, _, card in found]


def take_value(hand: int, top: Card, rediscard_ban: bool, unseen: list[Card]) -> float:
    """The expected deadwood after taking ``top`` and the best discard."""
    bit = 1 << top
    return discard_order(hand | bit, bit if rediscard_ban else 0, unseen)[0][0]


def _partners(card: Card) -> list[tuple[Card, Card]]:
    """The pairs of cards that make a 3-card meld with ``card``."""
    rank, suit = card % 13, card // 13
    same = [s * 13 + rank for s in range(4) if s != suit]
    pairs = [(same[i], same[j]) for i in range(3) for j in range(i + 1, 3)]
    for low in (rank - 2, rank - 1, rank):
        if 0 <= low <= 10:
            run = [suit * 13 + r for r in range(low, low + 3) if r != rank]
            pairs.append((run[0], run[1]))
    return pairs


def feed_chance(seen: GinView, card: Card, unseen: list[Card]) -> float:
    """A rough chance that the opponent holds two cards making a meld with ``card``: a
    card known in its hand counts 1, an unseen card its share of the unseen cards."""
    other = 1 - seen.seat
    known = seen.known[other]
    hidden = seen.hand_sizes[other] - known.bit_count()
    share = hidden / len(unseen) if unseen else 0.0
    live = 0
    for c in unseen:
        live |= 1 << c
    miss = 1.0
    for a, b in _partners(card):
        pa = 1.0 if known >> a & 1 else share if live >> a & 1 else 0.0
        pb = 1.0 if known >> b & 1 else share if live >> b & 1 else 0.0
        miss *= 1.0 - pa * pb
    return 1.0 - miss


def lookahead_move(seen: GinView, feed: float) -> GinMove:
    """The lookahead policy's move for the seat to move in ``seen``: take the discard top
    when the deadwood after taking and throwing the best card is below the expected
    deadwood after a draw; knock as the greedy bot does (gin first, least deadwood);
    else throw the card leaving the least expected deadwood plus ``feed`` times
    :func:`feed_chance` (of the five best by expected deadwood). Otherwise greedy."""
    legal = seen.legal
    phase = seen.phase
    if phase in (OFFER, DRAW_STEP) and _TAKE in legal and seen.discard_top is not None:
        top = seen.discard_top
        bit = 1 << top
        took = best_discard(seen.hand | bit, bit if seen.rules.rediscard_ban else 0)[0]
        if took < expected_deadwood(seen.hand, unseen_cards(seen)):
            return _TAKE
        return _PASS if phase == OFFER else _DRAW
    if phase == DISCARD_STEP and not any(isinstance(m, (Knock, Gin, BigGin)) for m in legal):
        return Discard(best_discards(seen, feed, 1)[0])
    return greedy_gin_move(seen)


def best_discards(seen: GinView, feed: float, count: int) -> list[Card]:
    """The ``count`` best discards of the seat to move after its draw, best first (by
    expected deadwood plus ``feed`` times the chance of feeding the opponent a meld)."""
    taken = seen.taken
    banned = 1 << taken if taken >= 0 and seen.rules.rediscard_ban else 0
    unseen = unseen_cards(seen)
    order = discard_order(seen.hand, banned, unseen)[:max(count, 5)]
    if feed:
        order.sort(key=lambda pair: pair[0] + feed * feed_chance(seen, pair[1], unseen))
    return [card for _, card in order[:count]]
