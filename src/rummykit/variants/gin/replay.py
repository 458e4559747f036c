"""Gin's readable replay account (FORMATS.md §4.2-§4.3).

The core replays gin records like any other (:func:`rummykit.core.record.replay`: the core
match with gin's hands, its score sheet as ``match_scorer``, ``hand_json`` for the gin hand
fields, ``--check`` against the record's ``result``); only the readable account is gin's
own: each hand, the score sheet and the settlement (registered by
:mod:`~rummykit.variants.gin.registration`).

>>> from rummykit.core.record import HandRecord, Record, replay
>>> out = replay(Record("gin", ("Ann", "Bob"), dealer=0, hands=(
...     HandRecord(deck=tuple(range(52)), moves=("pass", "pass", "draw")),))).to_json()
>>> out["hands"][0]["result"], out["hands"][0]["knock_limit"], out["totals"]
('unfinished', 10, [0, 0])
"""

from __future__ import annotations

import json

from rummykit.core.match import FamilyMatch
from rummykit.core.record import Replay, ReplayError
from rummykit.variants.gin import output as words
from rummykit.variants.gin.game import ScoreSheet
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.rules import GinRules

__all__ = ["GinMatch", "gin_account", "gin_sheet"]

#: a gin match: the core match with gin's rules and hands
GinMatch = FamilyMatch[GinRules, GinHand]


def gin_sheet(match: FamilyMatch[GinRules, GinHand]) -> ScoreSheet:
    """The gin score sheet the match keeps (the family's ``match_scorer``)."""
    sheet = match.scorer
    assert isinstance(sheet, ScoreSheet)
    return sheet


def gin_account(replayed: Replay, error: ReplayError | None) -> str:
    """The readable account: each hand, the score sheet and settlement, any error."""
    lines: list[str] = []
    match = replayed.match
    if replayed.record is not None and match is not None:
        names = list(replayed.record.players)
        options = (json.dumps(replayed.record.options, ensure_ascii=False)
                   if replayed.record.options else "none")
        seats = ", ".join(f"{s} {n}" for s, n in enumerate(names))
        lines.append(f"{match.rules.name}, options: {options}; players: {seats}")
        for number, played in enumerate(replayed.hands, 1):
            lines += ["", *words.hand_lines(number, played, names)]
        if replayed.error is None:
            sheet = gin_sheet(match)
            lines += ["", *words.sheet_lines(match.states, sheet, names),
                      words.match_line(sheet, names)]
    if error is not None:
        lines += ["", _error_line(error)] if lines else [_error_line(error)]
    return "\n".join(lines) + "\n"


def _error_line(error: ReplayError) -> str:
    where = [f"hand {error.hand + 1}"] if error.hand is not None else []
    if error.move is not None:
        where.append(f"move {error.move + 1}")
    if error.text is not None:
        where.append(repr(error.text))
    place = f" at {', '.join(where)}" if where else ""
    return f"Invalid record ({error.type} error{place}): {error.message}"
