"""The hub: live tables, their connections, commits, broadcasts, bots and grace timers.

Every change to a table happens under that table's lock, on a draft of the table, and is
committed to storage before the table adopts it and anyone hears of it. A refused commit
changes nothing (the client gets ``unavailable``); the table is then checked against
storage until storage answers again, and its bots and timers go on. A table whose stored
events do not replay is quarantined (logged, listed by :meth:`Hub.health`); the others
serve.

The hub is built in layers, one module each: its state and storage plumbing
(:mod:`~rummykit.server.hub_base`), views and broadcasts (:mod:`~rummykit.server.hub_views`),
timers and bots (:mod:`~rummykit.server.hub_timers`), commits and healing
(:mod:`~rummykit.server.hub_commits`), tables and seats (:mod:`~rummykit.server.hub_seats`);
this module adds loading, connections, the sweep and the move path.
"""

from __future__ import annotations

import asyncio
import logging
import time

from rummykit.server.adoption import BatchLoads, adopt_orphans
from rummykit.server.cluster import Cluster, OwnerGone, RemoteOutbox
from rummykit.server.errors import ServerError
from rummykit.server.hinting import advise
from rummykit.server.hub_base import Outbox, hash_token
from rummykit.server.hub_seats import HubSeats
from rummykit.server.storage import StoredTable
from rummykit.server.table import SPECTATOR, LiveTable
from rummykit.server.wire import HintOut, TableOut, Welcome

__all__ = ["ADOPT_EVERY", "Hub", "Outbox", "hash_token"]

log = logging.getLogger("rummykit.server")
#: seconds between two of a node's sweeps for tables without a live owner
ADOPT_EVERY = 1.0


