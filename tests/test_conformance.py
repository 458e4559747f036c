"""Random-simulation conformance (ARCHITECTURE.md §5), over 2,000 hands per preset.

For every preset and player count, hands are played by random and greedy bots; along the
way: cards are conserved, push/pop restores the state exactly, a copy is independent,
every seat's view is unchanged after resampling the hidden cards, bots choose legal moves
from views only, and every hand ends.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from helpers import cards_in_play, snapshot
from rummykit.bots import make_bot
from rummykit.core.engine import HandState
from rummykit.core.rules import Rules
from rummykit.core.views import resample, view
from rummykit.variants import BASIC, TRADITIONAL

PACK = list(range(52))

VARIANTS = {
    "basic": BASIC,
    "traditional": TRADITIONAL,
    "basic-high-turnover": dataclasses.replace(
        BASIC, ace_mode="high_or_low", stock_rebuild="turn_over_all"),
    "basic-strict": dataclasses.replace(
        BASIC, must_discard_to_go_out=True, max_melds_per_turn=1, max_rebuilds=2),
}
LINEUPS = ["random", "greedy", "mixed"]


def _check_position(state: HandState, rng: random.Random, deep: bool) -> None:
    assert cards_in_play(state) == PACK
    if not deep:
        return
    before = snapshot(state)
    twin = state.copy()
    for move in state.legal_moves():
        state.push(move)
        state.pop()
        assert snapshot(state) == before, move
    assert snapshot(twin) == before
    if twin.legal_moves():
        twin.push(twin.legal_moves()[-1])
        assert snapshot(state) == before
    for seat in range(state.num_players):
        seen = view(state, seat)
        assert view(resample(seen, rng), seat) == seen


def _play_hands(rules: Rules, hands: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    results: dict[str, int] = {}
    for number in range(hands):
        players = rng.randint(*rules.player_range)
        lineup = LINEUPS[number % 3]
        bots = [make_bot("greedy" if lineup == "greedy" or (lineup == "mixed" and s % 2)
                         else "random") for s in range(players)]
        state = HandState.deal(rules, players, number % players, random.Random(rng.random()))
        deep_every = 1 if number % 100 == 0 else 40
        moves = 0
        while not state.is_over:
            _check_position(state, rng, moves % deep_every == 0)
            seat = state.to_move
            move = bots[seat].choose(view(state, seat), rng)
            assert move in state.legal_moves()
            state.push(move)
            moves += 1
        _check_position(state, rng, True)
        assert state.result is not None
        assert state.legal_moves() == []
        results[state.result.result] = results.get(state.result.result, 0) + 1
    return results


#: the main presets' 2,000 hands in parts of 500 (each its own seed), so that parallel test
#: workers share them; the other variants 300 hands in one part
PARTS = [(name, part) for name in VARIANTS
         for part in range(4 if name in ("basic", "traditional") else 1)]


@pytest.mark.parametrize(("name", "part"), PARTS, ids=[f"{n}-{p}" for n, p in PARTS])
def test_random_simulation(name: str, part: int) -> None:
    rules = dataclasses.replace(VARIANTS[name], max_turns_per_hand=400)
    hands = 500 if name in ("basic", "traditional") else 300
    results = _play_hands(rules, hands, seed=len(name) + 100 * part)
    assert sum(results.values()) == hands
    assert results.get("win", 0) > hands // 4
