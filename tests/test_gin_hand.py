"""The hand-level edge cases of RULES.md §6.15 (cases 1-23, 28-33, 35), one test each.

Unless a test says otherwise: `gin` preset, seat 0 deals, seat 1 is the non-dealer.
"""

from __future__ import annotations

import pytest

from gin_hand_helpers import cycle_to_wall, dealt, play, stock_for_wall
from rummykit.core.cards import format_cards, parse_card
from rummykit.core.errors import AmbiguousMoveError, IllegalMoveError, RecordError
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.rules import (
    GIN,
    OKLAHOMA,
    GinRules,
    gin_rules_from_options,
    openspiel_profile,
)

OS = openspiel_profile()
OS_OKLAHOMA = openspiel_profile(oklahoma=True)
NON_DEALER, DEALER = 1, 0
JUNK_A = "C4 C9 D2 D6 DJ H3 H8 HK S5 ST"  # no melds, far from any knock
JUNK_B = "CA C6 CJ D4 D9 H5 HT S2 S7 S9"
JUNK_C = "CA C6 CJ D4 D9 H5 HT S3 S7 S9"


def illegal(hand: GinHand, move: str, message: str = "") -> None:
    """``move`` is refused with ``message`` in the text, and the state does not change."""
    before = hand.copy()
    with pytest.raises((IllegalMoveError, AmbiguousMoveError)) as caught:
        hand.play(move)
    assert message in str(caught.value)
    assert [getattr(hand, n) for n in GinHand.__slots__ if n != "_undo"] == [
        getattr(before, n) for n in GinHand.__slots__ if n != "_undo"]


def legal_texts(hand: GinHand) -> list[str]:
    return [str(m) for m in hand.legal_moves()]


def test_case_01_deal_from_deck() -> None:
    hand = GinHand.from_deck(GIN, 0, list(range(52)))
    assert hand.hands[NON_DEALER] == sum(1 << c for c in range(0, 20, 2))
    assert hand.hands[DEALER] == sum(1 << c for c in range(1, 20, 2))
    assert hand.discard == [20] and len(hand.stock) == 31 and hand.stock[-1] == 21
    play(hand, "pass", "pass", "draw")
    assert hand.hands[NON_DEALER] >> 21 & 1
    with pytest.raises(RecordError, match="dealt twice"):
        GinHand.from_deck(GIN, 0, [0] * 52)


def test_case_02_offer_order() -> None:
    hand = dealt(JUNK_A, JUNK_B, "SK")
    assert hand.to_move == NON_DEALER and legal_texts(hand) == ["take", "pass"]
    illegal(hand, "draw", "first upcard is on offer")
    play(hand, "pass")
    assert hand.to_move == DEALER
    illegal(hand, "draw", "first upcard is on offer")  # the dealer's first move
    play(hand, "pass")
    assert hand.to_move == NON_DEALER and legal_texts(hand) == ["draw"]
    illegal(hand, "take", "draw from the stock")
    play(hand, "draw", "discard C4")
    illegal(hand, "pass", "only in the first-upcard offer and at the wall")  # a normal draw


def test_case_03_dealer_takes_then_non_dealer_draws() -> None:
    hand = dealt(JUNK_A, JUNK_B, "SK")
    play(hand, "pass", "take", "discard CA")
    assert hand.to_move == NON_DEALER and hand.phase == "draw"
    assert hand.discard[-1] == parse_card("CA")
    assert legal_texts(hand) == ["draw", "take"]
    play(hand, "take")
    assert hand.hands[NON_DEALER] >> parse_card("CA") & 1


@pytest.mark.parametrize("rules", [GIN, OS], ids=["gin", "openspiel"])
def test_case_04_rediscard_ban(rules: GinRules) -> None:
    hand = dealt(JUNK_A, JUNK_B, "SQ", rules=rules)
    play(hand, "take")
    if rules is GIN:
        illegal(hand, "discard SQ", "cannot discard SQ: it was taken from the discard pile")
        assert "discard SQ" not in legal_texts(hand)
    else:
        assert play(hand, "discard SQ") == ["discard SQ"]
    stock = dealt(JUNK_A, JUNK_B, "SQ", "SJ")
    assert play(stock, "pass", "pass", "draw", "discard SJ") == ["pass", "pass", "draw",
                                                                 "discard SJ"]


