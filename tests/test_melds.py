"""Meld arithmetic: sets, runs, lay-offs, melds in a hand, best arrangement vs brute force."""

from __future__ import annotations

import dataclasses
import itertools
import random
from functools import cache

import pytest

from rummykit.core.cards import card_points, mask_of, parse_cards
from rummykit.core.melds import (
    RUN,
    SET,
    TableMeld,
    best_arrangement,
    groups_in,
    lay_off,
    make_meld,
    min_deadwood,
    tables_for,
)
from rummykit.core.rules import Rules
from rummykit.variants import BASIC

HIGH = dataclasses.replace(BASIC, ace_mode="high_or_low")
LONG = dataclasses.replace(BASIC, run_min_length=4)


def meld(text: str, rules: Rules = BASIC) -> TableMeld:
    result = make_meld(parse_cards(text), rules)
    assert isinstance(result, TableMeld), result
    return result


def test_sets_and_runs() -> None:
    assert meld("S8 C8 H8").cards == tuple(parse_cards("C8 H8 S8"))
    assert meld("C8 D8 H8 S8").kind == SET
    assert meld("H3 H2 HA").kind == RUN
    assert isinstance(make_meld(parse_cards("C8 D8"), BASIC), str)
    assert isinstance(make_meld(parse_cards("H2 S3 H4"), BASIC), str)
    assert isinstance(make_meld(parse_cards("H2 H3 H5"), BASIC), str)
    assert isinstance(make_meld(parse_cards("HK HA H2"), HIGH), str)
    assert isinstance(make_meld(parse_cards("H4 H5 H6"), LONG), str)
    assert meld("HQ HK HA", HIGH).cards == tuple(parse_cards("HQ HK HA"))


def test_thirteen_card_run_takes_the_ace_where_written() -> None:
    low = meld("HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK", HIGH)
    high = meld("H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA", HIGH)
    assert (low.low, low.high) == (1, 13)
    assert (high.low, high.high) == (2, 14)


def test_lay_off_ends() -> None:
    run = meld("H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK", HIGH)
    assert run.ends_for(parse_cards("HA")[0], HIGH) == ("low", "high")
    assert run.ends_for(parse_cards("HA")[0], BASIC) == ("low",)
    grown = lay_off(meld("H8 H9 HT"), parse_cards("H7")[0], "low", 1, BASIC)
    assert str(grown) == "H7 H8 H9 HT" and grown.placed_by == (1, 0, 0, 0)
    assert meld("C8 D8 H8 S8").accepts == 0


def _brute_melds(cards: tuple[int, ...], rules: Rules) -> list[tuple[int, ...]]:
    found = []
    for size in range(3, len(cards) + 1):
        for combo in itertools.combinations(cards, size):
            same_rank = len({c % 13 for c in combo}) == 1
            if not same_rank and len({c // 13 for c in combo}) != 1:
                continue
            if isinstance(make_meld(combo, rules), TableMeld):
                found.append(combo)
    return found


def _brute_deadwood(hand: list[int], rules: Rules) -> int:
    melds = [mask_of(m) for m in _brute_melds(tuple(hand), rules)]
    value = {c: card_points(c, rules.ace_value) for c in hand}

    @cache
    def best(rest: int) -> int:
        if not rest:
            return 0
        low = rest & -rest
        card = low.bit_length() - 1
        result = value[card] + best(rest ^ low)
        for m in melds:
            if m & low and m & rest == m:
                result = min(result, best(rest & ~m))
        return result

    return best(mask_of(hand))


@pytest.mark.parametrize("rules", [BASIC, HIGH, LONG], ids=["low", "high", "run4"])
@pytest.mark.parametrize("size", [7, 10, 11])
def test_best_arrangement_matches_brute_force(rules: Rules, size: int) -> None:
    rng = random.Random(size)
    for _ in range(1000 if size == 7 else 400):
        # bias towards meld-rich hands: draw from a few ranks and suits
        pool = rng.sample(range(52), 26) if rng.random() < 0.5 else list(range(52))
        hand = rng.sample(pool, size)
        mask = mask_of(hand)
        expected = _brute_deadwood(hand, rules)
        assert min_deadwood(mask, rules) == expected, hand
        arrangement = best_arrangement(mask, rules)
        assert arrangement.deadwood == expected
        used = 0
        for group in arrangement.melds:
            assert isinstance(make_meld(group, rules), TableMeld)
            assert not used & mask_of(group)
            used |= mask_of(group)
        assert used | mask_of(arrangement.deadwood_cards) == mask
        assert sum(card_points(c, rules.ace_value) for c in arrangement.deadwood_cards) == expected


@pytest.mark.parametrize("rules", [BASIC, HIGH, LONG], ids=["low", "high", "run4"])
def test_groups_in_finds_every_meld(rules: Rules) -> None:
    rng = random.Random(3)
    for _ in range(400):
        hand = rng.sample(range(52), rng.choice([7, 10, 12]))
        expected = {mask_of(m) for m in _brute_melds(tuple(sorted(hand)), rules)}
        found = [mask_of(g) for g in groups_in(mask_of(hand), rules)]
        assert len(found) == len(set(found)) or rules.ace_high
        assert set(found) == expected


@pytest.mark.parametrize("rules", [BASIC, HIGH, LONG], ids=["low", "high", "run4"])
def test_completes_and_melded_agree_with_the_slow_forms(rules: Rules) -> None:
    tables = tables_for(rules)
    rng = random.Random(5)
    for _ in range(500):
        hand = rng.sample(range(52), 8)
        mask = mask_of(hand[:7])
        card = hand[7]
        slow = any(card in g for g in groups_in(mask | 1 << card, rules))
        assert tables.completes(mask, card) == slow, (hand, card)
        arrangement = best_arrangement(mask, rules)
        assert tables.melded(mask) == mask & ~mask_of(arrangement.deadwood_cards)
