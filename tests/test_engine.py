"""The hand state machine: legality agrees with play(), push/pop, copy, dealing."""

from __future__ import annotations

import dataclasses
import random

import pytest

from helpers import snapshot
from rummykit.core.cards import parse_cards
from rummykit.core.engine import HandState
from rummykit.core.errors import AmbiguousMoveError, IllegalMoveError, RummyError
from rummykit.core.melds import groups_in
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Take
from rummykit.core.rules import Rules
from rummykit.variants import BASIC, TRADITIONAL

HIGH = dataclasses.replace(BASIC, ace_mode="high_or_low")


def _candidates(state: HandState, rng: random.Random) -> list[Move]:
    """A wide universe of moves around a position, legal or not."""
    moves: list[Move] = [Draw(), Take(), Take(count=2)]
    moves += [Discard(c) for c in range(52)]
    hand = state.hands[state.to_move]
    cards = [c for c in range(52) if hand >> c & 1] + rng.sample(range(52), 4)
    for target in range(1, len(state.table) + 2):
        for card in cards:
            moves.append(LayOff(card, target, None))
            moves.append(LayOff(card, target, "low"))
            moves.append(LayOff(card, target, "high"))
    moves += [Meld((g,)) for g in groups_in(hand, state.rules)]
    moves += [Meld((g,)) for g in groups_in(hand | rng.getrandbits(52), state.rules)][:40]
    for _ in range(20):
        moves.append(Meld((tuple(rng.sample(range(52), 3)),)))
    return moves


def _canonical(state: HandState, move: Move) -> Move | None:
    trial = state.copy()
    try:
        return trial.play(move)
    except RummyError:
        assert snapshot(trial) == snapshot(state)
        return None


@pytest.mark.parametrize("rules", [BASIC, TRADITIONAL, HIGH,
                                   dataclasses.replace(BASIC, must_discard_to_go_out=True,
                                                       max_melds_per_turn=1)],
                         ids=["basic", "traditional", "high", "strict"])
def test_play_accepts_exactly_the_legal_moves(rules: Rules) -> None:
    rng = random.Random(11)
    checked = 0
    for game in range(12):
        state = HandState.deal(rules, rng.randint(*rules.player_range), 0,
                               random.Random(game))
        while not state.is_over and state.turn_count < 50:
            legal = state.legal_moves()
            assert len(set(legal)) == len(legal)
            accepted = set()
            for move in _candidates(state, rng):
                canonical = _canonical(state, move)
                if canonical is not None:
                    accepted.add(canonical)
                    assert canonical in legal, move
            singles = {m for m in accepted if not (isinstance(m, Meld) and len(m.groups) > 1)}
            assert set(legal) <= singles  # every legal move was tried and accepted
            for move in legal:
                assert _canonical(state, move) == move
                assert _canonical(state, str(move)) == move  # type: ignore[arg-type]
            checked += 1
            melds = [m for m in legal if isinstance(m, Meld)]
            state.push(melds[0] if melds and rng.random() < 0.7 else rng.choice(legal))
    assert checked > 150


def test_illegal_move_leaves_state_unchanged() -> None:
    state = HandState.deal(BASIC, 2, 0, random.Random(2))
    before = snapshot(state)
    for text in ["discard H2", "meld H2 H3 H4", "lay H2 on 1", "take 3", "swap H2 on 1"]:
        with pytest.raises(IllegalMoveError):
            state.play(text)
        assert snapshot(state) == before
    top = state.discard[-1]
    state.play("take")
    with pytest.raises(IllegalMoveError, match="taken from the discard pile"):
        state.play(Discard(top))


def test_ambiguous_ace_lay_off_needs_an_end() -> None:
    run = parse_cards("H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK")
    state = HandState.from_deal(HIGH, 0, [parse_cards("HA C2 C9"), parse_cards("S4 S5 S9")],
                                parse_cards("D9")[0], parse_cards("DT DJ"))
    state.hands[1] |= sum(1 << c for c in run)
    state.to_move = 1
    state.play("draw")
    state.play("meld " + " ".join(f"{c}" for c in ["H2", "H3", "H4", "H5", "H6", "H7", "H8",
                                                   "H9", "HT", "HJ", "HQ", "HK"]))
    state.play("discard S9")
    state.play("draw")
    with pytest.raises(AmbiguousMoveError, match=r"low.*high"):
        state.play("lay HA on 1")
    assert str(state.play("lay HA on 1 high")) == "lay HA on 1 high"
    assert str(state.table[0]).endswith("HK HA")


def test_push_pop_restores_through_rebuilds() -> None:
    for rules in (BASIC, TRADITIONAL, dataclasses.replace(BASIC, stock_rebuild="turn_over_all")):
        rules = dataclasses.replace(rules, max_turns_per_hand=3000)
        state = HandState.deal(rules, 2, 0, random.Random(5))
        rng = random.Random(1)
        history = []
        while not state.is_over:
            history.append(snapshot(state))
            state.push(rng.choice(state.legal_moves()))
        assert state.rebuilds > 0 or state.result is not None
        while history:
            state.pop()
            assert snapshot(state) == history.pop()


def test_copy_is_independent() -> None:
    state = HandState.deal(BASIC, 3, 1, random.Random(8))
    twin = state.copy()
    twin.push(twin.legal_moves()[0])
    assert snapshot(state) != snapshot(twin)
    assert state.phase == "draw" and twin.phase == "play"


def test_deal_order_and_first_player() -> None:
    deck = list(range(52))
    state = HandState.from_deck(BASIC, 3, 2, deck)
    assert state.to_move == 0
    assert state.hand_cards(0) == [0, 3, 6, 9, 12, 15, 18]
    assert state.discard == [21]
    assert state.stock[-1] == 22 and len(state.stock) == 30
