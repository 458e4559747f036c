"""A move the last event listed as legal is made without the rule check (server.table:
``_listed_move``): that is the same as checking it, for every listed move, and a move not
listed is still checked."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from rummykit.core.legality import check_move
from rummykit.core.match import Match
from rummykit.core.moves import parse_move
from rummykit.core.rules import PRESETS
from rummykit.server.errors import ServerError
from rummykit.server.eventtext import EventText
from rummykit.server.storage import SeatRow, TableRow
from rummykit.server.table import LiveTable, table_rules


@pytest.mark.parametrize(("rules", "players"), [("basic", 2), ("traditional", 4),
                                                 ("contract", 3)])
def test_every_listed_move_is_its_own_checked_form(rules: str, players: int) -> None:
    short = dataclasses.replace(PRESETS[rules], max_turns_per_hand=80)
    match = Match(short, [f"P{i}" for i in range(players)], seed=players)
    state = match.start_hand()
    rng = random.Random(players)
    checked = 0
    while checked < 3000 and not match.over:
        if state.is_over:
            state = match.start_hand()
            continue
        legal = state.legal_moves()
        for move in legal:
            assert check_move(state, parse_move(str(move))) == move
        checked += len(legal)
        match.play(rng.choice(legal))
        assert match.state is not None
        state = match.state
    assert checked >= 1000


def table(seed: int) -> LiveTable:
    rules = table_rules("basic", {"target_score": 50}, 200)
    row = TableRow("t", "basic", {"target_score": 50}, "waiting", 0, 0, seed)
    seats = [SeatRow(0, "human", "N", None, None, "human"),
             SeatRow(1, "human", "S", None, None, "human")]
    live = LiveTable(row, seats, rules, 50)
    live.adopt(live.start_match())
    return live


def test_a_listed_move_makes_the_same_change_as_a_checked_one() -> None:
    listed, checked = table(3), table(3)
    rng = random.Random(1)
    made = 0
    while listed.status == "playing" and made < 400:
        event = listed.history[-1]
        assert isinstance(event, EventText)
        seat = listed.to_move()
        assert seat is not None
        text = rng.choice(json.loads(event.text(seat))["legal"])  # as the client has it
        assert listed._listed_move(seat, text) is not None
        assert listed._listed_move(1 - seat, text) is None  # not that seat's
        one = listed.play(seat, text, listed.version)
        checked.history.clear()  # no event: the move is checked
        other = checked.play(seat, text, checked.version)
        assert [(r.version, r.kind, r.data) for r in one.rows] == \
            [(r.version, r.kind, r.data) for r in other.rows]
        assert [e.text(s) for e in one.events for s in (-1, 0, 1)] == \
            [e.text(s) for e in other.events for s in (-1, 0, 1)]
        listed.adopt(one)
        checked.adopt(other)
        made += 1
    assert made >= 100


def test_a_move_not_listed_is_still_checked() -> None:
    live = table(4)
    seat = live.to_move()
    assert seat is not None
    for text in ("discard S2 S3", "meld", "lay 9 S2 left"):
        with pytest.raises(ServerError):
            live.play(seat, text, live.version)
    assert live._listed_move(seat, "DRAW") is None  # not canonical: checked (and accepted)
    change = live.play(seat, "DRAW", live.version)
    assert change.rows[0].data["move"] == "draw"
