"""Contract meld arithmetic (RULES.md §4): rulebook cases, and a brute-force oracle that
tries every sub-multiset of small hands with every joker identity through ``make_meld``."""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

import pytest

from helpers import placed
from rummykit.core.cards import JOKER, NUM_RANKS, card_points, parse_card, parse_cards
from rummykit.core.melds import JOKER_AS, RUN, SET, TableMeld, format_placed, make_meld
from rummykit.core.rules import Rules
from rummykit.variants import CONTRACT
from rummykit.variants.contract import meld_search, meld_tables
from rummykit.variants.contract.melds import (
    Way,
    can_make,
    can_make_containing,
    deal_seven_ok,
    first_way_containing,
    is_way_to_go_down,
    least_penalty,
    uses_every_card,
    ways_to_go_down,
)

LOW = dataclasses.replace(CONTRACT, ace_mode="low")
SAME_SUITS = dataclasses.replace(CONTRACT, contract_runs_distinct_suits=False)
FOURS = dataclasses.replace(CONTRACT, run_min_length=4)
SCHEDULE = CONTRACT.contract_schedule
VARIANTS = [dataclasses.replace(CONTRACT, ace_mode=ace, run_min_length=length,
                                contract_runs_distinct_suits=distinct)
            for ace in ("high_or_low", "low") for length in (3, 4) for distinct in (True, False)]


def text_of(way: Way) -> str:
    return " / ".join(" ".join(format_placed(c) for c in g) for g in way)


def ways_text(hand: str, sets: int, runs: int, rules: Rules = CONTRACT) -> list[str]:
    return [text_of(w) for w in ways_to_go_down(parse_cards(hand), sets, runs, rules)]


def is_way(hand: str, groups: str, sets: int, runs: int, rules: Rules = CONTRACT) -> bool:
    return is_way_to_go_down(parse_cards(hand), [placed(g) for g in groups.split("/")],
                             sets, runs, rules)


# --- (a) rulebook cases (RULES.md §4.10) ------------------------------------------------------

def test_deal_one_needs_exactly_two_sets() -> None:  # §4.10.3
    hand = "C8 D8 H8 CK DK HK CQ DQ HQ S2"
    assert not can_make(parse_cards("C8 D8 H8 S2"), 2, 0, CONTRACT)
    assert can_make(parse_cards("C8 D8 H8 CK DK HK"), 2, 0, CONTRACT)
    assert not is_way(hand, "C8 D8 H8", 2, 0)
    assert is_way(hand, "C8 D8 H8 / CK DK HK", 2, 0)
    assert not is_way(hand, "C8 D8 H8 / CK DK HK / CQ DQ HQ", 2, 0)
    assert "C8 D8 H8 / CK DK HK" in ways_text(hand, 2, 0)


def test_deal_three_runs_of_distinct_suits() -> None:  # §4.10.4
    same = "H4 H5 H6 H9 HT HJ"
    assert not can_make(parse_cards(same), 0, 2, CONTRACT)
    assert not is_way(same, "H4 H5 H6 / H9 HT HJ", 0, 2)
    assert is_way(same, "H4 H5 H6 / H9 HT HJ", 0, 2, SAME_SUITS)
    assert ways_text(same, 0, 2, SAME_SUITS) == ["H4 H5 H6 / H9 HT HJ"]
    assert is_way("H4 H5 H6 S9 ST SJ", "S9 ST SJ / H4 H5 H6", 0, 2)
    assert ways_text("S9 ST SJ H4 H5 H6", 0, 2) == ["H4 H5 H6 / S9 ST SJ"]


def test_sets_have_distinct_suits_and_at_most_four_cards() -> None:  # §4.10.7
    assert not is_way("H8 H8 S8", "H8 H8 S8", 1, 0)
    assert not can_make(parse_cards("H8 H8 S8"), 1, 0, CONTRACT)
    assert is_way("C8 D8 H8 S8", "C8 D8 H8 S8", 1, 0)
    fives = "C8 D8 H8 S8 H8"
    assert not is_way(fives, "C8 D8 H8 S8 H8", 1, 0)
    ways = ways_text(fives, 1, 0)
    assert ways and all(len(w.split()) <= 4 for w in ways)
    assert "C8 D8 H8 S8" in ways and "C8 D8 H8" in ways


