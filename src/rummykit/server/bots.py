"""Bots playing their seats server-side, off the event loop (threads or processes)."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from rummykit.bots import BOTS, FAMILY_BOTS, AnyBot, make_bot_for
from rummykit.server.orphans import watch_parent
from rummykit.variants.base import RulesLike
from rummykit.variants.registry import variant_of

_local = threading.local()


#: the level a new bot seat gets where the family has it
PREFERRED = "medium"


def bot_levels(rules: RulesLike) -> tuple[str, ...]:
    """The bot levels that play ``rules`` (the family's own bots, or the engine's)."""
    return tuple(FAMILY_BOTS.get(variant_of(rules).name, BOTS))


def default_level(rules: RulesLike) -> str:
    """The level a bot seat of ``rules`` gets when none is asked for: ``medium`` where the
    family has it, else its strongest listed (the last)."""
    levels = bot_levels(rules)
    return PREFERRED if PREFERRED in levels else levels[-1]


def choose(level: str, seen: Any, seed: int) -> tuple[str, float]:
    """The move (in notation) the bot of ``level`` makes in ``seen`` (the family's view:
    its ``rules`` name the family), and the CPU seconds it took (of this thread); one bot
    per thread. A level the family lacks (a takeover level) plays its default level."""
    started = time.thread_time()
    bots: dict[tuple[str, str], AnyBot] | None = getattr(_local, "bots", None)
    if bots is None:
        bots = _local.bots = {}
    rules = seen.rules
    if level not in bot_levels(rules):
        level = default_level(rules)
    key = (variant_of(rules).name, level)
    bot = bots.get(key)
    if bot is None:
        bot = bots[key] = make_bot_for(level, rules)
    move = str(bot.choose(seen, random.Random(seed)))
    return move, time.thread_time() - started


class BotRunner:
    """Runs bot decisions in worker threads, or in ``processes`` worker processes."""

    def __init__(self, processes: int = 0) -> None:
        # a worker ends when the server does, even one killed outright
        self._pool: Executor | None = (
            ProcessPoolExecutor(processes, initializer=watch_parent) if processes > 0
            else None)

    async def choose(self, level: str, seen: Any, seed: int) -> tuple[str, float]:
        """The bot's move and its CPU seconds, computed without blocking the event loop."""
        if self._pool is None:
            return await asyncio.to_thread(choose, level, seen, seed)
        return await asyncio.get_running_loop().run_in_executor(self._pool, choose, level,
                                                                seen, seed)

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
