"""The hub's timers and bots: a seat's wait for its player (then a bot takes over or the
absent player resigns), bot turns, and dropping a table from memory (its timers go)."""

from __future__ import annotations

import asyncio
import logging
import time
from abc import abstractmethod

from rummykit.server.errors import ServerError
from rummykit.server.hub_views import HubViews
from rummykit.server.table import LiveTable

log = logging.getLogger("rummykit.server")


class HubTimers(HubViews):
    """Grace periods, take-overs and bot turns (a bot moves through :meth:`move`)."""

    @abstractmethod
    async def move(self, table: LiveTable, seat: int, text: str, version: int,
                   by_bot: bool = False) -> int:
        """Make a move (see :meth:`rummykit.server.hub.Hub.move`)."""

    @abstractmethod
    async def _take_over_now(self, table: LiveTable, seat: int) -> None:
        """A seat's wait is over (see :class:`rummykit.server.hub_seats.HubSeats`)."""

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

    # -- out of memory --------------------------------------------------------------
    def _evict(self, table: LiveTable, release: bool = True) -> None:
        """Drop a table from memory (storage keeps it; it loads again when asked for)."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        self._forget_tokens(table)
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
