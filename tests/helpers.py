"""Shared test helpers: a full snapshot of a hand state, card conservation, building
positions, meld notation with jokers, and perft counts."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import pytest

from rummykit.core.cards import parse_card, parse_cards
from rummykit.core.engine import HandState
from rummykit.core.errors import RummyError
from rummykit.core.melds import JOKER_AS, TableMeld, make_meld
from rummykit.core.rules import Rules


def snapshot(state: HandState) -> tuple[object, ...]:
    """Every field of a hand state that defines the position."""
    return (
        state.to_move, state.phase, tuple(state.hands), tuple(state.stock),
        tuple(state.discard), tuple(state.table), tuple(state.known), state.taken,
        state.melds_this_turn, state.placed_this_turn, state.ever_placed, state.rebuilds,
        state.turn_count, state.result, tuple(state.restocks), tuple(state.discarded),
    )


def cards_in_play(state: HandState) -> list[int]:
    """Every card of the hand, wherever it is; a one-deck pack gives 0..51 once each."""
    cards: list[int] = []
    for hand in state.hands:
        cards += [c for c in range(52) if hand >> c & 1]
    cards += state.stock + state.discard
    for meld in state.table:
        cards += [c for c in meld.cards]
    return sorted(cards)


# -- building positions and checking refusals (rulebook, perft tests) --------------------

def cards(text: str) -> list[int]:
    """Cards from notation."""
    return parse_cards(text)


def card(text: str) -> int:
    """One card from notation."""
    return parse_card(text)


def table_meld(text: str, seat: int, rules: Rules) -> TableMeld:
    """A table meld placed by ``seat``."""
    meld = make_meld(cards(text), rules, seat)
    assert isinstance(meld, TableMeld), meld
    return meld


def position(rules: Rules, hands: Sequence[str], *, to_move: int = 0, discard: str = "C7",
             stock: str = "", table: Sequence[str | tuple[str, int]] = (),
             restocks: Sequence[Sequence[int]] | None = None,
             rng: random.Random | None = None, seed: int = 0) -> HandState:
    """A draw-step position: ``hands`` per seat, ``discard`` bottom to top, ``stock`` top
    first, ``table`` melds (text, placed by seat 1, or (text, seat) pairs); ``to_move``
    plays first. Built mid-hand, so the deal's automatic checks do not run."""
    n = len(hands)
    pile = cards(discard)
    state = HandState.from_deal(rules, (to_move - 1) % n, [cards(h) for h in hands],
                                pile[0], cards(stock), rng=rng or random.Random(seed),
                                restocks=restocks, automatic=False)
    assert state.to_move == to_move
    state.discard = pile
    state.table = [table_meld(*((m, 1) if isinstance(m, str) else m), rules) for m in table]
    every = [c for h in state.hands for c in range(52) if h >> c & 1]
    every += state.stock + state.discard + [c for m in state.table for c in m.cards]
    assert len(every) == len(set(every)), "a card is in two places"
    return state


def deep_snapshot(state: HandState) -> dict[str, Any]:
    """A deep copy of every field of the state, undo stack included (the generator by its
    state, shared tables by identity)."""
    fields: dict[str, Any] = {}
    for name in HandState.__slots__:
        value = getattr(state, name)
        if name == "rng":
            value = None if value is None else value.getstate()
        elif name in ("rules", "_tables", "_caches", "_values"):
            value = id(value)
        fields[name] = copy.deepcopy(value)
    return fields


def assert_rejected(state: HandState, move: str, error: type[RummyError],
                    *reason: str) -> RummyError:
    """``move`` raises exactly ``error``, whose message holds every ``reason``; nothing
    changes."""
    before = deep_snapshot(state)
    with pytest.raises(error) as caught:
        state.play(move)
    assert type(caught.value) is error
    message = str(caught.value)
    for fragment in reason:
        assert fragment in message, (fragment, message)
    assert deep_snapshot(state) == before
    return caught.value


def played(state: HandState, *moves: str) -> list[str]:
    """Play ``moves`` in order; their canonical texts."""
    return [str(state.play(m)) for m in moves]


def legal_texts(state: HandState) -> list[str]:
    """The legal moves in notation."""
    return [str(m) for m in state.legal_moves()]


def placed(text: str) -> tuple[int, ...]:
    """Placed codes from meld notation (``JK=H6`` for a joker standing for H6)."""
    codes = []
    for token in text.split():
        if token.upper().startswith("JK="):
            codes.append(JOKER_AS + parse_card(token[3:]))
        else:
            codes.append(parse_card(token))
    return tuple(codes)


# -- perft counts (perft tests) -----------------------------------------------------------

def perft(state: HandState, depth: int) -> int:
    """Leaves to ``depth`` moves within the turn; a move ending the turn is a leaf."""
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.push(move)
        total += perft(state, depth - 1) if state.phase == "play" else 1
        state.pop()
    return total


def perft_through(state: HandState, depth: int) -> int:
    """Move sequences of exactly ``depth`` moves, across turns."""
    if depth == 0:
        return 1
    total = 0
    for move in state.legal_moves():
        state.push(move)
        total += perft_through(state, depth - 1)
        state.pop()
    return total
