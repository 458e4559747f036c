"""Building gin hands for tests from cards written in notation."""

from __future__ import annotations

import random

from rummykit.core.cards import format_card, parse_cards
from rummykit.core.moves import Discard, LayOff, Take
from rummykit.variants.gin.deadwood import min_deadwood
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import BigGin, Gin, GinMove, Knock
from rummykit.variants.gin.rules import (
    GIN,
    OKLAHOMA,
    GinRules,
    gin_rules_from_options,
    openspiel_profile,
)


def dealt(non_dealer: str, dealer_hand: str, upcard: str, stock: str = "", *,
          rules: GinRules = GIN, dealer: int = 0) -> GinHand:
    """A hand with both 10-card hands, the upcard and the first stock cards (top first)
    given; the rest of the stock follows in card-code order."""
    hands: list[list[int]] = [[], []]
    hands[1 - dealer] = parse_cards(non_dealer)
    hands[dealer] = parse_cards(dealer_hand)
    up = parse_cards(upcard)[0]
    top = parse_cards(stock)
    used = {*hands[0], *hands[1], up, *top}
    assert len(used) == 21 + len(top), "a card is written twice"
    rest = [c for c in range(52) if c not in used]
    return GinHand.from_deal(rules, dealer, hands, up, top + rest)


def play(hand: GinHand, *moves: str) -> list[str]:
    """Play moves (checked); their canonical texts."""
    return [str(hand.play(m)) for m in moves]


def cycle_to_wall(hand: GinHand) -> None:
    """From the offer: both pass, then every turn draws from the stock and discards the
    drawn card, until the wall turn (the 29th stock card is the last one discarded)."""
    play(hand, "pass", "pass")
    while hand.phase == "draw":
        top = hand.stock[-1]
        play(hand, "draw", f"discard {format_card(top)}")


def stock_for_wall(last: str, fill: str = "") -> str:
    """Stock text whose 29th card (the one drawn down to the wall) is ``last``."""
    cards = fill.split()
    assert len(cards) == 28, len(cards)
    return " ".join([*cards, last])


PROFILES: list[GinRules] = [
    GIN, OKLAHOMA, openspiel_profile(), openspiel_profile(oklahoma=True),
    gin_rules_from_options("gin", {"big_gin_bonus": 31, "layoff_rule": "openspiel"}),
    gin_rules_from_options("gin", {"defender_melds": "explicit", "tie_rule": "knocker_wins",
                                   "wall_knock": False}),
    gin_rules_from_options("oklahoma", {"oklahoma_ace": "one", "knock_test": "openspiel",
                                        "max_turns_per_hand": 40}),
]


def fingerprint(hand: GinHand) -> tuple[object, ...]:
    return tuple(list(v) if isinstance(v, list) else v
                 for n in GinHand.__slots__ if n != "_undo"
                 for v in [getattr(hand, n)])


def choose(hand: GinHand, rng: random.Random) -> GinMove:
    """A random legal move, biased so that shows happen: mostly greedy discards, knocks
    when the deadwood is low, frequent takes and lay-offs."""
    moves = hand.legal_moves()
    knocks = [m for m in moves if isinstance(m, (Knock, Gin, BigGin))]
    if knocks and (hand.phase == "wall_knock" or rng.random() < 0.25
                   or any(isinstance(m, (Gin, BigGin)) for m in knocks)):
        return rng.choice(knocks)
    discards = [m for m in moves if isinstance(m, Discard)]
    if discards and rng.random() < 0.8:
        held = hand.hands[hand.to_move]
        return min(discards, key=lambda m: (min_deadwood(held & ~(1 << m.card)),
                                            rng.random()))
    if hand.phase == "show":
        lays = [m for m in moves if isinstance(m, LayOff)]
        if lays and rng.random() < 0.7:
            return rng.choice(lays)
    if hand.phase == "draw" and rng.random() < 0.3 and Take() in moves:
        return Take()
    return rng.choice(moves)


def position(seed: int, profile: int, steps: int) -> tuple[GinHand, random.Random]:
    rng = random.Random(seed)
    hand = GinHand.deal(PROFILES[profile], rng.randrange(2), rng)
    for _ in range(steps):
        if hand.is_over:
            break
        hand.push(choose(hand, rng))
    return hand, rng