def test_case_05_knock_with_exactly_ten() -> None:
    hand = dealt("H7 H8 H9 C2 D2 S2 D5 D6 D7 CT", JUNK_C, "C9", "SK")
    play(hand, "pass", "pass", "draw")
    assert play(hand, "knock SK: H7 H8 H9 / C2 D2 S2 / D5 D6 D7") == [
        "knock SK: H7 H8 H9 / C2 D2 S2 / D5 D6 D7"]
    assert hand.knocker_deadwood == 10 and hand.phase == "show"
    over = dealt("H6 H7 H8 H9 C2 D2 S2 SA D3 C7", JUNK_C, "C9", "SK")
    play(over, "pass", "pass", "draw")
    illegal(over, "knock SK: H6 H7 H8 H9 / C2 D2 S2",
            "cannot knock: deadwood 11 (C7 D3 SA) exceeds the knock limit 10")
    assert not any(t.startswith(("knock", "gin")) for t in legal_texts(over))


def test_case_06_deadwood_counts_after_the_discard() -> None:
    hand = dealt("H7 H8 H9 C2 D2 S2 D5 D6 D7 HQ", JUNK_C, "C9", "HK")
    play(hand, "pass", "pass", "draw")
    assert play(hand, "knock HK") == ["knock HK: C2 D2 S2 / D5 D6 D7 / H7 H8 H9"]
    assert hand.knocker_deadwood == 10


CASE7_KNOCKER = "S2 S5 S6 S7 C5 C6 C7 D5 D6 D7"
CASE7_DEFENDER = "S3 S4 C4 D4 H5 H6 H7 S8 C8 D8"


@pytest.mark.parametrize("rules", [GIN, OS], ids=["gin", "openspiel"])
def test_case_07a_knocker_sets_defender_melds(rules: GinRules) -> None:
    hand = dealt(CASE7_KNOCKER, CASE7_DEFENDER, "SA", rules=rules)
    play(hand, "take", "knock S2: S5 C5 D5 / S6 C6 D6 / S7 C7 D7")
    assert hand.knocker_deadwood == 1
    if rules is OS:
        play(hand, "meld S4 C4 D4 / S8 C8 D8 / H5 H6 H7")
    play(hand, "done")
    assert hand.result is not None and hand.outcome is not None
    assert (hand.result.winner, hand.result.reason, hand.result.scores) == (1, "knock", (0, 2))
    assert hand.outcome.deadwood == (3, 1)


@pytest.mark.parametrize("rules", [GIN, OS], ids=["gin", "openspiel"])
def test_case_07b_knocker_runs_defender_lays_off_everything(rules: GinRules) -> None:
    hand = dealt(CASE7_KNOCKER, CASE7_DEFENDER, "SA", rules=rules)
    play(hand, "take", "knock S2: S5 S6 S7 / C5 C6 C7 / D5 D6 D7",
         "lay S4 on 1", "lay S3 on 1", "lay S8 on 1", "lay C4 on 2", "lay C8 on 2",
         "lay D4 on 3", "lay D8 on 3", "meld H5 H6 H7", "done")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.reason, hand.result.scores) == (
        0, "undercut", (26, 0))


CASE8_KNOCKER = "SQ S5 S6 S7 C9 CT CJ SK CK DK"
CASE8_DEFENDER = "S2 C2 D2 H2 S8 C8 D8 S9 C7 CA"


@pytest.mark.parametrize("rules", [GIN, OS], ids=["gin", "openspiel"])
def test_case_08_defender_breaks_its_meld_to_undercut(rules: GinRules) -> None:
    hand = dealt(CASE8_KNOCKER, CASE8_DEFENDER, "DJ", rules=rules)
    play(hand, "take", "knock SQ: SK CK DK / S5 S6 S7 / C9 CT CJ")
    assert hand.knocker_deadwood == 10
    after = hand.copy()
    play(hand, "lay S8 on 2", "lay S9 on 2", "lay C8 on 3", "lay C7 on 3",
         "meld S2 C2 D2 H2", "done")
    assert hand.result is not None and hand.outcome is not None
    assert (hand.result.winner, hand.result.reason, hand.result.scores) == (
        0, "undercut", (26, 0))
    assert hand.outcome.deadwood == (9, 10)
    play(after, "meld S8 C8 D8 / S2 C2 D2 H2", "done")
    assert after.result is not None
    assert (after.result.winner, after.result.reason, after.result.scores) == (
        1, "knock", (0, 7))


CASE9_KNOCKER = "H2 H3 H4 C9 D9 S9 DJ DQ DK S7"
CASE9_DEFENDER = "CA C2 C3 S4 S5 S6 HJ HQ HK D7"


