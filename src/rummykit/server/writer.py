"""Group commit: the commits that arrive while one is being written go together in the
next transaction, so a busy server writes many moves per disk transaction. Each caller
still waits for its own commit."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from rummykit.server.storage import Commit, Storage

log = logging.getLogger("rummykit.server")
DbCall = Callable[..., Awaitable[None]]


class GroupWriter:
    """Batches commits for :meth:`Storage.commit_many`, one batch at a time.

    ``inline``: the batches are written on the event loop itself, in a callback made once
    the tasks ready now have run (so that the commits they make join the batch), without
    a task or a thread (SQLite without a sync per commit: a short append to its log);
    otherwise by ``run`` (a storage call off the event loop), from a task. ``window``
    (inline only): seconds a batch waits, from its first commit, for more to join it."""

    def __init__(self, storage: Storage, run: DbCall, most: int = 256,
                 inline: bool = False, window: float = 0.0) -> None:
        self.storage = storage
        self.run = run  # runs a storage call off the event loop
        self.most = most
        self.inline = inline
        self.window = window
        self.pending: list[tuple[Commit, asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None
        self._soon: asyncio.Handle | None = None  # or a TimerHandle

    async def commit(self, item: Commit) -> None:
        """Write ``item``; returns once it is committed (raises if it could not be)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self.pending.append((item, done))
        if self.inline:
            if self._soon is None:
                self._soon = (loop.call_later(self.window, self._drain_here) if self.window
                              else loop.call_soon(self._drain_here))
        elif self.task is None or self.task.done():
            self.task = asyncio.create_task(self._drain())
        await done

    def _drain_here(self) -> None:
        """Write every pending batch now, on the event loop."""
        self._soon = None
        while self.pending:
            batch, self.pending = self.pending[:self.most], self.pending[self.most:]
            try:
                self.storage.commit_many([item for item, _ in batch])
            except Exception:  # retry one by one: one bad commit must not fail the rest
                log.warning("a batch of %d commits failed; retrying one by one", len(batch))
                for item, done in batch:
                    try:
                        self.storage.commit_many([item])
                    except Exception as error:
                        _settle(done, error)
                    else:
                        _settle(done, None)
                continue
            for _, done in batch:
                _settle(done, None)

    async def _drain(self) -> None:
        while self.pending:
            batch, self.pending = self.pending[:self.most], self.pending[self.most:]
            try:
                await self.run(self.storage.commit_many, [item for item, _ in batch])
            except Exception:  # retry one by one: one bad commit must not fail the rest
                log.warning("a batch of %d commits failed; retrying one by one", len(batch))
                for item, done in batch:
                    try:
                        await self.run(self.storage.commit_many, [item])
                    except Exception as error:
                        _settle(done, error)
                    else:
                        _settle(done, None)
                continue
            for _, done in batch:
                _settle(done, None)


def _settle(done: asyncio.Future[None], error: Exception | None) -> None:
    """Resolve a caller's future unless the caller has gone."""
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
