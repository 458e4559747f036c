"""Gin deadwood: the exact minimum against a plain search, the implied arrangement's tie
rules (FORMATS.md §4.1), and OpenSpiel's 11-card knock test against pyspiel itself."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyspiel.gin_rummy import GinRummyUtils

from rummykit.core.cards import cards_of, mask_of, parse_cards
from rummykit.variants.gin import deadwood as dw


def hand_of(text: str) -> int:
    return mask_of(parse_cards(text))


def plain_min_deadwood(hand: int) -> int:
    """The oracle: every subset of pairwise disjoint melds, no tables, no memo."""
    melds = [m for m in dw.ALL_MELDS if m & hand == m]
    best = dw.mask_value(hand)

    def walk(start: int, used: int) -> None:
        nonlocal best
        best = min(best, dw.mask_value(hand & ~used))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                walk(i + 1, used | melds[i])

    walk(0, 0)
    return best


def meld_rich_hand(rng: random.Random, size: int) -> int:
    """A hand drawn from few ranks, so that melds (and ties between them) are common."""
    ranks = rng.sample(range(13), rng.randint(4, 7))
    pool = [s * 13 + r for s in range(4) for r in ranks]
    return mask_of(rng.sample(pool, size))


def test_values_and_meld_table() -> None:
    assert dw.CARD_VALUES[parse_cards("SA")[0]] == 1
    assert [dw.CARD_VALUES[c] for c in parse_cards("H9 HT CJ DQ SK")] == [9, 10, 10, 10, 10]
    assert len(dw.ALL_MELDS) == 65 + 4 * 66
    assert dw.is_meld(hand_of("SA S2 S3")) and not dw.is_meld(hand_of("SQ SK SA"))
    assert not dw.is_meld(hand_of("SK SA S2")) and dw.is_meld(hand_of("CA C2 C3 C4 C5 C6 C7 "
                                                                       "C8 C9 CT CJ CQ CK"))
    assert dw.is_set(hand_of("C7 D7 H7 S7")) and not dw.is_set(hand_of("C7 C8 C9"))
    assert not dw.is_meld(hand_of("C7 D7")) and not dw.is_meld(hand_of("C7 D8 H9"))


@given(st.sets(st.integers(0, 51), min_size=10, max_size=11))
@settings(max_examples=400, deadline=None)
def test_min_deadwood_equals_the_plain_search(cards: set[int]) -> None:
    hand = mask_of(cards)
    assert dw.min_deadwood(hand) == plain_min_deadwood(hand)


def test_min_deadwood_on_meld_rich_hands() -> None:
    rng = random.Random(18)
    for _ in range(1500):
        hand = meld_rich_hand(rng, rng.choice((10, 11)))
        assert dw.min_deadwood(hand) == plain_min_deadwood(hand)


def test_meldable_is_the_union_of_the_melds() -> None:
    rng = random.Random(7)
    for _ in range(500):
        hand = meld_rich_hand(rng, 11)
        union = 0
        for meld in dw.melds_in(hand):
            union |= meld
        assert dw.meldable(hand) == union


def test_knock_discards_match_the_definition() -> None:
    rng = random.Random(3)
    for _ in range(800):
        hand = meld_rich_hand(rng, 11)
        for limit in (0, 5, 10):
            expected = [c for c in cards_of(hand) if dw.knock_deadwood(hand, c) <= limit]
            assert dw.knock_discards(hand, limit) == expected


def test_arrangements_reach_the_minimum() -> None:
    hand = hand_of("H7 H8 H9 C2 D2 S2 D5 D6 D7 CT")
    values = {dw.mask_value(hand & ~sum(a)) for a in dw.arrangements(hand)}
    assert min(values) == 10 and dw.mask_value(hand) in values
    capped = list(dw.arrangements(hand, 10))
    assert capped and all(dw.mask_value(hand & ~sum(a)) <= 10 for a in capped)


def test_implied_arrangement_prefers_sets() -> None:
    # 5s, 6s, 7s of three suits: as three sets or three runs, both deadwood 1 (SA)
    assert dw.format_arrangement(dw.implied_arrangement(
        hand_of("SA S5 S6 S7 C5 C6 C7 D5 D6 D7"))) == "C5 D5 S5 / C6 D6 S6 / C7 D7 S7"


def test_implied_arrangement_text_order_breaks_remaining_ties() -> None:
    # a 6-card run is one group or two: the sorted group texts compare smaller when split
    groups = dw.implied_arrangement(hand_of("S2 S3 S4 S5 S6 S7 CK DK HK HA"))
    assert dw.format_arrangement(groups) == "CK DK HK / S2 S3 S4 / S5 S6 S7"


def plain_implied_key(hand: int) -> tuple[int, int, list[str]]:
    """The oracle of the tie rules: every disjoint subset of melds, keyed as FORMATS.md
    §4.1 says (deadwood, then most cards in sets, then the sorted group texts)."""
    melds = [m for m in dw.ALL_MELDS if m & hand == m]
    keys = []

    def walk(start: int, used: int, chosen: list[int]) -> None:
        in_sets = sum(m.bit_count() for m in chosen if dw.is_set(m))
        keys.append((dw.mask_value(hand & ~used), -in_sets,
                     sorted(dw.group_text(cards_of(m)) for m in chosen)))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                walk(i + 1, used | melds[i], [*chosen, melds[i]])

    walk(0, 0, [])
    return min(keys)


def test_implied_arrangement_equals_the_plain_tie_rules() -> None:
    rng = random.Random(5)
    ties = 0
    for _ in range(600):
        hand = meld_rich_hand(rng, 10)
        groups = dw.implied_arrangement(hand)
        masks = [mask_of(g) for g in groups]
        key = (dw.mask_value(hand & ~dw.arrangement_mask(groups)),
               -sum(m.bit_count() for m in masks if dw.is_set(m)),
               sorted(dw.group_text(g) for g in groups))
        assert key == plain_implied_key(hand)
        ties += len({tuple(sorted(a)) for a in dw.arrangements(hand, key[0])}) > 1
    assert ties > 10  # the sample exercises the tie rules


def test_implied_arrangement_is_minimal_and_canonical() -> None:
    rng = random.Random(11)
    for _ in range(300):
        hand = meld_rich_hand(rng, 10)
        groups = dw.implied_arrangement(hand)
        assert dw.arrangement_error(hand, groups) is None
        assert dw.mask_value(hand & ~dw.arrangement_mask(groups)) == dw.min_deadwood(hand)
        order = [(not dw.is_set(mask_of(g)), g[0] % 13 if dw.is_set(mask_of(g)) else
                  min(g) % 13) for g in groups]
        sets_first = [o[0] for o in order]
        assert sets_first == sorted(sets_first)


def test_arrangement_errors_quote_the_cards() -> None:
    hand = hand_of("H7 H8 H9 C2 D2 S2 D5 D6 D7 CT")
    assert dw.arrangement_error(hand, ((parse_cards("H7 H8 H9")[0],) * 3,)) == (
        "H7 H7 H7 repeats a card")
    assert "SK not in hand" in str(dw.arrangement_error(hand, (tuple(parse_cards("SJ SQ "
                                                                                  "SK")),)))
    assert "in two melds" in str(dw.arrangement_error(
        hand, (tuple(parse_cards("H7 H8 H9")), tuple(parse_cards("H7 H8 H9")))))
    assert "is not a meld" in str(dw.arrangement_error(hand, (tuple(parse_cards("H7 H8 "
                                                                                "CT")),)))


def os_cards(hand: int) -> list[int]:
    return [dw.os_index(c) for c in cards_of(hand)]


def test_os_index_is_openspiel_order() -> None:
    assert [dw.os_index(c) for c in parse_cards("SA SK CA DA HA HK")] == [0, 12, 13, 26, 39, 51]


@pytest.mark.parametrize(("text", "expected"), [
    ("H4 C5 C6 H6 S6 C7 D7 H7 S7 CA C8", 11),  # RULES.md §6.15 case 30
    ("SA S2 S3 S4 CA C2 C3 D2 D3 D4 H4", 1),  # case 31
])
def test_os_min_deadwood_cases(text: str, expected: int) -> None:
    hand = hand_of(text)
    assert dw.os_min_deadwood(hand) == expected
    assert GinRummyUtils(13, 4, 10).min_deadwood(os_cards(hand)) == expected
    assert min(dw.knock_deadwood(hand, c) for c in cards_of(hand)) < expected


def test_os_min_deadwood_equals_pyspiel() -> None:
    utils = GinRummyUtils(13, 4, 10)
    rng = random.Random(26)
    for n in range(3000):
        size = 11 if n % 3 else 10
        hand = meld_rich_hand(rng, size) if n % 2 else mask_of(rng.sample(range(52), size))
        expected = utils.min_deadwood(os_cards(hand))
        if size == 11:
            assert dw.os_min_deadwood(hand) == expected
        else:
            assert dw.min_deadwood(hand) == expected
