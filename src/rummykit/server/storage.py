"""Storage behind a small protocol; :class:`SqlStorage` keeps it in SQLite or PostgreSQL.

Calls are blocking: the server makes them from one worker thread, in order.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from operator import attrgetter
from pathlib import Path
from typing import Any, Protocol

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

from rummykit.server import schema
from rummykit.server.errors import ServerError
from rummykit.server.jsontext import plain
from rummykit.server.players import record_match

log = logging.getLogger("rummykit.server")


@dataclass(slots=True)
class TableRow:
    """A table's metadata."""

    id: str
    rules: str
    options: dict[str, Any]
    status: str
    match_no: int
    version: int
    seed: int | None
    created: float = field(default_factory=time.time)
    private: bool = False
    #: seat changes so far (seat updates are fenced by it and by ``version``)
    seats_version: int = 0

    def copy(self) -> TableRow:
        """An equal row of its own (``dataclasses.replace`` without its checks: the
        move path copies a row twice a move)."""
        return TableRow(*_row_values(self))


@dataclass(slots=True)
class SeatRow:
    """A seat: ``controller`` is who plays it now (``open`` until a human takes it);
    ``player`` who sits there (once known), ``left`` why its player left the match
    (``resigned`` or ``absent``; its bot plays on)."""

    seat: int
    kind: str
    name: str | None
    level: str | None
    token_hash: str | None
    controller: str
    player: str | None = None
    left: str | None = None


@dataclass(frozen=True, slots=True)
class EventRow:
    """A logged event: ``deal`` holds ``{"deck": [...]}``, ``move`` holds
    ``{"seat": s, "move": "draw"}``; both may hold ``"restocks"`` they caused."""

    version: int
    match_no: int
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's line for the statistics."""

    name: str
    won: bool
    lost: bool


@dataclass(frozen=True, slots=True)
class Finished:
    """A match that ended with the events committed alongside."""

    match_no: int
    rules: str
    record: str
    results: tuple[SeatResult, ...]


#: one table's commit: its row as it now stands, its new events, the match it finished
#: a row's fields in order (:meth:`TableRow.copy`)
_row_values = attrgetter(*(f.name for f in fields(TableRow)))
Commit = tuple[TableRow, list[EventRow], Finished | None]
#: more writes to make in a seat update's transaction
SeatWork = Callable[[Connection], None]


class Fenced(ServerError):
    """A seat update refused because the stored table moved on (another node changed it):
    the node asking no longer has the table as it is."""

    def __init__(self, table_id: str) -> None:
        super().__init__("unavailable", f"table {table_id!r} changed on another server: "
                         "nothing was changed; try again")


class StorageFull(ServerError):
    """An upload refused because the stored uploads would pass their overall quota."""

    def __init__(self, size: int, stored: int, cap: int) -> None:
        super().__init__("storage_full", f"the server keeps at most {cap} bytes of "
                         f"uploaded records and holds {stored}: this one ({size} bytes) "
                         "does not fit")


@dataclass(frozen=True, slots=True)
class UploadStatus:
    """Where an upload stands: ``checking``, ``ok`` (with its frames) or ``refused``
    (with the reason)."""

    status: str
    frames: int | None
    error: str | None


@dataclass(slots=True)
class StoredTable:
    """A table as loaded back: metadata, seats and the current match's events."""

    table: TableRow
    seats: list[SeatRow]
    events: list[EventRow]