@pytest.mark.parametrize(("tie_rule", "expected"), [
    ("undercut", ("win", 0, "undercut", (25, 0))),
    ("knocker_wins", ("win", 1, "knock", (0, 0))),
    ("no_score", ("draw", None, "knock_tie", (0, 0))),
])
def test_case_09_tie(tie_rule: str, expected: tuple[object, ...]) -> None:
    rules = gin_rules_from_options("gin", {"tie_rule": tie_rule})
    hand = dealt(CASE9_KNOCKER, CASE9_DEFENDER, "C8", "CK", rules=rules)
    play(hand, "pass", "pass", "draw", "knock CK: H2 H3 H4 / C9 D9 S9 / DJ DQ DK",
         "meld CA C2 C3 / S4 S5 S6 / HJ HQ HK", "done")
    result = hand.result
    assert result is not None and hand.outcome is not None
    assert (result.result, result.winner, result.reason, result.scores) == expected
    assert hand.outcome.deadwood == (7, 7)


def test_case_09_tie_openspiel_upcard_taken_and_discarded_to_knock() -> None:
    hand = dealt(CASE9_KNOCKER, CASE9_DEFENDER, "CK", rules=OS)
    play(hand, "take", "knock CK: H2 H3 H4 / C9 D9 S9 / DJ DQ DK",
         "meld CA C2 C3 / S4 S5 S6 / HJ HQ HK", "done")
    assert hand.result is not None
    assert (hand.result.result, hand.result.reason, hand.result.scores) == (
        "draw", "knock_tie", (0, 0))


def test_case_10_layoffs_lower_the_defender() -> None:
    knocker = "H4 H5 H6 CQ DQ SQ D7 D8 D9 S6"
    defender = "H7 H8 C3 C4 C5 S9 ST SJ DA CA"
    hand = dealt(knocker, defender, "C9", "HK")
    play(hand, "pass", "pass", "draw", "knock HK: H4 H5 H6 / CQ DQ SQ / D7 D8 D9")
    without = hand.copy()
    play(hand, "lay H7 on 1", "lay H8 on 1", "done")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.reason, hand.result.scores) == (
        0, "undercut", (29, 0))
    play(without, "done")
    assert without.result is not None and without.result.scores == (0, 11)


def _case11(rules: GinRules) -> GinHand:
    knocker = "S5 S6 S7 C2 D2 H2 CK DK HK CA"
    defender = "S8 S9 ST C4 C5 H9 HJ D6 D8 HQ"
    hand = dealt(knocker, defender, "C9", "D3", rules=rules)
    play(hand, "pass", "pass", "draw", "knock D3: S5 S6 S7 / C2 D2 H2 / CK DK HK")
    return hand


def test_case_11_layoff_chains() -> None:
    standard = _case11(GIN)
    assert play(standard, "lay S8 on 1", "lay S9 on 1", "lay ST on 1") == [
        "lay S8 on 1", "lay S9 on 1", "lay ST on 1"]
    limited = _case11(gin_rules_from_options("gin", {"layoff_rule": "openspiel"}))
    play(limited, "lay S8 on 1", "lay S9 on 1")
    illegal(limited, "lay ST on 1", "does not extend meld 1")
    assert not any(t.startswith("lay") for t in legal_texts(limited))


@pytest.mark.parametrize("rule", ["standard", "openspiel"])
def test_case_12_layoff_order(rule: str) -> None:
    hand = _case11(gin_rules_from_options("gin", {"layoff_rule": rule}))
    illegal(hand, "lay S9 on 1", "does not extend meld 1")


def test_case_13_sets() -> None:
    knocker = "C9 D9 H9 CK DK HK SK CA C2 D3"
    defender = "S9 SQ S5 C4 C6 D6 D8 HA HJ ST"
    hand = dealt(knocker, defender, "C7", "HQ")
    play(hand, "pass", "pass", "draw", "knock HQ: C9 D9 H9 / CK DK HK SK")
    assert hand.knocker_deadwood == 6
    illegal(hand, "lay SQ on 2", "does not extend meld 2")  # onto a 4-card set
    assert play(hand, "lay S9 on 1") == ["lay S9 on 1"]  # the fourth card of a set
    illegal(hand, "lay S5 on 1", "does not extend meld 1")


def test_case_13_run_takes_only_its_suit() -> None:
    knocker = "H5 H6 H7 CJ CQ CK DJ DQ DK CA"
    defender = "S5 S9 C4 C6 D6 D8 HA HJ ST S3"
    hand = dealt(knocker, defender, "C7", "HK")
    play(hand, "pass", "pass", "draw", "knock HK: H5 H6 H7 / CJ CQ CK / DJ DQ DK")
    illegal(hand, "lay S5 on 1", "does not extend meld 1")


