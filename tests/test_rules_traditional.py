"""RULES.md §3.5: every edge case of the `traditional` rule set, as named tests.

Includes the deadlock fixtures (§3.5 cases 5 and 6), the second stock exhaustion under
both values of ``draw_ends_match``, and the per-seat match results (§1.10: a match ended
by a drawn hand has no winner and is a loss for every player).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest

from helpers import assert_rejected, cards, played, position
from rummykit.core.cards import format_card, parse_card
from rummykit.core.engine import HandState
from rummykit.core.errors import IllegalMoveError, RecordError
from rummykit.core.match import Match
from rummykit.core.melds import make_meld
from rummykit.core.outcome import HandResult
from rummykit.core.rules import Rules
from rummykit.variants import TRADITIONAL

TRAD = TRADITIONAL
CONTINUE = Rules.from_options("traditional", {"draw_ends_match": False})


# -- helpers ----------------------------------------------------------------------------













def win(winner: int, scores: Sequence[int], rummy: bool) -> HandResult:
    return HandResult("win", winner, rummy, None, tuple(scores))


def drawn(reason: str, players: int) -> HandResult:
    return HandResult("draw", None, False, reason, (0,) * players)


def full_deal(hands: Sequence[str], upcard: str, stock_top: str = ""
              ) -> tuple[list[list[int]], int, list[int]]:
    """A deal of the whole pack: the given hands and upcard; the stock starts with
    ``stock_top`` and goes on with every other card in index order."""
    dealt = [cards(h) for h in hands]
    up = parse_card(upcard)
    top = cards(stock_top)
    used = [c for h in dealt for c in h] + [up, *top]
    assert len(set(used)) == len(used), "a card is dealt twice"
    return dealt, up, top + [c for c in range(52) if c not in used]


def seat_results(match: Match) -> list[tuple[int, int, bool, bool]]:
    return [(r.seat, r.total, r.won, r.drawn) for r in match.results()]


def play_out_by_exhaustion(match: Match) -> HandState:
    """Deal a seeded hand and let every player draw and discard the card drawn until the
    hand ends (nobody can go out: hands never change)."""
    state = match.start_hand()
    while state.result is None:
        card = state.stock[-1]
        match.play("draw")
        match.play(f"discard {format_card(card)}")
    return state


# -- 1: targets by player count ---------------------------------------------------------

# First-turn going-rummy wins (dealer 0, seat 1 moves first): seat 1 melds its whole hand
# plus the card drawn. Opponents' values: 2 players: CA DA HA SA (4) C2 D2 H2 (6)
# D3 H3 S3 (9) = 19; 3 players: 10 and 22; 4 players: 10, 22 and 34 (H4 S4 = 8,
# C5 D5 H5 S5 = 20, D6 = 6). Scores are doubled: 38, 64, 132.
TARGET_DEALS: dict[int, tuple[list[str], str, int]] = {
    2: (["CA DA HA SA C2 D2 H2 D3 H3 S3", "C4 C5 C6 C7 C8 C9 CT CJ CQ CK"], "C3", 38),
    3: (["CA DA HA SA C2 D2 H2", "C7 C8 C9 CT CJ CQ CK", "S2 C3 D3 H3 S3 C4 D4"], "C6", 64),
    4: (["CA DA HA SA C2 D2 H2", "C7 C8 C9 CT CJ CQ CK", "S2 C3 D3 H3 S3 C4 D4",
         "H4 S4 C5 D5 H5 S5 D6"], "C6", 132),
}


@pytest.mark.parametrize(("players", "target"), [(2, 100), (3, 150), (4, 200)])
@pytest.mark.parametrize("short", [0, 1])
def test_3_5_01_target_by_player_count(players: int, target: int, short: int) -> None:
    assert TRAD.target_for(players) == target
    hands, drawn_card, score = TARGET_DEALS[players]
    match = Match(TRAD, [f"P{i}" for i in range(players)], dealer=0)
    before = target - score - short
    match.totals[1] = before
    match.start_hand(deal=full_deal(hands, "SK", drawn_card))
    match.play("draw")
    assert str(match.play(f"meld {drawn_card} {hands[1]}")) == f"meld {drawn_card} {hands[1]}"
    expected = [0] * players
    expected[1] = score
    assert match.hands[0].result == win(1, expected, rummy=True)
    assert match.totals[1] == target - short
    assert match.over is (short == 0)
    if short == 0:
        assert match.winners == (1,)
        assert [won for _, _, won, _ in seat_results(match)] == [s == 1 for s in range(players)]
    else:
        assert match.winners == ()


def test_3_5_01_five_players_rejected() -> None:
    with pytest.raises(RecordError, match="5 players: traditional is for 2 to 4 players"):
        Match(TRAD, ["A", "B", "C", "D", "E"], seed=1)
    with pytest.raises(RecordError, match="traditional is for 2 to 4 players"):
        TRAD.check_players(1)


@pytest.mark.parametrize(("players", "size", "stock"), [(2, 10, 31), (3, 7, 30), (4, 7, 23)])
def test_3_5_01_hand_sizes(players: int, size: int, stock: int) -> None:
    state = Match(TRAD, [f"P{i}" for i in range(players)], seed=players).start_hand()
    assert [len(state.hand_cards(s)) for s in range(players)] == [size] * players
    assert len(state.stock) == stock and len(state.discard) == 1


# -- 2: first exhaustion ----------------------------------------------------------------

def test_3_5_02_first_exhaustion_shuffles_whole_pile() -> None:
    state = position(TRAD, ["S9 H3", "C9 DK"], discard="C2 D5", stock="CK",
                     restocks=[cards("D5 S9 C2")])
    played(state, "draw", "discard S9")
    assert (state.to_move, state.phase, state.result) == (1, "draw", None)
    assert state.discard == []
    assert state.stock == cards("C2 S9 D5")  # top last
    assert state.restocks == [tuple(cards("D5 S9 C2"))]
    assert state.rebuilds == 1
    assert [str(m) for m in state.legal_moves()] == ["draw"]
    assert_rejected(state, "take", IllegalMoveError, "cannot take: the discard pile is empty")
    played(state, "draw")
    assert state.hand_cards(1) == cards("C9 D5 DK")


def test_3_5_02_first_exhaustion_seeded_shuffle() -> None:
    state = position(TRAD, ["S9 H3", "C9 DK"], discard="C2 D5", stock="CK")
    played(state, "draw", "discard S9")
    assert sorted(state.stock) == cards("C2 D5 S9")
    assert [list(r) for r in state.restocks] == [state.stock[::-1]]
    assert state.discard == []


# -- 3, 7: second exhaustion and draw_ends_match ----------------------------------------

def test_3_5_03_second_exhaustion_draws_hand() -> None:
    state = position(TRAD, ["S9 H3", "C9 DK"], discard="C2 D5", stock="CK",
                     restocks=[cards("D5 S9 C2")])
    played(state, "draw", "discard S9")  # first exhaustion: rebuild
    played(state, "draw", "discard D5", "draw", "discard S9", "draw")
    assert state.stock == [] and state.result is None  # the last card was just drawn
    played(state, "discard C2")
    assert state.result == drawn("stock_exhausted", 2)
    assert state.phase == "over" and state.legal_moves() == []
    assert state.rebuilds == 1
    assert_rejected(state, "draw", IllegalMoveError, "the hand is over")


def test_3_5_03_drawn_hand_ends_match_everyone_loses() -> None:
    match = Match(TRAD, ["Ann", "Bob"], seed=21, dealer=0)
    # Hand 1: seat 1 goes out on its first turn (going rummy, 2 x 19 = 38).
    hands, drawn_card, _ = TARGET_DEALS[2]
    match.start_hand(deal=full_deal(hands, "SK", drawn_card))
    match.play("draw")
    match.play("meld C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK")
    assert match.totals == [0, 38] and not match.over
    # Hand 2 (dealer 1): 31 stock cards, rebuild of 32, 32 more: drawn after 63 turns.
    state = play_out_by_exhaustion(match)
    assert state.dealer == 1
    assert state.turn_count == 63 and state.rebuilds == 1
    assert state.result == drawn("stock_exhausted", 2)
    assert match.totals == [0, 38]
    assert match.over and match.winners == ()
    # No winner although seat 1 leads: every player records a loss.
    assert seat_results(match) == [(0, 0, False, True), (1, 38, False, True)]
    with pytest.raises(IllegalMoveError, match="the match is over"):
        match.start_hand()


def test_3_5_03_draw_ends_match_false_next_dealer_deals() -> None:
    match = Match(CONTINUE, ["Ann", "Bob", "Cy"], seed=4, dealer=2)
    match.totals[0] = 17
    state = play_out_by_exhaustion(match)
    assert state.result == drawn("stock_exhausted", 3)
    assert not match.over and match.totals == [17, 0, 0]
    nxt = match.start_hand()
    assert (nxt.dealer, nxt.to_move) == (0, 1)
    assert match.totals == [17, 0, 0]


def test_3_5_07_draw_ends_match_false_match_goes_on() -> None:
    match = Match(CONTINUE, ["Ann", "Bob"], seed=5, dealer=0)
    for hand in range(3):
        state = play_out_by_exhaustion(match)
        assert state.result == drawn("stock_exhausted", 2)
        assert state.dealer == hand % 2
        assert not match.over
    assert len(match.hands) == 3 and match.totals == [0, 0]
    with pytest.raises(IllegalMoveError, match="the match is not over"):
        match.results()


# -- 4: the last stock card --------------------------------------------------------------

def second_exhaustion_position() -> HandState:
    # Seat 0 draws CK and discards S9: the pile C2 D5 S9 becomes the stock D5 S9 C2.
    # Seat 1 will draw the last card, C2, and can go out with C2 C3 C4.
    state = position(TRAD, ["S9 H3 H7 SK", "C3 C4 DK"], discard="C2 D5", stock="CK",
                     restocks=[cards("D5 S9 C2")])
    played(state, "draw", "discard S9", "draw", "discard D5", "draw", "discard S9", "draw")
    assert state.to_move == 1 and state.stock == [] and state.rebuilds == 1
    assert state.result is None and state.phase == "play"
    return state


def test_3_5_04_last_card_drawer_goes_out() -> None:
    state = second_exhaustion_position()
    assert played(state, "meld C2 C3 C4", "discard DK") == ["meld C2 C3 C4", "discard DK"]
    # Seat 0 holds CK H3 H7 SK = 30; seat 1 placed nothing before: doubled.
    assert state.result == win(1, [0, 60], rummy=True)


def test_3_5_04_turn_completed_then_drawn() -> None:
    state = second_exhaustion_position()
    assert "discard C2" in [str(m) for m in state.legal_moves()]
    played(state, "discard C2")
    assert state.result == drawn("stock_exhausted", 2)
    assert state.turn_count == 4


# -- 5, 6: deadlock ---------------------------------------------------------------------

FULL_SETS = [f"C{r} D{r} H{r} S{r}" for r in "23456789TJQK"]


def deadlock_position(rebuilds: int = 0) -> HandState:
    """§3.5 case 5: twelve 4-card sets 2..K; P1 HA, P2 SA, stock CA, pile DA."""
    state = position(TRAD, ["HA", "SA"], discard="DA", stock="CA", table=FULL_SETS)
    state.rebuilds = rebuilds
    assert len(state.table) == 12 and bin(state.table_mask).count("1") == 48
    return state


@pytest.mark.parametrize("moves", [("draw", "discard HA"), ("draw", "discard CA"),
                                   ("take", "discard HA")])
def test_3_5_05_deadlock_after_any_completed_turn(moves: tuple[str, str]) -> None:
    state = deadlock_position()
    played(state, moves[0])
    assert state.result is None  # the test runs after the discard, not before
    played(state, moves[1])
    assert state.result == drawn("deadlock", 2)
    assert state.phase == "over" and state.legal_moves() == []
    # The automatic steps stop at the draw: no rebuild after the deadlock.
    assert state.rebuilds == 0 and state.restocks == []


def test_3_5_05_deadlock_tested_before_exhaustion() -> None:
    # One rebuild already happened: the empty stock alone would give stock_exhausted,
    # but the deadlock test runs first (FORMATS.md §3).
    state = deadlock_position(rebuilds=1)
    played(state, "draw", "discard HA")
    assert state.stock == []
    assert state.result == drawn("deadlock", 2)


def test_3_5_05_deadlock_ends_match_with_no_winner() -> None:
    match = Match(TRAD, ["Ann", "Bob"], seed=2, dealer=1)
    match.totals[:] = [40, 12]
    state = match.start_hand()
    fixture = deadlock_position()
    for name in ("hands", "stock", "discard", "table"):
        setattr(state, name, copy.deepcopy(getattr(fixture, name)))
    match.play("take")
    match.play("discard HA")
    assert state.result == drawn("deadlock", 2)
    assert match.over and match.winners == ()
    assert match.totals == [40, 12]
    assert seat_results(match) == [(0, 40, False, True), (1, 12, False, True)]


def test_3_5_05_no_deadlock_without_the_knob() -> None:
    rules = Rules.from_options("traditional", {"deadlock_draw": False})
    state = position(rules, ["HA", "SA"], discard="DA", stock="CA", table=FULL_SETS)
    played(state, "draw", "discard HA")
    assert state.result is None
    assert sorted(state.stock) == cards("DA HA") and state.discard == []


D2_FAILS_TABLE = [f"C{r} D{r} H{r} S{r}" for r in "56789TJQK"] + [
    "C2 C3 C4", "D2 H2 S2", "D3 H3 S3", "D4 H4 S4"]


@pytest.mark.parametrize("moves", [("draw", "discard HA"), ("draw", "discard CA"),
                                   ("take", "discard HA")])
def test_3_5_06_no_deadlock_when_a_card_fits(moves: tuple[str, str]) -> None:
    state = position(TRAD, ["HA", "SA"], discard="DA", stock="CA", table=D2_FAILS_TABLE)
    played(state, *moves)
    assert all(bin(h).count("1") == 1 for h in state.hands)  # D1 holds
    assert state.result is None  # D2 fails: CA fits C2 C3 C4 (ace low)
    assert str(state.table[9]) == "C2 C3 C4"
    assert state.table[9].accepts == 1 << parse_card("CA") | 1 << parse_card("C5")


def test_3_5_06_ca_can_really_be_laid_off() -> None:
    state = position(TRAD, ["HA", "SA"], discard="DA", stock="CA", table=D2_FAILS_TABLE)
    played(state, "draw")
    assert "lay CA on 10" in [str(m) for m in state.legal_moves()]
    played(state, "lay CA on 10", "discard HA")
    assert state.result == win(0, [2, 0], rummy=True)  # SA = 1, doubled


def test_3_5_06_no_deadlock_while_a_hand_holds_two_cards() -> None:
    # Sets 3..K on the table; aces and twos outside, none of which fits a table meld.
    table = [f"C{r} D{r} H{r} S{r}" for r in "3456789TJQK"]
    state = position(TRAD, ["HA", "SA C2"], discard="DA H2 S2", stock="CA D2", table=table)
    played(state, "draw", "discard HA")
    assert state.result is None  # P2 holds two cards: D1 fails
    played(state, "draw", "discard SA")
    assert [bin(h).count("1") for h in state.hands] == [1, 2]
    assert state.result is None


# -- 8 to 11 -------------------------------------------------------------------------------

def test_3_5_08_lay_off_without_own_meld() -> None:
    state = position(TRAD, ["HJ S5 C2", "C9 D3"], stock="DJ", table=["H8 H9 HT", "C5 D5 H5"])
    played(state, "draw")
    assert state.ever_placed == 0 and not state.placed_this_turn
    assert played(state, "lay HJ on 1", "lay S5 on 2") == ["lay HJ on 1", "lay S5 on 2"]
    assert str(state.table[0]) == "H8 H9 HT HJ"
    assert str(state.table[1]) == "C5 D5 H5 S5"
    assert state.table[0].placed_by == (1, 1, 1, 0)


@pytest.mark.parametrize("text", ["HQ HK HA", "HK HA H2"])
def test_3_5_09_no_high_ace_no_wrap(text: str) -> None:
    assert TRAD.ace_mode == "low"
    found = make_meld(cards(text), TRAD)
    assert isinstance(found, str) and "ace is low only" in found
    state = position(TRAD, ["HQ HK HA H2 C5", "C9 D3"], stock="DJ")
    played(state, "draw")
    assert_rejected(state, f"meld {text}", IllegalMoveError, f"cannot meld {text}",
                    "is not a meld")


def test_3_5_09_no_high_ace_lay_off() -> None:
    state = position(TRAD, ["HA C5", "C9 D3"], stock="DJ", table=["HJ HQ HK"])
    played(state, "draw")
    assert_rejected(state, "lay HA on 1", IllegalMoveError, "HA does not extend the run")


def test_3_5_10_going_rummy_doubles() -> None:
    state = position(TRAD, ["D4 S5", "C2 C3 C4 H7 H8 H9 CK", "D6 S6"], to_move=1,
                     stock="DK HK SQ C5 S9")
    played(state, "draw", "discard DK", "draw", "discard HK", "draw", "discard SQ")
    played(state, "draw", "meld C2 C3 C4 C5", "meld H7 H8 H9", "discard CK")
    assert state.result == win(1, [0, 42, 0], rummy=True)


def test_3_5_10_no_doubling_after_earlier_placement() -> None:
    state = position(TRAD, ["D4 S5", "C2 C3 C4 H7 H8 H9 CK SK", "D6 S6"], to_move=1,
                     stock="DJ HK SQ C5 S9", table=["D8 D9 DT"])
    played(state, "draw", "lay DJ on 1", "discard SK", "draw", "discard HK",
           "draw", "discard SQ")
    played(state, "draw", "meld C2 C3 C4 C5", "meld H7 H8 H9", "discard CK")
    assert state.result == win(1, [0, 21, 0], rummy=False)


def test_3_5_11_discarding_last_card_wins() -> None:
    state = position(TRAD, ["HJ C5", "C9 D3"], stock="S2 D9 HQ", table=["H8 H9 HT"])
    played(state, "draw", "lay HJ on 1", "discard S2", "draw", "discard D9", "draw")
    assert state.hand_cards(0) == cards("C5 HQ")
    played(state, "lay HQ on 1")
    assert state.hand_cards(0) == cards("C5") and state.result is None
    assert [str(m) for m in state.legal_moves()] == ["discard C5"]
    played(state, "discard C5")
    assert state.result == win(0, [12, 0], rummy=False)  # C9 D3; seat 0 placed earlier
    assert state.discard == cards("C7 S2 D9 C5")