def test_two_sets_of_one_rank() -> None:  # §4.10.8
    hand = "C8 D8 H8 C8 D8 S8"
    assert is_way(hand, "C8 D8 H8 / C8 D8 S8", 2, 0)
    assert can_make(parse_cards(hand), 2, 0, CONTRACT)
    assert "C8 D8 H8 / C8 D8 S8" in ways_text(hand, 2, 0)
    assert not is_way(hand, "C8 D8 H8 S8 / C8 D8 H8", 2, 0)  # only one H8


def test_joker_in_a_set_takes_a_missing_suit() -> None:  # §4.10.9 and the brief
    assert ways_text("D8 S8 JK", 1, 0) == ["D8 JK=H8 S8", "JK=C8 D8 S8"]
    assert is_way("D8 S8 JK", "D8 S8 JK=H8", 1, 0)
    assert not is_way("D8 S8 JK", "D8 S8 JK=S8", 1, 0)
    assert not is_way("D8 S8 JK", "D8 S8 JK=D9", 1, 0)
    assert not is_way("D8 S8", "D8 S8 JK=H8", 1, 0)  # no joker in hand


def test_joker_fills_a_run_gap() -> None:
    assert ways_text("H5 JK H7", 0, 1) == ["H5 JK=H6 H7"]
    assert is_way("H7 JK H5", "H7 JK=H6 H5", 0, 1)
    assert not is_way("H7 JK H5", "H7 JK=H4 H5", 0, 1)
    assert not is_way("H7 JK H5", "H7 JK=S6 H5", 0, 1)


def test_runs_and_aces() -> None:  # §4.10.18
    for run in ("HQ HK HA", "HA H2 H3"):
        assert ways_text(run, 0, 1) == [run]
    assert ways_text("HK HA H2", 0, 1) == []
    assert ways_text("HQ HK HA", 0, 1, LOW) == []
    everything = "HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA"
    assert is_way(everything, everything, 0, 1)
    assert everything in ways_text(everything, 0, 1)
    assert deal_seven_ok(parse_cards(everything + " C2 C3 C4 D5 D6 D7"), CONTRACT)
    assert not is_way(everything, everything, 0, 1, LOW)
    # 13 cards with one ace: the ace stands low or high, two different melds
    thirteen = "HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK"
    ways = ways_text(thirteen, 0, 1)
    assert thirteen in ways and "H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA" in ways
    assert len(ways) == len(set(ways))


def test_no_meld_of_jokers_only() -> None:  # §4.10.20
    assert not can_make([JOKER] * 3, 0, 1, CONTRACT)
    assert not can_make([JOKER] * 3, 1, 0, CONTRACT)
    assert not is_way_to_go_down([JOKER] * 3, [placed("JK=H5 JK=H6 JK=H7")], 0, 1, CONTRACT)
    assert list(ways_to_go_down([JOKER] * 6, 1, 1, CONTRACT)) == []


def test_runs_of_four() -> None:  # §4.10.21
    assert not can_make(parse_cards("H4 H5 H6"), 0, 1, FOURS)
    assert not is_way("H4 H5 H6", "H4 H5 H6", 0, 1, FOURS)
    assert ways_text("H4 H5 H6 H7", 0, 1, FOURS) == ["H4 H5 H6 H7"]
    assert ways_text("H4 H5 H6 JK", 0, 1, FOURS) == ["JK=H3 H4 H5 H6", "H4 H5 H6 JK=H7"]