CASE14_KNOCKER = "CA DA CT DT HT SJ SQ SK H2 S2"
CASE14_DEFENDER = "ST S9 S4 C4 D4 H4 S5 C5 D5 H5"


def _case14(rules: GinRules) -> GinHand:
    hand = dealt(CASE14_KNOCKER, CASE14_DEFENDER, "SA", rules=rules)
    play(hand, "take", "knock S2: SA CA DA / CT DT HT / SJ SQ SK")
    assert hand.knocker_deadwood == 2
    return hand


def test_case_14_one_card_fits_two_melds() -> None:
    hand = _case14(GIN)
    with pytest.raises(AmbiguousMoveError, match="lay ST on 2 or lay ST on 3"):
        hand.play("lay ST")
    play(hand, "lay ST on 3", "lay S9 on 3", "meld S4 C4 D4 H4 / S5 C5 D5 H5", "done")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.reason, hand.result.scores) == (
        0, "undercut", (27, 0))
    standard = _case14(GIN)
    play(standard, "lay ST on 2")
    illegal(standard, "lay S9 on 3", "does not extend meld 3")
    limited = _case14(gin_rules_from_options("gin", {"layoff_rule": "openspiel"}))
    assert play(limited, "lay ST on 2", "lay S9 on 3") == ["lay ST on 2", "lay S9 on 3"]
    profile = _case14(OS)
    play(profile, "lay ST", "lay S9", "meld S4 C4 D4 H4 / S5 C5 D5 H5", "done")
    assert profile.result is not None and profile.result.scores == (27, 0)


CASE15_DEALER = "SA S2 S3 S4 S5 S6 S7 S8 HQ HK"
CASE15_NON_DEALER = "S9 ST SJ SQ SK CA C2 C3 H8 HT"
CASE15_FILL = ("C4 C5 C6 C7 C8 C9 CT CJ CQ CK D2 D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK "
               "H2 H3 H4 H5 H6 H7")


def _case15(rules: GinRules) -> GinHand:
    stock = stock_for_wall("HJ", CASE15_FILL)
    hand = dealt(CASE15_NON_DEALER, CASE15_DEALER, "DA", stock,
                 rules=rules)
    cycle_to_wall(hand)
    assert hand.phase == "wall" and hand.to_move == DEALER and len(hand.stock) == 2
    assert hand.discard[-1] == parse_card("HJ")
    return hand


@pytest.mark.parametrize("rules", [GIN, OS], ids=["gin", "openspiel"])
def test_case_15_gin_forbids_layoffs(rules: GinRules) -> None:
    hand = _case15(rules)
    assert legal_texts(hand) == ["pass", "take"]
    play(hand, "take")
    assert play(hand, "gin SA: S2 S3 S4 S5 S6 S7 S8 / HJ HQ HK") == [
        "gin SA: S2 S3 S4 S5 S6 S7 S8 / HJ HQ HK"]
    illegal(hand, "lay HT on 2", "cannot lay off after gin")
    assert not any(t.startswith("lay") for t in legal_texts(hand))
    play(hand, "meld S9 ST SJ SQ SK / CA C2 C3", "done")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.reason, hand.result.scores) == (
        0, "gin", (43, 0))


def test_case_16_gin_is_never_undercut() -> None:
    knocker = "CJ CQ CK DJ DQ DK HJ HQ HK SJ"
    defender = "S2 S3 S4 C5 C6 C7 H7 H8 H9 HT"
    hand = dealt(knocker, defender, "C9", "D3")
    play(hand, "pass", "pass", "draw", "gin D3", "done")
    assert hand.result is not None and hand.outcome is not None
    assert hand.outcome.deadwood == (0, 0)
    assert (hand.result.winner, hand.result.reason, hand.result.scores) == (
        1, "gin", (0, 25))


