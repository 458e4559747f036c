"""One greedy policy: the greedy bot on its view and the playouts on the whole state choose
the same move; families with their own bots are found through the variant; a holding seat
in a playout keeps its melds while it may."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit.bots import GreedyBot
from rummykit.bots.families import policies_for
from rummykit.bots.greedy_contract import choose_contract
from rummykit.bots.holding import holding_move
from rummykit.bots.playout import greedy_move
from rummykit.core.engine import HandState
from rummykit.core.moves import Discard
from rummykit.core.rules import Rules
from rummykit.core.views import view
from rummykit.variants import BASIC, CONTRACT, TRADITIONAL


@pytest.mark.parametrize(("rules", "players"), [(BASIC, 2), (BASIC, 4), (TRADITIONAL, 3)])
def test_the_greedy_bot_and_the_playouts_make_the_same_moves(rules: Rules,
                                                             players: int) -> None:
    bot = GreedyBot()
    decisions = 0
    for seed in range(30):
        state = HandState.deal(rules, num_players=players, dealer=seed % players,
                               rng=random.Random(seed))
        while state.result is None and state.turn_count < 200:
            move = greedy_move(state)
            assert bot.choose(view(state, state.to_move), random.Random(0)) == move
            state.push(move)
            decisions += 1
    assert decisions > 1000


def test_contract_hands_play_the_contract_bots() -> None:
    assert policies_for(BASIC) is None and policies_for(TRADITIONAL) is None
    own = policies_for(CONTRACT)
    assert own is not None and own.greedy is choose_contract
    state = HandState.deal(CONTRACT, num_players=4, dealer=0, rng=random.Random(2))
    seen = view(state, state.to_move)
    assert GreedyBot().choose(seen, random.Random(0)) == choose_contract(seen)
    assert greedy_move(state) == choose_contract(seen)


def test_rules_of_no_registered_rule_set_play_the_generic_policy() -> None:
    odd = dataclasses.replace(BASIC, name="no-such-rule-set")
    assert policies_for(odd) is None


def test_a_holding_seat_places_nothing_while_it_may_hold() -> None:
    held = 0
    rummy = {True: 0, False: 0}
    for seed in range(40):
        for holding in (True, False):
            state = HandState.deal(BASIC, num_players=2, dealer=1, rng=random.Random(seed))
            while state.result is None and state.turn_count < 200:
                kept = holding_move(state, 0) if holding else None
                if kept is not None:
                    held += 1
                    assert isinstance(kept, Discard)
                    assert not state.ever_placed & 1  # it has placed nothing this hand
                state.push(kept if kept is not None else greedy_move(state))
            result = state.result
            rummy[holding] += result is not None and result.winner == 0 and result.rummy
    assert held > 100
    assert rummy[True] > rummy[False]  # holding goes rummy more often than melding at once