def test_penalties() -> None:  # §4.10.17, §1.11
    assert least_penalty(parse_cards("SA JK HK D7"), 2, 0, CONTRACT) == (47, None)
    penalty, way = least_penalty(parse_cards("C8 D8 H8 S8 S9 ST D2"), 1, 1, CONTRACT)
    assert (penalty, way and text_of(way)) == (2, "C8 D8 H8 / S8 S9 ST")
    # SA cannot join; the joker best extends the run, where it first can (low end)
    penalty, way = least_penalty(parse_cards("C8 D8 H8 S8 JK S9 ST SA"), 1, 1, CONTRACT)
    assert (penalty, way and text_of(way)) == (15, "C8 D8 H8 / JK=S7 S8 S9 ST")
    # 13 spades and a joker: the joker is the high ace; with aces low only, it stands in
    # for the cheapest natural of the full run instead
    hand = [*parse_cards("SA S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK"), JOKER]
    penalty, way = least_penalty(hand, 0, 1, CONTRACT)
    assert penalty == 0 and way is not None and way[0][-1] == JOKER_AS + parse_card("SA")
    penalty, way = least_penalty(hand, 0, 1, LOW)
    assert penalty == 2 and way is not None and way[0][1] == JOKER_AS + parse_card("S2")


def test_deal_seven() -> None:  # §4.10.15
    thirteen = parse_cards("H5 H6 H7 H8 C2 C3 C4 SJ SQ SK SA D9 JK")
    assert not deal_seven_ok(thirteen, CONTRACT)  # D9 would be left
    assert deal_seven_ok([*thirteen[:11], JOKER, JOKER], CONTRACT)
    assert deal_seven_ok(parse_cards("H5 H6 H7 H8 C2 C3 C4 C5 SJ SQ SK SA JK"), CONTRACT)
    assert not deal_seven_ok(parse_cards("H5 H6 H7 C2 C3 C4 S5 S6 S7 H9 HT HJ D2"), CONTRACT)
    same = parse_cards("H2 H3 H4 H6 H7 H8 HT HJ HQ")
    assert not deal_seven_ok(same, CONTRACT)
    assert deal_seven_ok(same, SAME_SUITS)
    assert uses_every_card(parse_cards("C8 D8 H8 JK S9 ST"), 1, 1, CONTRACT)


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        can_make([53], 1, 0, CONTRACT)
    with pytest.raises(ValueError):
        can_make([5] * 4, 1, 0, CONTRACT)
    with pytest.raises(ValueError):
        ways_to_go_down([5], -1, 0, CONTRACT)
    assert not is_way_to_go_down([5, 18, 31], [(5, 18, 52)], 1, 0, CONTRACT)
    assert not is_way_to_go_down([5, 18, 31], [(5, 18, 31, 200)], 1, 0, CONTRACT)


# --- (b) brute-force oracle ------------------------------------------------------------------

def positions(card: int, rules: Rules) -> tuple[int, ...]:
    rank = card % NUM_RANKS + 1
    return (1, 14) if rank == 1 and rules.ace_high else (rank,)


@cache
def as_meld(codes: tuple[int, ...], rules: Rules) -> TableMeld | None:
    meld = make_meld(codes, rules)
    return None if isinstance(meld, str) else meld


