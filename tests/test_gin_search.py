"""The gin search bot, its playout policy, its worlds, the levels and the hints."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest

from gin_hand_helpers import dealt
from rummykit.bots import FAMILY_BOTS, make_bot_for
from rummykit.bots.gin_hints import GIN_HINT_LEVELS, gin_hint, gin_hint_json, gin_hint_lines
from rummykit.bots.gin_outs import feed_chance, lookahead_move, unseen_cards
from rummykit.bots.gin_playout import playout, policy_move
from rummykit.bots.gin_sampling import card_weights, determinize, draft_tries
from rummykit.bots.gin_search import (
    SEARCH_LEVELS,
    GinSearchBot,
    SearchLevel,
    candidates,
    decision_kind,
)
from rummykit.core.cards import parse_card, parse_cards
from rummykit.core.errors import IllegalMoveError, RummyError
from rummykit.core.moves import Discard
from rummykit.variants.gin.deadwood import arrangement_mask, min_deadwood
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import Gin, Knock
from rummykit.variants.gin.rules import GIN, OKLAHOMA, GinRules, openspiel_profile
from rummykit.variants.gin.view import GinView, gin_view

RULE_SETS = [GIN, OKLAHOMA, openspiel_profile(), openspiel_profile(True)]
TINY = SearchLevel("tiny", worlds=2, searched=frozenset({"knock", "wall", "take", "discard"}),
                   discards=2, arrangements=3)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name + str(r.knock_test))
def test_every_playout_move_is_legal_and_playouts_end(rules: GinRules) -> None:
    for seed in range(30):
        hand = GinHand.deal(rules, dealer=seed % 2, rng=random.Random(seed))
        while hand.result is None:
            move = policy_move(hand)
            assert hand.is_legal(move), (seed, move, hand.phase)
            hand.play(move)
        assert hand.result.result in ("win", "draw")


def test_playout_returns_the_seat_score_difference() -> None:
    hand = GinHand.deal(GIN, dealer=0, rng=random.Random(5))
    copy = hand.copy()
    score = playout(hand, random.Random(0), seat=1)
    assert hand.result is not None
    assert score == hand.result.scores[1] - hand.result.scores[0]
    assert playout(copy, random.Random(0), seat=0) == -score


def _views(rules: GinRules, seeds: range) -> list[GinView]:
    """Views of the seat to move at every decision of greedy-played hands."""
    found = []
    for seed in seeds:
        hand = GinHand.deal(rules, dealer=seed % 2, rng=random.Random(seed))
        while hand.result is None:
            found.append(gin_view(hand, hand.to_move))
            hand.play(policy_move(hand))
    return found


def test_worlds_agree_with_everything_the_seat_sees() -> None:
    rng = random.Random(1)
    for seen in _views(GIN, range(6)):
        for inference, draft in ((True, 0), (False, 0), (True, 6), (False, 4)):
            world = determinize(seen, rng, inference, draft)
            me, other = seen.seat, 1 - seen.seat
            assert world.hands[me] == seen.hand
            assert world.hands[other] & seen.known[other] == seen.known[other]
            assert world.hands[other].bit_count() == seen.hand_sizes[other]
            assert len(world.stock) == seen.stock_size
            assert world.discard[:len(seen.discard)] == list(seen.discard)
            every = (world.hands[0] | world.hands[1] | arrangement_mask(world.knock_groups)
                     | arrangement_mask(world.defender_groups) | world.laid)
            for card in [*world.stock, *world.discard]:
                assert not every >> card & 1
                every |= 1 << card
            assert every == (1 << 52) - 1
            assert [str(m) for m in world.legal_moves()] == [str(m) for m in seen.legal]


def test_a_drafted_opponent_holds_less_deadwood_the_longer_the_hand_has_gone() -> None:
    assert [draft_tries(turns, 6) for turns in (0, 1, 2, 5, 9, 30)] == [1, 1, 2, 3, 5, 6]
    assert draft_tries(30, 0) == draft_tries(30, 1) == 1
    late = [v for v in _views(openspiel_profile(), range(8)) if v.turn_count >= 10
            and v.knocker is None and not v.revealed][:12]
    assert late
    rng = random.Random(4)

    def mean_deadwood(draft: int) -> float:
        return sum(min_deadwood(determinize(v, rng, True, draft).hands[1 - v.seat])
                   for v in late for _ in range(10)) / (10 * len(late))

    assert mean_deadwood(6) < mean_deadwood(0) - 5


def test_inference_weights_cards_near_the_opponents_discards_down() -> None:
    hand = dealt("H7 H8 C2 D2 S2 D5 D6 D7 CT SK", "CA C3 C5 C7 C9 DJ HQ HK S4 S8", "H9")
    for text in ("pass", "pass", "draw", "discard CT"):
        hand.play(text)
    seen = gin_view(hand, 0)  # seat 1 threw CT away
    near, far = parse_cards("CJ S3")
    low, plain = card_weights(seen, [near, far])
    assert low < plain == 1.0


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name + str(r.knock_test))
def test_every_lookahead_move_is_legal(rules: GinRules) -> None:
    for seen in _views(rules, range(4)):
        if seen.legal:
            assert lookahead_move(seen, 4.0) in seen.legal, seen.phase


def test_the_feed_chance_reads_the_opponents_known_cards_and_the_seats_own() -> None:
    hand = dealt("H7 H8 C2 D2 S2 D5 D6 D7 CT SK", "CA C3 C5 C7 C9 DJ HQ HK S4 S8", "H9")
    hand.play("take")  # seat 1 takes H9: H7 H8 H9 known in no hand, H9 known in seat 1's
    hand.play("discard SK")
    seen = gin_view(hand, 0)
    unseen = unseen_cards(seen)
    assert parse_card("H9") not in unseen and parse_card("SK") not in unseen
    # HT with H9 known in the opponent's hand and H8 unseen: a real chance
    assert feed_chance(seen, parse_card("HT"), unseen) > feed_chance(
        seen, parse_card("DT"), unseen)
    # C4: C3 and C5 are in seat 0's own hand, and no C4 set partner is known
    assert feed_chance(seen, parse_card("C4"), unseen) < 0.2


def test_decision_kinds() -> None:
    kinds = {decision_kind(seen) for seen in _views(GIN, range(10)) if seen.legal}
    assert {"knock", "discard", "take", "show"} <= kinds


def test_a_search_that_never_overrides_plays_the_policy() -> None:
    never = SearchLevel("never", worlds=2, searched=TINY.searched, margin=1e9)
    bot = GinSearchBot(never)
    rng = random.Random(0)
    for seen in _views(OKLAHOMA, range(2)):
        if seen.legal and seen.phase != "show":
            assert bot.choose(seen, rng) == lookahead_move(seen, never.feed)


def test_the_search_gives_each_candidates_paired_error_and_a_confidence_can_hold_it() -> None:
    level = SearchLevel("sure", worlds=6, searched=TINY.searched, margin=0.0, draft=6)
    doubtful = dataclasses.replace(level, confidence=1e9)
    spreads, overridden = [], 0
    views = [v for v in _views(openspiel_profile(), range(2))
             if decision_kind(v) in ("knock", "discard")]
    for seen in views[::4]:
        found = GinSearchBot(level).analyse(seen, random.Random(2))
        first = next(c for c in found.candidates if c.move == found.policy_move)
        assert first.spread == 0.0
        spreads += [c.spread for c in found.candidates if c is not first]
        assert GinSearchBot(doubtful).choose(seen, random.Random(2)) == found.policy_move
        overridden += found.best != found.policy_move
    assert spreads and all(s >= 0 for s in spreads) and max(spreads) > 0
    assert overridden  # without the confidence some of these would not be the policy's


def test_the_search_plays_gin_when_it_can() -> None:
    hand = dealt("H7 H8 H9 C2 D2 S2 D5 D6 D7 CT", "CA C3 C5 C7 C9 DJ HQ HK S4 S8", "D8")
    hand.play("take")
    seen = gin_view(hand, 1)
    assert any(isinstance(m, Gin) for m in seen.legal)
    move = GinSearchBot(TINY).choose(seen, random.Random(0))
    assert isinstance(move, Gin) and move in seen.legal


def test_candidates_keep_every_knock_and_the_best_discards() -> None:
    for seen in _views(GIN, range(8)):
        if seen.phase != "discard":
            continue
        kept = candidates(seen, TINY)
        for move in seen.legal:
            if isinstance(move, (Knock, Gin)):
                assert move in kept
        assert sum(isinstance(m, Discard) for m in kept) <= TINY.discards
        for move in kept:
            assert isinstance(move, (Discard, Knock, Gin)), move


def test_alternative_knock_arrangements_are_legal() -> None:
    met = 0
    for rules in (GIN, openspiel_profile()):
        for seed in range(40):
            hand = GinHand.deal(rules, dealer=0, rng=random.Random(seed))
            while hand.result is None:
                seen = gin_view(hand, hand.to_move)
                if decision_kind(seen) == "knock":
                    for move in candidates(seen, TINY):
                        assert hand.is_legal(move), (seed, move)
                        met += isinstance(move, (Knock, Gin)) and move not in seen.legal
                hand.play(policy_move(hand))
    assert met > 0  # some knock had another arrangement worth comparing


@pytest.mark.parametrize("name", ["easy", "medium", "hard", "expert", "simple", "greedy"])
def test_every_gin_level_is_registered_and_plays_legal_moves(name: str) -> None:
    assert name in FAMILY_BOTS["gin"]
    bot = make_bot_for(name, GIN)
    rng = random.Random(7)
    hand = GinHand.deal(GIN, dealer=1, rng=random.Random(11))
    while hand.result is None:
        move = bot.choose(gin_view(hand, hand.to_move), rng)
        assert hand.is_legal(move), (name, move, hand.phase)
        hand.play(move)


def test_an_unknown_gin_bot_is_refused_with_the_names() -> None:
    with pytest.raises(RummyError, match=r"'wizard' does not play gin.*medium"):
        make_bot_for("wizard", GIN)
    with pytest.raises(IllegalMoveError, match="unknown gin search level 'wizard'"):
        GinSearchBot.for_level("wizard")


@pytest.mark.parametrize("level", GIN_HINT_LEVELS)
def test_hints_rank_legal_moves_and_give_the_arrangement(level: str) -> None:
    hand = GinHand.deal(OKLAHOMA, dealer=0, rng=random.Random(21))
    for text in ("pass", "pass", "draw"):
        hand.play(text)
    seen = gin_view(hand, hand.to_move)
    advice = gin_hint(seen, level, random.Random(0))
    found = advice.analysis
    assert found.best in seen.legal
    assert all(c.move in seen.legal for c in found.candidates)
    values = [c.value for c in found.candidates]
    assert values == sorted(values, reverse=True)
    assert (found.simulations == 0) == (level == "easy")
    shape = advice.arrangement
    assert set(shape.deadwood_cards) | set(c for m in shape.melds for c in m) == set(
        seen.hand_cards)
    lines = gin_hint_lines(advice, 3)
    assert lines[0] == f"Recommended: {found.best}"
    assert lines[-1].startswith("Best arrangement: ")
    data = json.loads(json.dumps(gin_hint_json(advice, 3)))
    assert data["best"] == str(found.best)
    assert data["position"]["phase"] == "discard"
    assert len(data["candidates"]) == min(3, len(found.candidates))
    assert data["arrangement"]["deadwood"] == shape.deadwood


def test_a_hint_needs_the_seat_to_move_and_a_known_level() -> None:
    hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
    with pytest.raises(ValueError, match="seat to move"):
        gin_hint(gin_view(hand, 0), "medium", random.Random(0))
    with pytest.raises(ValueError, match="unknown hint level 'wizard'"):
        gin_hint(gin_view(hand, 1), "wizard", random.Random(0))


def test_each_gin_level_searches_at_least_what_the_one_below_does() -> None:
    levels = list(SEARCH_LEVELS.values())
    assert [level.name for level in levels] == ["medium", "hard", "expert"]
    for lower, upper in itertools.pairwise(levels):
        assert upper.worlds > lower.worlds
        assert upper.searched >= lower.searched
        assert upper.discards >= lower.discards
        assert upper.arrangements >= lower.arrangements
        assert upper.margin <= lower.margin
        # more worlds alone did not tell hard and expert apart: each level adds more
        widths = ("searched", "discards", "arrangements", "margin", "feed")
        assert any(getattr(upper, f) != getattr(lower, f) for f in widths)
