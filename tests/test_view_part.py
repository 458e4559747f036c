"""The family's part of a seat's view (``PlayerView.family``) and the faces' questions.

Contract's own state (who is down, the turn's duties) rides in one ``ContractView``; the
rummy family has none. The part is hashable and survives a resample; the agent wire, the
faces' answers and the server's quota come from it and equal what the hand itself holds.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rummykit.agents.protocol import view_json
from rummykit.core.engine import HandState
from rummykit.core.moves import Meld, Swap, Take
from rummykit.core.views import PlayerView, public_view, resample, view
from rummykit.variants import BASIC, CONTRACT
from rummykit.variants.contract.hand import ContractHand
from rummykit.variants.contract.schedule import contract_of
from rummykit.variants.contract.view import NO_CONTRACT_VIEW, ContractView, contract_part
from rummykit.variants.table_hooks import is_down, table_hooks

#: the agent view's keys in the order docs/agents.md lists them (the wire before the split)
WIRE_KEYS = ["rules", "seat", "players", "deal", "dealer", "to_move", "phase", "turn", "hand",
             "hand_sizes", "table", "discard", "stock_size", "known", "discarded", "taken",
             "melds_this_turn", "placed_this_turn", "ever_placed", "down", "went_down",
             "dig_duty", "joker_duty", "rebuilds", "result", "revealed"]


def _contract_positions(hands: int = 6, seed: int = 5) -> Iterator[ContractHand]:
    """Every position of random contract deals (3 players), a copy each."""
    rng = random.Random(seed)
    for number in range(hands):
        state = HandState.deal(CONTRACT, 3, dealer=number % 3, rng=rng,
                               deal_index=number % 7)
        assert isinstance(state, ContractHand)
        while not state.is_over:
            yield state.copy()
            moves = state.legal_moves()
            # play a dig, a swap or a meld when there is one, to reach every duty
            eager = [m for m in moves if isinstance(m, (Swap, Meld))
                     or (isinstance(m, Take) and m.count > 1)]
            state.push(rng.choice(eager or moves))


@pytest.fixture(scope="module")
def positions() -> list[ContractHand]:
    return list(_contract_positions())


def test_no_family_field_is_left_on_the_generic_view() -> None:
    assert not {"down", "went_down", "dig_duty", "joker_duty"} & set(PlayerView._fields)
    assert "family" in PlayerView._fields


def test_rummy_views_have_no_part_and_the_hooks_say_nothing() -> None:
    seen = view(HandState.deal(BASIC, 2, rng=random.Random(3)), 1)
    hooks = table_hooks(seen.rules)
    assert seen.family is None
    assert (hooks.seats_down(seen), hooks.went_down(seen), hooks.duties(seen)) == (0, False, ())
    assert (hooks.part_text(seen), hooks.meld_quota(seen.rules, 0)) == ("", None)
    wire = view_json(seen)
    assert list(wire) == WIRE_KEYS
    assert [wire[k] for k in ("down", "went_down", "dig_duty", "joker_duty")] == [
        [], False, None, 0]


def test_every_contract_view_carries_the_hands_own_state(positions: list[ContractHand]
                                                         ) -> None:
    seen_duties = {"dig": 0, "joker": 0, "down": 0, "went_down": 0}
    for state in positions:
        own = (state.down, state.went_down, state.dig_duty, state.joker_duty)
        for seat in (*range(3), -1):
            seen = view(state, seat) if seat >= 0 else public_view(state)
            assert type(seen.family) is ContractView and tuple(seen.family) == own
            assert contract_part(seen) == own
        seen_duties["dig"] += state.dig_duty >= 0
        seen_duties["joker"] += state.joker_duty > 0
        seen_duties["down"] += state.down != 0
        seen_duties["went_down"] += state.went_down
    assert all(seen_duties.values()), seen_duties  # the walk reached every kind of state


def test_the_agent_wire_is_the_hands_state_in_the_documented_order(
        positions: list[ContractHand]) -> None:
    for state in positions:
        seat = state.to_move
        wire = view_json(view(state, seat))
        assert list(wire) == WIRE_KEYS
        assert wire["down"] == [s for s in range(3) if state.down >> s & 1]
        assert wire["went_down"] is state.went_down
        assert wire["joker_duty"] == state.joker_duty
        dug = wire["dig_duty"]
        assert (dug is None) == (state.dig_duty < 0)


def test_the_faces_answers_follow_the_part(positions: list[ContractHand]) -> None:
    hooks = table_hooks(CONTRACT)
    for state in positions:
        seen = view(state, state.to_move)
        assert [is_down(seen, s) for s in range(3)] == [
            bool(state.down >> s & 1) for s in range(3)]
        assert hooks.went_down(seen) is state.went_down
        briefs = [duty.brief for duty in hooks.duties(seen)]
        assert ("place the card you dug" in briefs) == (state.dig_duty >= 0)
        assert ("place the joker you took" in briefs) == (state.joker_duty > 0)
        assert hooks.part_text(seen).startswith(f"down {state.down} went_down ")
        assert hooks.meld_quota(CONTRACT, state.deal_index) == contract_of(state)


def test_a_dig_duty_names_the_card_in_its_sentence(positions: list[ContractHand]) -> None:
    dug = next(s for s in positions if s.dig_duty >= 0 and s.joker_duty == 0)
    (duty,) = table_hooks(CONTRACT).duties(view(dug, dug.to_move))
    assert duty.sentence.startswith("You must place ") and "(the card you dug)" in \
        duty.sentence


def test_views_with_a_part_stay_hashable_and_survive_a_resample(
        positions: list[ContractHand]) -> None:
    rng = random.Random(8)
    for state in positions[::7]:
        seen = view(state, state.to_move)
        assert hash(seen) == hash(view(state, state.to_move)) and seen == view(
            state, state.to_move)
        again = resample(seen, rng)
        assert isinstance(again, ContractHand)
        assert view(again, seen.seat) == seen


def test_restoring_a_part_sets_the_hand_and_no_part_leaves_it() -> None:
    state = HandState.deal(CONTRACT, 3, rng=random.Random(1))
    assert isinstance(state, ContractHand)
    state.restore_family_view(ContractView(0b101, True, 7, 1))
    assert (state.down, state.went_down, state.dig_duty, state.joker_duty) == (0b101, True,
                                                                               7, 1)
    state.restore_family_view(None)
    assert tuple(view(state, 0).family) == (0b101, True, 7, 1)  # type: ignore[arg-type]
    assert contract_part(view(HandState.deal(BASIC, 2, rng=random.Random(1)), 0)) \
        == NO_CONTRACT_VIEW
