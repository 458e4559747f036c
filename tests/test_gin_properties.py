"""Properties of the gin hand engine over random positions of every rule profile: undo
restores the state exactly, copies are independent, an illegal play changes nothing,
the legal list agrees with ``is_legal``, and every random playout ends."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gin_hand_helpers import PROFILES, choose, fingerprint, position
from rummykit.core.errors import RummyError
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take
from rummykit.variants.gin.deadwood import ALL_MELDS
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import BigGin, Done, Gin, GinMove, Knock, Pass


def candidates(hand: GinHand, rng: random.Random) -> list[GinMove]:
    """Moves of every kind, most of them illegal here."""
    cards = range(52)
    found: list[GinMove] = [Draw(), Take(), Take(2), Pass(), Done(), BigGin()]
    found += [Discard(c) for c in cards]
    found += [Knock(c) for c in cards] + [Gin(c) for c in cards]
    found += [LayOff(c, n) for c in cards for n in range(0, 5)]
    found += [Meld(((c, c + 1, c + 2),)) for c in rng.sample(range(50), 8)]
    found += [Meld((tuple(i for i in range(52) if m >> i & 1),))
              for m in rng.sample(ALL_MELDS, 8)]
    return found


SEEDS = st.integers(0, 10**9)
PROFILE = st.integers(0, len(PROFILES) - 1)
STEPS = st.integers(0, 140)


@given(SEEDS, PROFILE, STEPS, st.integers(1, 30))
@settings(max_examples=150, deadline=None)
def test_push_pop_restores_the_state(seed: int, profile: int, steps: int, more: int) -> None:
    hand, rng = position(seed, profile, steps)
    start = fingerprint(hand)
    prints = []
    for _ in range(more):
        if hand.is_over:
            break
        prints.append(fingerprint(hand))
        hand.push(choose(hand, rng))
    while prints:
        hand.pop()
        assert fingerprint(hand) == prints.pop()
    assert fingerprint(hand) == start


@given(SEEDS, PROFILE, STEPS)
@settings(max_examples=100, deadline=None)
def test_copy_is_independent(seed: int, profile: int, steps: int) -> None:
    hand, rng = position(seed, profile, steps)
    before = fingerprint(hand)
    twin = hand.copy()
    assert fingerprint(twin) == before
    for _ in range(20):
        if twin.is_over:
            break
        twin.play(choose(twin, rng))
    assert fingerprint(hand) == before


@given(SEEDS, PROFILE, STEPS)
@settings(max_examples=120, deadline=None)
def test_legal_list_agrees_with_is_legal(seed: int, profile: int, steps: int) -> None:
    hand, rng = position(seed, profile, steps)
    legal = hand.legal_moves()
    assert legal == list(hand.iter_legal_moves())
    assert len(set(legal)) == len(legal)
    if not hand.is_over:
        assert legal
    for move in legal:
        assert hand.is_legal(move)
        twin = hand.copy()
        assert twin.play(move) == move
    listed = set(legal)
    knock_cards = {m.card for m in legal if isinstance(m, (Knock, Gin))}
    lay_cards = {m.card for m in legal if isinstance(m, LayOff)}
    before = fingerprint(hand)
    for move in candidates(hand, rng):
        ok = hand.is_legal(move)
        if isinstance(move, (Knock, Gin)) and move.groups is None:
            gin = any(isinstance(m, Gin) and m.card == move.card for m in legal)
            expected = move.card in knock_cards and (gin or isinstance(move, Knock))
            assert ok == expected, move
        elif isinstance(move, BigGin):
            assert ok == any(isinstance(m, BigGin) for m in legal)
        elif isinstance(move, LayOff) and (
                move.target == 0 or hand.rules.layoff_rule == "openspiel"):
            assert not ok or move.card in lay_cards
        else:
            assert ok == (move in listed), move
        if not ok:
            try:
                hand.play(move)
            except RummyError:
                pass
            else:  # pragma: no cover - the assertion below reports it
                raise AssertionError(f"{move} was played although not legal")
            assert fingerprint(hand) == before


@given(SEEDS, PROFILE)
@settings(max_examples=60, deadline=None)
def test_every_random_playout_ends(seed: int, profile: int) -> None:
    rng = random.Random(seed)
    rules = PROFILES[profile]
    hand = GinHand.deal(rules, rng.randrange(2), rng)
    moves = 0
    while not hand.is_over:
        hand.play(rng.choice(hand.legal_moves()))
        moves += 1
        assert moves < 4 * (rules.max_turns_per_hand or 200) + 60
    assert hand.result is not None and hand.outcome is not None
    assert hand.phase == "over" and hand.legal_moves() == []
    scores = hand.result.scores
    assert min(scores) == 0 and (hand.result.winner is None) == (max(scores) == 0 and
                                                                 hand.result.result != "win")


def test_playouts_reach_every_ending() -> None:
    """Seeded playouts of the biased policy: knocks, gins, undercuts and draws all occur."""
    reasons = set()
    for profile in range(len(PROFILES)):
        for seed in range(40):
            hand, _ = position(seed, profile, 400)
            assert hand.result is not None
            reasons.add(hand.result.reason)
    assert {"knock", "gin", "undercut", "dead_hand", "repeated_move"} <= reasons


TOKENS = ["draw", "take", "discard", "knock", "gin", "pass", "lay", "meld", "done", "on",
          ":", "/", "SA", "h10", "CK", "D7", "S2", "JK", "JK=H6", "X9", "1", "2", "7", "0",
          "high", "swap", "é", "take 3", "", "  "]


@given(SEEDS, PROFILE, STEPS, st.lists(st.sampled_from(TOKENS), max_size=9))
@settings(max_examples=300, deadline=None)
def test_any_text_is_played_or_refused_cleanly(seed: int, profile: int, steps: int,
                                                words: list[str]) -> None:
    hand, _ = position(seed, profile, steps)
    before = fingerprint(hand)
    text = " ".join(words)
    try:
        move = hand.play(text)
    except RummyError as exc:
        assert str(exc)
        assert fingerprint(hand) == before
    else:
        hand.pop()
        assert fingerprint(hand) == before
        assert hand.is_legal(move)