class Storage(Protocol):
    """What the server needs from storage."""

    def create_table(self, table: TableRow, seats: list[SeatRow]) -> None:
        """Store a new table and its seats."""

    def save_seat(self, table_id: str, seat: SeatRow, version: int, seats_version: int,
                  also: SeatWork | None = None) -> None:
        """Update one seat if the stored table is still at ``version`` and
        ``seats_version`` (then one more seat change), and do ``also`` in the same
        transaction (all or nothing); else :class:`Fenced`."""

    def commit(self, table: TableRow, new: list[EventRow], finished: Finished | None) -> None:
        """Append events and update the table (and the statistics) in one transaction."""

    def commit_many(self, batch: list[Commit]) -> None:
        """Several tables' commits in one transaction (all or none)."""

    def unfinished(self) -> list[str]:
        """Ids of the tables still waiting or playing."""

    def load(self, table_id: str) -> StoredTable | None:
        """A table with its current match's events, or None."""

    def exists(self, table_id: str) -> bool:
        """Whether the table is stored."""

    def playing(self) -> list[str]:
        """Ids of the tables in play."""

    def find_token(self, token_hash: str) -> tuple[str, int] | None:
        """The table and seat of a token."""

    def lobby(self, limit: int) -> list[tuple[TableRow, list[SeatRow]]]:
        """The newest public tables waiting or playing, with their seats."""

    def record(self, table_id: str, match_no: int) -> str | None:
        """A finished match's record."""

    def stats(self, name: str) -> dict[str, tuple[int, int, int]]:
        """Played, won and lost per rule set."""

    def save_replay(self, replay_id: str, record: str) -> None:
        """Keep an uploaded record."""

    def replay(self, replay_id: str) -> str | None:
        """An uploaded record (accepted ones only)."""

    def reserve_upload(self, replay_id: str, text: str, cap: int) -> None:
        """Keep an upload being checked; :class:`StorageFull` when the uploads kept would
        pass ``cap`` characters (0: no cap)."""

    def finish_upload(self, replay_id: str, record: str | None, frames: int | None,
                      error: str | None) -> None:
        """An upload checked: accepted (``record``, ``frames``) or refused (``error``;
        its text is dropped)."""

    def upload_status(self, replay_id: str) -> UploadStatus | None:
        """Where an upload stands, or None."""

    def close(self) -> None:
        """Release connections."""


def _sqlite_pragmas(synchronous: str) -> Any:
    def on_connect(dbapi: DBAPIConnection, _: ConnectionPoolEntry) -> None:
        cursor = dbapi.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer thread does it
        cursor.close()
    return on_connect


def make_engine(url: str, sqlite_synchronous: str = "NORMAL") -> Engine:
    """An engine for ``url``; a SQLite file's folder is created when missing."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas(sqlite_synchronous))
        return engine
    return create_engine(url, pool_pre_ping=True)


#: the PostgreSQL advisory lock held while migrating
MIGRATION_LOCK = 0x72756D6D79

def migrate(engine: Engine) -> None:
    """Bring the schema up to date with the migrations shipped in the package."""
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # nodes starting together migrate once
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _table_values(table: TableRow) -> dict[str, Any]:
    return {"id": table.id, "rules": table.rules, "options": json.dumps(table.options),
            "status": table.status, "match_no": table.match_no, "version": table.version,
            "seed": table.seed, "created": table.created, "private": table.private,
            "seats_version": table.seats_version}


#: a commit's statements, in the driver's own SQL (the hot path: no statement to build,
#: compile or look up): the new events, and each table's standing (its rules, options and
#: seed never change after creation); ``?`` stands for the driver's placeholder
INSERT_EVENTS = ("INSERT INTO events (table_id, version, match_no, kind, data) "
                 "VALUES (?, ?, ?, ?, ?)")
UPDATE_STANDING = "UPDATE tables SET status = ?, match_no = ?, version = ? WHERE id = ?"
#: the standing of a table whose status and match stay as they were: SQLite then leaves the
#: status index alone (a SET naming ``status`` rewrites its entry, changed or not: one page
#: of a move's four in the write-ahead log)
UPDATE_VERSION = "UPDATE tables SET version = ? WHERE id = ? AND status = ? AND match_no = ?"
#: the positional placeholder of each DB-API parameter style
PLACEHOLDERS = {"qmark": "?", "format": "%s", "pyformat": "%s"}


def driver_sql(statement: str, paramstyle: str) -> str:
    """``statement`` with its ``?`` placeholders in the driver's style.

    >>> driver_sql("UPDATE t SET a = ? WHERE id = ?", "pyformat")
    'UPDATE t SET a = %s WHERE id = %s'
    """
    return statement.replace("?", PLACEHOLDERS[paramstyle])


#: a plain move's data: its keys in order, made by a seat's bot or not
_PLAIN_MOVE = ("seat", "move")
_BOT_MOVE = ("seat", "move", "bot")


def data_json(data: dict[str, Any]) -> str:
    """An event's data as ``json.dumps`` writes it; a plain move's (a seat, a move in
    notation, its bot's) written by hand, when its text needs no escaping (notation never
    does).

    >>> data_json({"seat": 1, "move": "discard S7"}), data_json({"seat": 0, "move": "draw",
    ...                                                          "bot": True})
    ('{"seat": 1, "move": "discard S7"}', '{"seat": 0, "move": "draw", "bot": true}')
    """
    keys = tuple(data)
    if keys == _PLAIN_MOVE or (keys == _BOT_MOVE and data["bot"] is True):
        seat, move = data["seat"], data["move"]
        if type(seat) is int and type(move) is str and plain(move):
            bot = ', "bot": true' if len(keys) == 3 else ""
            return f'{{"seat": {seat}, "move": "{move}"{bot}}}'
    return json.dumps(data)


def _table_row(row: Any) -> TableRow:
    return TableRow(row.id, row.rules, json.loads(row.options), row.status, row.match_no,
                    row.version, row.seed, row.created, bool(row.private),
                    row.seats_version)


def _seat_row(row: Any) -> SeatRow:
    return SeatRow(row.seat, row.kind, row.name, row.level, row.token_hash, row.controller,
                   row.player_id, row.left)


def _seat_values(seat: SeatRow) -> dict[str, Any]:
    return {"seat": seat.seat, "kind": seat.kind, "name": seat.name, "level": seat.level,
            "token_hash": seat.token_hash, "controller": seat.controller,
            "player_id": seat.player, "left": seat.left}


class Checkpointer:
    """Copies SQLite's write-ahead log into the database file from its own thread, so
    that no commit waits for a checkpoint's disk flush."""

    def __init__(self, engine: Engine, every: float = 1.0) -> None:
        self.engine = engine
        self.every = every
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="rummykit-checkpoint",
                                       daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopped.wait(self.every):
            self.checkpoint("PASSIVE")

    def checkpoint(self, mode: str) -> None:
        """Run one checkpoint (``PASSIVE`` never blocks writers)."""
        try:
            with self.engine.connect() as db:
                db.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
        except Exception:  # a busy database: the next round catches up
            log.debug("checkpoint skipped", exc_info=True)

    def stop(self) -> None:
        """Stop the thread after a last full checkpoint."""
        self.stopped.set()
        self.thread.join()
        self.checkpoint("TRUNCATE")


