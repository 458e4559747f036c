"""RULES.md §2.5: every edge case of the `basic` rule set, as named tests.

Positions are built with ``HandState.from_deal`` and, where a fixture needs it, by setting
fields (discard pile, stock, table). A rejected move must leave every field of the state
as it was (``assert_rejected`` compares a full snapshot) and its message must give the
reason. Scores and totals are exact.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from helpers import assert_rejected, card, cards, legal_texts, played, position
from rummykit.core.cards import format_card, format_cards
from rummykit.core.engine import HandState
from rummykit.core.errors import IllegalMoveError, NotationError, RecordError
from rummykit.core.match import Match
from rummykit.core.melds import TableMeld, make_meld
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take, parse_move
from rummykit.core.outcome import HandResult
from rummykit.core.rules import Rules
from rummykit.variants import BASIC

HIGH = dataclasses.replace(BASIC, ace_mode="high_or_low")
MUST_DISCARD = dataclasses.replace(BASIC, must_discard_to_go_out=True)


# -- helpers ----------------------------------------------------------------------------

















def win(winner: int, scores: Sequence[int], rummy: bool) -> HandResult:
    return HandResult("win", winner, rummy, None, tuple(scores))


def full_deal(hands: Sequence[str], upcard: str, stock_top: str = ""
              ) -> tuple[list[list[int]], int, list[int]]:
    """A deal of the whole 52-card pack: the given hands and upcard; the stock starts
    with ``stock_top`` and goes on with every other card in index order."""
    dealt = [cards(h) for h in hands]
    up = card(upcard)
    top = cards(stock_top)
    used = [c for h in dealt for c in h] + [up, *top]
    assert len(set(used)) == len(used), "a card is dealt twice"
    stock = top + [c for c in range(52) if c not in used]
    return dealt, up, stock


# -- 1, 2: re-discard ban -----------------------------------------------------------------

def test_2_5_01_rediscard_ban_same_turn_rejected() -> None:
    state = position(BASIC, ["C2 D4 H9 SK", "D2 D3 S5 S6"], discard="H3 C7", stock="DJ")
    assert played(state, "take") == ["take"]
    assert state.hand_cards(0) == cards("C2 C7 D4 H9 SK")
    assert_rejected(state, "discard C7", IllegalMoveError,
                    "cannot discard C7: it was taken from the discard pile this turn")
    assert legal_texts(state) == ["discard C2", "discard D4", "discard H9", "discard SK"]


def test_2_5_01_rediscard_ban_other_card_accepted() -> None:
    state = position(BASIC, ["C2 D4 H9 SK", "D2 D3 S5 S6"], discard="H3 C7", stock="DJ")
    played(state, "take")
    assert played(state, "discard SK") == ["discard SK"]
    assert state.discard == cards("H3 SK")
    assert state.hand_cards(0) == cards("C2 C7 D4 H9")
    assert (state.to_move, state.phase) == (1, "draw")


def test_2_5_01_rediscard_ban_later_turn_accepted() -> None:
    state = position(BASIC, ["C2 D4 H9 SK", "D2 D3 S5 S6"], discard="H3 C7",
                     stock="DJ S9 D8")
    played(state, "take", "discard SK", "draw", "discard DJ", "draw")
    assert state.to_move == 0
    assert "discard C7" in legal_texts(state)
    assert played(state, "discard C7") == ["discard C7"]
    assert state.discard == cards("H3 SK DJ C7")
    assert state.hand_cards(0) == cards("C2 D4 H9 S9")


def test_2_5_02_stock_card_discarded_same_turn_accepted() -> None:
    state = position(BASIC, ["C2 D4 H9 SK", "D2 D3 S5 S6"], discard="H3 C7", stock="DJ S9")
    assert played(state, "draw") == ["draw"]
    assert state.taken == -1
    assert "discard DJ" in legal_texts(state)
    assert played(state, "discard DJ") == ["discard DJ"]
    assert state.discard == cards("H3 C7 DJ")
    assert state.hand_cards(0) == cards("C2 D4 H9 SK")
    assert state.result is None


# -- 3, 4, 5: going out ---------------------------------------------------------------

def lay_off_out_position(rules: Rules) -> HandState:
    # Seat 1 (C2 D3 = 5 points) placed H8 H9 HT; seat 0 holds HJ and draws HQ.
    return position(rules, ["HJ", "C2 D3"], stock="HQ S4", discard="C7",
                     table=[("H8 H9 HT", 1)])


def test_2_5_03_go_out_by_laying_off_no_discard() -> None:
    state = lay_off_out_position(BASIC)
    assert played(state, "draw", "lay HJ on 1", "lay HQ on 1") == [
        "draw", "lay HJ on 1", "lay HQ on 1"]
    # Seat 0 placed nothing on an earlier turn: going rummy, (2 + 3) x 2.
    assert state.result == win(0, [10, 0], rummy=True)
    assert state.phase == "over"
    assert state.hands[0] == 0
    assert state.discard == cards("C7")  # no discard was made
    assert str(state.table[0]) == "H8 H9 HT HJ HQ"
    assert state.table[0].placed_by == (1, 1, 1, 0, 0)
    assert state.legal_moves() == []


def test_2_5_03_must_discard_second_lay_off_rejected() -> None:
    state = lay_off_out_position(MUST_DISCARD)
    played(state, "draw", "lay HJ on 1")
    assert legal_texts(state) == ["discard HQ"]
    assert_rejected(state, "lay HQ on 1", IllegalMoveError, "cannot lay HQ on 1",
                    "must_discard_to_go_out")


def test_2_5_03_must_discard_lay_off_then_discard_wins() -> None:
    state = lay_off_out_position(MUST_DISCARD)
    assert played(state, "draw", "lay HJ on 1", "discard HQ") == [
        "draw", "lay HJ on 1", "discard HQ"]
    assert state.result == win(0, [10, 0], rummy=True)
    assert state.discard == cards("C7 HQ")
    assert str(state.table[0]) == "H8 H9 HT HJ"


def test_2_5_04_go_out_by_melding_no_discard() -> None:
    state = position(BASIC, ["C2 D2", "C9 DK"], stock="H2 S4")
    assert played(state, "draw", "meld h2 c2 d2") == ["draw", "meld C2 D2 H2"]
    assert state.result == win(0, [38, 0], rummy=True)  # (9 + 10) x 2
    assert state.discard == cards("C7")
    assert [str(m) for m in state.table] == ["C2 D2 H2"]


def test_2_5_04_must_discard_meld_emptying_hand_rejected() -> None:
    state = position(MUST_DISCARD, ["C2 D2", "C9 DK"], stock="H2 S4")
    played(state, "draw")
    assert_rejected(state, "meld C2 D2 H2", IllegalMoveError, "cannot meld C2 D2 H2",
                    "you may go out only by discarding your last card")
    assert legal_texts(state) == ["discard C2", "discard D2", "discard H2"]


def test_2_5_05_go_out_by_discarding_last_card() -> None:
    state = position(BASIC, ["HJ", "C2 D3"], stock="C5 S4", table=[("H8 H9 HT", 1)])
    assert played(state, "draw", "lay HJ on 1", "discard C5") == [
        "draw", "lay HJ on 1", "discard C5"]
    assert state.result == win(0, [10, 0], rummy=True)
    assert state.discard == cards("C7 C5")
    assert state.hands[0] == 0


def test_2_5_05_go_out_by_discard_under_must_discard() -> None:
    state = position(MUST_DISCARD, ["HJ", "C2 D3"], stock="C5 S4", table=[("H8 H9 HT", 1)])
    played(state, "draw", "lay HJ on 1", "discard C5")
    assert state.result == win(0, [10, 0], rummy=True)


# -- 6 to 9: going rummy ----------------------------------------------------------------

# Three players; seat 1 moves first (dealer 0). Seat 2 ends with D6 S6 = 12 points and
# seat 0 with D4 S5 = 9 points, so a plain win is worth 21 and going rummy 42.
RUMMY_HANDS = ["D4 S5", "C2 C3 C4 H7 H8 H9 CK", "D6 S6"]


def rummy_position(stock: str, table: Sequence[tuple[str, int]] = (),
                   hands: Sequence[str] = RUMMY_HANDS, discard: str = "C7") -> HandState:
    return position(BASIC, hands, to_move=1, stock=stock, table=table, discard=discard)


def test_2_5_06_going_rummy_doubles_three_players() -> None:
    state = rummy_position("DK HK SQ C5 S9")
    played(state, "draw", "discard DK",  # seat 1: no placement
           "draw", "discard HK",          # seat 2
           "draw", "discard SQ")          # seat 0
    assert played(state, "draw", "meld C2 C3 C4 C5", "meld H7 H8 H9", "discard CK") == [
        "draw", "meld C2 C3 C4 C5", "meld H7 H8 H9", "discard CK"]
    assert state.hand_value(2) == 12 and state.hand_value(0) == 9
    assert state.result == win(1, [0, 42, 0], rummy=True)


def test_2_5_07_earlier_lay_off_no_doubling() -> None:
    state = rummy_position("DJ HK SQ C5 S9", table=[("D8 D9 DT", 2)],
                           hands=["D4 S5", "C2 C3 C4 H7 H8 H9 CK SK", "D6 S6"])
    played(state, "draw", "lay DJ on 1", "discard SK",  # seat 1 lays off one card
           "draw", "discard HK",
           "draw", "discard SQ")
    played(state, "draw", "meld C2 C3 C4 C5", "meld H7 H8 H9", "discard CK")
    assert state.result == win(1, [0, 21, 0], rummy=False)


def test_2_5_08_only_drew_and_discarded_earlier_still_rummy() -> None:
    # Seat 1 took the discard top on its earlier turn; the opponents meld and lay off
    # meanwhile: none of that is a placement by seat 1.
    hands = ["D4 S5 SJ SQ SK C9", "C2 C3 C4 H7 H8 H9 CK", "D6 S6 DJ DQ DK"]
    state = rummy_position("D9 ST C5 S9", hands=hands, discard="C7 HK")
    played(state, "take", "discard CK")
    assert state.hand_cards(1) == cards("C2 C3 C4 H7 H8 H9 HK")
    played(state, "draw", "meld DJ DQ DK", "discard D9",
           "draw", "meld SJ SQ SK", "lay ST on 2", "discard C9")
    assert state.ever_placed == 0b101
    played(state, "draw", "meld C2 C3 C4 C5", "meld H7 H8 H9", "discard HK")
    assert state.hand_value(2) == 12 and state.hand_value(0) == 9
    assert state.result == win(1, [0, 42, 0], rummy=True)


def test_2_5_09_going_rummy_on_first_turn() -> None:
    state = rummy_position("C5 S9")
    assert state.turn_count == 0
    played(state, "draw", "meld C2 C3 C4 C5", "meld H7 H8 H9", "discard CK")
    assert state.result == win(1, [0, 42, 0], rummy=True)


# -- 10, 11: runs and aces --------------------------------------------------------------

@pytest.mark.parametrize(("text", "canonical"), [("HA H2 H3", "HA H2 H3"),
                                                 ("H3 HA H2", "HA H2 H3")])
def test_2_5_10_ace_low_run_legal(text: str, canonical: str) -> None:
    meld = make_meld(cards(text), BASIC)
    assert isinstance(meld, TableMeld)
    assert (meld.kind, str(meld), meld.low, meld.high) == ("run", canonical, 1, 3)


@pytest.mark.parametrize(("text", "reason"), [
    ("HQ HK HA", "ace is low only"),
    ("HK HA H2", "ace is low only"),
    ("H2 H3 H5", "cards are not consecutive"),
    ("H2 S3 H4", "suits differ"),
    ("H2 H3", "a meld needs at least 3 cards"),
])
def test_2_5_10_ace_low_runs_illegal(text: str, reason: str) -> None:
    found = make_meld(cards(text), BASIC)
    assert isinstance(found, str)
    assert found.startswith(f"{text} is not a meld")
    assert reason in found


@pytest.mark.parametrize("text", ["HQ HK HA", "HK HA H2", "H2 H3 H5", "H2 S3 H4"])
def test_2_5_10_ace_low_illegal_meld_rejected_in_play(text: str) -> None:
    state = position(BASIC, ["HQ HK HA H2 H3 H5 S3 H4", "C9 DK"], stock="DJ")
    played(state, "draw")
    assert all(not isinstance(m, Meld) or format_cards(m.groups[0]) != text
               for m in state.legal_moves())
    assert_rejected(state, f"meld {text}", IllegalMoveError, f"cannot meld {text}",
                    "is not a meld")


def test_2_5_10_two_card_run_is_not_a_move() -> None:
    with pytest.raises(NotationError, match="a group needs 3 or more cards"):
        parse_move("meld H2 H3")


def test_2_5_10_ace_low_ace_cannot_go_above_king() -> None:
    state = position(BASIC, ["HA C2", "C9 DK"], stock="DJ", table=[("HJ HQ HK", 1)])
    played(state, "draw")
    assert_rejected(state, "lay HA on 1", IllegalMoveError,
                    "HA does not extend the run HJ HQ HK")


@pytest.mark.parametrize(("text", "canonical", "low", "high"), [
    ("HQ HK HA", "HQ HK HA", 12, 14),
    ("HA HK HQ", "HQ HK HA", 12, 14),
    ("HA H2 H3", "HA H2 H3", 1, 3),
])
def test_2_5_11_high_or_low_runs_legal(text: str, canonical: str, low: int, high: int) -> None:
    meld = make_meld(cards(text), HIGH)
    assert isinstance(meld, TableMeld)
    assert (meld.kind, str(meld), meld.low, meld.high) == ("run", canonical, low, high)


def test_2_5_11_high_or_low_no_wrap() -> None:
    found = make_meld(cards("HK HA H2"), HIGH)
    assert isinstance(found, str)
    assert "not a run (cards are not consecutive)" in found
    state = position(HIGH, ["HK HA H2 C5", "C9 DK"], stock="DJ")
    played(state, "draw")
    assert_rejected(state, "meld HK HA H2", IllegalMoveError, "cannot meld HK HA H2")


def test_2_5_11_high_or_low_lay_ace_above_king() -> None:
    state = position(HIGH, ["HA C2", "C9 DK"], stock="DJ", table=[("HJ HQ HK", 1)])
    played(state, "draw")
    assert "lay HA on 1" in legal_texts(state)
    assert played(state, "lay HA on 1") == ["lay HA on 1"]
    assert str(state.table[0]) == "HJ HQ HK HA"
    assert (state.table[0].low, state.table[0].high) == (11, 14)
    assert state.table[0].accepts == 1 << card("HT")


def test_2_5_11_high_or_low_king_not_below_ace() -> None:
    state = position(HIGH, ["HK C2", "C9 DK"], stock="DJ", table=[("HA H2 H3", 1)])
    played(state, "draw")
    assert_rejected(state, "lay HK on 1", IllegalMoveError,
                    "HK does not extend the run HA H2 H3")


def test_2_5_11_high_or_low_ace_in_losers_hand_counts_15() -> None:
    # Seat 0 laid off on its first turn, so the win is not doubled: exactly 15 + 2.
    state = position(HIGH, ["HJ C5", "SA D2"], stock="S3 D9 HQ", table=[("H8 H9 HT", 1)])
    played(state, "draw", "lay HJ on 1", "discard S3", "draw", "discard D9")
    assert state.hand_value(1) == 17
    played(state, "draw", "lay HQ on 1", "discard C5")
    assert state.result == win(0, [17, 0], rummy=False)


# -- 12: sets -------------------------------------------------------------------------

def test_2_5_12_sets() -> None:
    three = make_meld(cards("H8 C8 D8"), BASIC)
    assert isinstance(three, TableMeld)
    assert (three.kind, str(three), three.rank) == ("set", "C8 D8 H8", 8)
    assert three.accepts == 1 << card("S8")
    two = make_meld(cards("C8 D8"), BASIC)
    assert two == "C8 D8 is not a meld: a meld needs at least 3 cards"
    four = make_meld(cards("S8 H8 D8 C8"), BASIC)
    assert isinstance(four, TableMeld)
    assert (four.kind, str(four), four.accepts) == ("set", "C8 D8 H8 S8", 0)


def test_2_5_12_set_grows_to_four_then_nothing_fits() -> None:
    state = position(BASIC, ["S8 S9 S7 C2", "C9 DK"], stock="DJ", table=[("C8 D8 H8", 1)])
    played(state, "draw")
    assert played(state, "lay s8 on 1") == ["lay S8 on 1"]
    assert str(state.table[0]) == "C8 D8 H8 S8"
    assert state.table[0].placed_by == (1, 1, 1, 0)
    assert not [m for m in state.legal_moves() if isinstance(m, LayOff)]
    for other in ("S9", "S7", "C2", "DJ"):
        assert_rejected(state, f"lay {other} on 1", IllegalMoveError,
                        f"{other} does not extend the set C8 D8 H8 S8")


def test_2_5_12_four_card_set_melded_accepts_nothing() -> None:
    state = position(BASIC, ["C8 D8 H8 S8 S9", "C9 DK"], stock="DJ")
    played(state, "draw")
    assert played(state, "meld S8 D8 C8 H8") == ["meld C8 D8 H8 S8"]
    assert state.table[0].accepts == 0
    assert_rejected(state, "lay S9 on 1", IllegalMoveError, "does not extend the set")


# -- 13, 14: lay-offs --------------------------------------------------------------------

def lay_position() -> HandState:
    # Meld 1 is seat 1's, meld 2 is seat 0's.
    return position(BASIC, ["HJ S5 C2 D9", "H7 C3 C4 DK"], stock="SQ HQ",
                    table=[("H8 H9 HT", 1), ("C5 D5 H5", 0)])


def test_2_5_13_lay_off_on_opponents_meld() -> None:
    state = lay_position()
    played(state, "draw")
    assert played(state, "lay HJ on 1") == ["lay HJ on 1"]
    assert str(state.table[0]) == "H8 H9 HT HJ"
    assert state.table[0].placed_by == (1, 1, 1, 0)


def test_2_5_13_lay_off_on_own_meld() -> None:
    state = lay_position()
    played(state, "draw")
    assert played(state, "lay S5 on 2") == ["lay S5 on 2"]
    assert str(state.table[1]) == "C5 D5 H5 S5"
    assert state.table[1].placed_by == (0, 0, 0, 0)


def test_2_5_13_lay_off_before_ever_melding() -> None:
    state = lay_position()
    played(state, "draw", "discard SQ")
    assert state.to_move == 1 and state.ever_placed == 0
    played(state, "draw")
    assert played(state, "lay H7 on 1") == ["lay H7 on 1"]
    assert str(state.table[0]) == "H7 H8 H9 HT"
    assert state.table[0].placed_by == (1, 1, 1, 1)


def test_2_5_14_lay_off_not_at_an_end_rejected() -> None:
    state = position(BASIC, ["H5 C2", "C9 DK"], stock="DJ", table=[("H8 H9 HT", 1)])
    played(state, "draw")
    assert_rejected(state, "lay H5 on 1", IllegalMoveError,
                    "cannot lay H5 on 1: H5 does not extend the run H8 H9 HT")


def test_2_5_14_run_stays_a_run() -> None:
    state = position(BASIC, ["S5 C2", "C9 DK"], stock="DJ", table=[("H5 H6 H7", 1)])
    played(state, "draw")
    assert_rejected(state, "lay S5 on 1", IllegalMoveError,
                    "cannot lay S5 on 1: S5 does not extend the run H5 H6 H7")
    assert [str(m) for m in state.legal_moves() if isinstance(m, LayOff)] == []


# -- 15: dead end ------------------------------------------------------------------------

def test_2_5_15_dead_end_meld_rejected() -> None:
    state = position(BASIC, ["H4 H5 H6", "C9 DK"], discard="D2 SQ", stock="DJ",
                     table=[("C8 D8 H8", 1)])
    played(state, "take")
    assert state.hand_cards(0) == cards("H4 H5 H6 SQ")
    assert_rejected(state, "meld H4 H5 H6", IllegalMoveError,
                    "cannot meld H4 H5 H6: it would leave only SQ, which was taken from the "
                    "discard pile this turn and can be neither discarded nor laid off")
    assert legal_texts(state) == ["discard H4", "discard H5", "discard H6"]
    assert_rejected(state, "discard SQ", IllegalMoveError,
                    "cannot discard SQ: it was taken from the discard pile this turn")


def test_2_5_15_dead_end_avoided_when_sq_fits() -> None:
    state = position(BASIC, ["H4 H5 H6", "C9 DK"], discard="D2 SQ", stock="DJ",
                     table=[("S9 ST SJ", 1)])
    played(state, "take")
    assert played(state, "meld H4 H5 H6") == ["meld H4 H5 H6"]
    # SQ may not be discarded, so laying it off (going out) is the only legal move.
    assert legal_texts(state) == ["lay SQ on 1"]
    played(state, "lay SQ on 1")
    assert state.result == win(0, [38, 0], rummy=True)  # (9 + 10) x 2


def test_2_5_15_lay_off_that_opens_an_end_for_the_taken_card() -> None:
    # After taking HT, laying off H9 leaves only HT, which then fits H6 .. H9: legal.
    state = position(BASIC, ["H9", "C9 D3"], discard="D2 HT", stock="S2",
                     table=[("H6 H7 H8", 1)])
    played(state, "take")
    assert legal_texts(state) == ["lay H9 on 1", "discard H9"]
    assert_rejected(state, "lay HT on 1", IllegalMoveError,
                    "HT does not extend the run H6 H7 H8")
    played(state, "lay H9 on 1", "lay HT on 1")
    assert state.result == win(0, [24, 0], rummy=True)  # (9 + 3) x 2


def test_2_5_15_dead_end_under_must_discard_names_the_rule() -> None:
    # Same position with must_discard_to_go_out: HT could be laid off, but that would
    # empty the hand, so laying off H9 strands the player. The refusal must name the
    # rule that applies (FORMATS.md §1: "the message says which rule").
    state = position(MUST_DISCARD, ["H9", "C9 D3"], discard="D2 HT", stock="S2",
                     table=[("H6 H7 H8", 1)])
    played(state, "take")
    assert legal_texts(state) == ["discard H9"]
    assert_rejected(state, "lay H9 on 1", IllegalMoveError, "cannot lay H9 on 1",
                    "must_discard_to_go_out")


# -- 16, 17, 18: stock exhaustion -------------------------------------------------------

def test_2_5_16_rebuild_keeps_top_discard() -> None:
    state = position(BASIC, ["S9 H3", "C9 DK"], discard="C2 D5", stock="CK",
                     restocks=[cards("D5 C2")])
    played(state, "draw", "discard S9")
    # The automatic steps ran as effects of the discard.
    assert state.to_move == 1 and state.phase == "draw" and state.result is None
    assert state.discard == cards("S9")
    assert state.stock == cards("C2 D5")  # top last: D5 is the new top
    assert state.rebuilds == 1
    assert state.restocks == [tuple(cards("D5 C2"))]
    assert legal_texts(state) == ["draw", "take"]
    played(state, "draw")
    assert state.hand_cards(1) == cards("C9 D5 DK")


def test_2_5_16_rebuild_is_a_shuffle_of_all_but_top() -> None:
    state = position(BASIC, ["S9 H3", "C9 DK"], discard="C2 D5", stock="CK",
                     rng=random.Random(5))
    played(state, "draw", "discard S9")
    assert sorted(state.stock) == cards("C2 D5")
    assert state.discard == cards("S9")
    assert [list(r) for r in state.restocks] == [state.stock[::-1]]


def test_2_5_16_rebuild_repeats_without_limit() -> None:
    state = position(BASIC, ["S9 H3", "C9 DK"], discard="C2 D5", stock="CK",
                     rng=random.Random(11))
    for rebuilds in range(1, 7):
        # Draw the stock empty, always discarding the card drawn; the discard that
        # follows the last draw triggers the next rebuild at once.
        for _ in range(len(state.stock)):
            assert state.rebuilds == rebuilds - 1
            drawn = state.stock[-1]
            played(state, "draw", f"discard {format_card(drawn)}")
        assert state.result is None
        assert state.rebuilds == rebuilds
        assert len(state.discard) == 1
        assert len(state.stock) == 2  # the two cards drawn and discarded since
    assert len(state.restocks) == 6


def test_2_5_17_single_discard_no_rebuild_must_take() -> None:
    state = position(BASIC, ["H4 S9", "C9 DK"], discard="C7")
    state.stock = []
    played(state, "take", "discard H4")
    # Stock empty and the pile holds one card: no rebuild, nothing counted.
    assert (state.to_move, state.phase, state.result) == (1, "draw", None)
    assert state.stock == [] and state.discard == cards("H4")
    assert state.rebuilds == 0 and state.restocks == []
    assert state.legal_moves() == [Take()]
    assert_rejected(state, "draw", IllegalMoveError,
                    "the stock is empty and is not rebuilt now: take the discard top")
    assert played(state, "take") == ["take"]
    assert state.hand_cards(1) == cards("C9 DK H4")


def test_2_5_18_last_stock_card_drawer_may_go_out() -> None:
    state = position(BASIC, ["H8 H9 HT C3", "C9 DK"], discard="C2 D5", stock="HJ")
    played(state, "draw")
    assert state.stock == []
    assert played(state, "meld H8 H9 HT HJ", "discard C3") == ["meld H8 H9 HT HJ",
                                                               "discard C3"]
    assert state.result == win(0, [38, 0], rummy=True)
    assert state.rebuilds == 0 and state.restocks == []


# -- 19: one meld per turn ----------------------------------------------------------------

ONE_MELD = dataclasses.replace(BASIC, max_melds_per_turn=1)


def test_2_5_19_second_meld_rejected_lay_offs_unlimited() -> None:
    state = position(ONE_MELD, ["C2 D2 H2 S7 S8 S9 DQ DK HK", "C9 D3"], stock="CJ S3 S4",
                     table=[("D9 DT DJ", 1)])
    played(state, "draw", "meld C2 D2 H2")
    assert state.melds_this_turn == 1
    assert not [m for m in state.legal_moves() if isinstance(m, Meld)]
    assert_rejected(state, "meld S7 S8 S9", IllegalMoveError,
                    "cannot meld S7 S8 S9: at most 1 new meld per turn")
    assert played(state, "lay DQ on 1", "lay DK on 1") == ["lay DQ on 1", "lay DK on 1"]
    assert str(state.table[0]) == "D9 DT DJ DQ DK"
    played(state, "discard HK", "draw", "discard S3")
    assert played(state, "draw") == ["draw"]
    assert played(state, "meld S7 S8 S9") == ["meld S7 S8 S9"]  # a new turn


def test_2_5_19_two_melds_in_one_action_rejected() -> None:
    state = position(ONE_MELD, ["C2 D2 H2 S7 S8 S9 HK", "C9 DK"], stock="CJ")
    played(state, "draw")
    assert_rejected(state, "meld C2 D2 H2 / S7 S8 S9", IllegalMoveError,
                    "at most 1 new meld per turn")
    unlimited = position(BASIC, ["C2 D2 H2 S7 S8 S9 HK", "C9 DK"], stock="CJ")
    played(unlimited, "draw")
    assert played(unlimited, "meld C2 D2 H2/S7 S8 S9", "discard HK") == [
        "meld C2 D2 H2 / S7 S8 S9", "discard HK"]
    assert unlimited.melds_this_turn == 0 and len(unlimited.table) == 2


# -- 20: hand values -------------------------------------------------------------------

@pytest.mark.parametrize(("rules", "points"), [(BASIC, 18), (HIGH, 32)])
def test_2_5_20_loser_hand_value(rules: Rules, points: int) -> None:
    # Seat 0 lays off on its first turn, so its win is not doubled.
    state = position(rules, ["HJ C5", "SK D7 CA"], stock="S2 D9 HQ",
                     table=[("H8 H9 HT", 1)])
    played(state, "draw", "lay HJ on 1", "discard S2", "draw", "discard D9")
    assert state.hand_cards(1) == cards("CA D7 SK")
    assert state.hand_value(1) == points
    played(state, "draw", "lay HQ on 1", "discard C5")
    assert state.result == win(0, [points, 0], rummy=False)


# -- 21, 22: match end -----------------------------------------------------------------

def worth_five_deal() -> tuple[list[list[int]], int, list[int]]:
    """Two players, dealer 0: seat 1 melds nine clubs on turn 1, and on turn 3 lays off
    CJ and discards, while seat 0 is left with D2 S3 = 5 points (no going rummy)."""
    return full_deal(["H2 H3 H4 H5 H6 H7 H8 H9 D2 S3", "C2 C3 C4 C5 C6 C7 C8 C9 CT DK"],
                     "SK", "CJ SQ S9")


def play_worth_five(match: Match) -> None:
    match.start_hand(deal=worth_five_deal())
    for move in ("draw", "meld C2 C3 C4 C5 C6 C7 C8 C9 CT", "discard DK",
                 "draw", "meld H2 H3 H4 H5 H6 H7 H8 H9", "discard SQ",
                 "draw", "lay CJ on 1", "discard S9"):
        match.play(move)


@pytest.mark.parametrize(("before", "over"), [(148, True), (145, True), (144, False)])
def test_2_5_21_target_reached_ends_match(before: int, over: bool) -> None:
    match = Match(BASIC, ["Ann", "Bob"], seed=3, dealer=0)
    match.totals[1] = before
    play_worth_five(match)
    assert match.hands[-1].result == win(1, [0, 5], rummy=False)
    assert match.totals == [0, before + 5]
    assert match.over is over
    assert match.winners == ((1,) if over else ())
    if over:
        results = match.results()
        assert [(r.seat, r.total, r.won, r.drawn) for r in results] == [
            (0, 0, False, False), (1, before + 5, True, False)]
        with pytest.raises(IllegalMoveError, match="the match is over"):
            match.start_hand()
    else:
        with pytest.raises(IllegalMoveError, match="the match is not over"):
            match.results()
        assert match.start_hand().dealer == 1


FIXED_FIVE = Rules.from_options("basic", {"game_end": "fixed_hands", "num_hands": 5,
                                          "max_turns_per_hand": 3})


def first_turn_win_deal(first: int) -> tuple[list[list[int]], int, list[int]]:
    """Three players: seat ``first`` holds C2..C8 and draws C9 (meld all, go out); the
    other two hold D2..D8 and H2..H8 (35 points each): going rummy, 2 x 70 = 140."""
    hands = ["", "", ""]
    hands[first] = "C2 C3 C4 C5 C6 C7 C8"
    others = [s for s in range(3) if s != first]
    hands[others[0]] = "D2 D3 D4 D5 D6 D7 D8"
    hands[others[1]] = "H2 H3 H4 H5 H6 H7 H8"
    return full_deal(hands, "SK", "C9")


def play_first_turn_win(match: Match) -> int:
    index = len(match.hands)
    first = (match.dealer_of(index) + 1) % 3
    state = match.start_hand(deal=first_turn_win_deal(first))
    assert state.to_move == first
    match.play("draw")
    match.play("meld C2 C3 C4 C5 C6 C7 C8 C9")
    return first


def play_aborted_hand(match: Match) -> None:
    state = match.start_hand(deal=first_turn_win_deal((match.dealer_of(len(match.hands)) + 1)
                                                      % 3))
    for _ in range(3):
        match.play("draw")
        match.play(f"discard {format_card(state.hand_cards(state.to_move)[-1])}")
    assert state.result == HandResult("aborted", None, False, "max_turns", (0, 0, 0))


def test_2_5_22_fixed_hands_co_winners() -> None:
    match = Match(FIXED_FIVE, ["Ann", "Bob", "Cy"], dealer=0)
    winners = []
    for hand in range(5):
        winners.append(play_first_turn_win(match))
        assert match.hands[-1].result is not None
        assert match.hands[-1].result.scores[winners[-1]] == 140
        assert match.over is (hand == 4)  # totals pass 150 but the target is not used
    assert winners == [1, 2, 0, 1, 2]
    assert match.totals == [140, 280, 280]
    assert match.winners == (1, 2)
    assert [(r.total, r.won, r.drawn) for r in match.results()] == [
        (140, False, False), (280, True, False), (280, True, False)]


def test_2_5_22_fixed_hands_highest_total_wins() -> None:
    match = Match(FIXED_FIVE, ["Ann", "Bob", "Cy"], dealer=0)
    for _ in range(4):
        play_first_turn_win(match)
    assert match.totals == [140, 280, 140] and not match.over
    play_aborted_hand(match)  # an aborted hand counts as one of the five
    assert len(match.hands) == 5
    assert match.over and match.winners == (1,)
    assert match.totals == [140, 280, 140]
    assert [r.won for r in match.results()] == [False, True, False]


# -- 23, 24: players and dealer ------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 7])
def test_2_5_23_player_count_rejected(players: int) -> None:
    names = [f"P{i}" for i in range(players)]
    with pytest.raises(RecordError, match=f"{players} players?: basic is for 2 to 6 players"):
        Match(BASIC, names, seed=1)
    with pytest.raises(RecordError, match="basic is for 2 to 6 players"):
        BASIC.check_players(players)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_2_5_23_player_counts_accepted(players: int) -> None:
    match = Match(BASIC, [f"P{i}" for i in range(players)], seed=1)
    state = match.start_hand()
    size = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}[players]
    assert [len(state.hand_cards(s)) for s in range(players)] == [size] * players
    assert len(state.stock) == {2: 31, 3: 30, 4: 23, 5: 21, 6: 15}[players]


def test_2_5_24_first_turn_left_of_dealer_and_rotation() -> None:
    rules = Rules.from_options("basic", {"max_turns_per_hand": 1})
    match = Match(rules, ["Ann", "Bob", "Cy"], seed=8, dealer=2)
    seen = []
    for _ in range(4):
        state = match.start_hand()
        seen.append((state.dealer, state.to_move))
        drawn = state.stock[-1]
        assert match.play("draw") == Draw()
        assert match.play(f"discard {format_card(drawn)}") == Discard(drawn)
        assert state.result == HandResult("aborted", None, False, "max_turns", (0, 0, 0))
    assert seen == [(2, 0), (0, 1), (1, 2), (2, 0)]


def test_2_5_24_deal_order_from_deck() -> None:
    # Cards are dealt one at a time starting left of the dealer; the next is the upcard.
    deck = list(range(52))
    state = HandState.from_deck(BASIC, 3, 1, deck)
    assert state.to_move == 2
    assert state.hand_cards(2) == [0, 3, 6, 9, 12, 15, 18]
    assert state.hand_cards(0) == [1, 4, 7, 10, 13, 16, 19]
    assert state.hand_cards(1) == [2, 5, 8, 11, 14, 17, 20]
    assert state.discard == [21]
    assert state.stock[-1] == 22 and len(state.stock) == 30
