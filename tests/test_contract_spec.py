"""The contract rules added to RULES.md with issue 21, as named tests: §1.10 (the valve's
default), §3.3 D2 with several decks, §4.4 (the dug card's duty is on its identity),
§4.8.1 (the blocked deal), §5.1 (schedules of 1-7 deals, ``deck_config = seed``), §7
C-14..C-18, and FORMATS.md §1 (``meld A / B`` once down under
``extra_melds_after_contract``)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from helpers import card, cards
from rummykit.bots import contract_playout
from rummykit.core import closed_table
from rummykit.core.engine import HandState
from rummykit.core.errors import RecordError
from rummykit.core.match import Match
from rummykit.core.outcome import MAX_TURNS, HandResult
from rummykit.core.record import dumps, loads, match_result, record_of, replay
from rummykit.core.rules import Rules
from rummykit.variants import BASIC, CONTRACT, TRADITIONAL
from rummykit.variants.contract import blocked as contract_blocked
from test_rules_contract import agree, build, play, refused, seat_hands, table_text

SIX_FULL_SETS = [(f"C{r} D{r} H{r} S{r}", i % 3) for i, r in enumerate("234567")]


def blocked_position(rules: Rules = CONTRACT, extra: tuple[tuple[str, int], ...] = ()
                     ) -> HandState:
    """§4.8.1's example: 3 players in deal 1, all down, six full sets on the table; P holds
    two cards of other ranks and has drawn."""
    state = build(["C9 DT", "HJ", "SQ"], deal=1, rules=rules, discard="CK DK",
                  stock="HK SK", table=[*SIX_FULL_SETS, *extra], down=[0, 1, 2])
    play(state, "draw")
    return state


# -- §1.10 the valve ------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [BASIC, TRADITIONAL, CONTRACT], ids=lambda r: r.name)
def test_1_10_valve_defaults_to_1000_turns_in_every_preset(rules: Rules) -> None:
    assert rules.max_turns_per_hand == 1000
    assert Rules.from_options(rules.name, {}).max_turns_per_hand == 1000


def test_1_10_valve_null_turns_it_off() -> None:
    assert Rules.from_options("contract", {"max_turns_per_hand": None}).max_turns_per_hand \
        is None


def test_1_10_random_contract_deal_ends_by_the_valve_at_the_latest() -> None:
    rng = random.Random(3)
    state = HandState.deal(CONTRACT, 4, rng=random.Random(3))
    while not state.is_over:
        state.push(rng.choice(state.legal_moves()))
    assert state.turn_count <= 1000


# -- §4.8.1 the blocked deal ------------------------------------------------------------------

def test_4_8_1_example_blocked_after_the_discard() -> None:
    state = blocked_position()
    play(state, "discard C9")
    # every seat adds the penalty of its own hand: DT HK / HJ / SQ
    assert state.result == HandResult("draw", None, False, "blocked", (20, 10, 10))
    assert state.phase == "over" and state.legal_moves() == []


def test_4_8_1_not_blocked_while_a_player_is_not_down() -> None:
    state = build(["C9 DT", "HJ", "SQ"], deal=1, discard="CK DK", stock="HK SK",
                  table=SIX_FULL_SETS, down=[0, 1])
    play(state, "draw", "discard C9")
    assert state.result is None and state.to_move == 1


def test_4_8_1_b2_a_second_copy_fits_an_open_set() -> None:
    # a 3-card set C8 D8 H8 accepts S8: two decks, so copies of S8 are outside
    state = blocked_position(extra=(("C8 D8 H8", 1),))
    assert not contract_blocked.blocked(state)
    play(state, "discard C9")
    assert state.result is None


def test_4_8_1_b2_an_outside_joker_fits_an_open_place() -> None:
    # the run H2..HA (positions 2..14) accepts only an ace at position 1, and both aces
    # of hearts are on the table; the outside joker could still stand there
    state = blocked_position(extra=(("H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA", 1),
                                    ("CA DA HA SA", 2)))
    assert not contract_blocked.blocked(state)
    with_joker_on_table = blocked_position(extra=(
        ("JK=HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA", 1), ("CA DA HA SA", 2)))
    play(with_joker_on_table, "discard C9")
    assert with_joker_on_table.result is not None
    assert with_joker_on_table.result.reason == "blocked"


def test_4_8_1_b2_a_swap_could_still_be_made() -> None:
    closed_run = ("HA H2 H3 H4 H5 JK=H6 H7 H8 H9 HT HJ HQ HK HA", 1)
    state = blocked_position(extra=(closed_run,))
    assert not contract_blocked.blocked(state)  # an outside H6 can take the joker's place
    no_swaps = dataclasses.replace(CONTRACT, joker_swap=False)
    state = blocked_position(no_swaps, extra=(closed_run,))
    play(state, "discard C9")
    assert state.result is not None and state.result.reason == "blocked"


def test_4_8_1_b3_extra_melds_keep_the_deal_open() -> None:
    rules = Rules.from_options("contract", {"extra_melds_after_contract": True})
    state = blocked_position(rules)
    play(state, "discard C9")
    assert state.result is None


def test_4_8_1_blocked_deal_none_turns_the_rule_off() -> None:
    rules = Rules.from_options("contract", {"blocked_deal": "none"})
    state = blocked_position(rules)
    play(state, "discard C9")
    assert state.result is None and state.to_move == 1


def test_4_8_1_deadlock_draw_applies_instead() -> None:
    rules = Rules.from_options("contract", {"deadlock_draw": True, "discard_dig": False,
                                            "joker_swap": False})
    state = build(["C9", "HJ", "SQ"], deal=1, rules=rules, discard="CK DK",
                  stock="HK SK", table=SIX_FULL_SETS, down=[0, 1, 2])
    play(state, "draw", "discard C9")  # blocked too, but D1 and D2 hold
    assert state.result == HandResult("draw", None, False, "deadlock", (0, 0, 0))


def test_4_8_1_blocked_deal_counts_as_one_of_the_deals() -> None:
    match = Match(CONTRACT, ["A", "B", "C"], seed=1, dealer=2)
    state = match.start_hand(deal=([cards("C9 DT"), cards("HJ"), cards("SQ")], card("CK"),
                                   cards("HK SK")))
    state.table = blocked_position().table
    state.down = 0b111
    match.play("draw")
    match.play("discard C9")
    assert state.result == HandResult("draw", None, False, "blocked", (20, 10, 10))
    assert match.totals == [20, 10, 10] and not match.over
    assert match.start_hand().deal_index == 1


@pytest.mark.parametrize("value", ["score", True, None])
def test_4_8_1_blocked_deal_knob_validated(value: Any) -> None:
    with pytest.raises(RecordError, match="option 'blocked_deal'"):
        Rules.from_options("contract", {"blocked_deal": value})


@pytest.mark.parametrize("name", ["basic", "traditional"])
def test_4_8_1_blocked_deal_is_a_contract_knob(name: str) -> None:
    with pytest.raises(RecordError, match="does not apply"):
        Rules.from_options(name, {"blocked_deal": "none"})


# -- §3.3 D2 with several decks ---------------------------------------------------------------

DEADLOCK_RULES = Rules.from_options("contract", {"deadlock_draw": True, "discard_dig": False,
                                                 "joker_swap": False, "blocked_deal": "none"})


def one_card_each(table: list[tuple[str, int]]) -> HandState:
    state = build(["C9", "HJ", "SQ"], deal=1, rules=DEADLOCK_RULES, discard="CK",
                  stock="DK", table=table, down=[0, 1, 2])
    return state


def test_3_3_d2_a_second_copy_of_a_table_card_counts() -> None:
    # S8 is on the table once; the other S8 is outside and fits C8 D8 H8
    state = one_card_each([*SIX_FULL_SETS, ("C8 D8 H8 S8", 0), ("C8 D8 H8", 1)])
    assert not closed_table.deadlocked(state)
    full = one_card_each([*SIX_FULL_SETS, ("C8 D8 H8 S8", 0)])
    assert closed_table.deadlocked(full)


def test_3_3_d2_every_joker_outside_counts() -> None:
    ace_end = [*SIX_FULL_SETS, ("H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA", 1),
               ("CA DA HA SA", 2)]
    assert not closed_table.deadlocked(one_card_each(ace_end))  # the joker fits HA low
    ace_end[-2] = ("JK=HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA", 1)
    assert closed_table.deadlocked(one_card_each(ace_end))


def test_3_3_d2_deadlock_declared_after_a_completed_turn() -> None:
    table = [*SIX_FULL_SETS, ("C8 D8 H8 S8", 0)]
    state = build(["C9 DT", "HJ", "SQ"], deal=1, rules=DEADLOCK_RULES, discard="CK",
                  stock="DK D3", table=table, down=[0, 1, 2])
    play(state, "draw", "discard C9")
    assert state.result is None  # P keeps two cards: D1 fails
    state = build(["C9", "HJ", "SQ"], deal=1, rules=DEADLOCK_RULES, discard="CK",
                  stock="DK D3", table=table, down=[0, 1, 2])
    play(state, "draw", "discard C9")
    assert state.result == HandResult("draw", None, False, "deadlock", (0, 0, 0))


# -- §4.4 the dug card's duty is on its identity ----------------------------------------------

def test_4_4_duty_met_by_a_copy_held_before_then_the_dug_copy_discarded() -> None:
    state = build(seat_hands("C3 H9"), discard="C4 H9 S2 DK", stock="D3 S3",
                  table=[("C7 D7 S7", 0), ("CQ DQ SQ", 0), ("H6 H7 H8", 1)], down=[0, 1])
    play(state, "take 3", "lay H9 on 3")
    assert state.dig_duty == -1
    assert "discard H9" in agree(state)
    play(state, "discard H9")
    assert state.discard == cards("C4 H9")


def test_4_4_a_joker_standing_for_the_dug_card_does_not_meet_the_duty() -> None:
    state = build(seat_hands("C3 JK"), discard="C4 H9 S2 DK", stock="D3 S3",
                  table=[("C7 D7 S7", 0), ("CQ DQ SQ", 0), ("H6 H7 H8", 1)], down=[0, 1])
    play(state, "take 3", "lay JK=H9 on 3")
    assert state.dig_duty == card("H9")  # JK=H9 is a joker placed, not a card of H9
    refused(state, "discard S2", "H9")
    play(state, "swap H9 on 3")  # the dug card takes the joker's place: duty met
    assert state.dig_duty == -1 and state.joker_duty == 1
    play(state, "lay JK=HT on 3", "discard S2")
    assert table_text(state)[2] == "H6 H7 H8 H9 JK=HT"


# -- §5.1 schedules, deck_config = seed -------------------------------------------------------

@pytest.mark.parametrize("deals", [1, 3, 7])
def test_5_1_schedule_of_1_to_7_deals(deals: int) -> None:
    options = {"contract_schedule": [[1, 1]] * deals, "num_hands": deals,
               "hand_size": [10] * deals}
    rules = Rules.from_options("contract", {**options, "max_turns_per_hand": 30})
    rng = random.Random(deals)
    match = Match(rules, ["A", "B", "C"], seed=deals)
    while not match.over:
        state = match.start_hand()
        while not state.is_over:
            match.push(rng.choice(state.legal_moves()))
    assert len(match.hands) == deals
    record = loads(dumps(record_of(match)))
    assert record.options == {**options, "max_turns_per_hand": 30}
    assert replay(record).to_json() == match_result(match)


@pytest.mark.parametrize(("schedule", "message"), [
    ([[1, 1]] * 8, "1 to 7"),
    ([], "1 to 7"),
    ([[0, 0]], "at least one meld"),
    ([[2, 0], [0, 0]], "at least one meld"),
])
def test_5_1_schedule_validated(schedule: list[list[int]], message: str) -> None:
    options = {"contract_schedule": schedule, "num_hands": max(len(schedule), 1),
               "hand_size": [10] * max(len(schedule), 1)}
    with pytest.raises(RecordError, match=message):
        Rules.from_options("contract", options)


@pytest.mark.parametrize(("schedule", "options", "message"), [
    ([[2, 0]], {}, r"last deal's contract \[2, 0\] must take 11 cards at once .* at most 8"),
    ([[1, 2], [2, 0]], {"final_deal_rule": "all_at_once_discard_ok"},
     r"must take 10 cards at once under final_deal_rule 'all_at_once_discard_ok'"),
    ([[0, 5]], {"final_deal_rule": "none"}, "5 runs of different suits, and there are 4"),
])
def test_5_1_contract_nobody_can_make_refused(schedule: list[list[int]],
                                              options: dict[str, str], message: str) -> None:
    """A schedule whose contract can never be made would run a deal to the turn valve."""
    sizes = {"contract_schedule": schedule, "num_hands": len(schedule),
             "hand_size": [10] * len(schedule)}
    with pytest.raises(RecordError, match=message):
        Rules.from_options("contract", {**sizes, **options})


@pytest.mark.parametrize("options", [
    {"contract_schedule": [[2, 0]], "final_deal_rule": "none"},
    {"contract_schedule": [[2, 1]]},  # 2 sets and a run hold 11 cards
    {"contract_schedule": [[0, 3]], "final_deal_rule": "none",
     "contract_runs_distinct_suits": False},
])
def test_5_1_short_schedules_that_can_end_accepted(options: dict[str, object]) -> None:
    """... and its deal ends, played by greedy seats, well before the turn valve."""
    rules = Rules.from_options("contract", {**options, "num_hands": 1, "hand_size": [10]})
    ends = []
    for seed in range(2):
        state = HandState.deal(rules, 3, rng=random.Random(seed))
        contract_playout.play_out(state, 600)
        assert state.result is not None and state.result.reason != MAX_TURNS
        ends.append(state.turn_count)
    assert max(ends) < 600


@pytest.mark.parametrize(("players", "pack"), [(3, (2, 1)), (4, (2, 1)), (5, (2, 1)),
                                                (6, (2, 2)), (8, (2, 2))])
def test_5_1_deck_config_seed(players: int, pack: tuple[int, int]) -> None:
    rules = Rules.from_options("contract", {"deck_config": "seed"})
    rules.check_players(players)
    assert rules.pack_spec(players) == pack
    state = HandState.deal(rules, players, rng=random.Random(players), deal_index=6)
    total = len(state.stock) + len(state.discard) + sum(
        len(state.hand_cards(s)) for s in range(players))
    assert total == 52 * pack[0] + pack[1]


def test_5_1_deck_config_value_checked() -> None:
    with pytest.raises(RecordError, match="'bicycle', 'pagat', 'seed'"):
        Rules.from_options("contract", {"deck_config": "seeded"})


# -- §7 C-14, C-15, C-17 ------------------------------------------------------------------------

def test_c_14_a_player_who_is_down_digs_and_lays_the_card_off() -> None:
    state = build(seat_hands("C3 D5"), discard="C4 H9 S2 DK", stock="D3 S3",
                  table=[("C7 D7 S7", 0), ("CQ DQ SQ", 0), ("H6 H7 H8", 1)], down=[0, 1])
    assert "take 3" in agree(state)
    play(state, "take 3", "lay H9 on 3", "discard S2")


def test_c_15_swap_from_ones_own_run() -> None:
    state = build(seat_hands("H6 C9"), deal=2, stock="D4 S3",
                  table=[("C3 D3 H3", 0), ("H5 JK=H6 H7 H8", 0)], down=[0])
    play(state, "draw")
    assert "swap H6 on 2" in agree(state)
    play(state, "swap H6 on 2", "lay JK=H9 on 2", "discard C9")
    assert table_text(state)[1] == "H5 H6 H7 H8 JK=H9"


def test_c_17_deal_7_runs_pairwise_distinct_suits() -> None:
    hand = "H2 H3 H4 H5 H6 H7 H8 H9 S2 S3 S4 D5 D6"
    state = build(seat_hands(hand), deal=7, stock="DK")
    play(state, "take")  # C4 joins the hand: 13 + 1 = 14 cards; it cannot be used
    refused(state, "meld H2 H3 H4 H5 / H6 H7 H8 H9 / S2 S3 S4", "suit", "contract",
            "different")
    lifted = Rules.from_options("contract", {"contract_runs_distinct_suits": False})
    state = build(seat_hands("H2 H3 H4 H5 H6 H7 H8 H9 S2 S3 S4 S5"), deal=7, rules=lifted,
                  stock="S6")
    play(state, "draw", "meld H2 H3 H4 H5 / H6 H7 H8 H9 / S2 S3 S4 S5 S6")
    assert state.result is not None and state.result.winner == 0


# -- FORMATS.md §1: meld A / B once down --------------------------------------------------------

EXTRA = Rules.from_options("contract", {"extra_melds_after_contract": True})


def extra_position(rules: Rules = EXTRA) -> HandState:
    state = build(seat_hands("C9 D9 H9 S5 S6 S7 DK"), deal=1, rules=rules, stock="D3",
                  table=[("C2 D2 S2", 0), ("CJ DJ SJ", 0)], down=[0])
    play(state, "draw")
    return state


def test_formats_1_meld_a_b_once_down_under_extra_melds() -> None:
    state = extra_position()
    assert str(state.play("meld S5 S6 S7 / C9 D9 H9")) == "meld S5 S6 S7 / C9 D9 H9"
    assert table_text(state)[2:] == ["S5 S6 S7", "C9 D9 H9"]
    assert sorted(map(str, state.hand_cards(0))) == sorted(map(str, cards("DK D3")))


def test_formats_1_meld_a_b_legal_iff_the_sequence_is() -> None:
    # melding both would leave only the card taken from the discard pile? Here: all but DK
    state = build(seat_hands("C9 D9 H9 S5 S6 S7"), deal=1, rules=EXTRA, discard="C4 DK",
                  stock="D3", table=[("C2 D2 S2", 0), ("CJ DJ SJ", 0)], down=[0])
    play(state, "take")
    refused(state, "meld S5 S6 S7 / C9 D9 H9", "finish", "discard")
    play(state, "meld S5 S6 S7", "discard C9")


def test_formats_1_meld_a_b_once_down_without_the_knob_rejected() -> None:
    state = extra_position(CONTRACT)
    refused(state, "meld S5 S6 S7 / C9 D9 H9", "down", "extra_melds")
