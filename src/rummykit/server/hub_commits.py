"""The hub's commits: a change stored before the table adopts it and anyone hears of
it; a table whose commit failed checked against storage until storage answers again; a
table that does not replay quarantined."""

from __future__ import annotations

import asyncio
import logging
import time

from rummykit.core.record import Record
from rummykit.server.errors import ServerError
from rummykit.server.hub_timers import HubTimers
from rummykit.server.storage import StoredTable
from rummykit.server.table import Change, LiveTable, table_rules
from rummykit.server.trusted import check_record

log = logging.getLogger("rummykit.server")


class HubCommits(HubTimers):
    """Commits, healing after a failed one, and restoring a table from storage."""

    async def _commit(self, table: LiveTable, change: Change) -> None:
        """Store ``change``, then adopt it and tell everyone. When storage refuses it the
        table stays as it was (``unavailable``) and is checked against storage later."""
        draft = change.draft or table
        row = draft.row.copy()
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

    def _restore(self, stored: StoredTable, trusted: bool = False) -> LiveTable:
        """A table rebuilt from storage; one that does not replay is quarantined.
        ``trusted``: its moves applied without the rule checks when its log holds
        together, the checked replay then run off the event loop (:meth:`_check_later`)."""
        table_id = stored.table.id
        try:
            rules = table_rules(stored.table.rules, stored.table.options,
                                self.settings.max_turns_per_hand)
            table = LiveTable.restore(stored, rules, self.settings.history, trusted)
        except Exception as error:
            reason = str(error) if isinstance(error, RuntimeError) else \
                f"it does not load: {type(error).__name__}: {error}"
            self._quarantine(table_id, reason)
            raise ServerError("unavailable",
                              f"table {table_id!r} is quarantined: {reason}") from None
        if table.unchecked is not None:
            self._check_later(table, table.unchecked)
        return table

    def _quarantine(self, table_id: str, reason: str) -> None:
        self.quarantined[table_id] = reason
        log.error("table %s quarantined: %s", table_id, reason)

    def _check_later(self, table: LiveTable, record: Record) -> None:
        """Run the checked replay of a table loaded by a trusted replay, in the replay
        worker (one at a time); a table it refuses is quarantined and dropped (its
        clients reconnect and are refused)."""
        task = asyncio.create_task(self._check(table, record))
        self.checking[table.id] = task
        task.add_done_callback(lambda _: self.checking.pop(table.id, None))

    async def _check(self, table: LiveTable, record: Record) -> None:
        try:
            error = await self._checks.run(check_record, record)
        except ServerError:  # the worker failed: check here
            error = await asyncio.to_thread(check_record, record)
        if error is None:
            if table.unchecked is record:
                table.unchecked = None
            return
        self._quarantine(table.id, f"table {table.id}: stored events do not replay "
                                   f"(found after a trusted replay): {error}")
        self._unsure.discard(table.id)
        self.drop(table.id)
