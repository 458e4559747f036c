"""The hub's tables and seats: creating a table, joining, leaving, a bot taking a seat
over and its player taking it back, rematches, resigning and absence, binding a player.
Every seat write is fenced (see :meth:`HubSeats._save_seat`)."""

from __future__ import annotations

import dataclasses
import functools
import logging
import secrets
from abc import abstractmethod

from rummykit.core.errors import RummyError
from rummykit.server.bots import bot_levels, default_level
from rummykit.server.errors import ServerError
from rummykit.server.hub_base import hash_token
from rummykit.server.hub_commits import HubCommits
from rummykit.server.players import count_resignation
from rummykit.server.storage import Fenced, SeatRow, SeatWork, TableRow
from rummykit.server.table import LiveTable, table_rules
from rummykit.server.wire import CreateTable, SeatToken
from rummykit.variants.registry import knob_options, variant_of

log = logging.getLogger("rummykit.server")


class HubSeats(HubCommits):
    """Who sits where, and who plays each seat (its player or its bot)."""

    @abstractmethod
    async def get(self, table_id: str) -> LiveTable:
        """A table, loaded when need be (see :meth:`rummykit.server.hub.Hub.get`)."""

    # -- tables and seats ---------------------------------------------------------
    async def create(self, spec: CreateTable,
                     player: str | None = None) -> tuple[LiveTable, list[SeatToken]]:
        """Open a table; it starts as soon as every human seat is taken. ``player`` (the
        creator) sits at the first named human seat."""
        if spec.seed is not None and not self.settings.allow_seeds:
            raise ServerError("bad_request", "seed: this server does not accept seeds")
        try:
            options = knob_options(spec.rules, spec.options)
        except ValueError as error:
            raise ServerError("bad_request", f"options: {error}") from None
        rules = table_rules(spec.rules, options, self.settings.max_turns_per_hand)
        try:
            rules.check_players(len(spec.seats))
            variant_of(rules).check_supported(rules, len(spec.seats))
        except RummyError as error:
            raise ServerError("bad_request", f"seats: {error}") from None
        seats, tokens = [], []
        for index, want in enumerate(spec.seats):
            if want.kind == "bot":
                level = want.level or default_level(rules)
                if level not in bot_levels(rules):
                    raise ServerError("bad_request", f"seats[{index}].level: unknown bot "
                                      f"{level!r}: expected one of "
                                      f"{', '.join(bot_levels(rules))}")
                name = want.name or f"Bot {index + 1} ({level})"
                seats.append(SeatRow(index, "bot", name, level, None, "bot"))
            elif want.level is not None:
                raise ServerError("bad_request", f"seats[{index}].level: only bots have one")
            elif want.name is None:
                seats.append(SeatRow(index, "human", None, None, None, "open"))
            else:
                token = secrets.token_urlsafe(24)
                tokens.append(SeatToken(seat=index, name=want.name, token=token))
                seats.append(SeatRow(index, "human", want.name, None, hash_token(token),
                                     "human", player if len(tokens) == 1 else None))
        private = spec.private if spec.private is not None else \
            all(s.controller != "open" for s in seats)
        row = TableRow(secrets.token_urlsafe(8), spec.rules, options, "waiting",
                       0, 0, spec.seed, private=private)
        table = LiveTable(row, seats, rules, self.settings.history)
        if self.cluster is not None and await self.cluster.claim(table.id) is not None:
            raise ServerError("unavailable", "a table id clashed: try again")
        async with self.lock(table.id):
            await self.db(self.storage.create_table, dataclasses.replace(row),
                          [dataclasses.replace(s) for s in seats])
            self.tables[table.id] = table
            self._index_tokens(table)
            await self._start_if_full(table)
        return table, tokens

    async def _start_if_full(self, table: LiveTable) -> None:
        if table.status != "waiting" or any(s.controller == "open" for s in table.seats):
            return
        await self._commit(table, table.start_match())
        for seat in table.seats:
            self._watch(table, seat.seat)

    async def join(self, table_id: str, name: str, player: str | None = None) -> SeatToken:
        """Take the first open seat of a waiting table (as ``player``, when known)."""
        table = await self.get(table_id)
        if table.owner is not None:
            return SeatToken.model_validate(await self._forward(table, "join", name=name,
                                                                player=player))
        async with self.lock(table.id):
            seat = next((s for s in table.seats if s.controller == "open"), None)
            if table.status != "waiting" or seat is None:
                raise ServerError("no_open_seat", "this table has no open seat")
            token = secrets.token_urlsafe(24)
            if player is not None and any(s.player == player for s in table.seats):
                player = None  # one record per player and match: a second seat is anonymous
            updated = dataclasses.replace(seat, name=name, token_hash=hash_token(token),
                                          controller="human", player=player)
            await self._save_seat(table, updated)
            self._index_tokens(table)
            self._broadcast_seats(table)
            await self._start_if_full(table)
        return SeatToken(seat=seat.seat, name=name, token=token)

    async def _set_controller(self, table: LiveTable, seat: int, controller: str,
                              release: bool = False) -> None:
        updated = dataclasses.replace(table.seats[seat], controller=controller)
        if release:  # an open seat again: no name, the old token is void
            updated.name = updated.token_hash = updated.player = None
        await self._save_seat(table, updated)
        self._broadcast_seats(table)
        self._schedule_bot(table)

    async def _save_seat(self, table: LiveTable, updated: SeatRow,
                         also: SeatWork | None = None) -> None:
        """Store a seat change (and ``also``, in the same transaction), fenced: when the
        stored table has moved on (another node changed it) nothing changes, and this
        node stops serving it as it stands (a cluster node drops it, a lone one reloads
        it)."""
        try:
            await self.db(self.storage.save_seat, table.id, updated, table.version,
                          table.row.seats_version, also)
        except Fenced:
            log.warning("table %s: a seat update was fenced out (storage moved on)",
                        table.id)
            if self.cluster is not None:
                self.drop(table.id)
            else:
                self._doubt(table.id)
            raise
        table.seats[updated.seat] = updated
        table.row.seats_version += 1

    async def leave(self, table: LiveTable, seat: int) -> None:
        """A player leaves: an open seat again before the start, else a bot plays it."""
        if table.owner is not None:
            await self._forward(table, "leave", seat=seat)
            return
        async with self.lock(table.id):
            table.rematch_votes.discard(seat)
            if table.status == "waiting":
                await self._set_controller(table, seat, "open", release=True)
            elif table.seats[seat].controller == "human":
                await self._set_controller(table, seat, "bot")
                self._arrived.add((table.id, seat))  # away: a resignation after the grace
                self._absent(table, seat)
            else:
                self._broadcast_seats(table)
            if table.status == "over":
                await self._rematch_if_agreed(table)

    async def take_back(self, table: LiveTable, seat: int) -> None:
        """The human of ``seat`` plays again (after a bot took over)."""
        if table.owner is not None:
            await self._forward(table, "take_back", seat=seat)
            return
        self._cancel_timer(table.id, seat)
        row = table.seats[seat]
        if row.kind == "human" and row.left is None and (
                row.controller == "bot" or (table.id, seat) in self._taking):
            async with self.lock(table.id):  # after a take-over in flight, if any
                if table.seats[seat].controller == "bot" and table.seats[seat].left is None:
                    await self._set_controller(table, seat, "human")

    async def vote_rematch(self, table: LiveTable, seat: int) -> None:
        """``seat`` wants a rematch; it starts when every human-played seat does."""
        if table.owner is not None:
            await self._forward(table, "rematch", seat=seat)
            return
        async with self.lock(table.id):
            if table.status != "over":
                raise ServerError("not_over", "a rematch can start only after the match")
            table.rematch_votes.add(seat)
            self._broadcast_seats(table)
            await self._rematch_if_agreed(table)

    async def _rematch_if_agreed(self, table: LiveTable) -> None:
        humans = {s.seat for s in table.seats if s.controller == "human"}
        if table.status == "over" and table.rematch_votes and humans <= table.rematch_votes:
            for seat in sorted(table.rematch_votes):  # a player who left and wants more is back
                if table.seats[seat].left is not None:
                    back = dataclasses.replace(table.seats[seat], controller="human", left=None)
                    await self._save_seat(table, back)
            await self._commit(table, table.rematch())
            self._broadcast_seats(table)

    # -- resigning and absence ----------------------------------------------------
    async def resign(self, table: LiveTable, seat: int) -> None:
        """``seat``'s player resigns: the match counts as lost for them, the seat's bot
        plays on for the others (the match ends if no other player is left)."""
        if table.owner is not None:
            await self._forward(table, "resign", seat=seat)
            return
        async with self.lock(table.id):
            if table.status == "waiting":
                raise ServerError("not_started", "the match has not started: leave instead")
            if table.status == "over":
                raise ServerError("match_over", "the match is over")
            if table.seats[seat].left is not None:
                raise ServerError("resigned", "you have already left this match")
            await self._leave_match(table, seat, "resigned")

    async def _leave_match(self, table: LiveTable, seat: int, why: str) -> None:
        """Under the table's lock: ``seat``'s player leaves the match (``resigned`` or
        ``absent``), counted as a loss at once; its bot plays on while another player
        is still in the match, else the match ends unfinished."""
        updated = dataclasses.replace(table.seats[seat], controller="bot", left=why)
        # fenced (a stale node changes nothing), the loss counted and rated with it, in
        # one transaction: a failure changes neither
        count = None if self.players is None else functools.partial(
            count_resignation, table_id=table.id, seat=updated, rules=table.rules.name)
        await self._save_seat(table, updated, count)
        self._cancel_timer(table.id, seat)
        table.rematch_votes.discard(seat)
        log.info("table %s: seat %d left the match (%s)", table.id, seat, why)
        if not any(s.kind == "human" and s.left is None for s in table.seats):
            await self._commit(table, table.end_unfinished())
            for conn in list(self.conns.get(table.id, ())):
                conn.send(self.sync_text(table, conn.recipient))
        self._broadcast_seats(table)
        self._schedule_bot(table)

    async def bind_player(self, table: LiveTable, seat: int, player: str) -> None:
        """Seat ``seat`` is ``player``'s (its statistics and rating count there), unless
        the seat has a player already or ``player`` sits at another seat (on a table
        another node owns: that node decides)."""
        if table.owner is not None:
            await self._forward(table, "bind", seat=seat, player=player)
            return
        if table.seats[seat].kind != "human":
            return
        async with self.lock(table.id):
            if table.seats[seat].player is not None or any(
                    s.player == player for s in table.seats):
                return
            updated = dataclasses.replace(table.seats[seat], player=player)
            await self._save_seat(table, updated)

    async def _take_over_now(self, table: LiveTable, seat: int) -> None:
        self._taking.add((table.id, seat))
        try:
            async with self.lock(table.id):
                row = table.seats[seat]
                if table.status != "playing" or row.left is not None:
                    pass
                elif (table.id, seat) in self._arrived:
                    log.info("table %s: seat %d away past the grace period", table.id, seat)
                    await self._leave_match(table, seat, "absent")
                elif row.controller == "human" and not self.connected(table.id, seat):
                    log.info("table %s: a bot takes over seat %d", table.id, seat)
                    await self._set_controller(table, seat, "bot")
        finally:
            self._taking.discard((table.id, seat))
