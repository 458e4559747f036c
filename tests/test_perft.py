"""Perft-style move counts (ARCHITECTURE.md §5): any change to move generation that
changes a count fails here.

Two counts, both by push/pop recursion:

- ``perft(state, d)`` counts the leaves of the move tree cut at depth ``d`` *within the
  turn*: a move that ends the turn (a discard, or a meld or lay-off that empties the hand)
  is a leaf at the depth where it is made, as a terminal move is in any perft. So
  ``perft(s, 1) == len(s.legal_moves())``.
- ``perft_through(state, d)`` is the plain perft across turns: the number of move
  sequences of exactly ``d`` moves (a discard hands the move to the next player's draw
  step; a hand that ends earlier contributes nothing).

Positions: five seeded positions for each of basic 2p, basic 4p, basic high_or_low and
traditional 3p (a seeded shuffle, then seeded moves chosen from the legal moves sorted by
their text, so the positions do not depend on the generation order), five positions with
melds on the table and a taken discard, and three small hand-built positions whose
counts are derived by reasoning below. Every count was computed once and frozen.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest

from helpers import deep_snapshot as snapshot
from helpers import perft, perft_through
from rummykit.core.cards import format_card, parse_card, parse_cards
from rummykit.core.engine import HandState
from rummykit.core.errors import RummyError
from rummykit.core.melds import TableMeld, make_meld
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Take
from rummykit.core.rules import Rules
from rummykit.variants import BASIC, TRADITIONAL

HIGH = dataclasses.replace(BASIC, ace_mode="high_or_low")
RULES = {"basic": BASIC, "high": HIGH, "traditional": TRADITIONAL}


# -- seeded positions ---------------------------------------------------------------------

def seeded_position(rules: Rules, players: int, seed: int, moves: int,
                    *, want_take_and_melds: bool = False) -> HandState:
    """Deal a pack shuffled with ``seed`` and play ``moves`` seeded moves, then more until
    the player to move is in the play phase (``moves == 0``: the deal itself, a draw
    step). With ``want_take_and_melds``, go on until that player has taken the discard
    top and the table holds two melds or more. Moves are picked from the legal moves
    sorted by their text; melds and lay-offs are often preferred, so tables fill up."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    state = HandState.from_deck(rules, players, seed % players, deck,
                                rng=random.Random(seed))
    rng = random.Random(seed * 7919)
    played = 0
    while True:
        done = played >= moves and (moves == 0 or state.phase == "play")
        if want_take_and_melds:
            done = done and state.phase == "play" and state.taken >= 0 and len(state.table) >= 2
        if done:
            return state
        legal = sorted(state.legal_moves(), key=str)
        plays = [m for m in legal if isinstance(m, (Meld, LayOff))]
        if state.phase == "draw":
            move = legal[-1] if len(legal) > 1 and rng.random() < 0.5 else legal[0]
        elif plays and rng.random() < 0.6:
            move = rng.choice(plays)
        else:
            move = rng.choice([m for m in legal if isinstance(m, Discard)] or legal)
        state.push(move)
        played += 1
        assert state.result is None, "pick another seed: the hand ended"


# (preset, players, seed, moves played) -> (perft 1, 2, 3, perft_through 3).
# Moves 0 is the deal itself (a draw step); the others are play-phase positions.
SEEDED: dict[tuple[str, int, int, int], tuple[int, int, int, int]] = {
    ("basic", 2, 102, 0): (2, 22, 29, 50),
    ("basic", 2, 30, 6): (13, 40, 76, 242),
    ("basic", 2, 48, 14): (14, 36, 48, 159),
    ("basic", 2, 52, 6): (13, 31, 43, 217),
    ("basic", 2, 19, 24): (12, 28, 38, 115),
    ("basic", 4, 104, 0): (2, 15, 15, 30),
    ("basic", 4, 16, 24): (10, 23, 29, 141),
    ("basic", 4, 29, 14): (10, 22, 28, 105),
    ("basic", 4, 20, 6): (10, 20, 22, 144),
    ("basic", 4, 58, 14): (9, 18, 22, 90),
    ("high", 2, 105, 0): (2, 23, 36, 57),
    ("high", 2, 69, 24): (14, 39, 55, 245),
    ("high", 2, 70, 24): (11, 25, 33, 66),
    ("high", 2, 7, 6): (11, 19, 19, 179),
    ("high", 2, 78, 24): (7, 11, 11, 77),
    ("traditional", 3, 103, 0): (2, 18, 29, 44),
    ("traditional", 3, 36, 24): (11, 24, 30, 109),
    ("traditional", 3, 47, 6): (10, 22, 28, 153),
    ("traditional", 3, 51, 24): (9, 21, 34, 102),
    ("traditional", 3, 15, 24): (10, 20, 20, 161),
}