def test_case_17_wall() -> None:
    hand = _case15(GIN)
    illegal(hand, "draw", "cannot draw at the wall: take the discard to knock, or pass")
    dead = hand.copy()
    play(dead, "pass")
    assert dead.result is not None
    assert (dead.result.result, dead.result.reason, dead.result.scores) == (
        "draw", "dead_hand", (0, 0))
    play(hand, "take")
    assert hand.phase == "wall_knock"
    illegal(hand, "discard SA", "after taking at the wall you must knock")
    assert all(t.startswith(("knock", "gin")) for t in legal_texts(hand))
    junk = dealt(JUNK_A, JUNK_B, "DA", stock_for_wall(
        "HJ", "C2 C3 C5 C7 C8 CT CQ CK D3 D5 D7 D8 DT DQ DK H2 H4 H6 H7 H9 HQ S3 S4 S6 "
              "S8 SQ SJ SK"))
    cycle_to_wall(junk)
    assert legal_texts(junk) == ["pass"]
    illegal(junk, "take", "no knock would be possible")
    no_wall = dealt(CASE15_NON_DEALER, CASE15_DEALER, "DA", stock_for_wall("HJ", CASE15_FILL),
                    rules=gin_rules_from_options("gin", {"wall_knock": False}))
    cycle_to_wall(no_wall)
    assert no_wall.result is not None and no_wall.result.reason == "dead_hand"
    assert len(no_wall.stock) == 2


def test_case_18_knock_on_the_turn_that_reaches_the_wall() -> None:
    fill = ("C4 C5 C6 C7 C8 C9 CT CJ CQ CK D2 D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK H2 H3 H4 H5 "
            "H6 H7")
    hand = dealt("S9 ST SJ SQ SK CA C2 C3 H8 HT", "SA S2 S3 S4 S5 S6 S7 HQ HK HA", "DA",
                 stock_for_wall("H9", fill))
    play(hand, "pass", "pass")
    while len(hand.stock) > 3:
        top = format_cards([hand.stock[-1]])
        play(hand, "draw", f"discard {top}")
    play(hand, "draw")
    assert len(hand.stock) == 2 and hand.to_move == NON_DEALER
    assert hand.hands[NON_DEALER] >> parse_card("H9") & 1
    assert play(hand, "gin SK") == ["gin SK: CA C2 C3 / H8 H9 HT / S9 ST SJ SQ"]
    play(hand, "done")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.reason, hand.result.scores) == (1, "gin", (0, 46))


def test_case_19_knock_on_the_first_turn() -> None:
    hand = dealt(CASE7_KNOCKER, CASE7_DEFENDER, "SA")
    play(hand, "take")
    knocks = [t for t in legal_texts(hand) if t.startswith(("knock", "gin"))]
    assert knocks == ["knock S2: C5 D5 S5 / C6 D6 S6 / C7 D7 S7"]
    play(hand, knocks[0])
    assert hand.phase == "show" and hand.knocker == NON_DEALER


BIG = "S2 S3 S4 S5 C7 D7 H7 S7 CK DK"


def test_case_20_big_gin() -> None:
    rules = gin_rules_from_options("gin", {"big_gin_bonus": 31})
    defender = "CA C2 C4 D3 D5 H9 HJ SQ D9 H2"  # no melds: 1+2+4+3+5+9+10+10+9+2 = 55
    hand = dealt(BIG, defender, "C9", "HK", rules=rules)
    play(hand, "pass", "pass", "draw")
    assert "gin: C7 D7 H7 S7 / CK DK HK / S2 S3 S4 S5" in legal_texts(hand)
    play(hand, "gin: S2 S3 S4 S5 / C7 D7 H7 S7 / CK DK HK")
    illegal(hand, "lay HA on 1", "cannot lay off after gin")
    play(hand, "done")
    assert hand.result is not None and hand.result.reason == "big_gin"
    assert hand.result.scores == (0, 55 + 31)
    default = dealt(BIG, defender, "C9", "HK")
    play(default, "pass", "pass", "draw")
    illegal(default, "gin: S2 S3 S4 S5 / C7 D7 H7 S7 / CK DK HK",
            "big gin is not played: discard a card and go gin")
    play(default, "gin S5: S2 S3 S4 / C7 D7 H7 S7 / CK DK HK", "done")
    assert default.result is not None and default.result.scores == (0, 55 + 25)


@pytest.mark.parametrize(("upcard", "ace", "limit"), [
    ("D7", "gin_only", 7), ("CK", "gin_only", 10), ("H2", "gin_only", 2),
    ("HA", "gin_only", 0), ("HA", "one", 1),
])
def test_case_21_oklahoma_knock_limits(upcard: str, ace: str, limit: int) -> None:
    rules = gin_rules_from_options("oklahoma", {"oklahoma_ace": ace})
    hand = dealt(JUNK_A, JUNK_B, upcard, rules=rules)
    assert hand.knock_limit == limit
    play(hand, "take")
    assert hand.knock_limit == limit


