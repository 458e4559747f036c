"""Replaying gin records (FORMATS.md §4.2-§4.3) on the core match (:class:`FamilyMatch`).

The core record reader parses the file; :func:`replay_gin` replays it (the core replay
hands gin rule sets here through the family's ``replay_record`` hook). The output has the
gin hand fields and the match-level ``final`` / ``games``; ``--check`` compares it with the
record's ``result`` as for every rule set.

>>> out = replay_gin(Record("gin", ("Ann", "Bob"), dealer=0, hands=(
...     HandRecord(deck=tuple(range(52)), moves=("pass", "pass", "draw")),))).to_json()
>>> out["hands"][0]["result"], out["hands"][0]["knock_limit"], out["totals"]
('unfinished', 10, [0, 0])
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rummykit.core.errors import RecordError, RummyError
from rummykit.core.match import FamilyMatch
from rummykit.core.record import (
    FamilyRecords,
    HandRecord,
    Record,
    Replay,
    ReplayError,
)
from rummykit.variants.gin import output as words
from rummykit.variants.gin.game import ScoreSheet
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.rules import GinRules, gin_rules_from_options

#: a gin match: the core match with gin's rules and hands
GinMatch = FamilyMatch[GinRules, GinHand]

__all__ = ["GIN_RECORDS", "GinMatch", "GinReplay", "PlayedGinHand", "gin_sheet", "replay_gin"]


def gin_sheet(match: GinMatch) -> ScoreSheet:
    """The gin score sheet the match keeps (the family's ``match_scorer``)."""
    sheet = match.scorer
    assert isinstance(sheet, ScoreSheet)
    return sheet


@dataclass(slots=True)
class PlayedGinHand:
    """One replayed gin hand: its dealer, its state after the last move, its moves."""

    dealer: int
    state: Any  # a GinHand
    moves: list[tuple[int, str]] = field(default_factory=list)


@dataclass(slots=True)
class GinReplay(Replay):
    """A replayed gin record: the match as far as it went, or the first error."""

    gin: GinMatch | None = None
    played: list[PlayedGinHand] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The replay output of FORMATS.md §4.3 (the error object for an invalid record)."""
        if self.error is not None:
            return self.error.to_json()
        assert self.gin is not None
        return words.replay_json(self.gin.states, gin_sheet(self.gin))

    def account(self, error: ReplayError | None = None) -> str | None:
        """The readable account: each hand, the score sheet and settlement, any error."""
        error = error or self.error
        lines: list[str] = []
        if self.record is not None and self.gin is not None:
            names = list(self.record.players)
            options = (json.dumps(self.record.options, ensure_ascii=False)
                       if self.record.options else "none")
            seats = ", ".join(f"{s} {n}" for s, n in enumerate(names))
            lines.append(f"{self.gin.rules.name}, options: {options}; players: {seats}")
            for number, played in enumerate(self.played, 1):
                lines += ["", *words.hand_lines(number, played, names)]
            if self.error is None:
                lines += ["", *words.sheet_lines(self.gin.states, gin_sheet(self.gin), names),
                          words.match_line(gin_sheet(self.gin), names)]
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


def _replay_hand(out: GinReplay, match: GinMatch, index: int,
                 hand: HandRecord) -> ReplayError | None:
    def fail(message: str) -> ReplayError:
        return ReplayError("record", index, None, None, message)

    if match.over:
        return fail("the match is already over: no hand may follow")
    if hand.restocks:
        return fail("restocks: gin never rebuilds a stock, so a gin record has none")
    try:
        if hand.deal is not None:
            state = match.start_hand(deal=(hand.deal.hands, hand.deal.upcard,
                                           hand.deal.stock))
        else:
            assert hand.deck is not None
            state = match.start_hand(hand.deck)
    except RecordError as exc:
        return fail(str(exc))
    played = PlayedGinHand(match.dealer_of(index), state)
    out.played.append(played)
    for number, text in enumerate(hand.moves):
        seat = state.to_move
        try:
            move = match.play(text)
        except RummyError as exc:
            return ReplayError(exc.kind.value, index, number, text, str(exc))
        played.moves.append((seat, str(move)))
    return None


def replay_gin(record: Record) -> GinReplay:
    """Replay a gin record, stopping at the first error (FORMATS.md §2-§4)."""
    out = GinReplay(record)
    try:
        rules = gin_rules_from_options(record.rules, record.options)
        if record.dealer is None and record.seed is None and record.hands:
            raise RecordError("the dealer is missing and there is no seed")
        rules.check_players(len(record.players))
        if record.dealer is not None and record.dealer not in (0, 1):
            raise RecordError(f"dealer {record.dealer}: expected a seat 0..1")
        match: GinMatch = FamilyMatch(rules, record.players, seed=record.seed,
                                      dealer=record.dealer)
        out.gin = match
    except RecordError as exc:
        out.error = ReplayError("record", None, None, None, str(exc))
        return out
    for index, hand in enumerate(record.hands):
        if index and match.state is not None and not match.state.is_over:
            out.error = ReplayError("record", index - 1, None, None,
                                    "this hand is unfinished but another hand follows")
            break
        out.error = _replay_hand(out, match, index, hand)
        if out.error:
            break
    return out


def check_record_json(data: Any) -> None:
    """Refuse what the core reader would accept but a gin record may not hold: a
    ``restocks`` key in any hand (FORMATS.md §4.2)."""
    hands = data.get("hands") if isinstance(data, dict) else None
    if isinstance(hands, list):
        words.check_no_restocks(hands)


#: the hooks the core record reader and writer use for gin rule sets
GIN_RECORDS = FamilyRecords(replay_gin, check_record_json, writes_restocks=False)
