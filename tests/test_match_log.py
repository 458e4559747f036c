"""The match's hand log writes moves in notation only when it is read (core/match.py)."""

from __future__ import annotations

import random
from typing import Any

from rummykit.core.match import FamilyMatch, HandLog, Match
from rummykit.core.record import record_of
from rummykit.core.rules import find_rules
from rummykit.variants.registry import variant_for


def _random_moves(match: FamilyMatch[Any, Any], count: int, seed: int) -> list[str]:
    """Push ``count`` random legal moves; the text of each, as it was when played."""
    rng = random.Random(seed)
    texts: list[str] = []
    state = match.state
    assert state is not None
    for _ in range(count):
        if state.result is not None:
            break
        move = rng.choice(list(state.legal_moves()))
        texts.append(str(move))
        match.push(move)
    return texts


def test_the_log_reads_the_moves_as_played_whenever_it_is_read() -> None:
    match = Match(find_rules("basic"), ["a", "b"], seed=3)
    match.start_hand()
    first = _random_moves(match, 7, seed=1)
    assert match.hands[-1].moves == first  # read mid-hand
    second = _random_moves(match, 9, seed=2)
    log = match.hands[-1].moves
    assert log == first + second  # read again: the new moves after the ones written
    assert match.hands[-1].moves is log  # one list, kept


def test_a_move_appended_to_the_list_keeps_its_place() -> None:
    match = Match(find_rules("basic"), ["a", "b"], seed=4)
    match.start_hand()
    played = _random_moves(match, 3, seed=5)
    match.hands[-1].moves.append("draw")  # an old caller writing the list itself
    assert match.hands[-1].moves == [*played, "draw"]


def test_gin_moves_are_written_lazily_too_and_records_see_them() -> None:
    rules = variant_for("gin").preset("gin")
    match: FamilyMatch[Any, Any] = FamilyMatch(rules, ["a", "b"], seed=8)
    match.start_hand()
    played = _random_moves(match, 40, seed=9)
    assert match.hands[-1].moves == played
    assert record_of(match).hands[-1].moves == tuple(played)


def test_a_copy_logs_on_its_own() -> None:
    match = Match(find_rules("basic"), ["a", "b"], seed=6)
    match.start_hand()
    played = _random_moves(match, 5, seed=7)
    twin = match.copy()
    more = _random_moves(twin, 4, seed=8)
    assert twin.hands[-1].moves == played + more
    assert match.hands[-1].moves == played


def test_logs_compare_by_content_not_by_when_they_were_written() -> None:
    written = HandLog(None, None, ["draw", "discard H8"])
    unwritten = HandLog(None, None)
    unwritten.add("draw")
    unwritten.add("discard H8")
    assert written == unwritten
    assert "moves=['draw', 'discard H8']" in repr(unwritten)
    assert written != HandLog(None, None, ["draw"])