def test_case_22_oklahoma_ace() -> None:
    non_dealer = "DT DQ SJ SQ H3 C2 C3 C4 HT HJ"
    dealer = "SA S2 S3 S4 S5 S6 S7 S8 S9 HK"
    hand = dealt(non_dealer, dealer, "CA", "D5 DA", rules=OKLAHOMA)
    assert hand.knock_limit == 0
    play(hand, "pass", "take")
    illegal(hand, "knock HK: SA S2 S3 S4 S5 S6 S7 S8 S9",
            "cannot knock: deadwood 1 (CA) exceeds the knock limit 0")
    assert not any(t.startswith(("knock", "gin")) for t in legal_texts(hand))
    play(hand, "discard HK", "draw", "discard D5", "draw")
    play(hand, "gin S9: SA CA DA / S2 S3 S4 / S5 S6 S7 S8", "meld C2 C3 C4", "done")
    assert hand.result is not None and hand.outcome is not None
    assert hand.outcome.deadwood == (0, 63)
    assert (hand.result.winner, hand.result.reason, hand.result.scores) == (
        0, "gin", (88, 0))


RUNS_JQK = "CJ CQ CK DJ DQ DK HJ HQ HK"  # three runs, or three sets


@pytest.mark.parametrize(("rules", "multiplier"), [(OKLAHOMA, 2), (OS_OKLAHOMA, 1)],
                         ids=["oklahoma", "openspiel"])
def test_case_23_spade_doubling(rules: GinRules, multiplier: int) -> None:
    def knock(knocker: str, defender: str, stock: str, move: str, melds: str) -> tuple[
            int, ...]:
        hand = dealt(knocker, defender, "S6", stock, rules=rules)
        assert hand.knock_limit == 6 and hand.multiplier == multiplier
        play(hand, "pass", "pass", "draw", move)
        if melds:
            play(hand, melds)
        play(hand, "done")
        assert hand.result is not None
        return hand.result.scores

    assert knock(f"{RUNS_JQK} D4", "S2 S3 S4 C5 C6 C7 H2 H5 D7 D8", "SK",
                 "knock SK: CJ CQ CK / DJ DQ DK / HJ HQ HK",
                 "meld S2 S3 S4 / C5 C6 C7") == (0, 18 * multiplier)
    assert knock(f"{RUNS_JQK} SJ", "ST SQ SK CT H9 D8 CA DA H2 S2", "D3",
                 "gin D3: CJ DJ HJ SJ / CQ DQ HQ / CK DK HK", "") == (0, 88 * multiplier)
    assert knock(f"{RUNS_JQK} C5", "S2 S3 S4 D5 D6 D7 H7 H8 H9 C3", "D9",
                 "knock D9: CJ CQ CK / DJ DQ DK / HJ HQ HK",
                 "meld S2 S3 S4 / D5 D6 D7 / H7 H8 H9") == (27 * multiplier, 0)


def test_case_28_repeated_move() -> None:
    hand = dealt(JUNK_A, JUNK_B, "SQ", rules=OS)
    play(hand, "take", "discard SQ", "take", "discard SQ")
    assert hand.result is not None
    assert (hand.result.result, hand.result.reason, hand.result.scores) == (
        "draw", "repeated_move", (0, 0))
    reset = dealt(JUNK_A, JUNK_B, "SQ", rules=OS)
    play(reset, "take", "discard SQ")
    drawn = format_cards([reset.stock[-1]])
    play(reset, "draw", f"discard {drawn}", "take", f"discard {drawn}")
    assert reset.result is None  # one echo after a stock draw: the count restarted
    with pytest.raises(RecordError, match="repeated_move_draw"):
        gin_rules_from_options("gin", {"repeated_move_draw": True})


def _take_cycle(hand: GinHand, limit: int) -> int:
    """Both players take the discard top and discard another card; the number of takes."""
    takes = 0
    while hand.result is None and takes < limit:
        hand.play("take")
        takes += 1
        if hand.result is not None:
            break
        held = hand.hands[hand.to_move] & ~(1 << hand.taken)
        hand.play(f"discard {format_cards([(held & -held).bit_length() - 1])}")
    return takes


def test_case_29_upcard_take_limit() -> None:
    non_dealer = "SA S2 S3 CA C2 C3 DA D2 D3 HA"
    dealer = "ST SJ SQ SK DJ DQ DK HJ HQ HK"
    hand = dealt(non_dealer, dealer, "H2", rules=OS)
    takes = _take_cycle(hand, 200)
    assert takes == 51 and hand.take_count == 50
    assert hand.result is not None
    assert (hand.result.result, hand.result.reason, hand.result.scores) == (
        "draw", "upcard_limit", (0, 0))
    endless = dealt(non_dealer, dealer, "H2")
    _take_cycle(endless, 2000)
    assert endless.result is not None
    assert (endless.result.result, endless.result.reason) == ("aborted", "max_turns")
    assert endless.turn_count == 1000