# Positions with melds on the table and the discard top taken this turn (8 moves, then
# on until the condition holds).
TAKEN: dict[tuple[str, int, int, int], tuple[int, int, int, int]] = {
    ("basic", 2, 29, 8): (12, 30, 44, 124),
    ("basic", 3, 33, 8): (8, 13, 13, 62),
    ("basic", 4, 18, 8): (9, 21, 29, 99),
    ("high", 2, 29, 8): (12, 31, 56, 136),
    ("traditional", 3, 39, 8): (6, 10, 10, 25),
}


def describe(state: HandState) -> str:
    table = " | ".join(str(m) for m in state.table)
    return (f"to_move={state.to_move} phase={state.phase} "
            f"taken={format_card(state.taken) if state.taken >= 0 else '-'} "
            f"hand={' '.join(format_card(c) for c in state.hand_cards(state.to_move))} "
            f"table=[{table}]")


def counts(state: HandState) -> tuple[int, int, int, int]:
    before = snapshot(state)
    found = (perft(state, 1), perft(state, 2), perft(state, 3), perft_through(state, 3))
    assert snapshot(state) == before, "push/pop did not restore the position"
    return found


@pytest.mark.parametrize(("key", "expected"), list(SEEDED.items()), ids=str)
def test_perft_seeded(key: tuple[str, int, int, int],
                      expected: tuple[int, int, int, int]) -> None:
    name, players, seed, moves = key
    state = seeded_position(RULES[name], players, seed, moves)
    assert counts(state) == expected, describe(state)


@pytest.mark.parametrize(("key", "expected"), list(TAKEN.items()), ids=str)
def test_perft_melds_on_table_and_taken_discard(key: tuple[str, int, int, int],
                                                expected: tuple[int, int, int, int]) -> None:
    name, players, seed, moves = key
    state = seeded_position(RULES[name], players, seed, moves, want_take_and_melds=True)
    assert state.taken >= 0 and len(state.table) >= 2
    assert counts(state) == expected, describe(state)


# -- hand-built positions, counted by reasoning -----------------------------------------

def built(rules: Rules, hands: list[str], *, discard: str, stock: str,
          table: tuple[str, ...] = (), take: bool = False) -> HandState:
    """Seat 0 to move with ``hands``; the pile bottom to top; the stock top first; the
    table melds placed by seat 1. With ``take``, seat 0 has taken the discard top."""
    pile = parse_cards(discard)
    state = HandState.from_deal(rules, 1, [parse_cards(h) for h in hands], pile[0],
                                parse_cards(stock), rng=random.Random(0), automatic=False)
    state.discard = pile
    melds = [make_meld(parse_cards(t), rules, 1) for t in table]
    state.table = [m for m in melds if isinstance(m, TableMeld)]
    assert len(state.table) == len(table)
    if take:
        state.push(Take())
    return state


