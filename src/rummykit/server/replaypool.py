"""Replays (checking an uploaded record, working out a record's frames) run one at a time
in a worker process with a memory limit, so a long record neither holds the server's
interpreter (the other tables play on) nor can exhaust its memory."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import resource
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from rummykit.core.record import dumps
from rummykit.server.errors import ServerError
from rummykit.server.orphans import watch_parent_by_timer
from rummykit.server.replays import check, parse_record, parse_seat, replay_out

_T = TypeVar("_T")


def _limit_memory(megabytes: int, server: int | None = None) -> None:
    """In the worker: address space at most ``megabytes`` (0: no limit); the worker ends
    when the process ``server`` does (:func:`~rummykit.server.orphans.watch_parent_by_timer`)."""
    watch_parent_by_timer(server)  # no thread: its arena would count against the limit
    if megabytes:
        size = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))


def checked_upload(body: bytes, max_frames: int) -> tuple[int, str]:
    """An uploaded record, bounded then replayed: its frames and its text to keep."""
    record = parse_record(body, max_frames)
    return check(record), dumps(record)


def frames_json(replay_id: str, text: str, seat: str | None, max_frames: int) -> str:
    """The frames of a stored record for ``seat`` as JSON (``ReplayOut``)."""
    record = parse_record(text.encode(), max_frames)
    try:
        return replay_out(replay_id, record, parse_seat(seat)).model_dump_json()
    except MemoryError:
        raise ServerError("too_large", "the record's frames need more memory than "
                          "the server allows") from None


class ReplayRunner:
    """Runs replay calls one at a time: in a worker process (``processes`` 1), or in a
    thread of this one (0)."""

    def __init__(self, processes: int, memory_mb: int) -> None:
        self.processes = processes
        self.memory_mb = memory_mb
        self._pool: ProcessPoolExecutor | None = None
        self._turn = asyncio.Semaphore(1)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])  # workers start with it imported
            self._pool = ProcessPoolExecutor(1, mp_context=context,
                                             initializer=_limit_memory,
                                             initargs=(self.memory_mb, os.getpid()))
        return self._pool

    async def run(self, call: Callable[..., _T], *args: object) -> _T:
        """``call(*args)`` in turn; a worker that dies (killed, out of memory) is replaced
        and the call refused with ``unavailable``."""
        async with self._turn:
            if not self.processes:
                return await asyncio.to_thread(call, *args)
            try:
                # starting the worker (on the first call) blocks: do it off the loop
                future = await asyncio.to_thread(self._executor().submit, call, *args)
                return await asyncio.wrap_future(future)
            except (BrokenProcessPool, MemoryError):
                self.close()
                raise ServerError("unavailable", "the replay worker failed (the record "
                                  "may need too much memory); nothing was kept") from None

    def close(self) -> None:
        """Stop the worker (a running call is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def stop(self) -> None:
        """Stop the worker once its running call (if any) is done."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
