"""Load benchmark: N tables of client bots playing through real WebSockets on loopback.

Starts ``rummykit serve`` on a fresh SQLite file (or uses ``--url``), opens N tables of
two human seats, and plays each seat from its own WebSocket client with a quick
heuristic, match after match (rematch), for ``--duration`` seconds; then every match in
play is finished with shorter pauses (no new ones start; ``--drain`` caps that time).
Reports moves per second and the move round trip (move sent to ack received) over the
timed window, errors, and the matches started, completed and stored (every match must be
completed and stored).
``make bench-server`` runs it; ``--json`` prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from rummykit.server.benchkit import (
    BENCH_LIMITS,
    DEFAULT_RULES,
    choose,
    cpu_seconds,
    free_port,
    partners,
    start_server,
)

__all__ = ["BENCH_LIMITS", "Totals", "choose", "cpu_seconds", "free_port", "main", "partners",
           "run", "seat_client", "start_server"]


@dataclass
class Totals:
    """What the clients measured."""

    moves: int = 0
    errors: list[str] = field(default_factory=list)
    round_trips: list[tuple[float, float]] = field(default_factory=list)  # (at, seconds)
    matches: set[tuple[str, int]] = field(default_factory=set)
    started: set[tuple[str, int]] = field(default_factory=set)


async def seat_client(url: str, table: str, token: str, stop_at: float, drain_until: float,
                      think: float, totals: Totals, protocol: int = 2) -> None:
    """Play one seat until ``stop_at``, then on until its match is over (at the latest
    ``drain_until``); each move waits ``think`` seconds on average (not in the round trip).
    ``protocol`` 2: the server may send a batch of messages in one frame."""
    pause = random.Random(token)
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "version": None,
                                  "protocol": protocol}))
        ack = 0
        sent_at = 0.0
        waiting = False
        latest: dict[str, Any] | None = None  # the newest view not yet acted on
        over = False  # the match last seen is over
        while True:
            if time.monotonic() >= drain_until:
                return
            wait = max(stop_at - time.monotonic(), 0) + 5.0
            try:
                async with asyncio.timeout(wait):  # no task per message
                    raw = await ws.recv()
            except TimeoutError:
                if waiting:
                    totals.errors.append("no reply to a move within 5 s")
                return  # idle after the end: the table has stopped
            parsed = json.loads(raw)
            for message in parsed if isinstance(parsed, list) else [parsed]:
                kind = message["type"]
                if kind == "ack":
                    now = time.perf_counter()
                    totals.round_trips.append((now, now - sent_at))
                    totals.moves += 1
                    waiting = False
                elif kind == "error":
                    totals.errors.append(f"{message['code']}: {message['message']}")
                    waiting = False
                elif kind in ("event", "sync"):
                    latest = message
                    match = message["match"] if kind == "event" else message["table"]["match"]
                    if match:
                        totals.started.add((table, match["number"]))
                        over = bool(match["over"])
                    if match and over:
                        totals.matches.add((table, match["number"]))
                        if time.monotonic() < stop_at:
                            await ws.send(json.dumps({"type": "rematch"}))
            if time.monotonic() >= stop_at and not waiting and over:
                return
            if latest is not None and latest["legal"] and not waiting:
                move = choose(latest["legal"], latest["view"])
                # after the timed window, finish quickly (within the rate limit)
                mean = think if time.monotonic() < stop_at else min(think, 0.06)
                if mean > 0:
                    await asyncio.sleep(mean * pause.uniform(0.5, 1.5))
                ack += 1
                waiting = True
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": move,
                                          "version": latest["version"], "ack": ack}))
                latest = None


async def run(base: str, tables: int, duration: float, think: float,
              server_pid: int | None = None, drain: float = 180.0,
              target: int = 50, rules: str = DEFAULT_RULES, protocol: int = 2
              ) -> dict[str, Any]:
    """Create the tables, play for ``duration`` seconds, finish the matches in play (for
    ``drain`` seconds at most), then check the stored records."""
    totals = Totals()
    ws_url = base.replace("http", "ws", 1) + "/ws"
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(60, pool=None),
                                 limits=limits) as http:
        body = {"rules": rules, "options": {"target_score": target},
                "seats": [{"kind": "human", "name": "North"},
                          {"kind": "human", "name": "South"}]}
        created = await asyncio.gather(*(http.post("/api/tables", json=body)
                                         for _ in range(tables)))
        seats = [(r.json()["table"]["id"], t["token"]) for r in created
                 for t in r.json()["tokens"]]
        started = time.monotonic()
        warm_until = time.perf_counter() + min(5.0, duration / 4)
        cpu_before, client_before = cpu_seconds(server_pid), time.process_time()
        stop_at = started + duration
        window_end = time.perf_counter() + duration
        results = await asyncio.gather(
            *(seat_client(ws_url, table, token, stop_at, stop_at + drain, think, totals,
                          protocol)
              for table, token in seats),
            return_exceptions=True)
        elapsed = time.monotonic() - started
        cpu_after, client_cpu = cpu_seconds(server_pid), time.process_time() - client_before
        totals.errors += [repr(r) for r in results if isinstance(r, BaseException)]
        stored = 0
        for table, number in sorted(totals.matches):
            reply = await http.get(f"/api/tables/{table}/matches/{number}/record")
            stored += reply.status_code == 200
    timed = [(at, t) for at, t in totals.round_trips if warm_until <= at <= window_end]
    trips = sorted(t for _, t in timed)
    steady_rate = len(timed) / (window_end - warm_until) if len(timed) > 1 else 0.0
    window_moves = sum(1 for at, _ in totals.round_trips if at <= window_end)

    def percentile(q: float) -> float:
        return round(1000 * trips[min(len(trips) - 1, int(q * len(trips)))], 2) if trips else 0

    return {
        "rules": rules, "protocol": protocol, "tables": tables, "connections": len(seats),
        "think_seconds": think,
        "seconds": round(elapsed, 1), "timed_seconds": duration,
        "moves": totals.moves, "moves_per_second": round(window_moves / duration, 1),
        "steady_moves_per_second": round(steady_rate, 1),
        "round_trip_ms": {"p50": percentile(0.50), "p90": percentile(0.90),
                          "p99": percentile(0.99), "max": percentile(1.0),
                          "mean": round(1000 * statistics.fmean(trips), 2) if trips else 0},
        "errors": len(totals.errors), "error_samples": totals.errors[:5],
        "matches_started": len(totals.started), "matches_completed": len(totals.matches),
        "matches_stored": stored,
        "client_cpu_ms_per_move": round(1000 * client_cpu / max(totals.moves, 1), 2),
        "server_cpu_ms_per_move": None if cpu_before is None or cpu_after is None
        or not totals.moves else round(1000 * (cpu_after - cpu_before) / totals.moves, 3),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60.0,
                        help="seconds of timed play (then the matches in play finish)")
    parser.add_argument("--target", type=int, default=50,
                        help="the matches' target score (smaller: shorter matches)")
    parser.add_argument("--rules", default=DEFAULT_RULES,
                        help=f"the rule set the tables play (default {DEFAULT_RULES})")
    parser.add_argument("--drain", type=float, default=180.0,
                        help="seconds at most to finish the matches in play after that")
    parser.add_argument("--think", type=float, default=0.3,
                        help="mean seconds a client waits before each move (0: flat out)")
    parser.add_argument("--database-url", default=None,
                        help="for the server started here (default: a fresh SQLite file)")
    parser.add_argument("--url", default=None, help="use a running server instead")
    parser.add_argument("--protocol", type=int, default=2, choices=(1, 2),
                        help="the clients' protocol (2: batches, as the web app; 1: one "
                             "message a frame)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--cluster", type=int, default=0,
                        help="cluster mode: this many serve processes on the PostgreSQL "
                             "--database-url with Redis (see rummykit.server.benchcluster)")
    parser.add_argument("--redis-url", default=None,
                        help="cluster mode: Redis to use (default: a redis-server started here)")
    parser.add_argument("--kill-at", type=float, default=None,
                        help="cluster mode: SIGKILL the first process this many seconds in")
    args = parser.parse_args(argv)
    if args.cluster:
        from rummykit.server.benchcluster import run_cluster
        return run_cluster(args)
    server = None
    folder = tempfile.mkdtemp(prefix="rummykit-bench-")
    base = args.url
    if base is None:
        port = free_port()
        url = args.database_url or f"sqlite:///{folder}/bench.db"
        server = start_server(url, port, Path(folder) / "server.log")
        base = f"http://127.0.0.1:{port}"
    try:
        report = asyncio.run(run(base.rstrip("/"), args.tables, args.duration, args.think,
                                 None if server is None else server.pid, args.drain,
                                 args.target, args.rules, args.protocol))
    finally:
        if server is not None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        trips = report["round_trip_ms"]
        print(f"{report['tables']} tables, {report['connections']} WebSocket clients, "
              f"{report['timed_seconds']} s timed ({report['seconds']} s with the matches "
              f"finished), think time {report['think_seconds']} s a move")
        print(f"moves: {report['moves']} ({report['moves_per_second']}/s in the timed window; "
              f"{report['steady_moves_per_second']}/s after its first seconds)")
        print(f"move round trip ms, timed window after its first seconds: p50 {trips['p50']}  "
              f"p90 {trips['p90']}  p99 {trips['p99']}  max {trips['max']}")
        print(f"errors: {report['errors']} {report['error_samples'] or ''}")
        print(f"CPU per move: server {report['server_cpu_ms_per_move']} ms, clients "
              f"{report['client_cpu_ms_per_move']} ms")
        print(f"matches started: {report['matches_started']}, completed: "
              f"{report['matches_completed']}, stored: {report['matches_stored']}")
    complete = report["matches_started"] == report["matches_completed"] == report[
        "matches_stored"]
    passed = report["errors"] == 0 and complete
    if passed:
        shutil.rmtree(folder, ignore_errors=True)  # kept, with the server's log, on failure
    else:
        print(f"the server's log and database are in {folder}", file=sys.stderr)
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