CASE30 = "H4 C5 C6 H6 S6 C7 D7 H7 S7 CA"
CASE30_DEALER = "D2 D4 D9 DJ H2 H9 HJ S3 S9 SQ"


def test_case_30_knock_test() -> None:
    exact = dealt(CASE30, CASE30_DEALER, "C9", "C8")
    play(exact, "pass", "pass", "draw")
    assert play(exact, "knock C8: C6 H6 S6 / C7 D7 H7 S7") == [
        "knock C8: C6 H6 S6 / C7 D7 H7 S7"]
    assert exact.knocker_deadwood == 10
    test = dealt(CASE30, CASE30_DEALER, "C9", "C8", rules=OS)
    play(test, "pass", "pass", "draw")
    illegal(test, "knock C8: C6 H6 S6 / C7 D7 H7 S7",
            "cannot knock: OpenSpiel knock test gives 11 > 10")
    assert not any(t.startswith(("knock", "gin")) for t in legal_texts(test))


def test_case_31_knock_test_oklahoma_ace() -> None:
    holding = "SA S2 S3 S4 CA C2 C3 D2 D3 D4"
    other = "C5 C9 D6 DJ H3 H8 HK S6 ST SQ"
    exact = dealt(holding, other, "DA", "H4", rules=OKLAHOMA)
    play(exact, "pass", "pass", "draw")
    assert exact.knock_limit == 0
    play(exact, "gin H4: SA S2 S3 S4 / CA C2 C3 / D2 D3 D4")
    test = dealt(holding, other, "DA", "H4", rules=OS_OKLAHOMA)
    play(test, "pass", "pass", "draw")
    illegal(test, "gin H4: SA S2 S3 S4 / CA C2 C3 / D2 D3 D4",
            "cannot knock: OpenSpiel knock test gives 1 > 0")


def test_case_32_meld_declared_as_deadwood() -> None:
    knocker = "SA S2 S3 CJ CQ CK D9 DT DJ DQ"
    defender = "S4 C2 C4 D3 D5 H6 H8 HT HQ D8"
    hand = dealt(knocker, defender, "C9", "HK")
    play(hand, "pass", "pass", "draw")
    assert play(hand, "knock HK: CJ CQ CK / D9 DT DJ DQ") == [
        "knock HK: CJ CQ CK / D9 DT DJ DQ"]
    assert hand.knocker_deadwood == 6
    illegal(hand, "lay S4", "fits none of the knocker's melds")
    assert play(hand, "lay D8") == ["lay D8 on 2"]


def test_case_33_knock_instead_of_gin() -> None:
    knocker = f"{RUNS_JQK} SJ"
    defender = "SQ C2 C4 D3 D5 H6 H8 HT S8 S3"
    hand = dealt(knocker, defender, "C9", "DA")
    play(hand, "pass", "pass", "draw")
    assert play(hand, "knock DA: CJ CQ CK / DJ DQ DK / HJ HQ HK") == [
        "knock DA: CJ CQ CK / DJ DQ DK / HJ HQ HK"]
    assert hand.knocker_deadwood == 10
    assert play(hand, "lay HT") == ["lay HT on 3"]


def test_case_35_drawn_hand_under_single_hand() -> None:
    hand = _case15(OS)
    play(hand, "pass")
    assert hand.result is not None
    assert (hand.result.result, hand.result.winner, hand.result.scores) == (
        "draw", None, (0, 0))
    assert hand.outcome is not None and hand.outcome.deadwood is None


def test_bad_deals_are_refused_with_the_reason() -> None:
    hands = [list(range(0, 10)), list(range(10, 20))]
    with pytest.raises(RecordError, match="dealer 2: expected seat 0 or 1"):
        GinHand.from_deal(GIN, 2, hands, 20, list(range(21, 52)))
    with pytest.raises(RecordError, match="two hands of 10 cards"):
        GinHand.from_deal(GIN, 0, [hands[0][:9], hands[1]], 20, list(range(21, 52)))
    with pytest.raises(RecordError, match="a stock of 31 cards, got 30"):
        GinHand.from_deal(GIN, 0, hands, 20, list(range(21, 51)))
    with pytest.raises(RecordError, match="without jokers"):
        GinHand.from_deal(GIN, 0, hands, 52, list(range(21, 52)))
    with pytest.raises(RecordError, match="S2 dealt twice"):
        GinHand.from_deal(GIN, 0, hands, 20, [*range(21, 51), parse_card("S2")])
    with pytest.raises(RecordError, match="dealer -1: expected seat 0 or 1"):
        GinHand.from_deck(GIN, -1, list(range(52)))
    with pytest.raises(RecordError, match="deck: expected 52 cards, got 51"):
        GinHand.from_deck(GIN, 0, list(range(51)))