def candidate_melds(hand: Counter[int], rules: Rules) -> list[TableMeld]:
    """Every meld whose cards the hand holds: each sub-multiset of naturals that share one
    rank or one suit, with 0..all jokers, each joker standing for every natural it could
    (same rank as all the naturals, or same suit and within the meld's length of each)."""
    jokers = hand[JOKER]
    naturals = sorted(c for c in hand if c != JOKER)
    families = [[c for c in naturals if c % NUM_RANKS == r] for r in range(NUM_RANKS)]
    families += [[c for c in naturals if c // NUM_RANKS == s] for s in range(4)]
    subs: set[tuple[int, ...]] = set()
    for family in families:
        for counts in itertools.product(*(range(hand[c] + 1) for c in family)):
            sub = tuple(c for c, n in zip(family, counts, strict=True) for _ in range(n))
            if sub:
                subs.add(sub)
    found: dict[tuple[int, ...], TableMeld] = {}
    for sub in subs:
        for k in range(jokers + 1):
            size = len(sub) + k
            if size < 3:
                continue
            ids = [x for x in range(52) if x not in sub and (
                all(x % NUM_RANKS == y % NUM_RANKS for y in sub)
                or all(x // NUM_RANKS == y // NUM_RANKS and any(
                    abs(p - q) < size for p in positions(x, rules) for q in positions(y, rules))
                    for y in sub))]
            for chosen in itertools.combinations(ids, k):
                meld = as_meld(tuple(sorted(sub + tuple(JOKER_AS + x for x in chosen))), rules)
                if meld is not None:
                    found[meld.cards] = meld
    return [found[key] for key in sorted(found)]


def usage(cards: Iterable[int]) -> Counter[int]:
    return Counter(JOKER if c >= JOKER_AS else c for c in cards)


def canonical(groups: Iterable[Sequence[int]], rules: Rules) -> tuple[tuple[int, ...], ...] | None:
    """A way as a sorted tuple of canonical melds (None if a group is not a meld)."""
    melds = []
    for g in groups:
        meld = as_meld(tuple(g), rules)
        if meld is None:
            return None
        melds.append(meld.cards)
    return tuple(sorted(melds))


def oracle_ways(hand: Counter[int], melds: list[TableMeld], sets: int, runs: int,
                rules: Rules) -> set[tuple[tuple[int, ...], ...]]:
    ways: set[tuple[tuple[int, ...], ...]] = set()
    uses = [usage(m.cards) for m in melds]

    def pick(start: int, left: Counter[int], chosen: list[int], n_sets: int, n_runs: int
             ) -> None:
        if n_sets == sets and n_runs == runs:
            suits = [melds[i].suit for i in chosen if melds[i].kind == RUN]
            if not rules.contract_runs_distinct_suits or len(set(suits)) == len(suits):
                ways.add(tuple(sorted(melds[i].cards for i in chosen)))
            return
        for i in range(start, len(melds)):
            is_set = melds[i].kind == SET
            if (n_sets if is_set else n_runs) == (sets if is_set else runs):
                continue
            if all(left[c] >= n for c, n in uses[i].items()):
                pick(i, left - uses[i], [*chosen, i], n_sets + is_set, n_runs + (not is_set))

    pick(0, hand, [], 0, 0)
    return ways


def value(cards: Iterable[int], rules: Rules) -> int:
    return sum(card_points(JOKER if c >= JOKER_AS else c, rules.ace_value, rules.joker_points)
               for c in cards)


def group_key(group: tuple[int, ...], rules: Rules) -> tuple[object, ...]:
    meld = as_meld(group, rules)
    assert meld is not None and meld.cards == group
    if meld.kind == SET:
        return (0, meld.rank, group)
    return (1, meld.suit, meld.low, len(group), group)


def random_hand(rng: random.Random) -> list[int]:
    """5-9 cards from two decks and up to two jokers, usually with melds or near-melds;
    nearly half are 9 cards made of a three-meld contract (jokers stand in for some cards)."""
    jokers = rng.choice((0, 0, 0, 1, 1, 2))
    pack = Counter({c: 2 for c in range(52)})
    hand: list[int] = []

    def add(card: int) -> None:
        if pack[card]:
            pack[card] -= 1
            hand.append(card)

    def add_set(rank: int, suits: int) -> None:
        for s in rng.sample(range(4), suits):
            add(s * NUM_RANKS + rank)

    def add_run(suit: int, low: int, length: int, keep: float) -> None:
        for p in range(low, min(low + length, 15)):
            if rng.random() < keep:
                add(suit * NUM_RANKS + (p - 1) % NUM_RANKS)

    dense = rng.random() < 0.45
    naturals = (9 if dense else rng.randint(5, 9)) - jokers
    if dense:  # three melds as in a contract of the schedule, runs of distinct suits
        sets, runs = rng.choice([c for c in SCHEDULE if sum(c) == 3])
        for _ in range(sets):
            add_set(rng.randrange(NUM_RANKS), 3)
        for suit in rng.sample(range(4), runs):
            add_run(suit, rng.randrange(1, 13), 3, 1.0)
    for _ in range(0 if dense else rng.choice((1, 2, 2, 3))):
        if rng.random() < 0.5:
            add_set(rng.randrange(NUM_RANKS), rng.randint(2, 4))
        else:
            add_run(rng.randrange(4), rng.randrange(1, 13), rng.randint(2, 5), 0.85)
    rng.shuffle(hand)
    del hand[naturals - (dense and rng.random() < 0.3):]
    while len(hand) < naturals:
        add(rng.randrange(52))
    hand += [JOKER] * jokers
    rng.shuffle(hand)
    return hand


def check_hand(hand: list[int], rules: Rules, rng: random.Random) -> int:
    counter = Counter(hand)
    melds = candidate_melds(counter, rules)
    checked = 0
    for sets, runs in sorted(set(SCHEDULE)):
        expected = oracle_ways(counter, melds, sets, runs, rules)
        ways = list(ways_to_go_down(hand, sets, runs, rules))
        got = [canonical(w, rules) for w in ways]
        assert len(set(got)) == len(got), (hand, sets, runs)
        assert set(got) == expected, (hand, sets, runs, rules.ace_mode, rules.run_min_length,
                                      rules.contract_runs_distinct_suits)
        assert can_make(hand, sets, runs, rules) == bool(expected)
        keys = [tuple(group_key(g, rules) for g in w) for w in ways]
        assert keys == sorted(keys)  # ascending, groups in canonical order within each way
        for w, k in zip(ways, keys, strict=True):
            assert list(k) == sorted(k)
            assert all(isinstance(g, tuple) and as_meld(g, rules) is not None for g in w)
        for w in ways[:20]:
            groups = [rng.sample(g, len(g)) for g in w]
            rng.shuffle(groups)
            assert is_way_to_go_down(hand, groups, sets, runs, rules)
        # random non-ways: any few candidate melds, perturbed ways
        for _ in range(6):
            pick = rng.sample(melds, min(len(melds), rng.randint(1, 3)))
            groups = [list(m.cards) for m in pick]
            if ways and rng.random() < 0.6:
                groups = [list(g) for g in rng.choice(ways)]
                g = rng.choice(groups)
                i = rng.randrange(len(g))
                g[i] = rng.choice((rng.randrange(52), JOKER_AS + rng.randrange(52)))
                if rng.random() < 0.3:
                    g.pop(rng.randrange(len(g)))
            want = canonical(groups, rules)
            assert is_way_to_go_down(hand, groups, sets, runs, rules) == (
                want is not None and want in expected), (hand, groups, sets, runs)
        total = value(hand, rules)
        penalty, best = least_penalty(hand, sets, runs, rules)
        if not expected:
            assert (penalty, best) == (total, None)
        else:
            least = min(total - sum(value(g, rules) for g in w) for w in expected)
            assert penalty == least, (hand, sets, runs)
            assert best is not None and canonical(best, rules) in expected
            assert total - sum(value(g, rules) for g in best) == penalty
            assert best == next(w for w in ways
                                if total - sum(value(g, rules) for g in w) == penalty)
        checked += 1
    everything = any(sum(len(g) for g in w) == len(hand) for w in oracle_ways(
        counter, melds, 0, 3, rules))
    assert deal_seven_ok(hand, rules) == everything
    return checked


HANDS_PER_VARIANT = 400  # 8 variants: 3,200 hands, each checked for every contract


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: (
    f"{r.ace_mode}-{r.run_min_length}-{'distinct' if r.contract_runs_distinct_suits else 'any'}"))
