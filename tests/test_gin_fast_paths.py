"""The gin engine's fast paths give what the plain ones give: the loose-card bound that
skips the knock search, the deal without the record checks, and the short undo records
of draws, discards and takes (every field restored, in every profile)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gin_hand_helpers import PROFILES, choose, fingerprint, position
from rummykit.core.moves import Discard, Draw, Take
from rummykit.variants.gin import deadwood as dw
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import BigGin, Gin, Knock
from rummykit.variants.gin.phases import DISCARD_STEP, WALL_KNOCK


def meld_rich(rng: random.Random, size: int) -> int:
    """A hand from few ranks: sets, runs and both through one card are common."""
    ranks = rng.sample(range(13), rng.randint(3, 6))
    pool = [s * 13 + r for s in range(4) for r in ranks]
    return sum(1 << c for c in rng.sample(pool, min(size, len(pool))))


@given(st.integers(0, 10**9), st.sampled_from([10, 11]), st.booleans())
@settings(max_examples=400, deadline=None)
def test_loose_value_is_the_value_of_the_cards_in_no_meld(seed: int, size: int,
                                                          rich: bool) -> None:
    rng = random.Random(seed)
    hand = meld_rich(rng, size) if rich else sum(1 << c for c in rng.sample(range(52), size))
    assert dw.loose_value(hand) == dw.mask_value(hand & ~dw.meldable(hand))


def test_loose_value_counts_a_card_of_a_set_and_a_run_once() -> None:
    hand = sum(1 << c for c in (4, 17, 30, 5, 6, 51))  # C5 D5 H5, C6 C7, SK
    assert dw.loose_value(hand) == 10  # SK only: C5 is in the set and the run
    assert dw.loose_value(0) == 0


@given(st.integers(0, 10**9), st.integers(0, len(PROFILES) - 1), st.integers(0, 1))
@settings(max_examples=60, deadline=None)
def test_deal_is_from_deck_of_the_same_shuffle(seed: int, profile: int, dealer: int) -> None:
    rules = PROFILES[profile]
    dealt = GinHand.deal(rules, dealer, random.Random(seed), deal_index=3)
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    checked = GinHand.from_deck(rules, dealer, deck, deal_index=3)
    assert fingerprint(dealt) == fingerprint(checked)


@given(st.integers(0, 10**9), st.integers(0, len(PROFILES) - 1), st.integers(0, 120))
@settings(max_examples=200, deadline=None)
def test_every_knock_the_exact_search_finds_is_listed(seed: int, profile: int,
                                                      steps: int) -> None:
    hand, _ = position(seed, profile, steps)
    if hand.phase not in (DISCARD_STEP, WALL_KNOCK):
        return
    cards = hand.hands[hand.to_move]
    taken = hand.taken
    banned = 1 << taken if taken >= 0 and hand.rules.rediscard_ban else 0
    want = [c for c in range(52) if (cards & ~banned) >> c & 1
            and dw.min_deadwood(cards & ~(1 << c)) <= hand.knock_limit]
    if not hand.knock_test_passes(cards):
        want = []
    listed = hand.legal_moves()
    assert [m.card for m in listed if isinstance(m, (Knock, Gin))] == want
    big = hand.may_meld_all_eleven(cards)
    assert any(isinstance(m, BigGin) for m in listed) == big


@given(st.integers(0, 10**9), st.integers(0, len(PROFILES) - 1), st.integers(0, 140))
@settings(max_examples=150, deadline=None)
def test_each_short_undo_record_restores_every_field(seed: int, profile: int,
                                                     steps: int) -> None:
    hand, rng = position(seed, profile, steps)
    if hand.is_over:
        return
    before = fingerprint(hand)
    move = choose(hand, rng)
    hand.push(move)
    if isinstance(move, (Draw, Discard, Take)):
        assert fingerprint(hand) != before
    hand.pop()
    assert fingerprint(hand) == before
