"""RULES.md §1 points not covered by the rule-set edge cases, §5.1 knob validation, and
the move notation of FORMATS.md §1 (parser edge cases and canonical output).

- stock exhaustion under each ``stock_rebuild`` value, the rebuild counter and
  ``max_rebuilds`` (§1.8);
- the timing of the automatic checks (§1.8, FORMATS.md §3);
- the ``max_turns_per_hand`` safety valve (§1.10);
- card values (§1.11).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from helpers import assert_rejected, cards, legal_texts, played, position
from helpers import deep_snapshot as snapshot
from rummykit.core.cards import JOKER, card_points, format_card, parse_card
from rummykit.core.engine import HandState
from rummykit.core.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    NotationError,
    RecordError,
    RummyError,
)
from rummykit.core.match import Match
from rummykit.core.melds import TableMeld, make_meld
from rummykit.core.moves import Draw, LayOff, Take, parse_move
from rummykit.core.outcome import HandResult
from rummykit.core.rules import Rules
from rummykit.variants import BASIC, CONTRACT, TRADITIONAL

HIGH = dataclasses.replace(BASIC, ace_mode="high_or_low")
SHUFFLE_ALL = Rules.from_options("basic", {"stock_rebuild": "shuffle_all"})
TURN_OVER = Rules.from_options("basic", {"stock_rebuild": "turn_over_all"})


# -- helpers ----------------------------------------------------------------------------













def exhausted_position(rules: Rules, **kwargs: Any) -> HandState:
    """Seat 0 draws the last stock card CK and discards S9: pile C2 D5 S9, stock empty."""
    state = position(rules, ["S9 H3 H4", "C9 DK D3"], discard="C2 D5", stock="CK", **kwargs)
    played(state, "draw", "discard S9")
    return state


# -- §1.8 stock exhaustion: shuffle_keep_top --------------------------------------------

def test_1_8_shuffle_keep_top_rebuild_and_counter() -> None:
    state = exhausted_position(BASIC, restocks=[cards("C2 D5")])
    assert state.discard == cards("S9")
    assert state.stock == cards("D5 C2")  # top last: C2 is the top
    assert state.rebuilds == 1
    assert state.restocks == [tuple(cards("C2 D5"))]
    assert legal_texts(state) == ["draw", "take"]


def test_1_8_restocks_entry_must_be_the_moved_cards() -> None:
    state = position(BASIC, ["S9 H3 H4", "C9 DK D3"], discard="C2 D5", stock="CK",
                     restocks=[cards("C2 H8")])
    played(state, "draw")
    assert_rejected(state, "discard S9", RecordError, "restocks entry 0")


def test_1_8_match_log_keeps_restocks() -> None:
    match = Match(BASIC, ["Ann", "Bob"], seed=9, dealer=0)
    state = match.start_hand()
    while state.rebuilds < 2:
        card = state.stock[-1]
        match.play("draw")
        match.play(f"discard {format_card(card)}")
    log = match.hands[0]
    assert len(log.restocks) == 2
    assert [len(r) for r in log.restocks] == [31, 31]  # 31 discards + upcard, minus the top
    assert state.result is None


# -- shuffle_all ------------------------------------------------------------------------------

def test_1_8_shuffle_all_rebuild() -> None:
    state = exhausted_position(SHUFFLE_ALL, restocks=[cards("S9 C2 D5")])
    assert state.discard == []
    assert state.stock == cards("D5 C2 S9")
    assert state.rebuilds == 1
    assert legal_texts(state) == ["draw"]
    assert_rejected(state, "take", IllegalMoveError, "the discard pile is empty")
    assert played(state, "draw") == ["draw"]
    assert state.hand_cards(1) == cards("C9 D3 DK S9")


def test_1_8_shuffle_all_unlimited_in_basic() -> None:
    state = exhausted_position(SHUFFLE_ALL)
    for rebuilds in range(1, 5):
        assert state.rebuilds == rebuilds and state.result is None
        for _ in range(len(state.stock)):
            card = state.stock[-1]
            played(state, "draw", f"discard {format_card(card)}")
    assert state.rebuilds == 5 and len(state.restocks) == 5


# -- turn_over_all ------------------------------------------------------------------------

def test_1_8_turn_over_all_waits_for_the_player() -> None:
    state = exhausted_position(TURN_OVER)
    assert (state.to_move, state.phase, state.result) == (1, "draw", None)
    assert state.stock == [] and state.discard == cards("C2 D5 S9")
    assert state.rebuilds == 0 and state.restocks == []
    assert legal_texts(state) == ["draw", "take"]


def test_1_8_turn_over_all_draw_turns_pile_over_unshuffled() -> None:
    state = exhausted_position(TURN_OVER)
    rng_before = state.rng.getstate() if state.rng else None
    assert played(state, "draw") == ["draw"]
    # The bottom card C2 became the stock top and was drawn; D5 is the next top.
    assert state.hand_cards(1) == cards("C2 C9 D3 DK")
    assert state.stock == cards("S9 D5")
    assert state.discard == []
    assert state.rebuilds == 1
    assert state.restocks == []  # deterministic: no record entry
    assert (state.rng.getstate() if state.rng else None) == rng_before
    played(state, "discard C9", "draw")
    assert state.hand_cards(0) == cards("CK D5 H3 H4")


def test_1_8_turn_over_all_take_instead() -> None:
    state = exhausted_position(TURN_OVER)
    assert played(state, "take") == ["take"]
    assert state.hand_cards(1) == cards("C9 D3 DK S9")
    assert state.stock == [] and state.discard == cards("C2 D5")
    assert state.rebuilds == 0
    assert_rejected(state, "discard S9", IllegalMoveError, "taken from the discard pile")
    played(state, "discard D3")
    # Still no rebuild: the next player chooses again.
    assert state.stock == [] and state.discard == cards("C2 D5 D3")
    assert legal_texts(state) == ["draw", "take"]


def test_1_8_turn_over_all_push_pop_restores() -> None:
    state = exhausted_position(TURN_OVER)
    before = snapshot(state)
    state.push(Draw())
    assert state.rebuilds == 1
    state.pop()
    assert snapshot(state) == before


@pytest.mark.parametrize("rules", [
    Rules.from_options("basic", {"stock_rebuild": "turn_over_all", "max_rebuilds": 1}),
    Rules.from_options("basic", {"max_rebuilds": 1}),
    Rules.from_options("basic", {"stock_rebuild": "shuffle_all", "max_rebuilds": 1}),
], ids=["turn_over_all", "shuffle_keep_top", "shuffle_all"])
def test_1_8_max_rebuilds_then_draw_at_next_draw_step(rules: Rules) -> None:
    state = exhausted_position(rules)
    if rules.stock_rebuild == "turn_over_all":
        played(state, "draw", "discard C9")  # the turn-over is the one rebuild
    assert state.rebuilds == 1 and state.result is None
    while state.stock:
        assert state.result is None
        card = state.stock[-1]
        played(state, "draw")
        if not state.stock:
            # The last card was drawn: the draw is declared only after this turn ends.
            assert state.result is None and state.phase == "play"
        played(state, f"discard {format_card(card)}")
    assert state.result == HandResult("draw", None, False, "stock_exhausted", (0, 0))
    assert state.rebuilds == 1


def test_1_8_max_rebuilds_zero_draws_at_first_exhaustion() -> None:
    rules = Rules.from_options("basic", {"max_rebuilds": 0})
    state = exhausted_position(rules)
    assert state.result == HandResult("draw", None, False, "stock_exhausted", (0, 0))
    assert state.stock == [] and state.discard == cards("C2 D5 S9")


def test_1_8_max_rebuilds_two() -> None:
    rules = Rules.from_options("basic", {"max_rebuilds": 2})
    state = exhausted_position(rules)
    rebuilds_seen = []
    while state.result is None:
        rebuilds_seen.append(state.rebuilds)
        card = state.stock[-1]
        played(state, "draw", f"discard {format_card(card)}")
    assert sorted(set(rebuilds_seen)) == [1, 2]
    assert state.rebuilds == 2
    assert state.result == HandResult("draw", None, False, "stock_exhausted", (0, 0))


def test_1_8_max_rebuilds_checked_before_single_card_pile() -> None:
    # Stock empty, one card on the pile, no rebuild allowed any more: drawn at once.
    rules = Rules.from_options("basic", {"max_rebuilds": 0})
    state = position(rules, ["H4 S9", "C9 DK"], discard="C7")
    state.stock = []
    played(state, "take", "discard H4")
    assert state.result == HandResult("draw", None, False, "stock_exhausted", (0, 0))


# -- timing of the automatic checks -------------------------------------------------------

def test_1_8_draw_reported_at_once_after_the_discard() -> None:
    rules = Rules.from_options("traditional", {"max_rebuilds": 0})
    match = Match(rules, ["Ann", "Bob"], seed=3, dealer=0)
    state = match.start_hand()
    while True:
        card = state.stock[-1]
        match.play("draw")
        if not state.stock:
            assert match.hands[0].result is None and not match.over
            match.play(f"discard {format_card(card)}")
            break
        match.play(f"discard {format_card(card)}")
    # The last recorded move is the discard; the hand already reports the draw.
    assert match.hands[0].moves[-1] == f"discard {format_card(card)}"
    assert match.hands[0].result == HandResult("draw", None, False, "stock_exhausted", (0, 0))
    assert match.over and match.winners == ()


def test_1_8_shuffled_rebuild_runs_as_the_turn_ends() -> None:
    state = position(BASIC, ["S9 H3 H4", "C9 DK D3"], discard="C2 D5", stock="CK")
    played(state, "draw")
    assert state.stock == [] and state.rebuilds == 0
    played(state, "discard S9")
    # Before any move of the next turn is read, the stock is rebuilt.
    assert len(state.stock) == 2 and state.rebuilds == 1 and len(state.restocks) == 1


def test_1_8_checks_run_when_the_deal_is_complete() -> None:
    # §1.8: the first turn's draw step begins when the deal is complete, and the automatic
    # checks run at that instant. With one card each and an empty table, D1 and D2 of
    # §3.3 hold at once, so the hand is drawn before any move is read.
    rules = Rules.from_options("traditional", {"hand_size": {"2": 1}})
    match = Match(rules, ["Ann", "Bob"], seed=1, dealer=0)
    state = match.start_hand()
    assert [len(state.hand_cards(s)) for s in (0, 1)] == [1, 1] and state.table == []
    assert state.result == HandResult("draw", None, False, "deadlock", (0, 0))
    assert match.over and match.winners == ()


# -- §1.10 max_turns_per_hand ------------------------------------------------------------

@pytest.mark.parametrize("limit", [1, 3, 10])
def test_1_10_max_turns_aborts(limit: int) -> None:
    rules = Rules.from_options("basic", {"max_turns_per_hand": limit})
    state = HandState.deal(rules, 2, dealer=0, rng=random.Random(limit))
    for turn in range(limit):
        assert state.result is None and state.turn_count == turn
        card = state.stock[-1]
        played(state, "draw", f"discard {format_card(card)}")
    assert state.turn_count == limit
    assert state.result == HandResult("aborted", None, False, "max_turns", (0, 0))
    assert state.phase == "over" and state.legal_moves() == []


def test_1_10_aborted_hand_does_not_end_a_traditional_match() -> None:
    rules = Rules.from_options("traditional", {"max_turns_per_hand": 2})
    match = Match(rules, ["Ann", "Bob", "Cy"], seed=6, dealer=0)
    for hand in range(3):
        state = match.start_hand()
        assert state.dealer == hand
        for _ in range(2):
            card = state.stock[-1]
            match.play("draw")
            match.play(f"discard {format_card(card)}")
        assert state.result == HandResult("aborted", None, False, "max_turns", (0, 0, 0))
        assert not match.over  # only a drawn hand ends the match (draw_ends_match)
    assert match.totals == [0, 0, 0] and len(match.hands) == 3


def test_1_10_max_turns_1000_by_default() -> None:
    # RULES.md §1.10 (issue 21): the valve defaults to 1,000 turns in every preset
    assert BASIC.max_turns_per_hand == 1000
    assert TRADITIONAL.max_turns_per_hand == 1000
    assert CONTRACT.max_turns_per_hand == 1000


@pytest.mark.parametrize(("multiplier", "score", "rummy"), [(1, 19, False), (2, 38, True),
                                                            (3, 57, True)])
def test_2_4_going_rummy_multiplier(multiplier: int, score: int, rummy: bool) -> None:
    # FORMATS.md §3: rummy is true iff going_rummy_multiplier > 1 and the winner went rummy.
    rules = Rules.from_options("basic", {"going_rummy_multiplier": multiplier})
    state = position(rules, ["C2 D2", "C9 DK"], stock="H2 S4")
    played(state, "draw", "meld C2 D2 H2")
    assert state.result == HandResult("win", 0, rummy, None, (score, 0))


# -- §1.11 card values ----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "low", "high"), [
    ("CA", 1, 15), ("D2", 2, 2), ("H5", 5, 5), ("S9", 9, 9), ("CT", 10, 10),
    ("DJ", 10, 10), ("HQ", 10, 10), ("SK", 10, 10),
])
def test_1_11_card_values(text: str, low: int, high: int) -> None:
    assert card_points(parse_card(text), BASIC.ace_value) == low
    assert card_points(parse_card(text), HIGH.ace_value) == high


def test_1_11_joker_value() -> None:
    assert card_points(JOKER, CONTRACT.ace_value, CONTRACT.joker_points) == 15


@pytest.mark.parametrize(("name", "options", "ace"), [
    ("basic", {}, 1),
    ("basic", {"ace_mode": "high_or_low"}, 15),
    ("basic", {"ace_mode": "high_or_low", "ace_points": 1}, 1),
    ("basic", {"ace_points": 11}, 11),
    ("traditional", {}, 1),
    ("traditional", {"ace_mode": "high_or_low"}, 15),
    ("contract", {}, 15),
    ("contract", {"ace_mode": "low"}, 15),
])
def test_1_11_ace_points(name: str, options: dict[str, Any], ace: int) -> None:
    assert Rules.from_options(name, options).ace_value == ace


def test_1_11_hand_value_sum() -> None:
    state = position(BASIC, ["CA D2 HT SJ DQ CK H9", "SA HA"])
    assert state.hand_value(0) == 1 + 2 + 10 + 10 + 10 + 10 + 9
    assert state.hand_value(1) == 2
    high = position(HIGH, ["CA D2 HT SJ DQ CK H9", "SA HA"])
    assert high.hand_value(0) == 15 + 2 + 10 + 10 + 10 + 10 + 9
    assert high.hand_value(1) == 30


# -- §5.1 knob validation -----------------------------------------------------------------

@pytest.mark.parametrize(("name", "options", "message"), [
    ("basic", {"colour": "red"}, "unknown option 'colour'"),
    ("basic", {"name": "contract"}, "unknown option 'name'"),
    ("basic", {"_options": []}, "unknown option '_options'"),
    ("contract", {"ace_high": True}, "unknown option 'ace_high'"),
])
def test_5_1_unknown_knob(name: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Rules.from_options(name, options)


@pytest.mark.parametrize(("options", "message"), [
    ({"ace_mode": 3}, "option 'ace_mode': expected one of 'low', 'high_or_low', got 3"),
    ({"ace_mode": "sideways"}, "option 'ace_mode'"),
    ({"stock_rebuild": "burn"}, "option 'stock_rebuild'"),
    ({"scoring": "both"}, "option 'scoring'"),
    ({"game_end": 5}, "option 'game_end'"),
    ({"first_dealer": "oldest"}, "option 'first_dealer'"),
    ({"must_discard_to_go_out": 1}, "option 'must_discard_to_go_out': expected true or false"),
    ({"must_discard_to_go_out": "true"}, "option 'must_discard_to_go_out'"),
    ({"deadlock_draw": None}, "option 'deadlock_draw'"),
    ({"max_rebuilds": "1"}, "option 'max_rebuilds': expected an integer"),
    ({"max_rebuilds": True}, "option 'max_rebuilds'"),
    ({"max_rebuilds": 1.5}, "option 'max_rebuilds'"),
    ({"max_rebuilds": -1}, "option 'max_rebuilds'"),
    ({"ace_points": "15"}, "option 'ace_points'"),
    ({"run_min_length": 2}, "option 'run_min_length': expected an integer >= 3"),
    ({"going_rummy_multiplier": 0}, "option 'going_rummy_multiplier'"),
    ({"max_melds_per_turn": 0}, "option 'max_melds_per_turn'"),
    ({"max_turns_per_hand": 0}, "option 'max_turns_per_hand'"),
    ({"num_hands": 0}, "option 'num_hands'"),
    ({"target_score": "150"}, "option 'target_score'"),
    ({"target_score": {"two": 100}}, "option 'target_score'"),
    ({"hand_size": [10, 7]}, "option 'hand_size'"),
    ({"hand_size": {"2": "ten"}}, "option 'hand_size'"),
    ({"player_range": [2]}, "option 'player_range'"),
    ({"player_range": [4, 2]}, "option 'player_range'"),
    ({"player_range": [1, 6]}, "option 'player_range'"),
])
def test_5_1_wrong_type_or_value(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Rules.from_options("basic", options)


def test_5_1_options_must_be_an_object() -> None:
    with pytest.raises(RecordError, match="options: expected an object"):
        Rules.from_options("basic", ["ace_mode"])  # type: ignore[arg-type]


NOT_APPLICABLE = {
    "basic": {"joker_points": 15, "draw_counts_as_loss": True, "draw_ends_match": True,
              "contract_schedule": [[2, 0]], "contract_runs_distinct_suits": True,
              "extra_melds_after_contract": False, "joker_swap": False,
              "final_deal_rule": "none"},
    "traditional": {"joker_points": 15, "num_hands": 10, "contract_schedule": [[2, 0]],
                    "contract_runs_distinct_suits": True, "extra_melds_after_contract": False,
                    "joker_swap": False, "final_deal_rule": "none"},
    "contract": {"max_melds_per_turn": 1, "target_score": 150, "draw_counts_as_loss": True,
                 "draw_ends_match": True},
}


@pytest.mark.parametrize(("name", "knob", "value"), [
    (name, knob, value) for name, knobs in NOT_APPLICABLE.items()
    for knob, value in knobs.items()
])
def test_5_1_dash_knob_refused(name: str, knob: str, value: Any) -> None:
    with pytest.raises(RecordError, match=f"option '{knob}' does not apply to the {name}"):
        Rules.from_options(name, {knob: value})


@pytest.mark.parametrize(("name", "options", "message"), [
    ("basic", {"scoring": "penalty"}, "'target' requires scoring 'winner_collects'"),
    ("traditional", {"scoring": "penalty"}, "'target' requires scoring"),
    ("contract", {"game_end": "target"}, "'target' requires scoring"),
    ("contract", {"must_discard_to_go_out": True}, "option 'must_discard_to_go_out' requires"),
    ("contract", {"deadlock_draw": True}, "option 'deadlock_draw' requires"),
    ("contract", {"deadlock_draw": True, "discard_dig": False}, "'deadlock_draw' requires"),
    ("contract", {"deadlock_draw": True, "joker_swap": False}, "'deadlock_draw' requires"),
    ("basic", {"discard_dig": True}, "discard_dig"),
    ("traditional", {"discard_dig": True}, "discard_dig"),
    ("basic", {"deadlock_draw": True, "discard_dig": True}, "discard_dig"),
    ("contract", {"num_hands": 6}, "option 'num_hands' must equal"),
    ("contract", {"contract_schedule": [[2, 0]] * 6}, "option 'num_hands' must equal"),
    ("contract", {"deck_config": "single"}, "option 'deck_config'"),
    ("contract", {"hand_size": {"3": 10}}, "option 'hand_size'"),
])
def test_5_1_cross_knob_constraints(name: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Rules.from_options(name, options)


@pytest.mark.parametrize(("name", "options"), [
    ("basic", {"scoring": "penalty", "game_end": "fixed_hands"}),
    ("basic", {"deadlock_draw": True}),
    ("basic", {"discard_dig": False}),
    ("traditional", {"ace_mode": "high_or_low"}),
    ("traditional", {"max_rebuilds": None}),
    ("contract", {"must_discard_to_go_out": True, "final_deal_rule": "none"}),
    ("contract", {"must_discard_to_go_out": True, "final_deal_rule": "all_at_once_discard_ok"}),
    ("contract", {"deadlock_draw": True, "discard_dig": False, "joker_swap": False}),
    ("contract", {"contract_schedule": [[2, 0]] * 6, "num_hands": 6,
                  "hand_size": [10] * 6, "final_deal_rule": "none"}),
    ("contract", {"contract_schedule": [[2, 0]] * 5 + [[1, 1]], "num_hands": 6,
                  "hand_size": [10] * 6}),
    ("contract", {"deck_config": "pagat"}),
    ("contract", {"hand_size": [10, 10, 10, 12, 12, 12, 12]}),
])
def test_5_1_valid_combinations_accepted(name: str, options: dict[str, Any]) -> None:
    rules = Rules.from_options(name, options)
    assert rules.options == options
    for knob, value in options.items():
        if knob in ("ace_mode", "max_rebuilds", "scoring", "game_end", "discard_dig"):
            assert getattr(rules, knob) == value


def test_5_1_traditional_ace_mode_override_works() -> None:
    rules = Rules.from_options("traditional", {"ace_mode": "high_or_low"})
    assert isinstance(make_meld(cards("HQ HK HA"), rules), TableMeld)
    assert rules.ace_value == 15


def test_5_1_partial_maps_override_only_given_keys() -> None:
    basic = Rules.from_options("basic", {"hand_size": {"2": 8}})
    assert [basic.hand_size_for(n) for n in range(2, 7)] == [8, 7, 7, 6, 6]
    trad = Rules.from_options("traditional", {"target_score": {"2": 50}})
    assert [trad.target_for(n) for n in (2, 3, 4)] == [50, 150, 200]
    flat = Rules.from_options("traditional", {"target_score": 120})
    assert [flat.target_for(n) for n in (2, 3, 4)] == [120, 120, 120]
    contract = Rules.from_options("contract", {"hand_size": [10, 10, 10, 12, 12, 12, 12]})
    assert [contract.hand_size_for(4, d) for d in range(7)] == [10, 10, 10, 12, 12, 12, 12]


def test_5_1_later_options_layer_on_earlier() -> None:
    first = Rules.from_options("basic", {"hand_size": {"2": 8}})
    from rummykit.core.rule_options import apply_options

    second = apply_options(first, {"hand_size": {"3": 5}})
    assert [second.hand_size_for(n) for n in (2, 3, 4)] == [8, 5, 7]


@pytest.mark.parametrize(("options", "players", "ok"), [
    ({"hand_size": {"2": 25}}, 2, True),     # 2 x 25 + 2 = 52
    ({"hand_size": {"2": 26}}, 2, False),    # 54 > 52
    ({"hand_size": {"6": 8}}, 6, True),      # 6 x 8 + 2 = 50
    ({"hand_size": {"6": 9}}, 6, False),     # 56 > 52
    ({"player_range": [2, 7]}, 7, False),    # no hand size for 7 players
    ({"player_range": [2, 7], "hand_size": {"7": 7}}, 7, True),  # 51
])
def test_5_1_pack_must_hold_the_deal(options: dict[str, Any], players: int, ok: bool) -> None:
    rules = Rules.from_options("basic", options)
    names = [f"P{i}" for i in range(players)]
    if ok:
        match = Match(rules, names, seed=1)
        state = match.start_hand()
        assert len(state.stock) >= 1
    else:
        with pytest.raises(RecordError, match=f"{players} players"):
            Match(rules, names, seed=1)


# Contract packs are checked with ``Rules.check_players`` (what a match or a record
# reader calls first): this engine does not deal contract hands yet.

@pytest.mark.parametrize("players", [3, 4, 5])
def test_5_1_pagat_deck_for_three_to_five(players: int) -> None:
    rules = Rules.from_options("contract", {"deck_config": "pagat"})
    rules.check_players(players)
    assert rules.pack_spec(players) == (2, players - 1)


@pytest.mark.parametrize("players", [6, 8])
def test_5_1_pagat_deck_refused_above_five_players(players: int) -> None:
    # §5.1 / §4.1: `pagat` is "2 decks + players - 1 jokers, 3-5 players".
    rules = Rules.from_options("contract", {"deck_config": "pagat"})
    with pytest.raises(RecordError, match=f"{players} players"):
        rules.check_players(players)
    CONTRACT.check_players(players)  # the default bicycle pack seats them


# -- FORMATS.md §1: notation -----------------------------------------------------------------

@pytest.mark.parametrize(("text", "canonical"), [
    ("draw", "draw"), ("DRAW", "draw"), ("  Draw  ", "draw"),
    ("take", "take"), ("TAKE", "take"), ("take 1", "take"), ("take 3", "take 3"),
    ("take sa", "take SA"),
    ("discard h8", "discard H8"), ("DISCARD H10", "discard HT"), ("discard s1", "discard SA"),
    ("Discard   dT", "discard DT"),
    ("meld h9 h7 h8", "meld H9 H7 H8"),  # the parser keeps the order; play() sorts
    ("meld c10 d10 h10", "meld CT DT HT"),
    ("meld c2 d2 h2/h7 h8 h9", "meld C2 D2 H2 / H7 H8 H9"),
    ("meld c2 d2 h2 /h7 h8 h9", "meld C2 D2 H2 / H7 H8 H9"),
    ("meld c2 d2 h2/ h7 h8 h9", "meld C2 D2 H2 / H7 H8 H9"),
    ("meld c2 d2 h2  /  h7 h8 h9", "meld C2 D2 H2 / H7 H8 H9"),
    ("  LAY   hj   ON  1  ", "lay HJ on 1"),
    ("lay h1 on 2 HIGH", "lay HA on 2 high"),
    ("lay ha on 2 Low", "lay HA on 2 low"),
    ("meld h5 jk=h6 h7", "meld H5 JK=H6 H7"),
    ("lay jk=h6 on 1", "lay JK=H6 on 1"),
    ("swap h6 on 1", "swap H6 on 1"),
])
def test_notation_accepted_forms(text: str, canonical: str) -> None:
    assert str(parse_move(text)) == canonical


@pytest.mark.parametrize(("text", "quoted"), [
    ("", "empty move"),
    ("fold", "unknown keyword 'fold'"),
    ("discard H11", "bad card 'H11'"),
    ("discard X9", "bad card 'X9'"),
    ("discard", "expected 'discard CARD'"),
    ("discard H8 H9", "expected 'discard CARD'"),
    ("draw 2", "expected 'draw'"),
    ("take 0", "bad count '0'"),
    ("lay HJ 1", "expected 'lay CARD on N [low|high]'"),
    ("lay HJ on 0", "bad meld number '0'"),
    ("lay HJ on x", "bad meld number 'x'"),
    ("lay HJ on 1 top", "bad end 'top'"),
    ("meld C2 D2", "a group needs 3 or more cards"),
    ("meld C2 D2 H2 /", "a group needs 3 or more cards"),
    ("meld C2 D2 H2 / S7 S8", "bad meld group 'S7 S8'"),
    ("meld H5=H6 H7 H8", "only a joker takes an identity"),
    ("discard JK=H6", "a joker identity is allowed only in meld and lay"),
    ("take JK=H6", "a joker identity is allowed only in meld and lay"),
    ("swap JK=H6 on 1", "a joker identity is allowed only in meld and lay"),
])
def test_notation_syntax_errors(text: str, quoted: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_move(text)
    assert quoted in str(caught.value)


def test_notation_syntax_error_leaves_state_unchanged() -> None:
    state = position(BASIC, ["H8 H9 HT", "C9 DK"], stock="S2")
    played(state, "draw")
    for text in ("discard JK=H8", "discard H11", "lay H8 on", "fold"):
        assert_rejected(state, text, NotationError, "bad")


def ace_ends_position(rules: Rules = HIGH) -> HandState:
    return position(rules, ["HA C5", "C9 D3"], stock="S2",
                    table=["H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK"])


def test_notation_end_required_for_ace_on_two_to_king() -> None:
    state = ace_ends_position()
    played(state, "draw")
    lays = [m for m in state.legal_moves() if isinstance(m, LayOff)]
    assert [str(m) for m in lays] == ["lay HA on 1 low", "lay HA on 1 high"]
    assert_rejected(state, "lay HA on 1", AmbiguousMoveError,
                    "ambiguous move 'lay HA on 1': 'lay HA on 1 low' or 'lay HA on 1 high'")


@pytest.mark.parametrize(("end", "meld"), [
    ("low", "HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK"),
    ("high", "H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA"),
])
def test_notation_end_chooses_the_ace_position(end: str, meld: str) -> None:
    state = ace_ends_position()
    played(state, "draw")
    assert played(state, f"lay ha on 1 {end.upper()}") == [f"lay HA on 1 {end}"]
    assert str(state.table[0]) == meld
    # Only a second HA (two decks) could still extend it.
    assert state.table[0].accepts == 1 << parse_card("HA")


def test_notation_ace_low_only_needs_no_end() -> None:
    state = ace_ends_position(BASIC)
    played(state, "draw")
    assert played(state, "lay HA on 1") == ["lay HA on 1"]
    assert str(state.table[0]).startswith("HA H2")


def free_hand(table: str) -> str:
    return " ".join(c for c in ["HA", "H7", "HJ", "C5"] if c not in table.split())


@pytest.mark.parametrize(("rules", "table", "move", "canonical"), [
    (BASIC, "H8 H9 HT", "lay HJ on 1 high", "lay HJ on 1"),
    (BASIC, "H8 H9 HT", "lay H7 on 1 LOW", "lay H7 on 1"),
    (HIGH, "H2 H3 H4", "lay HA on 1 low", "lay HA on 1"),
    (HIGH, "HJ HQ HK", "lay HA on 1 high", "lay HA on 1"),
])
def test_notation_superfluous_end_dropped(rules: Rules, table: str, move: str,
                                         canonical: str) -> None:
    state = position(rules, [free_hand(table), "C9 D3"], stock="S2", table=[table])
    played(state, "draw")
    assert played(state, move) == [canonical]


@pytest.mark.parametrize(("rules", "table", "move", "reason"), [
    (BASIC, "H8 H9 HT", "lay HJ on 1 low", "HJ does not fit the low end of H8 H9 HT"),
    (BASIC, "H8 H9 HT", "lay H7 on 1 high", "H7 does not fit the high end of H8 H9 HT"),
    (HIGH, "H2 H3 H4", "lay HA on 1 high", "HA does not fit the high end of H2 H3 H4"),
    (HIGH, "HJ HQ HK", "lay HA on 1 low", "HA does not fit the low end of HJ HQ HK"),
])
def test_notation_impossible_end_illegal(rules: Rules, table: str, move: str,
                                         reason: str) -> None:
    state = position(rules, [free_hand(table), "C9 D3"], stock="S2", table=[table])
    played(state, "draw")
    assert_rejected(state, move, IllegalMoveError, reason)


def test_notation_take_card_and_count() -> None:
    state = position(BASIC, ["H8 H9 HT", "C9 DK"], discard="CA SA", stock="S2")
    assert_rejected(state, "take CA", IllegalMoveError,
                    "only the top card of the discard pile (SA) can be taken")
    assert_rejected(state, "take 2", IllegalMoveError,
                    "only the top card of the discard pile can be taken")
    assert played(state, "take sa") == ["take"]
    state = position(BASIC, ["H8 H9 HT", "C9 DK"], discard="CA SA", stock="S2")
    assert played(state, "take 1") == ["take"]


def test_notation_jokers_and_swaps_illegal_in_basic() -> None:
    state = position(BASIC, ["H5 H7 H8", "C9 DK"], stock="S2", table=["C4 C5 C6"])
    played(state, "draw")
    assert_rejected(state, "meld H5 JK=H6 H7", IllegalMoveError,
                    "there are no jokers in basic rummy")
    assert_rejected(state, "lay JK=C7 on 1", IllegalMoveError,
                    "there are no jokers in basic rummy")
    assert_rejected(state, "swap C5 on 1", IllegalMoveError,
                    "joker swaps are not part of basic rummy")


def test_notation_wrong_phase_and_bad_references() -> None:
    state = position(BASIC, ["H8 H9 HT C2", "C9 DK"], stock="S2", table=["D4 D5 D6"])
    assert_rejected(state, "discard C2", IllegalMoveError, "you must draw first")
    assert_rejected(state, "meld H8 H9 HT", IllegalMoveError, "you must draw first")
    played(state, "draw")
    assert_rejected(state, "draw", IllegalMoveError, "you have already drawn this turn")
    assert_rejected(state, "take", IllegalMoveError, "you have already drawn this turn")
    assert_rejected(state, "lay D7 on 1", IllegalMoveError, "D7 is not in your hand")
    assert_rejected(state, "lay C2 on 2", IllegalMoveError,
                    "there is no meld 2 (the table has 1 melds)")
    assert_rejected(state, "discard D7", IllegalMoveError, "D7 is not in your hand")
    assert_rejected(state, "meld H8 H9 HT HJ", IllegalMoveError, "HJ is not in your hand")
    assert_rejected(state, "meld H8 H9 HT / H8 C2 S2", IllegalMoveError, "H8 is used twice")


def test_match_rejection_changes_nothing() -> None:
    match = Match(BASIC, ["Ann", "Bob"], seed=12, dealer=0)
    state = match.start_hand()
    match.play("draw")
    moves, totals, before = list(match.hands[0].moves), list(match.totals), snapshot(state)
    for text in ("draw", "discard JK", "discard H11", "meld C2 C3", "lay C2 on 1"):
        with pytest.raises(RummyError):
            match.play(text)
    assert match.hands[0].moves == moves == ["draw"]
    assert match.totals == totals and snapshot(state) == before and not match.over


def test_notation_move_after_hand_over() -> None:
    state = position(BASIC, ["C2 D2", "C9 DK"], stock="H2")
    played(state, "draw", "meld C2 D2 H2")
    assert state.result is not None
    assert_rejected(state, "draw", IllegalMoveError, "cannot draw: the hand is over")
    assert_rejected(state, "discard C2", IllegalMoveError, "the hand is over")


@pytest.mark.parametrize(("rules", "written", "canonical"), [
    (HIGH, "HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK",
     "meld HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK"),
    (HIGH, "H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA",
     "meld H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA"),
    (BASIC, "H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA",
     "meld HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK"),
    (HIGH, "HK HA HQ", "meld HQ HK HA"),
    (BASIC, "S8 C8 H8", "meld C8 H8 S8"),
    (BASIC, "S8 C8 H8 D8", "meld C8 D8 H8 S8"),
])
def test_notation_canonical_meld_text(rules: Rules, written: str, canonical: str) -> None:
    state = position(rules, ["HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK C8 D8 S8",
                             "C9 DK"], stock="S2", discard="C2")
    played(state, "draw")
    assert played(state, f"meld {written.lower()}") == [canonical]


def test_notation_groups_numbered_in_order_given() -> None:
    state = position(BASIC, ["C2 D2 H2 H7 H8 H9 SK", "C9 DK"], stock="S2")
    played(state, "draw")
    assert played(state, "meld h9 h8 h7 / s2 h2 c2") == ["meld H7 H8 H9 / C2 H2 S2"]
    assert [str(m) for m in state.table] == ["H7 H8 H9", "C2 H2 S2"]
    assert played(state, "lay d2 on 2") == ["lay D2 on 2"]


def test_notation_canonical_legal_move_texts_parse_back() -> None:
    state = position(HIGH, ["HA H2 H3 C8 D8 S8 SK", "C9 DK"], stock="H8", discard="C2",
                     table=["H4 H5 H6", "HJ HQ HK"])
    played(state, "draw")
    texts = legal_texts(state)
    for text in texts:
        assert str(parse_move(text)) == text
    # Deterministic order: melds (sets by rank, then runs), lay-offs, discards by card.
    assert texts == [
        "meld C8 D8 H8", "meld C8 D8 S8", "meld C8 H8 S8", "meld D8 H8 S8",
        "meld C8 D8 H8 S8", "meld HA H2 H3", "lay H3 on 1", "lay HA on 2",
        "discard C8", "discard D8", "discard HA", "discard H2", "discard H3", "discard H8",
        "discard S8", "discard SK"]
    assert Take() not in state.legal_moves()


def test_formats_1_end_on_a_set_is_illegal() -> None:
    # FORMATS.md §1: END exists only for runs; a set has no ends to name.
    state = position(BASIC, ["S8 H2", "C9 D3"], discard="D2", stock="S2 S3",
                     table=["C8 D8 H8"])
    played(state, "draw")
    assert_rejected(state, "lay S8 on 1 low", IllegalMoveError, "a set has no ends")
    assert played(state, "lay S8 on 1") == ["lay S8 on 1"]


def test_5_1_contract_hand_sizes_one_per_deal() -> None:
    with pytest.raises(RecordError, match="one size per deal"):
        Rules.from_options("contract", {"hand_size": [10]})
    rules = Rules.from_options("contract", {"hand_size": [10, 10, 10, 12, 12, 12, 12]})
    assert rules.hand_size_for(4, 3) == 12
