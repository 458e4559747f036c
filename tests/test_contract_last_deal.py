"""The last deal under every ``final_deal_rule`` (RULES.md §4.7), and short house schedules
(§5.1), end when bots play them: every move legal, none by the turn valve (§1.10)."""

from __future__ import annotations

import random

import pytest

from rummykit.bots import contract_playout, contract_search, hints
from rummykit.bots.greedy_contract import choose_contract
from rummykit.core.engine import HandState
from rummykit.core.outcome import MAX_TURNS
from rummykit.core.rules import Rules
from rummykit.core.views import view

TURNS = 600  # the valve is 1,000; these deals end in under 250 turns


def _played_out(state: HandState, fast: bool) -> None:
    """Play ``state`` to its end (fast playouts or the greedy bot), checking every move."""
    while state.result is None:
        move = contract_playout.fast_move(state) if fast else \
            choose_contract(view(state, state.to_move))
        assert state.is_legal(move), (str(move), state.turn_count)
        state.push(move)
        assert state.turn_count < TURNS, "the deal did not end"
    assert state.result.reason != MAX_TURNS


@pytest.mark.parametrize("rule", ["all_at_once_no_discard", "all_at_once_discard_ok", "none"])
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("fast", [True, False])
def test_seventh_deal_ends_under_every_final_rule(rule: str, players: int, fast: bool) -> None:
    """Under ``none`` the fast playouts hoarded one suit each (three runs of distinct suits
    were never made); under ``all_at_once_discard_ok`` every seat took each discard top
    that made its contract, threw it again and never drew: both ran to the valve."""
    rules = Rules.from_options("contract", {"final_deal_rule": rule})
    for seed in range(6):
        state = HandState.deal(rules, players, rng=random.Random(seed), deal_index=6)
        _played_out(state, fast)


@pytest.mark.parametrize(("schedule", "rule"), [
    ([[0, 2]], "all_at_once_no_discard"),
    ([[0, 2]], "all_at_once_discard_ok"),
    ([[1, 2]], "all_at_once_no_discard"),
    ([[2, 0], [1, 1]], "all_at_once_no_discard"),
])
def test_a_short_schedules_last_deal_ends(schedule: list[list[int]], rule: str) -> None:
    """A last contract other than three runs is played with the heuristics of deals 1-6
    (the shape play knows three runs only): copies the melds do not use are thrown."""
    rules = Rules.from_options("contract", {
        "contract_schedule": schedule, "num_hands": len(schedule),
        "hand_size": [10] * len(schedule), "final_deal_rule": rule})
    for seed in range(2):
        state = HandState.deal(rules, 3, rng=random.Random(seed),
                               deal_index=len(schedule) - 1)
        _played_out(state, fast=True)


def test_the_fast_playouts_model_every_deal_of_the_default_rules() -> None:
    rules = Rules.from_options("contract", {})
    for deal in range(7):
        state = HandState.deal(rules, 4, rng=random.Random(deal), deal_index=deal)
        assert contract_playout.modelled(state), deal


@pytest.mark.parametrize("options", [
    {"final_deal_rule": "all_at_once_discard_ok"},
    {"final_deal_rule": "none"},  # deal 7's three runs, played like deals 1-6
    {"contract_schedule": [[2, 0], [1, 2]], "num_hands": 2, "hand_size": [10, 10]},
])
def test_a_hint_in_a_deal_the_playouts_do_not_model_searches_few_worlds(
        options: dict[str, object]) -> None:
    """Those playouts list the legal moves every turn: a hint searching as many worlds as
    usual took 32 s at the expert level; it samples SLOW_WORLDS worlds instead."""
    rules = Rules.from_options("contract", options)
    last = len(rules.contract_schedule) - 1
    state = HandState.deal(rules, 3, rng=random.Random(3), deal_index=last)
    assert not contract_playout.modelled(state)
    found = hints.analyse(view(state, state.to_move), "expert", random.Random(1))
    assert len(found.candidates) == 2  # the stock and the discard top
    assert all(0 < c.simulations <= contract_search.SLOW_WORLDS for c in found.candidates)


@pytest.mark.parametrize("deal", [2, 5, 6])
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("fast", [True, False])
def test_runs_of_one_suit_allowed_end(deal: int, players: int, fast: bool) -> None:
    """With ``contract_runs_distinct_suits`` off (a lobby option) two runs of a contract may
    share a suit; deal 7 is then not the three-runs deal the shape play knows and is played
    with the heuristics of deals 1-6: every deal with runs still ends."""
    rules = Rules.from_options("contract", {"contract_runs_distinct_suits": False})
    for seed in range(3):
        state = HandState.deal(rules, players, rng=random.Random(seed), deal_index=deal)
        _played_out(state, fast)
