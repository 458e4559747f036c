"""Run a game list serially, on local processes (``--jobs N``) or on Ray.

Every runner yields the results in game order whatever order the workers finish in, and a
game's result depends only on its :class:`GameSpec`, so the backends agree exactly (only the
measured times differ). Work is shipped in chunks of consecutive games; ``advance(n)`` is
called as each chunk's ``n`` games arrive.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import shutil
import socket
import tempfile
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from rummykit.arena.play import GameResult, play_chunk, play_game
from rummykit.arena.schedule import GameSpec
from rummykit.core.errors import RummyError
from rummykit.variants.base import RulesLike

Advance = Callable[[int], None]
BACKENDS = ("local", "ray")


def chunked(specs: Sequence[GameSpec], jobs: int) -> list[list[GameSpec]]:
    """Consecutive games in chunks small enough to balance ``jobs`` workers."""
    size = max(1, min(32, len(specs) // (jobs * 8)))
    return [list(specs[i:i + size]) for i in range(0, len(specs), size)]


def run_serial(rules: RulesLike, specs: Sequence[GameSpec], advance: Advance,
               keep_records: bool = False) -> Iterator[GameResult]:
    """Play the games one after another in this process."""
    for spec in specs:
        result = play_game(rules, spec, keep_record=keep_records)
        advance(1)
        yield result


def run_local(rules: RulesLike, specs: Sequence[GameSpec], advance: Advance, *, jobs: int,
              keep_records: bool = False) -> Iterator[GameResult]:
    """Play the games on ``jobs`` worker processes (in this process when ``jobs`` is 1)."""
    if jobs == 1:
        yield from run_serial(rules, specs, advance, keep_records)
        return
    # spawn, not fork: the progress bar runs a thread, and forking a threaded process is unsafe
    # one game per task, yielded as it finishes: a long game holds nothing back (a journal
    # keeps every finished game of an interrupted run)
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        work = partial(play_chunk, rules, keep_record=keep_records)
        for batch in pool.imap_unordered(work, ([spec] for spec in specs)):
            advance(len(batch))
            yield from batch


def check_reachable(address: str) -> None:
    """Refuse a ``[ray://]host:port`` address nothing answers at (Ray would retry for long)."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto" and other forms are left to Ray
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as error:
        raise ConnectionError(f"--address {address!r}: no Ray cluster answers there "
                              f"({error.strerror or error})") from None


def run_ray(rules: RulesLike, specs: Sequence[GameSpec], advance: Advance, *, jobs: int,
            address: str | None = None, keep_records: bool = False) -> Iterator[GameResult]:
    """Play the games as Ray tasks, on the cluster at ``address`` or a local instance."""
    # Under `uv run` Ray would start its workers with `uv run` too (a fresh checkout then
    # hangs while they set up); our workers use this interpreter as it is.
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    import ray
    from ray.exceptions import RayTaskError

    owned = not ray.is_initialized()
    scratch = ""
    if owned and address:
        check_reachable(address)
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
    elif owned:  # a new instance of our own, with its own files: never another run's
        scratch = tempfile.mkdtemp(prefix="rk-ray-")
        ray.init(address="local", num_cpus=jobs, include_dashboard=False,
                 logging_level=logging.ERROR, log_to_driver=False, _temp_dir=scratch)
    try:
        task = ray.remote(play_chunk)
        shared = ray.put(rules)
        pending = [task.remote(shared, chunk, keep_records) for chunk in chunked(specs, jobs)]
        while pending:
            [ref], pending = ray.wait(pending, num_returns=1)
            try:
                batch: list[GameResult] = ray.get(ref)
            except RayTaskError as error:
                if isinstance(error.cause, RummyError):
                    raise error.cause from None
                raise
            advance(len(batch))
            yield from batch
    finally:
        if owned:
            ray.shutdown()
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


def run(rules: RulesLike, specs: Sequence[GameSpec], advance: Advance, *, backend: str = "local",
        jobs: int = 1, address: str | None = None,
        keep_records: bool = False) -> Iterator[GameResult]:
    """The results of ``specs`` as they finish (not in order), from the backend ``local``
    or ``ray``."""
    if backend == "ray":
        return run_ray(rules, specs, advance, jobs=jobs, address=address,
                       keep_records=keep_records)
    return run_local(rules, specs, advance, jobs=jobs, keep_records=keep_records)