class Hub(HubSeats):
    """Owns the live tables and talks to storage through one worker thread."""

    #: as a node of a cluster: the loads of single tables, read in batches
    cluster_loads: BatchLoads | None = None

    async def start(self) -> None:
        """Load every unfinished table back and let play continue (as one node of a
        cluster: join it; tables without an owner are adopted by the heartbeat). The
        tables loaded at the start are replayed with the rule checks; those loaded later
        (a cluster node adopting a dead node's tables, a table back from eviction) by a
        trusted replay, checked afterwards off the event loop."""
        if self.settings.redis_url is not None:
            self._trust_loads = True
            self.cluster = Cluster(self, self.settings.redis_url, self.settings.lease_seconds)
            self.cluster_loads = BatchLoads(self)
            await self.cluster.start()
            self._sweeper = asyncio.create_task(self._sweep_forever())
            return
        for table_id in await self.db(self.storage.unfinished):
            try:
                table = await self.get(table_id)
            except ServerError as error:
                if table_id in self.quarantined:
                    continue
                raise error from None
            for seat in table.seats:
                self._watch(table, seat.seat)
            self._schedule_bot(table)
        log.info("loaded %d unfinished tables, %d quarantined", len(self.tables),
                 len(self.quarantined))
        self._trust_loads = True
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def stop(self) -> None:
        """Cancel timers and bots, close storage."""
        tasks = [*self._bot_tasks.values(), *self._timers.values(), *self.checking.values(),
                 *(t for t in (self._healer, self._sweeper) if t is not None)]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.cluster is not None:
            await self.cluster.stop()
        self._bots.close()
        self._checks.close()
        self._reads.shutdown()
        self._db.submit(self.storage.close).result()
        self._db.shutdown()

    # -- loading ------------------------------------------------------------------
    async def get(self, table_id: str, stored: bool = False) -> LiveTable:
        """A table, loaded from storage when it is not in memory (once, however many ask
        meanwhile); ``stored``: the caller has just found it in storage (a cluster node
        need not look again before claiming it)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is not None:
            try:
                return await asyncio.shield(loading)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not loading.cancelled() or (task is not None and task.cancelling()):
                    raise
                return await self.get(table_id, stored)  # its loader was cancelled
        future: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load(table_id, stored)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: the waiters (if any) get it too
            raise
        else:
            future.set_result(table)
            return table
        finally:
            del self._loading[table_id]

    async def served_here(self, table_id: str) -> LiveTable | None:
        """The table if this node serves it, once loaded when it is being loaded here (a
        table being adopted is asked for by the clients its dead owner's neighbours just
        closed); None if it is not served here."""
        table = self.tables.get(table_id)
        loading = self._loading.get(table_id)
        if table is not None or loading is None:
            return table
        loaded = await asyncio.shield(loading)
        return loaded if loaded.owner is None else None  # a stub: another node serves it

    async def _load(self, table_id: str, stored: bool) -> LiveTable:
        if table_id in self.quarantined:
            raise ServerError("unavailable", f"table {table_id!r} is quarantined: "
                              f"{self.quarantined[table_id]}")
        if self.cluster is not None:
            if not stored and not await self.read(self.storage.exists, table_id):
                raise ServerError("unknown_table", f"no table {table_id!r}")
            while (owner := await self.cluster.claim(table_id)) is not None:
                try:
                    out = await self.cluster.call(owner, "table", table_id)
                except OwnerGone:
                    continue  # claim it once its lease runs out
                return LiveTable.stub(TableOut.model_validate(out), owner)
            table = self.tables.get(table_id)
            if table is not None:
                return table
        # as a node: read together with the other tables asked for meanwhile
        found = await (self.cluster_loads.load(table_id) if self.cluster_loads is not None
                       else self.read(self.storage.load, table_id))
        return await self.serve_stored(table_id, found)

    async def serve_stored(self, table_id: str, stored: StoredTable | None) -> LiveTable:
        """Serve a table loaded from storage (unless it was loaded meanwhile): restored,
        started if every seat was taken, its timers and bots going."""
        table = self.tables.get(table_id)  # loaded meanwhile
        if table is not None:
            return table
        if stored is None:
            raise ServerError("unknown_table", f"no table {table_id!r}")
        table = self._restore(stored, self._trust_loads)
        self.tables[table_id] = table
        self._index_tokens(table)
        if table.status == "waiting":  # every seat taken, then a crash before the start
            async with self.lock(table_id):
                await self._start_if_full(table)
        for seat in table.seats:
            self._watch(table, seat.seat)
        self._schedule_bot(table)
        return table

    async def adopt_orphans(self, now: bool = False) -> None:
        """Adopt the tables in play that no live node owns (their owner died), about once
        a second or ``now`` (a node was just seen dead), in batches
        (:mod:`~rummykit.server.adoption`); their bots and timers go on here."""
        assert self.cluster is not None
        at = time.monotonic()
        if not now and at - self._adopted_at < ADOPT_EVERY:
            return
        self._adopted_at = at
        adopted = await adopt_orphans(self)
        if adopted:
            log.info("adopted %d tables without a live owner in %.2f s", adopted,
                     time.monotonic() - at)

    async def by_token(self, token: str, table_id: str | None = None) -> tuple[LiveTable, int]:
        """The table and seat of a secret token; ``bad_token`` if it sits at no table, or
        at another table than ``table_id`` when that is given."""
        table, seat = await self._find_token(token)
        if table_id is not None and table.id != table_id:
            raise ServerError("bad_token", "this token belongs to another table")
        return table, seat

    async def _find_token(self, token: str) -> tuple[LiveTable, int]:
        digest = hash_token(token)
        table_id = self._tokens.get(digest)  # a table in memory: no scan, no query
        table = None if table_id is None else self.tables.get(table_id)
        if table is not None:
            seat = table.seat_of_hash(digest)
            if seat is not None:
                return table, seat
        found = await self.read(self.storage.find_token, digest)
        if found is None:
            raise ServerError("bad_token", "no seat has this token")
        return await self.get(found[0], stored=True), found[1]

    # -- moves --------------------------------------------------------------------
    async def move(self, table: LiveTable, seat: int, text: str, version: int,
                   by_bot: bool = False) -> int:
        """Make a move (the seat's bot's when ``by_bot``); returns the version it was
        committed as. A player who left the match moves no more (``resigned``)."""
        if not by_bot and table.seats[seat].left is not None:
            raise ServerError("resigned", "you left this match: the seat's bot plays it")
        if table.owner is not None:
            committed = await self._forward(table, "move", seat=seat, text=text,
                                            version=version)
            assert isinstance(committed, int)
            return committed
        async with self.lock(table.id):
            if table.id in self._unsure:  # its last commit failed
                await self._heal(table)
            change = table.play(seat, text, version, by_bot)
            committed = change.events[0].version
            await self._commit(table, change)
            return committed

    async def hint(self, table: LiveTable, seat: int) -> HintOut:
        """Advice for ``seat``, to move, from its own view (the search runs in a thread)."""
        if table.owner is not None:
            return HintOut.model_validate(await self._forward(table, "hint", seat=seat))
        if table.status == "waiting":
            raise ServerError("not_started", "the match has not started: seats are open")
        seen = table.viewer(seat)
        if table.status == "over" or seen is None or seen.result is not None:
            raise ServerError("match_over", "no hand is being played")
        if seen.to_move != seat:
            raise ServerError("not_your_turn",
                              f"it is seat {seen.to_move}'s turn, not seat {seat}'s")
        key = (table.id, seat)
        if key in self._hinting:  # one search per seat at a time: hints cost CPU
            raise ServerError("rate_limited", "a hint for this seat is being worked out")
        self._hinting.add(key)
        try:
            return await asyncio.to_thread(advise, seen, self.settings.hint_level,
                                           self._rng.getrandbits(63))
        finally:
            self._hinting.discard(key)

    # -- connections --------------------------------------------------------------
    async def connect(self, conn: Outbox, table: LiveTable, since: int | None) -> None:
        """Register ``conn``; send the events it missed since ``since``, or a resync.

        A returning player takes the seat back from its bot first, so what it is sent
        already shows it in control."""
        if table.owner is not None:
            assert self.cluster is not None
            await self.cluster.attach(conn, table.owner, since)
            return
        if conn.recipient != SPECTATOR:
            await self.take_back(table, conn.recipient)
        async with self.lock(table.id):
            recipient = conn.recipient
            conn.send(Welcome(table=table.id, seat=None if recipient == SPECTATOR else recipient,
                              role="spectator" if recipient == SPECTATOR else "player"
                              ).model_dump_json())
            missed = None if since is None else table.backlog(since)
            if missed is None:
                conn.send(self.sync_text(table, recipient))
            else:
                for event in missed:
                    conn.send(event.text(recipient))
            self.conns.setdefault(table.id, set()).add(conn)
            table.touched = time.monotonic()
            if recipient != SPECTATOR:
                self._arrived.add((table.id, recipient))
            self._broadcast_seats(table)

    async def resync(self, conn: Outbox, table: LiveTable) -> None:
        """Send ``conn`` a full resync."""
        if table.owner is not None:
            text = await self._forward(table, "sync", seat=conn.recipient)
            assert isinstance(text, str)
            conn.send(text)
        else:
            conn.send(self.sync_text(table, conn.recipient))

    def disconnect(self, conn: Outbox) -> None:
        """Forget ``conn``; a human seat left without connection starts its grace period."""
        if isinstance(conn, RemoteOutbox):
            assert self.cluster is not None
            self.cluster.remote.pop((conn.node, conn.conn_id), None)
        elif self.cluster is not None and self.cluster.detach(conn):
            return
        group = self.conns.get(conn.table_id)
        if group is None or conn not in group:
            return
        group.discard(conn)
        table = self.tables.get(conn.table_id)
        if table is None:
            return
        table.touched = time.monotonic()
        if not group and table.status == "over":
            del self.conns[conn.table_id]
            self._arrived = {k for k in self._arrived if k[0] != table.id}
            self.tables.pop(table.id, None)  # reloaded from storage when asked for
            self._forget_tokens(table)
            return
        self._broadcast_seats(table)
        if conn.recipient != SPECTATOR:
            self._watch(table, conn.recipient)

    # -- eviction and abandoned tables ---------------------------------------------
    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # a bug must not stop the sweeps
                log.exception("sweep failed")

    async def sweep(self, now: float | None = None) -> None:
        """Evict idle and finished tables nobody is connected to, end abandoned tables
        and bot-only tables past their time or CPU."""
        now = time.monotonic() if now is None else now
        settings = self.settings
        for table in list(self.tables.values()):
            conns = self.conns.get(table.id, ())
            seated = any(c.recipient != SPECTATOR for c in conns)
            if table.status == "playing" and table.id not in self._unsure:
                why = None
                if all(s.kind == "bot" for s in table.seats):
                    if now - table.loaded_at > settings.bot_table_seconds:
                        why = "a bot-only table past its time"
                    elif table.bot_cpu > settings.bot_table_cpu_seconds:
                        why = "a bot-only table past its CPU"
                elif seated or any(s.controller == "human" for s in table.seats):
                    table.active_at = now
                elif now - table.active_at > settings.abandon_seconds:
                    why = "abandoned: no human plays or is connected"
                if why is not None:
                    await self._end_unfinished(table, why)
            if conns:
                continue
            idle = now - table.touched
            if (table.status == "over" and idle > settings.finished_seconds) or (
                    table.status == "waiting" and idle > settings.idle_seconds):
                self._evict(table)

    async def _end_unfinished(self, table: LiveTable, why: str) -> None:
        async with self.lock(table.id):
            if table.status != "playing":
                return
            try:
                await self._commit(table, table.end_unfinished())
            except ServerError:
                return  # storage is down: the next sweep tries again
            log.info("table %s ended unfinished: %s", table.id, why)
            for conn in list(self.conns.get(table.id, ())):
                conn.send(self.sync_text(table, conn.recipient))
            self._broadcast_seats(table)
