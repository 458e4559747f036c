"""Bots playing their seats server-side, off the event loop (threads or processes)."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor

from rummykit.bots import Bot, make_bot
from rummykit.core.views import PlayerView

_local = threading.local()


def choose(level: str, seen: PlayerView, seed: int) -> tuple[str, float]:
    """The move (in notation) the bot of ``level`` makes in ``seen``, and the CPU seconds
    it took (of this thread); one bot per thread."""
    started = time.thread_time()
    bots: dict[str, Bot] | None = getattr(_local, "bots", None)
    if bots is None:
        bots = _local.bots = {}
    bot = bots.get(level)
    if bot is None:
        bot = bots[level] = make_bot(level)
    move = str(bot.choose(seen, random.Random(seed)))
    return move, time.thread_time() - started


class BotRunner:
    """Runs bot decisions in worker threads, or in ``processes`` worker processes."""

    def __init__(self, processes: int = 0) -> None:
        self._pool: Executor | None = (ProcessPoolExecutor(processes) if processes > 0
                                       else None)

    async def choose(self, level: str, seen: PlayerView, seed: int) -> tuple[str, float]:
        """The bot's move and its CPU seconds, computed without blocking the event loop."""
        if self._pool is None:
            return await asyncio.to_thread(choose, level, seen, seed)
        return await asyncio.get_running_loop().run_in_executor(self._pool, choose, level,
                                                                seen, seed)

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