def position_a() -> HandState:
    """Basic, 2 players, draw step. Seat 0 holds C2 D2 H5; pile top H2; stock top S9.

    depth 1: draw, take -> 2.
    depth 2: after draw, hand C2 D2 H5 S9: no meld, no table, 4 discards -> 4.
      After take, hand C2 D2 H2 H5: the set C2 D2 H2 (leaves H5, which may be
      discarded) and the discards C2 D2 H5 (not H2, taken) -> 4. Total 8.
    depth 3: the draw branch has only discards, all leaves -> 4. The take branch: its
      3 discards are leaves -> 3; after the meld the hand is H5, which fits neither
      C2 D2 H2 (it takes only S2) -> 'discard H5' (going out) -> 1. Total 8.
    perft_through 3: draw, each of 4 discards, then seat 1 draws or takes -> 4 x 2 = 8;
      take, 3 discards, then 2 each -> 6; take, meld, 'discard H5' is a sequence of
      exactly three moves (the third ends the hand) -> 1. Total 15.
    """
    return built(BASIC, ["C2 D2 H5", "C9 DK"], discard="C7 H2", stock="S9 S3 S4")


def position_b() -> HandState:
    """Basic high_or_low, 2 players, play phase, melds on the table, discard top taken.

    Table: 1 = H2 H3 ... HK (12 cards), 2 = CA DA SA; seat 0 took HA and holds
    HA S7 S8 S9 D4. Seat 1 holds C5 D9; the stock top is CK.

    depth 1: meld S7 S8 S9; HA fits both ends of meld 1 and meld 2: 'lay HA on 1 low',
      'lay HA on 1 high', 'lay HA on 2'; discards S7 S8 S9 D4 (not HA) -> 8.
    depth 2: after the meld (hand HA D4): the 3 HA lay-offs and 'discard D4' -> 4.
      After any HA lay-off (hand S7 S8 S9 D4, no meld accepts any of them): the meld
      and 4 discards -> 5, three times -> 15. The 4 discards are leaves -> 4. Total 23.
    depth 3: meld then a lay-off leaves D4: 'discard D4' -> 1, three times; meld then
      'discard D4' is a leaf -> 1; so 4. A lay-off then the meld leaves D4 -> 1, plus its
      4 discard leaves -> 5, three times -> 15. The 4 root discards -> 4. Total 23.
    perft_through 3: meld: 3 lay-offs then 'discard D4' -> 3; meld, 'discard D4', then
      seat 1 draws or takes -> 2; so 5. Each lay-off: meld, 'discard D4' -> 1; 4 discards
      then seat 1 draws or takes -> 8; so 9, three times -> 27. Each root discard X:
      seat 1 draws CK (hand C5 D9 CK: 3 discards, nothing fits the table) -> 3, or takes
      X (2 discards, X is barred) -> 2; so 5, four times -> 20. Total 52.
    """
    return built(HIGH, ["S7 S8 S9 D4", "C5 D9"], discard="C7 HA", stock="CK C4 C3",
                 table=("H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK", "CA DA SA"), take=True)


def position_c() -> HandState:
    """Basic, 2 players: RULES.md §2.5 case 15 with S9 ST SJ on the table. Seat 0 took
    SQ and holds H4 H5 H6 SQ; seat 1 holds C9 DK; the stock top is D2.

    depth 1: meld H4 H5 H6 (legal: SQ can then be laid off), 'lay SQ on 1', discards
      H4 H5 H6 (not SQ) -> 5.
    depth 2: after the meld the hand is SQ: only 'lay SQ on 1' -> 1. After the lay-off
      the hand is H4 H5 H6: the meld (going out) and 3 discards -> 4. 3 discard leaves.
      Total 8.
    depth 3: meld then 'lay SQ on 1' goes out: a leaf -> 1. Lay-off then the meld, or a
      discard: all leaves -> 4. The 3 root discards -> 3. Total 8.
    perft_through 3: meld, lay SQ ends the hand -> 0. Lay SQ, then the meld ends the
      hand -> 0, or a discard, then seat 1 draws or takes -> 3 x 2 = 6. A root discard
      X: seat 1 draws D2 (3 discards; nothing fits S9 .. SQ or H4 H5 H6) -> 3, or takes X
      (2 discards) -> 2; 5, three times -> 15. Total 21.
    """
    return built(BASIC, ["H4 H5 H6", "C9 DK"], discard="C7 SQ", stock="D2 D3 D4",
                 table=("S9 ST SJ",), take=True)


