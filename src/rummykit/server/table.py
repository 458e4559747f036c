"""A live table: seats, the match in play, its versioned events. No I/O here.

Every step (a move, a deal, a rematch) is made on a draft - a copy of the table - and
returned as a :class:`Change`; the live table adopts the draft only once the hub has
committed it, so a refused commit leaves the table, and everything read from it, on the
committed state."""

from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from rummykit.core.cards import format_card, parse_card
from rummykit.core.errors import RummyError
from rummykit.core.match import FamilyMatch, Match
from rummykit.core.record import HandRecord, Record, dumps, options_of, record_of, replay
from rummykit.core.rules import Rules
from rummykit.server.errors import ServerError, from_engine
from rummykit.server.eventtext import EventText
from rummykit.server.faces import SPECTATOR, Event, TableFace, face_for
from rummykit.server.jsontext import string_json
from rummykit.server.render import match_out
from rummykit.server.storage import EventRow, Finished, SeatResult, SeatRow, StoredTable, TableRow
from rummykit.server.trusted import trusted_match
from rummykit.server.wire import LoggedMove, TableOut, ViewOut
from rummykit.variants.base import RulesLike
from rummykit.variants.registry import variant_for

__all__ = ["SPECTATOR", "Change", "Event", "LiveTable", "event_head", "table_rules"]


def event_head(version: int, kind: str, seat: int | None, move: str | None,
               match: str, bot: bool = False) -> str:
    """The part of an ``event`` message every viewer shares (the fields before ``view``,
    as :class:`EventOut` orders them); ``match`` is the match's ``MatchOut`` JSON."""
    return (f'{{"type":"event","version":{version},"kind":{string_json(kind)},'
            f'"seat":{"null" if seat is None else int(seat)},'
            f'"move":{"null" if move is None else string_json(move)},'
            f'"bot":{"true" if bot else "false"},"match":{match}')


@dataclass(slots=True)
class Change:
    """What a step produced: events to commit (and the finished match, if it ended), and
    the draft table they lead to (adopted once they are committed)."""

    rows: list[EventRow]
    events: list[Event]
    finished: Finished | None
    draft: LiveTable | None = None


def table_rules(name: str, options: dict[str, Any], max_turns: int) -> RulesLike:
    """The rules of a table (any family's); a turn limit is added unless the options set
    one."""
    options = dict(options)
    options.setdefault("max_turns_per_hand", max_turns)
    try:
        rules: RulesLike = variant_for(name).rules_from_options(name, options)
    except RummyError as error:
        raise ServerError("bad_request", f"options: {error}") from None
    return rules


