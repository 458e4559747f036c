"""Uploaded records, stepped through for watching: one frame per deal and per move."""

from __future__ import annotations

import json
from typing import Any

from rummykit.core.errors import RummyError
from rummykit.core.match import FamilyMatch, Match
from rummykit.core.record import Record, from_json, replay
from rummykit.core.rules import Rules
from rummykit.server.errors import ServerError
from rummykit.server.faces import SPECTATOR, TableFace, face_for
from rummykit.server.wire import Frame, ReplayOut
from rummykit.variants.registry import variant_for


def count_frames(data: Any) -> int:
    """The frames (a deal and each move of every hand) of a record in JSON form, counted
    without building it; 0 when it has no hands list (:func:`from_json` says why).

    >>> count_frames({"hands": [{"moves": ["draw", "discard SK"]}, {"moves": []}]})
    4
    """
    hands = data.get("hands") if isinstance(data, dict) else None
    if not isinstance(hands, list):
        return 0
    moves = (h.get("moves") if isinstance(h, dict) else None for h in hands)
    return len(hands) + sum(len(m) for m in moves if isinstance(m, list))


def parse_record(body: bytes, max_frames: int) -> Record:
    """An uploaded record, refused (``record``) before it is built or replayed when it is
    not UTF-8 JSON or has more than ``max_frames`` frames."""
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise ServerError("record", "the record is not UTF-8") from None
    except (ValueError, RecursionError) as error:
        raise ServerError("record", f"bad JSON: {str(error)[:200]}") from None
    frames = count_frames(data)
    if frames > max_frames:
        raise ServerError("record", f"the record has {frames} frames (deals and moves); "
                          f"at most {max_frames}")
    try:
        return from_json(data)
    except RummyError as error:
        raise ServerError("record", str(error)) from None


def check(record: Record) -> int:
    """Replay ``record`` (bounded by :func:`parse_record`); its number of frames, or
    ``record``-coded :class:`ServerError`."""
    done = replay(record)
    if done.error is not None:
        error = done.error
        where = "" if error.hand is None else f"hand {error.hand}"
        if error.move is not None:
            where += f", move {error.move} ({error.text!r})"
        raise ServerError("record", f"{where + ': ' if where else ''}{error.message}")
    return len(record.hands) + sum(len(h.moves) for h in record.hands)


#: ``seat`` of :func:`frames`: every seat's cards, on the public view
ALL_SEATS = "all"


def parse_seat(text: str | None) -> int | str | None:
    """The ``seat`` query parameter: a seat number, ``all``, or absent (a spectator)."""
    if text is None or text == ALL_SEATS:
        return text
    try:
        return int(text)
    except ValueError:
        raise ServerError("bad_request", f"seat: expected a seat number or 'all', "
                          f"not {text[:20]!r}") from None


def replay_out(replay_id: str, record: Record, seat: int | str | None) -> ReplayOut:
    """The frames of a valid record for ``seat`` with its players and result (blocking:
    replaying a long record takes a while; run it in a thread)."""
    result = record.result if record.result is not None else {}
    return ReplayOut(id=replay_id, players=list(record.players), rules=record.rules,
                     frames=frames(record, seat), result=result)


def frames(record: Record, seat: int | str | None) -> list[Frame]:
    """Every step of a valid record as ``seat`` saw it (None: as a spectator; ``all``: the
    spectator's view and every seat's cards; a record is of a finished match, or was
    given to us, so there is nothing left to hide)."""
    if isinstance(seat, str) and seat != ALL_SEATS:
        raise ServerError("bad_request", f"seat: expected a seat number or 'all', not {seat!r}")
    if isinstance(seat, int) and not 0 <= seat < len(record.players):
        raise ServerError("bad_request", f"seat {seat}: the record has "
                          f"{len(record.players)} seats")
    try:
        rules = variant_for(record.rules).rules_from_options(record.rules, record.options)
        match: FamilyMatch[Any, Any] = (
            Match(rules, record.players, seed=record.seed, dealer=record.dealer)
            if isinstance(rules, Rules)
            else FamilyMatch(rules, record.players, seed=record.seed, dealer=record.dealer))
        face = face_for(rules)
        out: list[Frame] = []
        for index, hand in enumerate(record.hands):
            if hand.deal is not None:
                state = match.start_hand(deal=(hand.deal.hands, hand.deal.upcard,
                                               hand.deal.stock), restocks=hand.restocks)
            else:
                state = match.start_hand(hand.deck, restocks=hand.restocks)
            out.append(_frame(face, match, index, None, None, seat, len(out)))
            for text in hand.moves:
                mover = state.to_move
                move = str(match.play(text))
                out.append(_frame(face, match, index, mover, move, seat, len(out)))
        return out
    except RummyError as error:
        raise ServerError("record", str(error)) from None


def _frame(face: TableFace, match: FamilyMatch[Any, Any], index: int, mover: int | None,
           move: str | None, seat: int | str | None, number: int) -> Frame:
    state = match.state
    assert state is not None
    seen = face.view(state, seat if isinstance(seat, int) else SPECTATOR)
    hands = None if seat != ALL_SEATS else [
        face.hand_cards(state, s) for s in range(match.num_players)]
    return Frame(index=number, hand_index=index, seat=mover, move=move,
                 view=face.wire_view(match, seen), totals=list(match.totals), hands=hands)
