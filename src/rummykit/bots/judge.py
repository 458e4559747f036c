"""Quick measures of a one-deck hand, from a seat's view: the search bot's priors.

``cost`` is the least weight left out of melds, where an unmatched card weighs a fixed
amount (cards in hand delay going out) plus its points (they are lost if someone else goes
out). Cards that fit a meld on the table cost nothing: they can be laid off.

>>> from rummykit.core.cards import mask_of, parse_cards
>>> from rummykit.variants import BASIC
>>> judge = judge_for(BASIC)
>>> judge.cost(mask_of(parse_cards("S7 S8 S9 H2")), 0)
8
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rummykit.core.cards import ALL_NATURALS, NUM_RANKS, Card, mask_of
from rummykit.core.melds import RULES_BY_ID, MeldTables, hand_card, tables_for
from rummykit.core.rules import Rules
from rummykit.core.views import PlayerView

T = TypeVar("T")

CARD_WEIGHT = 6  # what one unmatched card weighs besides its points
DRAW_FORESIGHT = 0.5  # how much the chance of improving by the next draw counts


class Judge:
    """Hand measures for one rule set's meld shapes (one deck, no jokers)."""

    def __init__(self, rules: Rules) -> None:
        base = tables_for(rules)
        self.weights = tuple(CARD_WEIGHT + v for v in base.values)
        self.tables = MeldTables(rules.ace_high, rules.run_min_length, rules.ace_value,
                                 self.weights)
        self.solve = self.tables.min_deadwood
        self.count_tables = MeldTables(rules.ace_high, rules.run_min_length, rules.ace_value,
                                       (1,) * NUM_RANKS)
        self.unmatched = self.count_tables.min_deadwood
        self.points = base.values
        self.card_weight = [self.weights[c % NUM_RANKS] for c in range(52)]

    def cost(self, hand: int, layable: int) -> int:
        """Weight of the cards of ``hand`` left out of melds, cards in ``layable`` free."""
        return self.solve(hand & ~layable)

    def potential(self, hand: int, layable: int, live: int) -> float:
        """Mean weight that one card drawn from ``live`` would bring into melds."""
        if not live:
            return 0.0
        solve = self.solve
        hand &= ~layable
        base = solve(hand)
        weights = self.card_weight
        total = 0
        count = 0
        bits = live
        while bits:
            low = bits & -bits
            bits ^= low
            card = low.bit_length() - 1
            count += 1
            if low & layable:
                total += weights[card]
                continue
            total += base + weights[card] - solve(hand | low)
        return total / count

    def score(self, hand: int, layable: int, live: int) -> float:
        """Lower is better: cost now, less what the next draw is likely to bring."""
        return self.cost(hand, layable) - DRAW_FORESIGHT * self.potential(hand, layable, live)

    def distance(self, hand: int, layable: int, live: int) -> float:
        """Roughly how many cards stand between the hand and going out: those left out of
        melds, less what the next draw is likely to match."""
        hand &= ~layable
        solve = self.unmatched
        base = solve(hand)
        if not live or not base:
            return float(base)
        gain = 0
        count = 0
        bits = live
        while bits:
            low = bits & -bits
            bits ^= low
            count += 1
            if low & layable:
                gain += 1
            else:
                gain += base + 1 - solve(hand | low)
        return base - DRAW_FORESIGHT * gain / count

    def value(self, hand: int) -> int:
        """The points of the cards in ``hand``."""
        points = self.points
        total = 0
        while hand:
            low = hand & -hand
            hand ^= low
            total += points[(low.bit_length() - 1) % NUM_RANKS]
        return total

    def drawing(self, hand: int, layable: int, live: int) -> float:
        """Mean of :meth:`best_after` over the cards of ``live`` drawn into ``hand``."""
        total = 0
        count = 0
        bits = live
        while bits:
            low = bits & -bits
            bits ^= low
            total += self.best_after(hand | low, layable, 0)
            count += 1
        return total / count if count else float("inf")

    def best_after(self, hand: int, layable: int, keep: int) -> int:
        """Least cost after discarding one card of ``hand`` other than those in ``keep``."""
        solve = self.solve
        free = hand & ~layable
        best = 1 << 30
        bits = hand & ~keep
        while bits:
            low = bits & -bits
            bits ^= low
            value = solve(free & ~low)
            if value < best:
                best = value
        return best if best < 1 << 30 else solve(free)


def layable_cards(seen: PlayerView) -> int:
    """Cards that some meld on the table accepts."""
    bits = 0
    for meld in seen.table:
        bits |= meld.accepts
    return bits & ALL_NATURALS


def live_cards(seen: PlayerView) -> int:
    """Cards the seat has not seen: in the stock or in hidden parts of other hands."""
    seen_bits = seen.hand | mask_of(seen.discard)
    for meld in seen.table:
        seen_bits |= mask_of(hand_card(c) for c in meld.cards)
    for s, known in enumerate(seen.known):
        if s != seen.seat:
            seen_bits |= known
    return ALL_NATURALS & ~seen_bits


def related(card: Card, other: Card) -> bool:
    """Whether two cards could belong to one meld (same rank, or near in one suit)."""
    if card % NUM_RANKS == other % NUM_RANKS:
        return True
    return card // NUM_RANKS == other // NUM_RANKS and abs(card - other) <= 2


def per_rules(build: Callable[[Rules], T]) -> Callable[[Rules], T]:
    """``build`` made once per rule set: found by identity first, then by value, so that
    equal rules (an arena worker unpickles a new copy for every game) share one build."""
    by_value: dict[Rules, T] = {}
    by_id: dict[int, tuple[Rules, T]] = {}

    def get(rules: Rules) -> T:
        entry = by_id.get(id(rules))
        if entry is None or entry[0] is not rules:
            built = by_value.get(rules)
            if built is None:
                built = by_value[rules] = build(rules)
            if len(by_id) >= RULES_BY_ID:
                by_id.clear()
            entry = by_id[id(rules)] = (rules, built)
        return entry[1]

    return get


#: the (cached) judge of a rule set
judge_for = per_rules(Judge)
