"""The hub: live tables, their connections, commits, broadcasts, bots and grace timers.

Every change to a table happens under that table's lock, on a draft of the table, and is
committed to storage before the table adopts it and anyone hears of it. A refused commit
changes nothing (the client gets ``unavailable``); the table is then checked against
storage until storage answers again, and its bots and timers go on. A table whose stored
events do not replay is quarantined (logged, listed by :meth:`Hub.health`); the others
serve.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, TypeVar

from rummykit.core.errors import RummyError
from rummykit.server.bots import BotRunner, bot_levels, default_level
from rummykit.server.cluster import Cluster, OwnerGone, RemoteOutbox
from rummykit.server.errors import ServerError
from rummykit.server.hinting import advise
from rummykit.server.players import PlayerStore
from rummykit.server.render import match_out
from rummykit.server.settings import Settings
from rummykit.server.storage import Fenced, SeatRow, Storage, StoredTable, TableRow
from rummykit.server.table import SPECTATOR, Change, Event, LiveTable, table_rules
from rummykit.server.wire import (
    CreateTable,
    HintOut,
    SeatOut,
    SeatsOut,
    SeatToken,
    SyncOut,
    TableOut,
    Welcome,
)
from rummykit.server.writer import GroupWriter
from rummykit.variants.registry import variant_of

log = logging.getLogger("rummykit.server")
_T = TypeVar("_T")
#: seconds a table stays without an owner before a node's sweep adopts it
ADOPT_AFTER = 2.0


class Outbox(Protocol):
    """A connection as the hub sees it: who it is for and where its messages go."""

    table_id: str
    recipient: int

    def send(self, text: str) -> None:
        """Queue one message."""


def hash_token(token: str) -> str:
    """What storage keeps of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Hub:
    """Owns the live tables and talks to storage through one worker thread."""

    def __init__(self, settings: Settings, storage: Storage) -> None:
        self.settings = settings
        self.storage = storage
        self.tables: dict[str, LiveTable] = {}
        self.conns: dict[str, set[Outbox]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._db = ThreadPoolExecutor(1, thread_name_prefix="rummykit-db")
        #: loading tables and looking tokens up (many at once when a node takes over a
        #: dead one's tables) on threads of their own, so moves' commits do not queue
        #: behind them
        self._reads = ThreadPoolExecutor(4, thread_name_prefix="rummykit-read")
        #: tables being loaded: the first asker loads, the others wait for it
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        #: SQLite in WAL mode without a sync per commit: a commit is a short append to the
        #: log, made on the event loop (handing it to a thread and back costs more);
        #: otherwise (PostgreSQL, or SQLite syncing every commit) on the storage thread
        inline = settings.database_url.startswith("sqlite") and \
            settings.sqlite_synchronous == "NORMAL"
        self._writer = GroupWriter(storage, self._on_loop if inline else self.db)
        self._bots = BotRunner(settings.bot_processes)
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._timers: dict[tuple[str, int], asyncio.Task[None]] = {}
        #: (table, seat) pairs a player has connected to since this server started: their
        #: timer is the grace period; the others' is the longer wait for a first arrival
        self._arrived: set[tuple[str, int]] = set()
        #: (table, seat) pairs whose hint is being worked out
        self._hinting: set[tuple[str, int]] = set()
        #: (table, seat) pairs a bot is taking over now
        self._taking: set[tuple[str, int]] = set()
        self._rng = random.SystemRandom()
        #: tables that do not load (id: why), refused with ``unavailable``
        self.quarantined: dict[str, str] = {}
        #: tables whose last commit failed: checked against storage before their next step
        self._unsure: set[str] = set()
        self._healer: asyncio.Task[None] | None = None
        #: when a commit last failed (monotonic seconds)
        self._failed_at: float | None = None
        self._sweeper: asyncio.Task[None] | None = None
        #: the link to the other nodes when several processes serve (``redis_url``)
        self.cluster: Cluster | None = None
        self._adopted_at = 0.0
        #: players, their statistics and ratings (in the same database as the tables)
        engine = getattr(storage, "engine", None)
        self.players = PlayerStore(engine) if engine is not None else None
        #: (table, seat) pairs whose player is away: when (Unix seconds) that becomes a
        #: resignation (shown to the others as a countdown)
        self._away: dict[tuple[str, int], float] = {}
        #: tables in play seen without an owner: since when (monotonic seconds)
        self._orphaned: dict[str, float] = {}

    # -- plumbing -----------------------------------------------------------------
    async def db(self, call: Callable[..., _T], *args: object) -> _T:
        """Run a storage call on the storage thread; a storage failure is ``unavailable``."""
        return await self._run(self._db, call, *args)

    @staticmethod
    async def _on_loop(call: Callable[..., _T], *args: object) -> _T:
        """Run a short storage call on the event loop, after the other tasks ready now
        (so that the commits they make join the same batch)."""
        await asyncio.sleep(0)
        return call(*args)

    async def read(self, call: Callable[..., _T], *args: object) -> _T:
        """Run a storage call that only reads on a reading thread (``unavailable`` as
        :meth:`db`)."""
        return await self._run(self._reads, call, *args)

    async def _run(self, executor: ThreadPoolExecutor, call: Callable[..., _T],
                   *args: object) -> _T:
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, call, *args)
        except ServerError:
            raise
        except Exception as error:
            log.warning("storage call %s failed: %s", getattr(call, "__name__", call), error)
            raise ServerError("unavailable", "storage is unavailable: try again") from None

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock that orders every change to a table."""
        found = self._locks.get(table_id)
        if found is None:
            found = self._locks[table_id] = asyncio.Lock()
        return found

    async def start(self) -> None:
        """Load every unfinished table back and let play continue (as one node of a
        cluster: join it; tables without an owner are adopted by the heartbeat)."""
        if self.settings.redis_url is not None:
            self.cluster = Cluster(self, self.settings.redis_url, self.settings.lease_seconds)
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
        self._sweeper = asyncio.create_task(self._sweep_forever())

    def health(self) -> dict[str, object]:
        """What an operator checks: ``degraded`` when tables are quarantined (listed with
        the reason) or waiting for storage."""
        failed = self._failed_at is not None and time.monotonic() - self._failed_at < 10
        if not (self.quarantined or self._unsure or failed):
            return {"status": "ok"}
        return {"status": "degraded", "quarantined": dict(self.quarantined),
                "storage_unsure": sorted(self._unsure), "commit_failed_recently": failed}

    async def stop(self) -> None:
        """Cancel timers and bots, close storage."""
        tasks = [*self._bot_tasks.values(), *self._timers.values(),
                 *(t for t in (self._healer, self._sweeper) if t is not None)]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.cluster is not None:
            await self.cluster.stop()
        self._bots.close()
        self._reads.shutdown()
        self._db.submit(self.storage.close).result()
        self._db.shutdown()

    async def get(self, table_id: str) -> LiveTable:
        """A table, loaded from storage when it is not in memory (once, however many ask
        meanwhile)."""
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
                return await self.get(table_id)  # its loader was cancelled: load it here
        future: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load(table_id)
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

    async def _load(self, table_id: str) -> LiveTable:
        if table_id in self.quarantined:
            raise ServerError("unavailable", f"table {table_id!r} is quarantined: "
                              f"{self.quarantined[table_id]}")
        if self.cluster is not None:
            if not await self.read(self.storage.exists, table_id):
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
        stored = await self.read(self.storage.load, table_id)
        table = self.tables.get(table_id)  # loaded meanwhile
        if table is not None:
            return table
        if stored is None:
            raise ServerError("unknown_table", f"no table {table_id!r}")
        table = self._restore(stored)
        self.tables[table_id] = table
        if table.status == "waiting":  # every seat taken, then a crash before the start
            async with self.lock(table_id):
                await self._start_if_full(table)
        for seat in table.seats:
            self._watch(table, seat.seat)
        self._schedule_bot(table)
        return table

    async def adopt_orphans(self) -> None:
        """Claim the tables in play that no node owns (their owner died), about once a
        second; their bots and timers go on here."""
        assert self.cluster is not None
        now = time.monotonic()
        if now - self._adopted_at < 1.0:
            return
        self._adopted_at = now
        playing = [t for t in await self.read(self.storage.playing) if t not in self.tables]
        orphans = set(await self.cluster.orphans(playing))
        # a table's own clients reconnect within moments and load it first; the sweep
        # takes, one at a time, those still without an owner a while later (bots, seats
        # waiting for their players), so that it does not replay every table at once
        # ahead of the clients
        self._orphaned = {t: self._orphaned.get(t, now) for t in orphans}
        due = [t for t, since in self._orphaned.items() if now - since >= ADOPT_AFTER]
        for table_id in due:
            try:
                await self.get(table_id)
            except ServerError as error:
                log.warning("table %s not adopted: %s", table_id, error.message)
            self._orphaned.pop(table_id, None)
        if due:
            log.info("adopted %d tables without an owner", len(due))

    def drop(self, table_id: str) -> None:
        """Stop serving a table this node no longer owns: out of memory, its clients
        told to reconnect."""
        table = self.tables.get(table_id)
        conns = list(self.conns.get(table_id, ()))
        if table is not None:
            self._evict(table, release=False)
        for conn in conns:
            drop = getattr(conn, "drop", None)
            if drop is not None:
                drop()

    def _restore(self, stored: StoredTable) -> LiveTable:
        """A table rebuilt from storage; one that does not replay is quarantined."""
        table_id = stored.table.id
        try:
            rules = table_rules(stored.table.rules, stored.table.options,
                                self.settings.max_turns_per_hand)
            return LiveTable.restore(stored, rules, self.settings.history)
        except Exception as error:
            reason = str(error) if isinstance(error, RuntimeError) else \
                f"it does not load: {type(error).__name__}: {error}"
            self.quarantined[table_id] = reason
            log.error("table %s quarantined: %s", table_id, reason)
            raise ServerError("unavailable",
                              f"table {table_id!r} is quarantined: {reason}") from None

    async def by_token(self, token: str, table_id: str | None = None) -> tuple[LiveTable, int]:
        """The table and seat of a secret token; ``bad_token`` if it sits at no table, or
        at another table than ``table_id`` when that is given."""
        table, seat = await self._find_token(token)
        if table_id is not None and table.id != table_id:
            raise ServerError("bad_token", "this token belongs to another table")
        return table, seat

    async def _find_token(self, token: str) -> tuple[LiveTable, int]:
        digest = hash_token(token)
        for table in self.tables.values():
            seat = table.seat_of_hash(digest)
            if seat is not None:
                return table, seat
        found = await self.read(self.storage.find_token, digest)
        if found is None:
            raise ServerError("bad_token", "no seat has this token")
        return await self.get(found[0]), found[1]

    # -- views of a table ---------------------------------------------------------
    def connected(self, table_id: str, seat: int) -> bool:
        """Whether some connection plays ``seat``."""
        return any(c.recipient == seat for c in self.conns.get(table_id, ()))

    def seats_out(self, table: LiveTable) -> list[SeatOut]:
        """The seats as everyone may see them."""
        return [SeatOut(seat=s.seat, name=s.name, kind=s.kind,  # type: ignore[arg-type]
                        level=s.level, controller=s.controller,  # type: ignore[arg-type]
                        connected=self.connected(table.id, s.seat),
                        left=s.left,  # type: ignore[arg-type]
                        away_until=self._away.get((table.id, s.seat)))
                for s in table.seats]

    def table_out(self, table: LiveTable) -> TableOut:
        """Public facts about ``table``."""
        if table.remote_out is not None:
            return table.remote_out
        match = None if table.match is None else match_out(table.match, table.row.match_no)
        return TableOut(id=table.id, rules=table.rules.name, options=table.row.options,
                        status=table.status, version=table.version,  # type: ignore[arg-type]
                        seats=self.seats_out(table), match=match,
                        rematch_votes=sorted(table.rematch_votes), private=table.row.private)

    def sync_text(self, table: LiveTable, recipient: int) -> str:
        """A full resync for ``recipient``."""
        view, legal, moves = table.sync_parts(recipient)
        return SyncOut(version=table.version, table=self.table_out(table), view=view,
                       legal=legal, log=moves).model_dump_json()

    async def lobby(self) -> list[TableOut]:
        """The newest public tables (private ones are reached by link only): on its own,
        those in memory; as a node of a cluster, every node's, from storage (see
        :meth:`_cluster_lobby`)."""
        if self.cluster is not None:
            return await self._cluster_lobby()
        listed = (t for t in self.tables.values() if not t.row.private)
        newest = sorted(listed, key=lambda t: t.row.created, reverse=True)
        return [self.table_out(t) for t in newest[:self.settings.lobby_size]]

    async def _cluster_lobby(self) -> list[TableOut]:
        """The newest public tables waiting or playing, whichever node owns them: the list,
        statuses, versions and seats from storage; for a table owned elsewhere, which
        seats are connected and the match's standing from the summary its owner keeps in
        Redis (none yet: nobody connected, no match shown)."""
        assert self.cluster is not None
        rows = await self.read(self.storage.lobby, self.settings.lobby_size)
        remote = [row.id for row, _ in rows if row.id not in self.tables]
        summaries = await self.cluster.summaries(remote)
        listed = []
        for row, seats in rows:
            live = self.tables.get(row.id)
            if live is not None:
                listed.append(self.table_out(live))
                continue
            summary = summaries.get(row.id)
            connected = {} if summary is None else {s.seat: s.connected for s in summary.seats}
            listed.append(TableOut(
                id=row.id, rules=row.rules, options=row.options,
                status=row.status, version=row.version,  # type: ignore[arg-type]
                seats=[SeatOut(seat=s.seat, name=s.name, kind=s.kind,  # type: ignore[arg-type]
                               level=s.level, controller=s.controller,  # type: ignore[arg-type]
                               connected=connected.get(s.seat, False)) for s in seats],
                match=None if summary is None or row.status == "waiting" else summary.match,
                rematch_votes=[] if summary is None else summary.rematch_votes,
                private=row.private))
        return listed

    def _summarise(self, table: LiveTable) -> None:
        """As a node of a cluster: keep the lobby's summary of a table owned here."""
        if self.cluster is not None and table.owner is None:
            self.cluster.summarise(table.id, self.table_out(table).model_dump_json())

    # -- broadcasting -------------------------------------------------------------
    def _broadcast(self, table: LiveTable, events: list[Event]) -> None:
        for conn in list(self.conns.get(table.id, ())):
            for event in events:
                conn.send(event.text(conn.recipient))

    def _broadcast_seats(self, table: LiveTable) -> None:
        text = SeatsOut(seats=self.seats_out(table),
                        rematch_votes=sorted(table.rematch_votes)).model_dump_json()
        for conn in list(self.conns.get(table.id, ())):
            conn.send(text)
        self._summarise(table)

    async def _commit(self, table: LiveTable, change: Change) -> None:
        """Store ``change``, then adopt it and tell everyone. When storage refuses it the
        table stays as it was (``unavailable``) and is checked against storage later."""
        draft = change.draft or table
        row = dataclasses.replace(draft.row)
        try:
            await self._writer.commit((row, change.rows, change.finished))
        except Exception as error:
            log.warning("table %s: commit of version %d failed, the table stays at "
                        "version %d: %s", table.id, row.version, table.version, error)
            self._failed_at = time.monotonic()
            self._doubt(table.id)
            raise ServerError("unavailable", "storage failed: nothing was changed; "
                              "try again") from None
        status = table.status
        table.adopt(change)
        table.touched = time.monotonic()
        self._broadcast(table, change.events)
        self._schedule_bot(table)
        if status != table.status or any(r.kind == "deal" for r in change.rows):
            self._summarise(table)  # the match's standing changes at deals and the end

    # -- healing after a failed commit ---------------------------------------------
    def _doubt(self, table_id: str) -> None:
        """Mark a table to be checked against storage once it answers again."""
        self._unsure.add(table_id)
        if self._healer is None or self._healer.done():
            self._healer = asyncio.create_task(self._heal_all())

    async def _heal_all(self) -> None:
        """Retry (with backoff) until every doubted table agrees with storage."""
        pause = 0.1
        while self._unsure:
            await asyncio.sleep(pause)
            for table_id in sorted(self._unsure):
                table = self.tables.get(table_id)
                if table is None:
                    self._unsure.discard(table_id)
                    continue
                try:
                    async with self.lock(table_id):
                        await self._heal(table)
                except ServerError:
                    break  # storage is still down: wait longer
            pause = min(pause * 2, 2.0)

    async def _heal(self, table: LiveTable) -> None:
        """Under the table's lock: reload a doubted table when storage holds another state
        than memory (a commit reported failed may have been made), resync its viewers,
        and let its bots and timers go on. Raises ``unavailable`` while storage fails."""
        if table.id not in self._unsure:
            return
        stored = await self.db(self.storage.load, table.id)
        if stored is not None and (stored.table.version, stored.table.match_no,
                                   stored.table.seats_version) != (
                table.version, table.row.match_no, table.row.seats_version):
            log.warning("table %s: storage is at version %d, memory at %d: reloading",
                        table.id, stored.table.version, table.version)
            try:
                table.take_state(self._restore(stored))
            except ServerError:  # quarantined: out of memory, its viewers go
                self._unsure.discard(table.id)
                self.tables.pop(table.id, None)
                raise
            for conn in list(self.conns.get(table.id, ())):
                conn.send(self.sync_text(table, conn.recipient))
        self._unsure.discard(table.id)
        log.info("table %s: storage answers again at version %d", table.id, table.version)
        for seat in table.seats:
            self._watch(table, seat.seat)
        self._schedule_bot(table)

    # -- tables and seats ---------------------------------------------------------
    async def create(self, spec: CreateTable,
                     player: str | None = None) -> tuple[LiveTable, list[SeatToken]]:
        """Open a table; it starts as soon as every human seat is taken. ``player`` (the
        creator) sits at the first named human seat."""
        if spec.seed is not None and not self.settings.allow_seeds:
            raise ServerError("bad_request", "seed: this server does not accept seeds")
        rules = table_rules(spec.rules, spec.options, self.settings.max_turns_per_hand)
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
        row = TableRow(secrets.token_urlsafe(8), spec.rules, dict(spec.options), "waiting",
                       0, 0, spec.seed, private=private)
        table = LiveTable(row, seats, rules, self.settings.history)
        if self.cluster is not None and await self.cluster.claim(table.id) is not None:
            raise ServerError("unavailable", "a table id clashed: try again")
        async with self.lock(table.id):
            await self.db(self.storage.create_table, dataclasses.replace(row),
                          [dataclasses.replace(s) for s in seats])
            self.tables[table.id] = table
            await self._start_if_full(table)
        return table, tokens

    async def _start_if_full(self, table: LiveTable) -> None:
        if table.status != "waiting" or any(s.controller == "open" for s in table.seats):
            return
        await self._commit(table, table.start_match())
        for seat in table.seats:
            self._watch(table, seat.seat)

    async def _forward(self, table: LiveTable, op: str, **args: object) -> object:
        assert self.cluster is not None and table.owner is not None
        return await self.cluster.call(table.owner, op, table.id, **args)

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

    async def _save_seat(self, table: LiveTable, updated: SeatRow) -> None:
        """Store a seat change, fenced: when the stored table has moved on (another node
        changed it) nothing changes, and this node stops serving it as it stands (a
        cluster node drops it, a lone one reloads it)."""
        try:
            await self.db(self.storage.save_seat, table.id, updated, table.version,
                          table.row.seats_version)
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

    def _evict(self, table: LiveTable, release: bool = True) -> None:
        """Drop a table from memory (storage keeps it; it loads again when asked for)."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        if self.cluster is not None and release:
            self.cluster.release(table.id)
        self.conns.pop(table.id, None)
        lock = self._locks.get(table.id)
        if lock is not None and not lock.locked():
            del self._locks[table.id]
        for seat in table.seats:
            self._cancel_timer(table.id, seat.seat)
            self._arrived.discard((table.id, seat.seat))
        log.debug("table %s evicted from memory", table.id)

    # -- grace periods and bots ---------------------------------------------------
    def _cancel_timer(self, table_id: str, seat: int) -> None:
        self._away.pop((table_id, seat), None)
        timer = self._timers.pop((table_id, seat), None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def _watch(self, table: LiveTable, seat: int) -> None:
        row = table.seats[seat]
        if (table.status != "playing" or row.controller != "human"
                or self.connected(table.id, seat) or (table.id, seat) in self._timers):
            return
        if (table.id, seat) in self._arrived:
            self._absent(table, seat)
            return
        self._timers[table.id, seat] = asyncio.create_task(
            self._take_over(table.id, seat, self.settings.join_seconds))

    async def _take_over(self, table_id: str, seat: int, wait: float) -> None:
        while True:
            await asyncio.sleep(wait)
            table = self.tables.get(table_id)
            if table is None or self.connected(table_id, seat):
                break
            try:  # once begun, a take-over ends whole, even if its timer is cancelled
                await asyncio.shield(self._take_over_now(table, seat))
                break
            except ServerError:  # storage is down: try again soon
                wait = 1.0
        self._away.pop((table_id, seat), None)
        self._timers.pop((table_id, seat), None)

    # -- resigning and absence ----------------------------------------------------
    def _absent(self, table: LiveTable, seat: int) -> None:
        """``seat``'s player is away: its grace period runs, then it resigns (the
        others see the countdown)."""
        key = (table.id, seat)
        if table.status != "playing" or table.seats[seat].left is not None or key in self._timers:
            return
        wait = self.settings.grace_seconds
        self._away[key] = time.time() + wait
        self._timers[key] = asyncio.create_task(self._take_over(table.id, seat, wait))
        self._broadcast_seats(table)

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
        await self._save_seat(table, updated)  # fenced: a stale node changes nothing
        if self.players is not None:  # then the loss is counted and rated
            await self.db(self.players.resign, table.id, updated, table.rules.name)
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
        the seat has a player already or ``player`` sits at another seat."""
        if table.owner is not None or table.seats[seat].kind != "human":
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

    def _schedule_bot(self, table: LiveTable) -> None:
        seat = table.to_move()
        if seat is None or table.seats[seat].controller != "bot":
            return
        task = self._bot_tasks.get(table.id)
        if task is None or task.done():
            self._bot_tasks[table.id] = asyncio.create_task(self._bot_turns(table))

    async def _bot_turns(self, table: LiveTable) -> None:
        """Play bot seats while one is to move."""
        try:
            while True:
                await asyncio.sleep(self.settings.bot_delay)
                seat = table.to_move()
                if (seat is None or table.seats[seat].controller != "bot"
                        or self.tables.get(table.id) is not table):
                    return
                seen = table.viewer(seat)
                assert seen is not None
                level = table.seats[seat].level or self.settings.takeover_level
                version = table.version
                text, cpu = await self._bots.choose(level, seen, self._rng.getrandbits(63))
                table.bot_cpu += cpu
                try:
                    await self.move(table, seat, text, version, by_bot=True)
                except ServerError as error:
                    if error.code == "unavailable":
                        return  # rescheduled once storage answers again (see _heal)
                    if error.code != "stale_version":
                        log.warning("table %s: bot move %r refused: %s", table.id, text,
                                    error.message)
                        return
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug must not kill the server; the table waits
            log.exception("table %s: bot failed", table.id)