def test_against_brute_force(rules: Rules) -> None:
    rng = random.Random(f"contract-melds-{rules.ace_mode}-{rules.run_min_length}"
                        f"-{rules.contract_runs_distinct_suits}")
    checked = 0
    for _ in range(HANDS_PER_VARIANT):
        checked += check_hand(random_hand(rng), rules, rng)
    assert checked == HANDS_PER_VARIANT * len(set(SCHEDULE))


def test_shared_memo_of_runs_in_one_suit_cleared_when_full(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Several runs in one suit are memoised once per value table, across searches; a memo
    cleared when full (here after every second entry, even during a search) changes no
    answer, and the memo never grows past its bound."""
    monkeypatch.setattr(meld_search, "SUITS_MEMO_MOST", 2)
    memos = [vals.suits for kit in meld_tables._KITS.values() for vals in kit.values.values()]
    for memo in memos:
        memo.clear()  # filled by earlier tests under the usual bound
    rng = random.Random("contract-melds-shared-memo")
    checked = 0
    for _ in range(120):
        checked += check_hand(random_hand(rng), SAME_SUITS, rng)
    assert checked == 120 * len(set(SCHEDULE))
    memos = [vals.suits for kit in meld_tables._KITS.values() for vals in kit.values.values()]
    assert any(memos) and all(len(m) <= 2 for m in memos)


# --- (c) determinism -------------------------------------------------------------------------

def test_order_is_deterministic() -> None:
    rng = random.Random(5)
    for _ in range(60):
        hand = random_hand(rng)
        for sets, runs in set(SCHEDULE):
            first = list(ways_to_go_down(hand, sets, runs, CONTRACT))
            assert list(ways_to_go_down(hand, sets, runs, CONTRACT)) == first
            shuffled = rng.sample(hand, len(hand))
            assert list(ways_to_go_down(iter(shuffled), sets, runs, CONTRACT)) == first
            assert least_penalty(shuffled, sets, runs, CONTRACT) == least_penalty(
                hand, sets, runs, CONTRACT)


def test_generation_is_lazy() -> None:
    hand = parse_cards("C8 D8 H5 S9 D2 C4 H9 SK") + [JOKER] * 6
    ways = ways_to_go_down(hand, 1, 2, CONTRACT)
    first = list(itertools.islice(ways, 5))
    assert len(first) == 5 and len(set(first)) == 5


def test_big_hands_agree_with_themselves() -> None:
    """10-14 cards from three decks with 0-3 jokers (beyond the oracle's reach): every way
    is a way, none repeats, ``can_make`` says whether one exists, ``least_penalty`` is the
    least over all of them, and ``deal_seven_ok`` says whether one of 3 runs uses all."""
    rng = random.Random(11)
    pack = [c for c in range(52) for _ in range(3)]
    compared = 0
    for i in range(64):
        rules = VARIANTS[i % len(VARIANTS)]
        jokers = rng.choice((0, 1, 2, 3))
        suit, low = rng.randrange(4), rng.randrange(1, 8)
        hand = [suit * NUM_RANKS + (p - 1) % NUM_RANKS for p in range(low, low + 7)]
        hand += rng.sample(pack, rng.randint(10, 14) - jokers - len(hand)) + [JOKER] * jokers
        rng.shuffle(hand)
        total = value(hand, rules)
        for sets, runs in set(SCHEDULE):
            ways = list(itertools.islice(ways_to_go_down(hand, sets, runs, rules), 1500))
            assert can_make(hand, sets, runs, rules) == bool(ways)
            assert len(set(ways)) == len(ways)
            for w in ways[:100]:
                assert is_way_to_go_down(hand, w, sets, runs, rules)
                assert [group_key(g, rules) for g in w] == sorted(group_key(g, rules) for g in w)
            if len(ways) < 1500:
                penalty, best = least_penalty(hand, sets, runs, rules)
                least = min((total - sum(value(g, rules) for g in w) for w in ways),
                            default=total)
                assert penalty == least and (best is None) == (not ways)
                if sets == 0 and runs == 3:
                    assert deal_seven_ok(hand, rules) == any(
                        sum(map(len, w)) == len(hand) for w in ways)
                compared += 1
    assert compared > 300


# --- (d) ways placing one given card (a dig's card, RULES.md §4.4) ---------------------------

def holds(way: Way | tuple[tuple[int, ...], ...], card: int) -> bool:
    return any(card in g for g in way)


def first_holding(ways: Iterable[Way], card: int) -> Way | None:
    return next((w for w in ways if holds(w, card)), None)


def containing(hand: str, card: str, sets: int, runs: int, rules: Rules = CONTRACT
               ) -> tuple[bool, str | None]:
    cards, target = parse_cards(hand), parse_card(card)
    way = first_way_containing(cards, target, sets, runs, rules)
    found = can_make_containing(cards, target, sets, runs, rules)
    return found, None if way is None else text_of(way)


def test_containing_cases() -> None:
    hand = "C8 D8 H8 S8 S9 ST SJ H2"
    assert containing(hand, "SJ", 1, 1) == (True, "C8 D8 H8 / S8 S9 ST SJ")
    assert containing(hand, "S8", 1, 0) == (True, "C8 D8 H8 S8")
    assert containing(hand, "H2", 1, 1) == (False, None)
    assert containing(hand, "S8", 2, 0) == (False, None)
    assert containing(hand, "HK", 1, 1) == (False, None)  # not held
    # C8's set needs a joker standing in for D8, held, which the other set needs
    assert containing("C8 D8 JK JK JK JK", "C8", 2, 0) == (True, "C8 JK=D8 JK=H8 / "
                                                                 "D8 JK=H8 JK=S8")
    assert containing("C8 D8 JK JK JK", "C8", 2, 0) == (False, None)
    # HK's run (aces low) needs a joker standing in for HJ or HQ, held: the other run needs it
    low_same = dataclasses.replace(SAME_SUITS, ace_mode="low")
    assert containing("HJ HQ HK JK JK JK", "HK", 0, 2, low_same) == (
        True, "JK=H9 JK=HT HJ / JK=HJ HQ HK")
    assert containing("HJ HQ HK JK JK", "HK", 0, 2, low_same) == (False, None)
    # runs of distinct suits (§4.10.4)
    assert containing("H4 H5 H6 H9 HT HJ", "H4", 0, 2) == (False, None)
    assert containing("H4 H5 H6 H9 HT HJ", "H4", 0, 2, SAME_SUITS) == (
        True, "H4 H5 H6 / H9 HT HJ")
    assert containing("H4 H5 H6 H9 HT HJ S2 S3 JK", "HJ", 0, 2) == (
        True, "H9 HT HJ / JK=SA S2 S3")
    # aces (§4.10.18), a joker fills the gap
    assert containing("HQ HK HA H3 JK", "HA", 0, 1) == (True, "HA JK=H2 H3")
    assert containing("HQ HK HA", "HA", 0, 1) == (True, "HQ HK HA")
    assert containing("HQ HK HA", "HA", 0, 1, LOW) == (False, None)
    with pytest.raises(ValueError):
        can_make_containing(parse_cards("D8 S8 JK"), JOKER, 1, 0, CONTRACT)
    with pytest.raises(ValueError):
        first_way_containing(parse_cards("D8 S8 JK"), 52 + 12, 1, 0, CONTRACT)
    with pytest.raises(ValueError):
        can_make_containing(parse_cards("D8 S8 JK"), parse_card("D8"), 0, -1, CONTRACT)


def test_containing_long_runs() -> None:
    """Runs of 13 or 14 cards at least: the target ace at either end, both aces held."""
    long = dataclasses.replace(CONTRACT, run_min_length=14)
    everything = "HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK"
    ha = parse_card("HA")
    assert containing(everything + " HA", "HA", 0, 1, long) == (True, everything + " HA")
    assert containing(everything + " JK", "HA", 0, 1, long) == (True, everything + " JK=HA")
    assert containing(everything + " JK", "H5", 0, 1, long) == (True, everything + " JK=HA")
    assert containing(everything, "HA", 0, 1, long) == (False, None)
    thirteen = dataclasses.replace(long, run_min_length=13)
    hand = parse_cards(everything + " HA")
    for card in set(hand):
        ways = list(ways_to_go_down(hand, 0, 1, thirteen))
        assert len(ways) == 3  # the ace low, high, or both
        assert first_way_containing(hand, card, 0, 1, thirteen) == ways[0]
    assert can_make_containing(hand, ha, 0, 1, dataclasses.replace(thirteen, ace_mode="low"))


def small_hand(rng: random.Random) -> list[int]:
    """A hand for the oracle: mostly :func:`random_hand`, sometimes three jokers with 3-6
    naturals (where a joker standing in for a held natural can matter)."""
    hand = random_hand(rng)
    if rng.random() < 0.25:
        hand = [c for c in hand if c != JOKER][:rng.randint(3, 6)] + [JOKER] * 3
    return hand


CONTAINING_HANDS_PER_VARIANT = 200  # 8 variants: 1,600 hands, every natural, every contract


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: (
    f"{r.ace_mode}-{r.run_min_length}-{'distinct' if r.contract_runs_distinct_suits else 'any'}"))
def test_containing_against_brute_force(rules: Rules) -> None:
    rng = random.Random(f"containing-{rules.ace_mode}-{rules.run_min_length}"
                        f"-{rules.contract_runs_distinct_suits}")
    counts = Counter[bool]()
    for _ in range(CONTAINING_HANDS_PER_VARIANT):
        hand = small_hand(rng)
        counter = Counter(hand)
        melds = candidate_melds(counter, rules)
        for sets, runs in sorted(set(SCHEDULE)):
            expected = oracle_ways(counter, melds, sets, runs, rules)
            ways = list(ways_to_go_down(hand, sets, runs, rules))
            for card in sorted(set(hand) - {JOKER}):
                want = any(holds(w, card) for w in expected)
                assert can_make_containing(hand, card, sets, runs, rules) == want, (
                    hand, card, sets, runs)
                first = first_way_containing(hand, card, sets, runs, rules)
                assert first == first_holding(ways, card), (hand, card, sets, runs)
                if first is not None:
                    assert canonical(first, rules) in expected
                counts[want] += 1
    assert counts[True] > 400 and counts[False] > 4000, counts


def big_hand(rng: random.Random) -> list[int]:
    """20-40 cards from three decks with 0-4 jokers: at random, or (a third of them) from a
    few ranks of two suits, which leaves fewer ways and more cards in none."""
    jokers = rng.randint(0, 4)
    size = rng.randint(20, 40)
    pack = [c for c in range(52) for _ in range(3)]
    if rng.random() < 1 / 3:
        suits = rng.sample(range(4), 2)
        ranks = rng.sample(range(NUM_RANKS), 7)
        pack = [s * NUM_RANKS + r for s in suits for r in ranks for _ in range(3)]
        size = min(size, len(pack) + jokers)
    hand = rng.sample(pack, size - jokers) + [JOKER] * jokers
    rng.shuffle(hand)
    return hand


def test_containing_big_hands() -> None:
    """20-40-card hands: where a capped enumeration of :func:`ways_to_go_down` ends, the
    answers for every natural held equal the enumeration's; where it does not, a card it
    found in a way is confirmed (with the first such way); every answer is consistent."""
    cap = 1000
    rng = random.Random(17)
    exhausted = partial = skipped = 0
    answers = Counter[bool]()
    timings: list[float] = []
    complete_hands = 0
    for i in range(120):
        rules = VARIANTS[i % len(VARIANTS)]
        hand = big_hand(rng)
        sets, runs = SCHEDULE[i % len(SCHEDULE)]
        ways = list(itertools.islice(ways_to_go_down(hand, sets, runs, rules), cap))
        complete = len(ways) < cap
        complete_hands += complete
        possible = can_make(hand, sets, runs, rules)
        for card in sorted(set(hand) - {JOKER}):
            start = time.perf_counter()
            got = can_make_containing(hand, card, sets, runs, rules)
            timings.append(time.perf_counter() - start)
            first = first_way_containing(hand, card, sets, runs, rules)
            assert (first is not None) == got and (possible or not got)
            if first is not None:
                assert holds(first, card) and is_way_to_go_down(hand, first, sets, runs, rules)
                assert [group_key(g, rules) for g in first] == sorted(
                    group_key(g, rules) for g in first)
            found = first_holding(ways, card)
            if complete or found is not None:
                assert got == (found is not None), (hand, card, sets, runs)
                assert first == found
                exhausted += complete
                partial += not complete
                answers[got] += complete
            else:
                skipped += 1
    timings.sort()
    print(f"\ncan_make_containing on {len(timings)} (hand, card) pairs of 20-40 cards: "
          f"median {timings[len(timings) // 2] * 1e6:.0f} us, "
          f"max {timings[-1] * 1e6:.0f} us; {complete_hands} of 120 hands enumerated in full "
          f"({exhausted} pairs checked, {answers[False]} of them no), {partial} pairs "
          f"confirmed by a partial enumeration, {skipped} skipped")
    assert complete_hands > 30 and answers[True] > 300 and answers[False] > 100
    assert partial > 300
