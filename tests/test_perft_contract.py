"""Perft-style move counts for Contract Rummy (ARCHITECTURE.md §5, RULES.md §4): any
change to contract move generation that changes a count fails here.

``perft(state, d)`` counts the leaves of the move tree cut at depth ``d`` within the turn
(a move ending the turn is a leaf where it is made); ``perft_through(state, d)`` counts
the move sequences of exactly ``d`` moves across turns. Both by push/pop; the position
must be restored exactly afterwards.

Positions: small hand-built ones whose counts are derived by reasoning in their
docstrings, and seeded positions reached by seeded random play (every deal, 3 to 8
players) chosen for a feature: a joker in hand with jokers in runs on the table (swaps),
a discard pile allowing digs, a player down and one not down, the seventh deal. Every
count was computed once and frozen.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest

from helpers import deep_snapshot, perft, perft_through
from rummykit.core import handset
from rummykit.core.cards import JOKER, format_card, parse_card, parse_cards
from rummykit.core.engine import HandState
from rummykit.core.melds import JOKER_AS, TableMeld, make_meld
from rummykit.core.moves import Discard, LayOff, Meld, Move, Swap, Take, parse_placed
from rummykit.variants import CONTRACT

RULES = dataclasses.replace(CONTRACT, max_turns_per_hand=400)


def snapshot(state: HandState) -> dict[str, object]:
    fields = deep_snapshot(state)
    del fields["rng"]
    return fields


def counts(state: HandState) -> tuple[int, int, int]:
    before = snapshot(state)
    found = (perft(state, 1), perft(state, 2), perft_through(state, 2))
    assert snapshot(state) == before, "push/pop did not restore the position"
    for move in state.legal_moves():
        assert state.is_legal(move), str(move)
    return found


def describe(state: HandState) -> str:
    hand = " ".join(format_card(c) for c in handset.cards(state.hands[state.to_move]))
    return (f"deal={state.deal_index} to_move={state.to_move} phase={state.phase} "
            f"down={state.down:b} hand={hand} table=[{' | '.join(str(m) for m in state.table)}]"
            f" discard={' '.join(format_card(c) for c in state.discard[-8:])}")


def legal_texts(state: HandState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


# -- hand-built positions, counted by reasoning -------------------------------------------

def meld(text: str, seat: int) -> TableMeld:
    made = make_meld([parse_placed(t) for t in text.split()], RULES, seat)
    assert isinstance(made, TableMeld), made
    return made


def built(hands: list[str], *, deal_index: int, discard: str, stock: str,
          table: tuple[tuple[str, int], ...] = (), down: int = 0) -> HandState:
    """Seat 0 to move in its draw step (3 players, dealer seat 2); ``discard`` bottom to
    top, ``stock`` top first, ``table`` melds with the seat that placed them, ``down`` the
    bit set of the seats down (on earlier turns)."""
    pile = parse_cards(discard)
    state = HandState.from_deal(RULES, 2, [parse_cards(h) for h in hands], pile[0],
                                parse_cards(stock), rng=random.Random(0),
                                deal_index=deal_index, automatic=False)
    state.discard = pile
    state.table = [meld(text, seat) for text, seat in table]
    state.down = down
    return state


def position_a() -> HandState:
    """Deal 1 (2 sets), seat 0 not down, draw step. Seat 0 holds C8 D8 H8 CK DK; the pile
    is S2 HK (top HK); the stock top is S9.

    depth 1: draw; take (HK completes the second set); 'take 2' is no move: the dug S2
      could only be placed by going down, and no set of 2s can be made -> 2.
    depth 2: after draw (C8 D8 H8 CK DK S9) no contract can be made: 6 discards. After
      take (C8 D8 H8 CK DK HK): going down with both sets (it empties the hand: seat 0
      goes out), and 5 discards (not HK, taken) -> 6. Total 12.
    perft_through 2: the same 12 sequences (the meld that goes out is the second move).
    """
    return built(["C8 D8 H8 CK DK", "C2 C4 C6 D9 DJ", "S3 S5 S7 H2 H4"], deal_index=0,
                 discard="S2 HK", stock="S9 C3 C5")


def position_b() -> HandState:
    """Deal 3 (2 runs). RULES.md §4.10 case 10: run 1 = H5 JK=H6 H7 H8, run 2 = S9 ST SJ
    (placed by seat 1); seats 0 and 1 went down on earlier turns. Seat 0 holds H6 D3 and
    has drawn SQ from the stock. The pile is C7 DK (top DK); seat 1 holds C9 D2 D4.

    depth 1: 'lay SQ on 2' (high end), 'swap H6 on 1' (the joker can then go on run 1 as
      H4 or H9, or on run 2 as S8 or SQ, and D3 be discarded), discards D3 H6 SQ -> 5.
    depth 2: after the lay-off (hand H6 D3): the swap, discards D3 H6 -> 3. After the swap
      (hand D3 SQ JK, one joker duty): 'lay SQ on 2', the joker as JK=H4 or JK=H9 on 1,
      JK=S8 or JK=SQ on 2 -> 5; no discard while the joker duty is unmet (§1.6 T3). The 3
      discards are leaves. Total 3 + 5 + 3 = 11.
    perft_through 2: 3 + 5 after the lay-off and the swap; after each discard X seat 1
      draws or takes X (the digs 'take 2' = DK X and 'take 3' are not moves: seat 1 cannot
      place DK or C7) -> 3 x 2 = 6. Total 14.
    """
    state = built(["H6 D3", "C9 D2 D4", "C2 C3 C4"], deal_index=2, discard="C7 DK",
                  stock="SQ S2 S3", table=(("H5 JK=H6 H7 H8", 1), ("S9 ST SJ", 1)),
                  down=0b011)
    state.push(state.legal_moves()[0])  # draw SQ
    return state


def position_c() -> HandState:
    """Deal 3, seat 0 down, holding JK C9 after drawing S6. Table: 1 = H2 .. HK (12 cards,
    seat 1), 2 = S2 S3 S4, 3 = D5 D6 D7 (seat 2); every seat is down.

    The joker fits run 1 as the low ace (HA at position 1) or as the high ace (HA at 14),
    run 2 as SA or S5, run 3 as D4 or D8. FORMATS.md §1: END is needed where the card
    fits both ends of a run and 'also fixes the identity of a joker laid off on a run';
    so the HA lay-offs are 'lay JK=HA on 1 low' and 'lay JK=HA on 1 high'. With the
    discards C9 S6 JK: 6 lay-offs + 3 discards -> 9 moves.
    depth 2: after a lay-off the hand is C9 S6: 2 discards, and after JK=S5 on run 2 also
      'lay S6 on 2' -> 5 x 2 + 3 = 13; the 3 discards are leaves. Total 16.
    perft_through 2 (frozen): 13, and after each discard seat 1 has 3 draw moves -> 22.
    """
    state = built(["JK C9", "C2 C3", "D2 D3"], deal_index=2, discard="S5",
                  stock="S6 S7 S8",
                  table=(("H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK", 1), ("S2 S3 S4", 2),
                         ("D5 D6 D7", 2)), down=0b111)
    state.push(state.legal_moves()[0])  # draw S6
    return state


@pytest.mark.parametrize(("make", "expected"), [
    (position_a, (2, 12, 12)),
    (position_b, (5, 11, 14)),
    (position_c, (9, 16, 22)),
], ids=["a_dig_refused_go_out", "b_joker_swap", "c_joker_as_ace_both_ends"])
def test_perft_hand_built(make: Callable[[], HandState], expected: tuple[int, int, int]) -> None:
    state = make()
    assert counts(state) == expected, describe(state)


def test_perft_hand_built_move_lists() -> None:
    assert legal_texts(position_a()) == ["draw", "take"]
    assert legal_texts(position_b()) == [
        "lay SQ on 2", "swap H6 on 1", "discard D3", "discard H6", "discard SQ"]
    state = position_b()
    state.push(Swap(parse_card("H6"), 1))
    assert sorted(legal_texts(state)) == sorted([
        "lay SQ on 2", "lay JK=H4 on 1", "lay JK=H9 on 1", "lay JK=S8 on 2", "lay JK=SQ on 2"])


def test_joker_laid_off_as_either_ace_needs_an_end() -> None:
    # FORMATS.md §1: END is written where the card fits both ends of run N, and fixes the
    # identity of a joker laid off on a run; RULES.md §1.3: an ace holds position 1 or 14.
    state = position_c()
    assert legal_texts(state) == [
        "lay JK=HA on 1 low", "lay JK=HA on 1 high", "lay JK=SA on 2", "lay JK=S5 on 2",
        "lay JK=D4 on 3", "lay JK=D8 on 3", "discard C9", "discard S6", "discard JK"]
    ha = JOKER_AS + parse_card("HA")
    for end in ("low", "high"):
        assert state.is_legal(LayOff(ha, 1, end))
        trial = state.copy()
        assert str(trial.play(f"lay JK=HA on 1 {end}")) == f"lay JK=HA on 1 {end}"
        assert trial.table[0].cards[0 if end == "low" else -1] == ha


# -- seeded positions -----------------------------------------------------------------------

def seeded_position(players: int, deal_index: int, seed: int, moves: int) -> HandState:
    """Deal a pack shuffled with ``seed`` and play ``moves`` seeded moves, picked from the
    legal moves sorted by their text (so the position does not depend on the generation
    order); melds, lay-offs, swaps and digs are preferred with probability 0.7."""
    state = HandState.deal(RULES, players, seed % players, random.Random(seed),
                           deal_index=deal_index)
    rng = random.Random(seed * 7919)
    for _ in range(moves):
        assert state.result is None
        legal = sorted(state.legal_moves(), key=str)
        wanted = [m for m in legal if isinstance(m, (Meld, LayOff, Swap))
                  or (isinstance(m, Take) and m.count > 1)]
        state.push(rng.choice(wanted) if wanted and rng.random() < 0.7 else rng.choice(legal))
    return state


def has_swap(state: HandState) -> bool:
    return any(isinstance(m, Swap) for m in state.legal_moves())


def is_down(state: HandState) -> bool:
    return bool(state.down >> state.to_move & 1)


# (feature, players, deal index, seed, moves played) -> (perft 1, perft 2, perft_through 2)
SEEDED: dict[tuple[str, int, int, int, int], tuple[int, int, int]] = {
    # re-found and recounted with exact completability (issue 21): the old seeds' random
    # play changed once digs that need a swap for a gap joker became legal
    ("joker_swap", 5, 5, 33, 193): (12, 78, 78),
    ("joker_swap", 7, 2, 85, 157): (14, 263, 263),
    ("dig", 4, 3, 1, 135): (6, 35, 35),
    ("dig", 5, 0, 2, 14): (7, 32, 32),
    ("not_down_can_go_down", 4, 4, 1, 77): (1, 14, 14),
    ("not_down_can_go_down", 5, 1, 2, 53): (1, 7, 7),
    ("down_play", 4, 2, 1, 71): (7, 71, 71),
    ("down_play", 6, 2, 3, 55): (15, 39, 52),
    ("seventh_play", 4, 6, 1, 17): (12, 12, 24),
    ("seventh_play", 5, 6, 2, 9): (11, 11, 22),
}

FEATURES: dict[str, Callable[[HandState], bool]] = {
    "joker_swap": lambda s: s.phase == "play" and is_down(s) and not s.went_down
    and handset.count(s.hands[s.to_move], JOKER) > 0 and has_swap(s),
    "dig": lambda s: s.phase == "draw"
    and sum(isinstance(m, Take) and m.count > 1 for m in s.legal_moves()) >= 2,
    "not_down_can_go_down": lambda s: s.phase == "play" and not is_down(s) and s.down > 0
    and any(isinstance(m, Meld) for m in s.legal_moves()),
    "down_play": lambda s: s.phase == "play" and is_down(s) and not s.went_down
    and bin(s.down).count("1") < s.num_players
    and sum(isinstance(m, LayOff) for m in s.legal_moves()) >= 2,
    "seventh_play": lambda s: s.deal_index == 6 and s.phase == "play" and len(s.discard) >= 4,
}


@pytest.mark.parametrize(("key", "expected"), list(SEEDED.items()), ids=str)
def test_perft_seeded(key: tuple[str, int, int, int, int],
                      expected: tuple[int, int, int]) -> None:
    feature, players, deal_index, seed, moves = key
    state = seeded_position(players, deal_index, seed, moves)
    assert FEATURES[feature](state), describe(state)
    assert counts(state) == expected, describe(state)


def test_seeded_positions_hold_jokers_and_digs() -> None:
    swap = seeded_position(5, 5, 33, 193)
    assert any(c >= JOKER_AS for m in swap.table for c in m.cards)
    dig = seeded_position(5, 0, 2, 14)
    assert [m for m in dig.legal_moves() if isinstance(m, Take) and m.count > 1]
    seventh = seeded_position(4, 6, 1, 17)
    assert seventh.deal_index == 6 and seventh.phase == "play"


def test_seeded_move_lists_agree_with_is_legal() -> None:
    for key in SEEDED:
        state = seeded_position(*key[1:])
        legal = state.legal_moves()
        assert list(state.iter_legal_moves()) == legal
        for move in legal:
            assert state.is_legal(move), (describe(state), str(move))
        hand = handset.cards(state.hands[state.to_move])
        wrong: list[Move] = [Discard(c) for c in range(52) if c not in hand]
        wrong += [Take(len(state.discard) + 1), Swap(parse_card("C2"), len(state.table) + 1)]
        for move in wrong:
            assert move not in legal and not state.is_legal(move), (describe(state), str(move))


def position_d() -> HandState:
    """Deal 3, every seat down; run 1 = D2 .. DK JK=DA (the joker is the high ace), run 2 =
    S2 S3 S4. Seat 0 holds DA C9 and has drawn S6.

    RULES.md §1.3: with two decks and high_or_low a run may hold both aces of its suit,
    one at position 1 and one at 14; §1.5 runs grow at their ends; §4.6 forbids only the
    position a joker holds (14). So DA may be laid off at the low end: 'lay DA on 1' (no
    END: the high end is taken). 'swap DA on 1' is legal too (the joker then goes on run 1
    as the low ace, or on run 2 as SA or S5). With the discards C9 DA S6 -> 5 moves.
    """
    state = built(["DA C9", "C2 C3", "H2 H3"], deal_index=2, discard="S5", stock="S6 S7",
                  table=(("D2 D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK JK=DA", 1), ("S2 S3 S4", 2)),
                  down=0b111)
    state.push(state.legal_moves()[0])  # draw S6
    return state


def test_natural_ace_at_the_free_end_of_a_run_with_a_joker_ace() -> None:
    state = position_d()
    assert legal_texts(state) == [
        "lay DA on 1", "swap DA on 1", "discard C9", "discard DA", "discard S6"]
    assert perft(state, 1) == 5
    trial = state.copy()
    assert str(trial.play("lay DA on 1")) == "lay DA on 1"  # the checked path agrees
    assert trial.table[0].cards[0] == parse_card("DA")
    # FORMATS.md §1: a superfluous END naming the only possible end is accepted and dropped
    assert str(state.copy().play("lay DA on 1 low")) == "lay DA on 1"
