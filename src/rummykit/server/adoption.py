"""A cluster node adopting the tables nobody owns (their owner died, or let them go), in
batches: the leases of a batch taken in one Redis script (:meth:`Cluster.take`), its tables
read in one round of queries (:func:`load_many`) and restored one after another with the
trusted replay, the event loop let through between two tables. A client asking for a table
of the batch meanwhile waits for it (the hub's ``_loading``) instead of loading it again.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from rummykit.server.errors import ServerError
from rummykit.server.storage import Storage, StoredTable
from rummykit.server.table import LiveTable

if TYPE_CHECKING:
    from rummykit.server.hub import Hub

log = logging.getLogger("rummykit.server")

#: tables taken and read together
BATCH = 50


def load_many(storage: Storage, table_ids: list[str]) -> dict[str, StoredTable]:
    """Those of ``table_ids`` that are stored, each with its current match's events (as
    ``Storage.load``): in three queries for them all where storage can
    (:meth:`SqlStorage.load_many <rummykit.server.storage.SqlStorage.load_many>`), else
    one by one."""
    many: Callable[[list[str]], dict[str, StoredTable]] | None = getattr(
        storage, "load_many", None)
    if many is not None:
        return many(table_ids)
    return {t: s for t in table_ids if (s := storage.load(t)) is not None}


async def adopt_orphans(hub: Hub) -> int:
    """Take and load every table in play that no live node owns; how many were adopted.
    Each node takes them in its own random order, a batch at a time, so that several
    survivors share a dead node's tables."""
    cluster = hub.cluster
    assert cluster is not None
    playing = await hub.read(hub.storage.playing)
    candidates = [t for t in playing if t not in hub.tables and t not in hub.quarantined]
    holders = await cluster.holders(candidates)
    dead = {h for h in set(holders) if h is not None and not await cluster.node_alive(h)}
    orphans = [t for t, h in zip(candidates, holders, strict=True) if h is None or h in dead]
    random.shuffle(orphans)
    adopted = 0
    for start in range(0, len(orphans), BATCH):
        batch = [t for t in orphans[start:start + BATCH]
                 if t not in hub.tables and t not in hub._loading]
        adopted += await load_batch(hub, await cluster.take(batch, dead))
    return adopted


async def load_batch(hub: Hub, table_ids: list[str]) -> int:
    """Load and serve the tables of ``table_ids`` (their leases held here); how many."""
    loop = asyncio.get_running_loop()
    waiting: dict[str, asyncio.Future[LiveTable]] = {}
    for table_id in table_ids:
        if table_id not in hub.tables and table_id not in hub._loading:
            waiting[table_id] = hub._loading[table_id] = loop.create_future()
    served = 0
    try:
        stored = await hub.read(load_many, hub.storage, list(waiting))
        for table_id, future in waiting.items():
            try:
                table = await hub.serve_stored(table_id, stored.get(table_id))
            except ServerError as error:
                log.warning("table %s not adopted: %s", table_id, error.message)
                future.set_exception(error)
                future.exception()  # retrieved: the waiters (if any) get it too
            else:
                future.set_result(table)
                served += 1
            await asyncio.sleep(0)  # let the moves of the tables served already through
    except ServerError as error:  # storage down: the next sweep tries again
        log.warning("adoption of %d tables failed: %s", len(waiting), error.message)
        for future in waiting.values():
            if not future.done():
                future.set_exception(error)
                future.exception()
        return served
    finally:
        for table_id, future in waiting.items():
            if not future.done():
                future.cancel()
            if hub._loading.get(table_id) is future:
                del hub._loading[table_id]
    return served


class BatchLoads:
    """The loads of single tables asked for at about the same moment (the clients of a
    dead node reconnecting at once, each asking for its table) read together: one
    :func:`load_many` for up to :data:`BATCH` of them, one batch read at a time."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._asked: dict[str, list[asyncio.Future[StoredTable | None]]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def load(self, table_id: str) -> StoredTable | None:
        """A table as ``Storage.load`` reads it (``unavailable`` when storage fails)."""
        future: asyncio.Future[StoredTable | None] = \
            asyncio.get_running_loop().create_future()
        self._asked.setdefault(table_id, []).append(future)
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read())
        return await future

    async def _read(self) -> None:
        while self._asked:
            await asyncio.sleep(0)  # gather the asks of this turn of the loop
            ids = list(self._asked)[:BATCH]
            batch = {t: self._asked.pop(t) for t in ids}
            try:
                found = await self.hub.read(load_many, self.hub.storage, ids)
            except ServerError as error:
                for futures in batch.values():
                    for future in futures:
                        if not future.done():
                            future.set_exception(error)
                continue
            for table_id, futures in batch.items():
                for future in futures:
                    if not future.done():
                        future.set_result(found.get(table_id))