def test_deal_is_seeded_and_the_dealer_gives_the_first_move() -> None:
    import random

    one = GinHand.deal(OKLAHOMA, 1, random.Random(9))
    two = GinHand.deal(OKLAHOMA, 1, random.Random(9))
    assert (one.hands, one.stock, one.discard) == (two.hands, two.stock, two.discard)
    assert one.to_move == 0 and one.dealer == 1 and one.phase == "offer"
    assert one.knock_limit == OKLAHOMA.hand_knock_limit(one.upcard % 13 + 1)


def test_moves_out_of_their_step_are_refused() -> None:
    hand = dealt(CASE8_KNOCKER, CASE8_DEFENDER, "DJ")
    illegal(hand, "discard SQ", "draw first")
    illegal(hand, "knock SQ", "a knock comes after the draw")
    illegal(hand, "lay S8 on 1", "only the defender's show")
    illegal(hand, "done", "only the defender's show")
    illegal(hand, "take 2", "there is no dig in gin")
    play(hand, "take")
    illegal(hand, "draw", "already drawn")
    illegal(hand, "discard H2", "H2 is not in your hand")
    illegal(hand, "gin SQ: SK CK DK / S5 S6 S7 / C9 CT CJ", "not gin: deadwood 10 (DJ)")
    illegal(hand, "knock SQ: SK CK DK / S5 S6 S7 / C9 CT DJ", "C9 CT DJ is not a meld")
    illegal(hand, "knock SQ: SK CK DK / SK S6 S7", "in two melds")
    play(hand, "knock SQ: SK CK DK / S5 S6 S7 / C9 CT CJ")
    illegal(hand, "lay S8 on 4", "there is no meld 4")
    illegal(hand, "lay S8 on 1 high", "no END in gin")
    illegal(hand, "meld S8 C8 D8 S9", "is not a meld")
    play(hand, "meld S8 C8 D8")
    illegal(hand, "lay S9 on 2", "cannot lay off after melding")
    illegal(hand, "lay S9 on 4", "cannot lay off after melding")
    play(hand, "done")
    illegal(hand, "done", "the hand is over")
    assert hand.legal_moves() == []


def test_hand_object_of_the_replay_output() -> None:
    from rummykit.variants.gin.outcome import hand_json

    hand = dealt(CASE8_KNOCKER, CASE8_DEFENDER, "DJ")
    play(hand, "take", "knock SQ: SK CK DK / S5 S6 S7 / C9 CT CJ", "lay S8 on 2",
         "lay S9 on 2", "lay C8 on 3", "lay C7 on 3", "meld S2 C2 D2 H2", "done")
    assert hand.result is not None and hand.outcome is not None
    assert hand_json(hand.result, hand.outcome) == {
        "result": "win", "winner": 0, "reason": "undercut", "rummy": False, "knocker": 1,
        "knock_limit": 10, "multiplier": 1, "deadwood": [9, 10], "scores": [26, 0]}


def test_immediate_boxes_are_in_the_hand_scores() -> None:
    rules = gin_rules_from_options("gin", {"immediate_boxes": True,
                                           "tie_rule": "knocker_wins"})
    hand = dealt(CASE9_KNOCKER, CASE9_DEFENDER, "C8", "CK", rules=rules)
    play(hand, "pass", "pass", "draw", "knock CK: H2 H3 H4 / C9 D9 S9 / DJ DQ DK", "done")
    assert hand.result is not None and hand.result.scores == (0, 25)  # 0 points + a box


def test_spade_doubling_doubles_big_gin_and_bonuses() -> None:
    rules = gin_rules_from_options("oklahoma", {"big_gin_bonus": 31})
    defender = "CA C2 C4 D3 D5 H9 HJ SQ D9 H2"
    hand = dealt(BIG, defender, "S8", "HK", rules=rules)
    assert hand.multiplier == 2 and hand.knock_limit == 8
    play(hand, "pass", "pass", "draw", "gin", "done")
    assert hand.result is not None and hand.result.scores == (0, (55 + 31) * 2)
