"""Views hide what a seat must not see; resampling keeps every view; bots see views only."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit.bots import make_bot
from rummykit.core.engine import HandState
from rummykit.core.views import PlayerView, resample, view
from rummykit.variants import BASIC, TRADITIONAL


def _positions(count: int, seed: int) -> list[HandState]:
    rng = random.Random(seed)
    found = []
    rules = dataclasses.replace(BASIC, max_turns_per_hand=300)
    while len(found) < count:
        state = HandState.deal(rules, rng.randint(2, 6), 0, random.Random(rng.random()))
        for _ in range(rng.randint(0, 80)):
            if state.is_over:
                break
            state.push(rng.choice(state.legal_moves()))
        found.append(state)
    return found


def test_view_holds_no_hidden_card() -> None:
    for state in _positions(200, 1):
        for seat in range(state.num_players):
            seen = view(state, seat)
            if state.is_over:
                assert seen.revealed == tuple(state.hands)
                continue
            assert seen.revealed == ()
            for other in range(state.num_players):
                if other != seat:
                    assert seen.known[other] & ~state.hands[other] == 0
            text = repr(seen)
            assert repr(state.stock) not in text or not state.stock
            assert [f for f in PlayerView._fields if "stock" in f] == ["stock_size"]


def test_resampling_changes_hidden_cards_but_no_view() -> None:
    changed = 0
    for state in _positions(200, 2):
        seat = state.to_move
        seen = view(state, seat)
        other = resample(seen, random.Random(3))
        for s in range(state.num_players):
            if s != seat:
                assert other.hands[s] & state.known[s] == state.known[s]
        assert view(other, seat) == seen
        changed += other.hands != state.hands or other.stock != state.stock
    assert changed > 150


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bot_choice_depends_only_on_the_view(name: str) -> None:
    for state in _positions(150, 4):
        if state.is_over:
            continue
        seen = view(state, state.to_move)
        bot = make_bot(name)
        first = bot.choose(seen, random.Random(5))
        twin = resample(seen, random.Random(6))
        assert bot.choose(view(twin, twin.to_move), random.Random(5)) == first
        assert first in state.legal_moves()


def test_greedy_takes_the_discard_only_to_complete_a_meld() -> None:
    from rummykit.core.cards import parse_cards

    hand = parse_cards("H7 H8 C2 D4 S9 SK CQ")
    state = HandState.from_deal(TRADITIONAL, 1, [hand, parse_cards("C3 C4 C5 D6 D7 D8 DA")],
                                parse_cards("H9")[0], parse_cards("S2 S3 S4"))
    assert str(make_bot("greedy").choose(view(state, 0), random.Random(0))) == "take"
    state.discard[-1] = parse_cards("HK")[0]
    moved = view(state, 0)
    assert str(make_bot("greedy").choose(moved, random.Random(0))) == "draw"
