"""The gin view hides what RULES.md §6 hides: the opponent's hand until the hand is over,
the knocker's face-down discard from the defender; it shows the knocker's melds and
deadwood at the show. Resampling a view gives a hand with the same view."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gin_hand_helpers import PROFILES, dealt, play, position
from rummykit.core.cards import parse_card
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.view import gin_view, public_gin_view, resample


def swap_hidden(hand: GinHand, seat: int, rng: random.Random) -> GinHand | None:
    """The same hand with one of the opponent's unknown cards exchanged with a stock card."""
    other = 1 - seat
    public = hand.known[other]
    if hand.knocker == other:
        return None
    hidden = [c for c in range(52) if hand.hands[other] >> c & 1 and not public >> c & 1]
    if not hidden or not hand.stock:
        return None
    twin = hand.copy()
    card, index = rng.choice(hidden), rng.randrange(len(twin.stock))
    swapped = twin.stock[index]
    twin.stock[index] = card
    twin.hands[other] = twin.hands[other] & ~(1 << card) | 1 << swapped
    return twin


@given(st.integers(0, 10**9), st.integers(0, len(PROFILES) - 1), st.integers(0, 120))
@settings(max_examples=120, deadline=None)
def test_hidden_cards_do_not_change_the_view(seed: int, profile: int, steps: int) -> None:
    hand, rng = position(seed, profile, steps)
    if hand.is_over:
        return
    for seat in (0, 1):
        twin = swap_hidden(hand, seat, rng)
        if twin is not None:
            assert gin_view(twin, seat) == gin_view(hand, seat)
            assert twin.hands[1 - seat] != hand.hands[1 - seat]


@given(st.integers(0, 10**9), st.integers(0, len(PROFILES) - 1), st.integers(0, 150))
@settings(max_examples=120, deadline=None)
def test_resample_keeps_the_view(seed: int, profile: int, steps: int) -> None:
    hand, rng = position(seed, profile, steps)
    for seat in (0, 1):
        seen = gin_view(hand, seat)
        sample = resample(seen, rng)
        assert gin_view(sample, seat) == seen
        cards = sample.hands[0] | sample.hands[1]
        for card in [*sample.stock, *sample.discard]:
            assert not cards >> card & 1
        if not sample.is_over and sample.to_move == seat:
            for _ in range(5):
                if sample.is_over:
                    break
                sample.play(rng.choice(sample.legal_moves()))


def test_own_hand_only_until_the_hand_is_over() -> None:
    hand = dealt("SQ S5 S6 S7 C9 CT CJ SK CK DK", "S2 C2 D2 H2 S8 C8 D8 S9 C7 CA", "DJ")
    for seat in (0, 1):
        seen = gin_view(hand, seat)
        assert seen.hand == hand.hands[seat] and seen.revealed == ()
    spectator = public_gin_view(hand)
    assert spectator.hand == 0 and spectator.legal == () and spectator.hand_sizes == (10, 10)
    play(hand, "take")
    assert gin_view(hand, 0).known == (0, 1 << parse_card("DJ"))


def test_the_show_hides_the_face_down_discard_and_shows_the_knock() -> None:
    hand = dealt("SQ S5 S6 S7 C9 CT CJ SK CK DK", "S2 C2 D2 H2 S8 C8 D8 S9 C7 CA", "DJ")
    play(hand, "take", "knock SQ: SK CK DK / S5 S6 S7 / C9 CT CJ")
    defender, knocker = gin_view(hand, 0), gin_view(hand, 1)
    sq = parse_card("SQ")
    assert sq not in defender.discard and defender.face_down == -1
    assert knocker.face_down == sq and sq not in knocker.discard
    assert defender.knocker_deadwood == 1 << parse_card("DJ")
    assert len(defender.knock_groups) == 3 and defender.revealed == ()
    assert defender.legal and knocker.legal == ()
    play(hand, "lay S8 on 2")
    assert gin_view(hand, 0).table[1] == gin_view(hand, 1).table[1]
    assert gin_view(hand, 1).laid == 1 << parse_card("S8")
    play(hand, "done")
    over = gin_view(hand, 0)
    assert over.face_down == sq and over.discard[-1] == sq
    assert over.revealed == (hand.hands[0], hand.hands[1]) and over.result is not None
