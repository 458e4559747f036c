"""Replaying and writing gin records (FORMATS.md §4.2-§4.3) with :class:`GinMatch`.

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
from rummykit.core.record import (
    Deal,
    FamilyRecords,
    HandRecord,
    Record,
    Replay,
    ReplayError,
)
from rummykit.variants.gin import output as words
from rummykit.variants.gin.match import GinMatch
from rummykit.variants.gin.rules import gin_rules_from_options

__all__ = ["GIN_RECORDS", "GinReplay", "PlayedGinHand", "gin_record_of", "replay_gin"]


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
        return words.replay_json(self.gin.states, self.gin.sheet)

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
                lines += ["", *words.sheet_lines(self.gin.states, self.gin.sheet, names),
                          words.match_line(self.gin.sheet, names)]
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
        match = out.gin = GinMatch(rules, record.players, seed=record.seed,
                                   dealer=record.dealer)
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


def gin_record_of(match: GinMatch) -> Record:
    """The portable record of a gin match: dealer, every deck or deal, moves, result."""
    hands = []
    for log in match.hands:
        deal = None
        if log.deal is not None:
            seats, upcard, stock = log.deal
            deal = Deal(tuple(tuple(h) for h in seats), upcard, tuple(stock))
        hands.append(HandRecord(deck=log.deck, deal=deal, moves=tuple(log.moves)))
    result = words.replay_json(match.states, match.sheet)
    return Record(rules=match.rules.name, players=tuple(match.players), hands=tuple(hands),
                  options=match.rules.options, dealer=match.first_dealer, seed=match.seed,
                  result=result)


#: the hooks the core record reader and writer use for gin rule sets
GIN_RECORDS = FamilyRecords(replay_gin, check_record_json, writes_restocks=False)