class SqlStorage:
    """:class:`Storage` on SQLAlchemy Core (SQLite or PostgreSQL)."""

    def __init__(self, url: str, sqlite_synchronous: str = "NORMAL") -> None:
        self.engine = make_engine(url, sqlite_synchronous)
        migrate(self.engine)
        self.checkpointer = Checkpointer(self.engine) if url.startswith("sqlite") else None
        style = self.engine.dialect.paramstyle
        self._insert_events = driver_sql(INSERT_EVENTS, style)
        self._update_standing = driver_sql(UPDATE_STANDING, style)
        self._update_version = driver_sql(UPDATE_VERSION, style)
        #: SQLite: a connection of its own for the moves' commits (held, so a commit
        #: takes none from the pool); made on the first commit, again after a failure
        self._sqlite = url.startswith("sqlite")
        self._writer: PoolProxiedConnection | None = None

    def create_table(self, table: TableRow, seats: list[SeatRow]) -> None:
        with self.engine.begin() as db:
            db.execute(insert(schema.tables).values(_table_values(table)))
            db.execute(insert(schema.seats),
                       [{"table_id": table.id, **_seat_values(s)} for s in seats])

    def save_seat(self, table_id: str, seat: SeatRow, version: int, seats_version: int,
                  also: SeatWork | None = None) -> None:
        tables = schema.tables
        with self.engine.begin() as db:
            fenced = db.execute(update(tables)
                                .where(tables.c.id == table_id, tables.c.version == version,
                                       tables.c.seats_version == seats_version)
                                .values(seats_version=seats_version + 1))
            if fenced.rowcount != 1:
                raise Fenced(table_id)
            db.execute(update(schema.seats)
                       .where(schema.seats.c.table_id == table_id,
                              schema.seats.c.seat == seat.seat)
                       .values(_seat_values(seat)))
            if also is not None:
                also(db)

    def commit(self, table: TableRow, new: list[EventRow], finished: Finished | None) -> None:
        self.commit_many([(table, new, finished)])

    def commit_many(self, batch: list[Commit]) -> None:
        if self._sqlite and all(finished is None for _, _, finished in batch):
            self._commit_moves(batch)
            return
        with self.engine.begin() as db:
            events = [(table.id, e.version, e.match_no, e.kind, data_json(e.data))
                      for table, new, _ in batch for e in new]
            if events:
                db.exec_driver_sql(self._insert_events, events)
            db.exec_driver_sql(self._update_standing, [
                (table.status, table.match_no, table.version, table.id)
                for table, _, _ in batch])
            for table, _, finished in batch:
                if finished is not None:
                    self._finish(db, table, finished)

    def _commit_moves(self, batch: list[Commit]) -> None:
        """SQLite, no match finished: the batch's statements on the driver's own
        connection, held for the purpose (the hot path: no pool, no engine events); the
        tables' versions alone when their status and match number stay (the common case),
        else their whole standing."""
        if self._writer is None:
            self._writer = self.engine.raw_connection()
        writer = self._writer
        cursor = writer.cursor()
        try:
            events = [(table.id, e.version, e.match_no, e.kind, data_json(e.data))
                      for table, new, _ in batch for e in new]
            if events:
                cursor.executemany(self._insert_events, events)
            cursor.executemany(self._update_version, [
                (table.version, table.id, table.status, table.match_no)
                for table, _, _ in batch])
            if cursor.rowcount != len(batch):  # a status or match number changed
                cursor.executemany(self._update_standing, [
                    (table.status, table.match_no, table.version, table.id)
                    for table, _, _ in batch])
            writer.commit()
        except BaseException:
            try:
                writer.rollback()
            except Exception:  # the connection is gone: a new one next time
                self._writer = None
                writer.invalidate()
            raise
        finally:
            cursor.close()

    def _finish(self, db: Connection, table: TableRow, finished: Finished) -> None:
        db.execute(insert(schema.matches).values(
            table_id=table.id, match_no=finished.match_no, record=finished.record,
            finished=time.time()))
        by_player = record_match(db, table.id, finished)
        for seat, line in enumerate(finished.results):
            if seat not in by_player:  # no player known: counted under the seat name
                self._count(db, line, finished.rules)

    @staticmethod
    def _count(db: Connection, line: SeatResult, rules: str) -> None:
        key = (schema.stats.c.name == line.name, schema.stats.c.rules == rules)
        row = db.execute(select(schema.stats).where(*key)).first()
        won, lost = int(line.won), int(line.lost)
        if row is None:
            db.execute(insert(schema.stats).values(name=line.name, rules=rules, played=1,
                                                   won=won, lost=lost))
        else:
            db.execute(update(schema.stats).where(*key).values(
                played=row.played + 1, won=row.won + won, lost=row.lost + lost))

    def unfinished(self) -> list[str]:
        with self.engine.connect() as db:
            rows = db.execute(select(schema.tables.c.id)
                              .where(schema.tables.c.status != "over")
                              .order_by(schema.tables.c.created))
            return [r.id for r in rows]

    def exists(self, table_id: str) -> bool:
        with self.engine.connect() as db:
            return db.execute(select(schema.tables.c.id)
                              .where(schema.tables.c.id == table_id)).first() is not None

    def playing(self) -> list[str]:
        with self.engine.connect() as db:
            rows = db.execute(select(schema.tables.c.id)
                              .where(schema.tables.c.status == "playing"))
            return [r.id for r in rows]

    def load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as db:
            row = db.execute(select(schema.tables)
                             .where(schema.tables.c.id == table_id)).first()
            if row is None:
                return None
            table = _table_row(row)
            seat_rows = db.execute(select(schema.seats)
                                   .where(schema.seats.c.table_id == table_id)
                                   .order_by(schema.seats.c.seat))
            seats = [_seat_row(s) for s in seat_rows]
            event_rows = db.execute(select(schema.events)
                                    .where(schema.events.c.table_id == table_id,
                                           schema.events.c.match_no == table.match_no)
                                    .order_by(schema.events.c.version))
            log = [EventRow(e.version, e.match_no, e.kind, json.loads(e.data))
                   for e in event_rows]
            return StoredTable(table, seats, log)

    def load_many(self, table_ids: list[str]) -> dict[str, StoredTable]:
        """Those of ``table_ids`` that are stored, each with its current match's events (as
        :meth:`load`), in three queries for them all."""
        tables, seats, events = schema.tables, schema.seats, schema.events
        with self.engine.connect() as db:
            rows = {r.id: _table_row(r)
                    for r in db.execute(select(tables).where(tables.c.id.in_(table_ids)))}
            found = {t: StoredTable(row, [], []) for t, row in rows.items()}
            if not found:
                return found
            for s in db.execute(select(seats).where(seats.c.table_id.in_(found))
                                .order_by(seats.c.table_id, seats.c.seat)):
                found[s.table_id].seats.append(_seat_row(s))
            current = events.join(tables, (events.c.table_id == tables.c.id)
                                  & (events.c.match_no == tables.c.match_no))
            for e in db.execute(select(events).select_from(current)
                                .where(tables.c.id.in_(found))
                                .order_by(events.c.table_id, events.c.version)):
                found[e.table_id].events.append(
                    EventRow(e.version, e.match_no, e.kind, json.loads(e.data)))
        return found

    def find_token(self, token_hash: str) -> tuple[str, int] | None:
        with self.engine.connect() as db:
            row = db.execute(select(schema.seats.c.table_id, schema.seats.c.seat)
                             .where(schema.seats.c.token_hash == token_hash)).first()
            return None if row is None else (row.table_id, row.seat)

    def lobby(self, limit: int) -> list[tuple[TableRow, list[SeatRow]]]:
        tables, seats = schema.tables, schema.seats
        with self.engine.connect() as db:
            rows = db.execute(select(tables)
                              .where(tables.c.status != "over", tables.c.private.is_(False))
                              .order_by(tables.c.created.desc()).limit(limit)).all()
            found: dict[str, list[SeatRow]] = {r.id: [] for r in rows}
            if found:
                for s in db.execute(select(seats).where(seats.c.table_id.in_(found))
                                    .order_by(seats.c.table_id, seats.c.seat)):
                    found[s.table_id].append(_seat_row(s))
            return [(_table_row(r), found[r.id]) for r in rows]

    def record(self, table_id: str, match_no: int) -> str | None:
        with self.engine.connect() as db:
            found = db.execute(select(schema.matches.c.record)
                               .where(schema.matches.c.table_id == table_id,
                                      schema.matches.c.match_no == match_no)).scalar()
            return None if found is None else str(found)

    def stats(self, name: str) -> dict[str, tuple[int, int, int]]:
        with self.engine.connect() as db:
            rows = db.execute(select(schema.stats).where(schema.stats.c.name == name)
                              .order_by(schema.stats.c.rules))
            return {r.rules: (r.played, r.won, r.lost) for r in rows}

    def save_replay(self, replay_id: str, record: str) -> None:
        with self.engine.begin() as db:
            db.execute(insert(schema.replays).values(id=replay_id, record=record,
                                                     created=time.time()))

    def replay(self, replay_id: str) -> str | None:
        replays = schema.replays
        with self.engine.connect() as db:
            found = db.execute(select(replays.c.record)
                               .where(replays.c.id == replay_id,
                                      replays.c.status == "ok")).scalar()
            return None if found is None else str(found)

    def reserve_upload(self, replay_id: str, text: str, cap: int) -> None:
        replays = schema.replays
        with self.engine.begin() as db:
            if cap:
                stored = int(db.execute(select(func.coalesce(
                    func.sum(func.length(replays.c.record)), 0))).scalar() or 0)
                if stored + len(text) > cap:
                    raise StorageFull(len(text), stored, cap)
            db.execute(insert(replays).values(id=replay_id, record=text, created=time.time(),
                                              status="checking"))

    def finish_upload(self, replay_id: str, record: str | None, frames: int | None,
                      error: str | None) -> None:
        replays = schema.replays
        values: dict[str, Any] = {"status": "refused", "record": "", "error": error} \
            if record is None else {"status": "ok", "record": record, "frames": frames}
        with self.engine.begin() as db:
            db.execute(update(replays).where(replays.c.id == replay_id).values(values))

    def upload_status(self, replay_id: str) -> UploadStatus | None:
        replays = schema.replays
        with self.engine.connect() as db:
            row = db.execute(select(replays.c.status, replays.c.frames, replays.c.error)
                             .where(replays.c.id == replay_id)).first()
            return None if row is None else UploadStatus(row.status, row.frames, row.error)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self.checkpointer is not None:
            self.checkpointer.stop()
        self.engine.dispose()