class LiveTable:
    """One table in memory, rebuilt from storage after a restart."""

    def __init__(self, row: TableRow, seats: list[SeatRow], rules: RulesLike,
                 history: int) -> None:
        self.row = row
        self.seats = seats
        self.rules = rules
        #: how the family's hands are shown (views, events, the log)
        self.face: TableFace = face_for(rules)
        self.match: FamilyMatch[Any, Any] | None = None
        self.history: deque[Event] = deque(maxlen=max(history, 1))
        self.rematch_votes: set[int] = set()
        self._restocks_logged = 0
        #: the match's MatchOut JSON and what it was rendered for (see _match_json)
        self._match_text: tuple[tuple[int, int, bool, bool], str] | None = None
        #: the current hand's moves: (version, seat, move in notation, made by the seat's
        #: bot); public, since notation names no hidden card (``draw`` says nothing of
        #: the card drawn)
        self.hand_log: list[tuple[int, int, str, bool]] = []
        #: monotonic clock: loaded; last commit or (dis)connection; last human presence
        self.loaded_at = self.touched = self.active_at = time.monotonic()
        #: CPU seconds its bots have spent since it was loaded
        self.bot_cpu = 0.0
        #: a stand-in for a table another node owns: that node, and the table as it said
        self.owner: str | None = None
        self.remote_out: TableOut | None = None
        #: the record of a trusted replay (see :meth:`restore`), until it is checked
        self.unchecked: Record | None = None

    @classmethod
    def stub(cls, out: TableOut, owner: str) -> LiveTable:
        """A stand-in for a table owned by node ``owner``, from what that node said:
        requests on it are forwarded there."""
        row = TableRow(out.id, out.rules, out.options, out.status,
                       0 if out.match is None else out.match.number, out.version, None)
        seats = [SeatRow(s.seat, s.kind, s.name, s.level, None, s.controller, left=s.left)
                 for s in out.seats]
        stub = cls(row, seats, variant_for(out.rules).rules_from_options(out.rules, out.options),
                   1)
        stub.owner, stub.remote_out = owner, out
        return stub

    # -- facts --------------------------------------------------------------------
    @property
    def id(self) -> str:
        """The public id (spectators use it)."""
        return self.row.id

    @property
    def version(self) -> int:
        """The number of events so far."""
        return self.row.version

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``over``."""
        return self.row.status

    def seat_of_hash(self, token_hash: str) -> int | None:
        """The seat whose token hashes to ``token_hash``."""
        for seat in self.seats:
            if seat.token_hash is not None and seat.token_hash == token_hash:
                return seat.seat
        return None

    def to_move(self) -> int | None:
        """The seat to move, if a hand is being played."""
        if self.row.status != "playing" or self.match is None or self.match.state is None:
            return None
        state = self.match.state
        return None if state.is_over else state.to_move

    def viewer(self, recipient: int) -> Any:
        """What ``recipient`` (a seat, or :data:`SPECTATOR`) sees now: the family's view
        (a core ``PlayerView``, or the family's own), or None before the first deal."""
        if self.match is None or self.match.state is None:
            return None
        return self.face.view(self.match.state, recipient)

    def sync_parts(self, recipient: int
                   ) -> tuple[ViewOut | dict[str, Any] | None, list[str], list[LoggedMove]]:
        """What a resync tells ``recipient``: its view and legal moves in wire form, and
        the current hand's moves as it may read them."""
        seen = self.viewer(recipient)
        if seen is None or self.match is None:
            return None, [], []
        over = self.match.state is None or self.match.state.is_over
        return (self.face.wire_view(self.match, seen), self.face.legal(seen),
                self.face.log(self.hand_log, recipient, over))

    # -- steps (each on a draft) -------------------------------------------------
    def draft(self) -> LiveTable:
        """A copy to make a step on: its own row, match and logs; seats and history shared
        (seats change through their own commits, history only with adopted changes)."""
        new = LiveTable.__new__(LiveTable)
        new.row = self.row.copy()
        new.seats = self.seats
        new.rules = self.rules
        new.face = self.face
        new.match = None if self.match is None else self.match.copy()
        new.history = self.history
        new.rematch_votes = set(self.rematch_votes)
        new._restocks_logged = self._restocks_logged
        new._match_text = self._match_text
        new.hand_log = self.hand_log[:]
        return new

    def adopt(self, change: Change) -> None:
        """Take on a committed change's draft and keep its events for reconnects."""
        draft = change.draft
        if draft is not None and draft is not self:
            self.row, self.match = draft.row, draft.match
            self.rematch_votes = draft.rematch_votes
            self._restocks_logged, self.hand_log = draft._restocks_logged, draft.hand_log
            self._match_text = draft._match_text
        self.history.extend(change.events)

    def start_match(self) -> Change:
        """Deal the first hand of a new match (the first, or a rematch), on a draft."""
        return self.draft()._start_match()

    def rematch(self) -> Change:
        """Start the next match at this table, on a draft."""
        new = self.draft()
        new.row.match_no += 1
        return new._start_match()

    def end_unfinished(self) -> Change:
        """End the table with its match unfinished (no record, no statistics), on a
        draft: it is over and no one moves any more."""
        new = self.draft()
        new.row.status = "over"
        return Change([], [], None, new)

    def _start_match(self) -> Change:
        names = [s.name or f"Seat {s.seat + 1}" for s in self.seats]
        seed = None if self.row.seed is None else self.row.seed + self.row.match_no
        self.match = (Match(self.rules, names, seed=seed) if isinstance(self.rules, Rules)
                      else FamilyMatch(self.rules, names, seed=seed))
        self.row.status = "playing"
        self.rematch_votes.clear()
        return self._deal_until_playing(Change([], [], None, self))

    def play(self, seat: int, text: str, version: int, by_bot: bool = False) -> Change:
        """Make ``seat``'s move ``text`` made against ``version`` (by the seat's bot when
        ``by_bot``) on a draft; raises :class:`ServerError` (nothing changed) when it is
        refused."""
        if self.row.status == "waiting":
            raise ServerError("not_started", "the match has not started: seats are open")
        if self.row.status == "over" or self.match is None or self.match.state is None:
            raise ServerError("match_over", "the match is over")
        if version != self.row.version:
            raise ServerError("stale_version", f"the move was made against version {version}, "
                              f"the table is at version {self.row.version}")
        if seat != self.match.state.to_move:
            raise ServerError("not_your_turn",
                              f"it is seat {self.match.state.to_move}'s turn, not seat {seat}'s")
        new = self.draft()
        assert new.match is not None
        known = self._listed_move(seat, text)
        try:
            if known is not None:  # one of the moves the last event listed: legal
                new.match.push(known)
                move = known
            else:
                move = new.match.play(text)
        except RummyError as error:
            raise from_engine(error) from None
        change = Change([], [], None, new)
        written = str(move)
        data: dict[str, Any] = {"seat": seat, "move": written}
        if by_bot:
            data["bot"] = True
        new._log(change, "move", seat, written, data)
        return new._deal_until_playing(change)

    def _listed_move(self, seat: int, text: str) -> Any:
        """The move ``text`` writes when it is one of the legal moves the last event gave
        ``seat`` (in canonical notation), else None (the move is then checked)."""
        last = self.history[-1] if self.history else None
        if isinstance(last, EventText) and last.version == self.row.version:
            return last.legal_move(seat, text)
        return None

    def _deal_until_playing(self, change: Change) -> Change:
        match = self.match
        assert match is not None
        while not match.over and (match.state is None or match.state.is_over):
            state = match.start_hand()
            self._restocks_logged = 0
            deck = match.hands[-1].deck
            assert deck is not None
            self._log(change, "deal", None, None, {"deck": [format_card(c) for c in deck],
                                                    "dealer": state.dealer})
        if match.over:
            self.row.status = "over"
            change.finished = Finished(self.row.match_no, self.rules.name,
                                       dumps(record_of(match)),
                                       tuple(SeatResult(r.name, r.won, r.lost)
                                             for r in match.results()))
        return change

    def _log(self, change: Change, kind: str, seat: int | None, move: str | None,
             data: dict[str, Any]) -> None:
        match = self.match
        assert match is not None and match.state is not None
        restocks = match.state.restocks[self._restocks_logged:]
        if restocks:
            data["restocks"] = [[format_card(c) for c in r] for r in restocks]
            self._restocks_logged = len(match.state.restocks)
        self.row.version += 1
        version = self.row.version
        change.rows.append(EventRow(version, self.row.match_no, kind, data))
        if kind == "deal":
            self.hand_log = []
        elif seat is not None and move is not None:
            self.hand_log.append((version, seat, move, bool(data.get("bot"))))
        match_json, bot = self._match_json(match), bool(data.get("bot"))

        def head_for(shown: str | None) -> str:
            return event_head(version, kind, seat, shown, match_json, bot)

        change.events.append(self.face.event(version, head_for, move, seat, match))

    def _match_json(self, match: FamilyMatch[Any, Any]) -> str:
        """The match's ``MatchOut`` JSON, rendered again only when a hand ends."""
        key = (self.row.match_no, len(match.hands), match.over,
               match.hands[-1].result is not None if match.hands else False)
        if self._match_text is None or self._match_text[0] != key:
            self._match_text = (key, match_out(match, self.row.match_no).model_dump_json())
        return self._match_text[1]

    def backlog(self, since: int) -> list[Event] | None:
        """The events after version ``since``, or None when they are no longer all kept."""
        if since == self.row.version:
            return []
        if since > self.row.version or not self.history:
            return None
        first = self.history[0].version
        if since + 1 < first:
            return None
        return [e for e in self.history if e.version > since]

    def take_state(self, other: LiveTable) -> None:
        """Become ``other`` (a fresh load of this table) in place: connections keep
        their reference to this object."""
        self.row, self.seats, self.match = other.row, other.seats, other.match
        self.rematch_votes, self.hand_log = other.rematch_votes, other.hand_log
        self._restocks_logged = other._restocks_logged
        self.history.clear()

    # -- loading ------------------------------------------------------------------
    @classmethod
    def restore(cls, stored: StoredTable, rules: RulesLike, history: int,
                trusted: bool = False) -> LiveTable:
        """Rebuild a table from storage: replay its current match's record (``trusted``:
        without the rule checks when its log holds together, for the engine's families;
        the record to check later is then :attr:`unchecked`, see
        :mod:`rummykit.server.trusted`)."""
        table = cls(stored.table, stored.seats, rules, history)
        if stored.table.status == "waiting":
            return table
        hands: list[HandRecord] = []
        restocks: list[list[tuple[int, ...]]] = []
        moves: list[list[str]] = []
        for event in stored.events:
            if event.kind == "deal":
                table.hand_log = []
            else:
                table.hand_log.append((event.version, event.data["seat"], event.data["move"],
                                       bool(event.data.get("bot"))))
            if event.kind == "deal":
                hands.append(HandRecord(deck=tuple(parse_card(c) for c in event.data["deck"])))
                restocks.append([])
                moves.append([])
            else:
                moves[-1].append(event.data["move"])
            restocks[-1].extend(tuple(parse_card(c) for c in r)
                                for r in event.data.get("restocks", []))
        records = tuple(HandRecord(deck=h.deck, restocks=tuple(r), moves=tuple(m))
                        for h, r, m in zip(hands, restocks, moves, strict=True))
        names = tuple(s.name or f"Seat {s.seat + 1}" for s in stored.seats)
        seed = None if stored.table.seed is None else stored.table.seed + stored.table.match_no
        first = stored.events[0] if stored.events else None
        dealer = first.data.get("dealer") if first is not None else None
        record = Record(rules=rules.name, players=names, hands=records,
                        options=options_of(rules), dealer=dealer,
                        seed=seed)
        match: FamilyMatch[Any, Any] | None = None
        if trusted and isinstance(rules, Rules):
            match = trusted_match(record, rules, stored.events, stored.table.version)
        if match is None:
            replayed = replay(record)
            if replayed.error is not None or replayed.match is None:
                raise RuntimeError(f"table {stored.table.id}: stored events do not replay: "
                                   f"{replayed.error}")
            match = replayed.match
        else:
            table.unchecked = record
        table.match = match
        if seed is None:  # the replay's generator was seeded from the clock; keep it secret
            table.match.rng.seed(random.SystemRandom().getrandbits(64))
        if table.match.state is not None:
            table._restocks_logged = len(table.match.state.restocks)
        return table
