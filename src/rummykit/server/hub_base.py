"""The hub's state and plumbing: its tables, connections and timers, the storage threads,
the tables' locks; what the other layers of the hub (:mod:`hub_views`, :mod:`hub_timers`,
:mod:`hub_commits`, :mod:`hub_seats`, :mod:`hub`) share."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, Protocol, TypeVar

from rummykit.server.bots import BotRunner
from rummykit.server.cluster import Cluster
from rummykit.server.errors import ServerError
from rummykit.server.players import PlayerStore
from rummykit.server.replaypool import ReplayRunner
from rummykit.server.settings import Settings
from rummykit.server.storage import Storage
from rummykit.server.table import LiveTable
from rummykit.server.writer import GroupWriter

log = logging.getLogger("rummykit.server")
_T = TypeVar("_T")
_P = ParamSpec("_P")


class Outbox(Protocol):
    """A connection as the hub sees it: who it is for and where its messages go."""

    table_id: str
    recipient: int

    def send(self, text: str) -> None:
        """Queue one message."""


def hash_token(token: str) -> str:
    """What storage keeps of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


class HubBase:
    """The hub's state; storage calls on its threads; the tables' locks."""

    def __init__(self, settings: Settings, storage: Storage) -> None:
        self.settings = settings
        self.storage = storage
        self.tables: dict[str, LiveTable] = {}
        self.conns: dict[str, set[Outbox]] = {}
        #: seat token hashes of the tables in memory: the table each opens (checked
        #: against the table's seats on use; storage is asked when it is not here)
        self._tokens: dict[str, str] = {}
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
        self._writer = GroupWriter(storage, self.db, inline=inline,
                                   window=settings.commit_window_ms / 1000)
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
        #: tables loaded (after the start) by a trusted replay, their checked replay
        #: running in a worker of their own (see :mod:`rummykit.server.trusted`)
        self._trust_loads = False
        self._checks = ReplayRunner(settings.replay_processes, settings.replay_memory_mb)
        self.checking: dict[str, asyncio.Task[None]] = {}

    # -- plumbing -----------------------------------------------------------------
    async def db(self, call: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run a storage call on the storage thread; a storage failure is ``unavailable``.
        (Typed: ``call``'s arguments are checked against its signature.)"""
        return await self._run(self._db, call, functools.partial(call, *args, **kwargs))

    async def read(self, call: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run a storage call that only reads on a reading thread (``unavailable`` as
        :meth:`db`)."""
        return await self._run(self._reads, call, functools.partial(call, *args, **kwargs))

    @staticmethod
    async def _run(executor: ThreadPoolExecutor, call: Callable[..., object],
                   bound: Callable[[], _T]) -> _T:
        """``bound`` (``call`` with its arguments) on ``executor``."""
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, bound)
        except ServerError:
            raise
        except Exception as error:
            log.warning("storage call %s failed: %s", getattr(call, "__name__", call), error)
            raise ServerError("unavailable", "storage is unavailable: try again") from None

    def _index_tokens(self, table: LiveTable) -> None:
        """Remember which table the seat tokens of ``table`` open."""
        for seat in table.seats:
            if seat.token_hash is not None:
                self._tokens[seat.token_hash] = table.id

    def _forget_tokens(self, table: LiveTable) -> None:
        """Forget the seat tokens of a table leaving memory."""
        for seat in table.seats:
            if seat.token_hash is not None and self._tokens.get(seat.token_hash) == table.id:
                del self._tokens[seat.token_hash]

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock that orders every change to a table."""
        found = self._locks.get(table_id)
        if found is None:
            found = self._locks[table_id] = asyncio.Lock()
        return found

    def health(self) -> dict[str, object]:
        """What an operator checks: ``degraded`` when tables are quarantined (listed with
        the reason) or waiting for storage."""
        failed = self._failed_at is not None and time.monotonic() - self._failed_at < 10
        if not (self.quarantined or self._unsure or failed):
            return {"status": "ok"}
        return {"status": "degraded", "quarantined": dict(self.quarantined),
                "storage_unsure": sorted(self._unsure), "commit_failed_recently": failed}

    async def _forward(self, table: LiveTable, op: str, **args: object) -> object:
        assert self.cluster is not None and table.owner is not None
        return await self.cluster.call(table.owner, op, table.id, **args)
