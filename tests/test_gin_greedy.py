"""The greedy gin player (bots/gin_greedy.py): legal, and the choices its rule names."""

from __future__ import annotations

import random

import pytest

from rummykit.bots.gin_greedy import GinGreedyBot, greedy_gin_move
from rummykit.core.cards import parse_card
from rummykit.core.errors import IllegalMoveError
from rummykit.core.moves import Discard, LayOff, Take
from rummykit.variants.gin.deadwood import min_deadwood
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import Done, Gin, Knock, Pass
from rummykit.variants.gin.replay import GinMatch
from rummykit.variants.gin.rules import (
    GIN,
    GinRules,
    gin_rules_from_options,
    openspiel_profile,
)
from rummykit.variants.gin.view import gin_view


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def stacked(nondealer: str, dealer: str, upcard: str, stock_top: str = "") -> GinHand:
    """A hand dealt by seat 0 with the given hands, upcard and stock top (rest in order)."""
    used = set(cards(nondealer) + cards(dealer) + [parse_card(upcard)] + cards(stock_top))
    rest = cards(stock_top) + [c for c in range(52) if c not in used]
    return GinHand.from_deal(GIN, 0, [cards(dealer), cards(nondealer)], parse_card(upcard),
                             rest)


@pytest.mark.parametrize("rules", [GIN, openspiel_profile(), openspiel_profile(True),
                                   gin_rules_from_options("oklahoma", {})])
def test_every_greedy_choice_is_legal_and_hands_end(rules: GinRules) -> None:
    for seed in range(40):
        hand = GinHand.deal(rules, dealer=seed % 2, rng=random.Random(seed))
        while hand.result is None:
            move = greedy_gin_move(gin_view(hand, hand.to_move))
            assert hand.is_legal(move), (seed, move, hand.phase)
            hand.play(move)
        assert hand.result.result in ("win", "draw")


def test_takes_the_upcard_only_when_it_lowers_deadwood() -> None:
    hand = stacked("H7 H8 C2 D2 S2 D5 D6 D7 CT SK", "CA C3 C5 C7 C9 DJ HQ HK S4 S8", "H9")
    assert greedy_gin_move(gin_view(hand, 1)) == Take()  # H9 makes H7 H8 H9
    hand = stacked("H7 H8 C2 D2 S2 D5 D6 D7 CT SK", "CA C3 C5 C7 C9 DJ HQ HK S4 S8", "DK")
    assert greedy_gin_move(gin_view(hand, 1)) == Pass()


def test_knocks_when_it_may_and_prefers_gin() -> None:
    hand = stacked("H7 H8 H9 C2 D2 S2 D5 D6 D7 CT", "CA C3 C5 C7 C9 DJ HQ HK S4 S8", "SK",
                   stock_top="C4")
    for text in ("pass", "pass", "draw"):
        hand.play(text)
    move = greedy_gin_move(gin_view(hand, 1))
    assert isinstance(move, Knock) and move.card in (parse_card("CT"), parse_card("C4"))
    hand = stacked("H7 H8 H9 C2 D2 S2 D5 D6 D7 CT", "CA C3 C5 C7 C9 DJ HQ HK S4 S8", "SK",
                   stock_top="D8")
    for text in ("pass", "pass", "draw"):
        hand.play(text)
    move = greedy_gin_move(gin_view(hand, 1))
    assert isinstance(move, Gin) and move.card == parse_card("CT")


def test_discards_the_card_that_leaves_least_deadwood() -> None:
    hand = stacked("H7 H8 C2 D2 S2 D5 D6 D7 CT SK", "CA C3 C5 C7 C9 DJ HQ HK S4 S8", "DK",
                   stock_top="HA")
    for text in ("pass", "pass", "draw"):
        hand.play(text)
    move = greedy_gin_move(gin_view(hand, 1))
    assert isinstance(move, Discard)
    held = hand.hands[1]
    best = min(min_deadwood(held & ~(1 << c)) for c in range(52) if held >> c & 1)
    assert min_deadwood(held & ~(1 << move.card)) == best
    assert move.card in (parse_card("CT"), parse_card("SK"))  # the 10s tie: either


def test_the_defender_lays_off_then_says_done() -> None:
    # §6.15 case 10: the knocker shows H4 H5 H6 / CQ DQ SQ / D7 D8 D9 (S6 loose).
    hand = stacked("H4 H5 H6 CQ DQ SQ D7 D8 D9 S6", "H7 H8 C3 C4 C5 S9 ST SJ DA CA", "HK",
                   stock_top="CK")
    for text in ("pass", "pass", "draw", "knock CK: H4 H5 H6 / CQ DQ SQ / D7 D8 D9"):
        hand.play(text)
    played = []
    while hand.result is None:
        move = greedy_gin_move(gin_view(hand, hand.to_move))
        played.append(move)
        hand.play(move)
    assert played == [LayOff(parse_card("H7"), 1), LayOff(parse_card("H8"), 1), Done()]
    assert hand.result.reason == "undercut" and hand.result.scores == (29, 0)


def test_no_move_for_a_seat_that_is_not_to_move() -> None:
    hand = GinHand.deal(GIN, dealer=0, rng=random.Random(1))
    with pytest.raises(IllegalMoveError, match="not to move"):
        greedy_gin_move(gin_view(hand, 0))


def test_a_greedy_match_plays_to_the_end_and_a_copy_plays_on_alike() -> None:
    bot = GinGreedyBot()
    match = GinMatch(GIN, ["Ann", "Bob"], seed=21)
    rng = random.Random(0)
    twin: GinMatch | None = None
    while not match.over:
        hand = match.start_hand()
        while not hand.is_over:
            if twin is None and len(match.hands) == 2:
                twin = match.copy()
            match.play(bot.choose(gin_view(hand, hand.to_move), rng))
    assert twin is not None
    while not twin.over:
        state = twin.state if twin.state is not None and not twin.state.is_over \
            else twin.start_hand()
        twin.play(greedy_gin_move(gin_view(state, state.to_move)))
    assert twin.totals == match.totals and twin.winners == match.winners
    assert [log.moves for log in twin.hands] == [log.moves for log in match.hands]
    assert match.results()[match.winners[0]].won
