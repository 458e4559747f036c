"""What the server's benchmarks share: the clients' move choice, a process's CPU time (alone
or with its descendants), free loopback ports, and ``rummykit serve`` started in a child
process with the per-address limits lifted."""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from rummykit.core.cards import parse_card, rank_of
from rummykit.variants.registry import rule_set_names

#: the rule set the benchmarks play when not told (the registry's first)
DEFAULT_RULES = rule_set_names()[0]


@functools.cache
def _rank_and_suit(card: str) -> tuple[int, str]:
    """A natural card's rank and suit letter (memoised: the clients look the same few
    dozen texts up again and again)."""
    return rank_of(parse_card(card)), card[0]


def partners(card: str, hand: list[str]) -> int:
    """How many cards of ``hand`` could share a meld with ``card`` (a joker: 99, kept)."""
    if card.startswith("JK"):
        return 99
    rank, suit = _rank_and_suit(card)
    score = 0
    for other in hand:
        if other != card and not other.startswith("JK"):
            theirs, their_suit = _rank_and_suit(other)
            if theirs == rank:
                score += 2
            elif their_suit == suit and abs(theirs - rank) <= 2:
                score += 1
    return score


def choose(legal: list[str], view: dict[str, Any]) -> str:
    """Meld and lay off when possible; take a fitting discard; discard the loneliest card."""
    for prefix in ("meld", "lay", "swap"):
        for move in legal:
            if move.startswith(prefix):
                return move
    hand: list[str] = view["hand"]
    if "draw" in legal:
        top = view["discard"][-1] if view["discard"] else None
        if "take" in legal and top is not None and partners(top, [*hand, top]) >= 2:
            return "take"
        return "draw"
    discards = [m for m in legal if m.startswith("discard")]
    if discards:
        return min(discards, key=lambda m: (partners(m.split()[1], hand),
                                            -_rank_and_suit(m.split()[1])[0], m))
    return legal[0]


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU time of a process (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """The live descendants of a process (its bot and replay workers, their forkserver),
    from ``/proc/PID/task/*/children`` (Linux; none elsewhere)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        member = todo.pop()
        with contextlib.suppress(OSError):
            for thread in Path(f"/proc/{member}/task").iterdir():
                with contextlib.suppress(OSError):
                    children = [int(c) for c in (thread / "children").read_text().split()]
                    found += children
                    todo += children
    return found


def tree_cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process, of its live descendants (its bot and replay
    workers) and of the children it waited for (Linux), or None once it is gone."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for member in [pid, *descendants(pid)]:
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            if member == pid:
                return None
            continue
        total += sum(int(f) for f in fields[11:15]) / tick
    return total


def end_orphans(pids: list[int]) -> None:
    """Stop what a SIGKILLed server left running (its workers outlive it): those of
    ``pids`` still running this interpreter (a number reused since is left alone)."""
    for pid in pids:
        with contextlib.suppress(OSError):
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if argv[0].decode(errors="replace") == sys.executable:
                os.kill(pid, signal.SIGTERM)


#: ports taken by this process's servers (a port is not reused before its server binds)
_TAKEN: set[int] = set()


def free_port() -> int:
    """A free TCP port on loopback: the first free one of ``RUMMYKIT_BENCH_PORTS``
    (``18460-18499``) not given out yet, when it is set; else any free one."""
    span = os.environ.get("RUMMYKIT_BENCH_PORTS")
    candidates = [0]
    if span:
        low, high = (int(p) for p in span.split("-"))
        candidates = [p for p in range(low, high + 1) if p not in _TAKEN]
    for candidate in candidates:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            port: int = s.getsockname()[1]
            _TAKEN.add(port)
            return port
    raise SystemExit(f"no free port in RUMMYKIT_BENCH_PORTS={span}")


#: the per-address limits lifted for the benchmark (every client is on 127.0.0.1)
BENCH_LIMITS = {"RUMMYKIT_HTTP_RATE_PER_SECOND": "100000", "RUMMYKIT_HTTP_RATE_BURST": "100000",
                "RUMMYKIT_TABLE_QUOTA": "100000", "RUMMYKIT_MAX_CONNECTIONS_PER_ADDRESS": "100000"}


def start_server(database_url: str, port: int, log: Path,
                 extra: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``rummykit serve`` in a child process, once it answers."""
    env = {**os.environ, "RUMMYKIT_MAX_TURNS_PER_HAND": "200", "RUMMYKIT_GRACE_SECONDS": "600",
           **BENCH_LIMITS, **(extra or {})}
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "rummykit.cli.main", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--database-url", database_url], env=env, stdout=out,
            stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
        if process.poll() is not None:
            break
    if process.poll() is None:
        process.kill()
        process.wait(timeout=30)
    raise SystemExit(f"the server did not start; see {log}")
