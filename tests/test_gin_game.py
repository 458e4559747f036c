"""The gin game level (RULES.md §6.10-§6.12): §6.15 cases 24-27, 34 and 35, from their text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummykit.core.errors import IllegalMoveError
from rummykit.core.outcome import ABORTED, DRAW, MAX_TURNS, HandResult
from rummykit.variants.gin.game import ScoreSheet, next_dealer, settle, won
from rummykit.variants.gin.rules import GIN

A, B = 0, 1


def drawn(reason: str) -> HandResult:
    return HandResult(DRAW, None, False, reason, (0, 0))


def play(sheet: ScoreSheet, hands: list[tuple[int, int]]) -> list[int]:
    """Add each (winner, points); return the dealer of every hand, the first included."""
    dealers = [sheet.dealer]
    for seat, points in hands:
        sheet.add(won(seat, points))
        dealers.append(sheet.dealer)
    return dealers[:-1]


def test_case_24_boxes_over_a_game() -> None:
    sheet = ScoreSheet(GIN, dealer=B)
    dealers = play(sheet, [(A, 22), (B, 27), (A, 43), (A, 18), (A, 20)])
    assert dealers[1:] == [A, B, A, A]
    # the match's hook gives the same dealers from the first dealer and the results
    assert [sheet.dealer_of(B, i, sheet.hands) for i in range(5)] == dealers
    assert sheet.over and sheet.winners == (A,)
    final = sheet.final
    assert final is not None
    assert final.boxes == (4, 1) and final.box_points == (100, 25)
    assert final.game_bonus == (100, 0) and not final.shutout
    assert final.totals == (303, 52)
    assert sheet.totals == [103, 27]  # running totals, before the settlement
    assert sheet.to_json()["final"] == {"boxes": [4, 1], "box_points": [100, 25],
                                        "game_bonus": [100, 0], "shutout": False,
                                        "totals": [303, 52]}


def test_case_24_game_is_not_over_at_99() -> None:
    sheet = ScoreSheet(GIN, dealer=A)
    play(sheet, [(A, 22), (B, 27), (A, 43), (A, 18)])
    assert not sheet.over and sheet.winners == () and sheet.final is None
    assert "final" not in sheet.to_json()


@pytest.mark.parametrize(("rule", "total"), [("double_total", 556), ("flat", 378),
                                             ("none", 278)])
def test_case_25_shutout(rule: str, total: int) -> None:
    sheet = ScoreSheet(replace(GIN, shutout_rule=rule), dealer=A)
    play(sheet, [(A, 30), (A, 45), (A, 28)])
    final = sheet.final
    assert final is not None and final.shutout
    assert final.totals == (total, 0)


def test_case_25_zero_point_win_prevents_a_shutout() -> None:
    # A hand won with 0 points (tie_rule = knocker_wins) counts as a won hand (§6.10).
    final = settle(GIN, [103, 0], [3, 1], A)
    assert not final.shutout and final.totals == (278, 25)


# Under immediate_boxes a hand's scores already hold its box (FORMATS.md §4.3), as the
# hand engine reports them: a hand worth 5 adds 5 + 25.
def test_case_26_immediate_boxes() -> None:
    sheet = ScoreSheet(replace(GIN, immediate_boxes=True), dealer=A)
    play(sheet, [(A, 30 + 25), (A, 0 + 25)])  # A has 80
    assert sheet.totals == [80, 0] and not sheet.over
    sheet.add(won(A, 5 + 25))
    assert sheet.totals == [110, 0] and sheet.over and sheet.winners == (A,)
    # Without immediate boxes the same hands leave A at 35 and the game goes on.
    plain = ScoreSheet(GIN, dealer=A)
    play(plain, [(A, 30), (A, 0), (A, 5)])
    assert plain.totals == [35, 0] and not plain.over


def test_case_26_boxes_are_not_counted_twice() -> None:
    sheet = ScoreSheet(replace(GIN, immediate_boxes=True), dealer=A)
    play(sheet, [(A, 60 + 25), (B, 10 + 25), (A, 30 + 25)])  # A: 140
    final = sheet.final
    assert final is not None and final.box_points == (50, 25)
    assert final.totals == (140 + 100, 35)


@pytest.mark.parametrize(("rule", "winner", "expected"), [
    ("winner", A, A), ("winner", B, B),
    ("loser", A, B), ("loser", B, A),
    ("alternate", A, B), ("alternate", B, B),
])
def test_case_27_next_dealer(rule: str, winner: int, expected: int) -> None:
    knobs = replace(GIN, next_dealer=rule)
    # the hand was dealt by A in every case
    assert next_dealer(knobs, A, won(winner, 12)) == expected


@pytest.mark.parametrize("rule", ["winner", "loser", "alternate"])
@pytest.mark.parametrize("reason", ["dead_hand", "repeated_move", "upcard_limit", "knock_tie"])
def test_case_27_same_dealer_after_a_drawn_hand(rule: str, reason: str) -> None:
    knobs = replace(GIN, next_dealer=rule)
    for dealer in (A, B):
        assert next_dealer(knobs, dealer, drawn(reason)) == dealer
        sheet = ScoreSheet(knobs, dealer=dealer)
        sheet.add(drawn(reason))
        assert sheet.dealer == dealer and sheet.totals == [0, 0] and not sheet.over


def test_case_27_same_dealer_after_an_aborted_hand() -> None:
    aborted = HandResult(ABORTED, None, False, MAX_TURNS, (0, 0))
    for rule in ("winner", "loser", "alternate"):
        assert next_dealer(replace(GIN, next_dealer=rule), B, aborted) == B


def test_case_34_hollywood() -> None:
    sheet = ScoreSheet(replace(GIN, hollywood=True), dealer=A)
    hands = [(A, 30), (A, 40), (B, 20), (A, 35), (A, 30), (B, 50), (A, 40)]
    over_after = []
    for seat, points in hands:
        sheet.add(won(seat, points))
        over_after.append(tuple(g.over for g in sheet.games))
    g1, g2, g3 = sheet.games
    assert over_after[2] == (False, False, False)
    assert over_after[3] == (True, False, False)  # G1 ends at hand 4
    assert over_after[4] == (True, True, False)  # G2 at hand 5
    assert over_after[6] == (True, True, True)  # G3 at hand 7
    assert g1.scores == (105, 20) and g2.scores == (105, 0) and g3.scores == (105, 50)
    assert g1.wins == [3, 1] and g2.wins == [3, 0] and g3.wins == [3, 1]
    assert g1.final is not None and g1.final.totals == (280, 45)
    assert g2.final is not None and g2.final.shutout and g2.final.totals == (560, 0)
    assert g3.final is not None and g3.final.totals == (280, 75)
    assert sheet.over and sheet.totals == [1120, 120] and sheet.winners == (A,)
    out = sheet.to_json()
    assert "final" not in out and len(out["games"]) == 3
    assert out["games"][1] == {"scores": [105, 0], "over": True, "winner": A,
                               "entries": [3, 0], "final": g2.final.to_json()}


def test_case_34_hollywood_running_totals_sum_the_games() -> None:
    sheet = ScoreSheet(replace(GIN, hollywood=True), dealer=A)
    play(sheet, [(A, 30), (A, 40), (B, 20)])
    assert sheet.totals == [30 + 40 + 40, 20] and not sheet.over and sheet.winners == ()


def test_hollywood_equal_sums_make_co_winners() -> None:
    sheet = ScoreSheet(replace(GIN, hollywood=True, target_score=10, game_bonus=0,
                               box_bonus=0, shutout_rule="none"), dealer=A)
    # A's 20 ends game 1; B's two wins open and end games 2 and 3.
    play(sheet, [(A, 20), (B, 10), (B, 10)])
    assert sheet.over
    assert sheet.totals[A] == sheet.totals[B] and sheet.winners == (A, B)
    assert sheet.statistics() == ((True, False), (True, False))


@pytest.mark.parametrize("reason", ["dead_hand", "repeated_move", "upcard_limit", "knock_tie"])
def test_case_35_drawn_single_hand(reason: str) -> None:
    sheet = ScoreSheet(replace(GIN, game_end="single_hand"), dealer=B)
    sheet.add(drawn(reason))
    assert sheet.over and sheet.winners == () and sheet.totals == [0, 0]
    assert sheet.final is None and "final" not in sheet.to_json()
    assert sheet.statistics() == ((False, True), (False, True))  # a loss for both
    with pytest.raises(IllegalMoveError, match="over"):
        sheet.add(won(A, 10))


def test_single_hand_win_has_no_boxes_or_bonus() -> None:
    sheet = ScoreSheet(replace(GIN, game_end="single_hand", immediate_boxes=False),
                       dealer=B)
    result = won(B, 26, "undercut")
    sheet.add(result)
    assert sheet.over and sheet.winners == (B,) and sheet.totals == [0, 26]
    assert sheet.final is None
    assert sheet.statistics() == ((False, True), (True, False))


def test_statistics_refused_before_the_end_and_copy_is_independent() -> None:
    sheet = ScoreSheet(GIN, dealer=A)
    sheet.add(won(B, 40))
    with pytest.raises(IllegalMoveError, match="not over"):
        sheet.statistics()
    twin = sheet.copy()
    twin.add(won(B, 70))
    assert twin.over and not sheet.over and sheet.totals == [0, 40]
    assert len(sheet.hands) == 1 and len(twin.hands) == 2