@pytest.mark.parametrize(("make", "expected"), [
    (position_a, (2, 8, 8, 15)),
    (position_b, (8, 23, 23, 52)),
    (position_c, (5, 8, 8, 21)),
], ids=["a_draw_step", "b_ace_both_ends", "c_dead_end"])
def test_perft_hand_built(make: Any, expected: tuple[int, int, int, int]) -> None:
    state = make()
    assert counts(state) == expected, describe(state)


def test_perft_hand_built_move_lists() -> None:
    assert [str(m) for m in position_a().legal_moves()] == ["draw", "take"]
    assert [str(m) for m in position_b().legal_moves()] == [
        "meld S7 S8 S9", "lay HA on 1 low", "lay HA on 1 high", "lay HA on 2",
        "discard D4", "discard S7", "discard S8", "discard S9"]
    assert [str(m) for m in position_c().legal_moves()] == [
        "meld H4 H5 H6", "lay SQ on 1", "discard H4", "discard H5", "discard H6"]


# -- the checked path agrees with the generator ------------------------------------------

def all_positions() -> list[HandState]:
    states = [seeded_position(RULES[k[0]], k[1], k[2], k[3]) for k in SEEDED]
    states += [seeded_position(RULES[k[0]], k[1], k[2], k[3], want_take_and_melds=True)
               for k in TAKEN]
    return [*states, position_a(), position_b(), position_c()]


def candidate_moves(state: HandState) -> list[Move]:
    """Every draw, discard and single-card lay-off (each end) one could try here."""
    seat = state.to_move
    hand = state.hand_cards(seat)
    moves: list[Move] = [Draw(), Take()]
    moves += [Discard(c) for c in range(52)]
    for index in range(len(state.table)):
        for c in hand:
            moves += [LayOff(c, index + 1, end) for end in (None, "low", "high")]
    return moves


def test_play_agrees_with_legal_moves() -> None:
    for state in all_positions():
        legal = state.legal_moves()
        assert len(set(legal)) == len(legal), describe(state)
        for move in legal:
            trial = state.copy()
            assert trial.play(str(move)) == move, (describe(state), str(move))
        for move in candidate_moves(state):
            if move in legal:
                continue
            if isinstance(move, LayOff) and LayOff(move.card, move.target, None) in legal:
                continue  # a superfluous END, accepted and dropped (test_rules_common)
            trial = state.copy()
            before = snapshot(trial)
            with pytest.raises(RummyError):
                trial.play(move)
            assert snapshot(trial) == before


def test_play_agrees_with_legal_melds() -> None:
    # Every group of 3 or 4 cards from the hand: play() accepts it exactly when its
    # canonical form is generated.
    for state in all_positions():
        if state.phase != "play":
            continue
        legal = set(state.legal_moves())
        hand = state.hand_cards(state.to_move)
        for size in (3, 4):
            for group in itertools.combinations(hand, size):
                trial = state.copy()
                try:
                    move = trial.play(Meld((group,)))
                except RummyError:
                    assert not any(isinstance(m, Meld) and set(m.groups[0]) == set(group)
                                   for m in legal), (describe(state), group)
                else:
                    assert move in legal, (describe(state), str(move))


def test_legal_moves_text_is_unique_and_sorted_stably() -> None:
    for state in all_positions():
        texts = [str(m) for m in state.legal_moves()]
        assert len(set(texts)) == len(texts)
        assert texts == [str(m) for m in state.copy().legal_moves()]


def test_perft_counts_cover_cards_in_play() -> None:
    # Sanity: every seeded position holds the whole 52-card pack, once each.
    for state in all_positions()[:len(SEEDED) + len(TAKEN)]:
        where = [c for h in state.hands for c in range(52) if h >> c & 1]
        where += state.stock + state.discard + [c for m in state.table for c in m.cards]
        assert sorted(where) == list(range(52)), describe(state)
    assert parse_card("SA") == 39
