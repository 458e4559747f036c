"""Cluster mode of the load benchmark: ``--cluster N`` serve processes on one PostgreSQL
database with Redis, tables created round-robin across them and each table's two seats
connected to different processes; ``--kill-at S`` SIGKILLs the first process S seconds
in. Clients of a lost connection reconnect to a surviving process with the last version
they saw and play on. At the end the event log is read back from PostgreSQL and every
acknowledged move is looked up: lost (missing or different) and duplicated (a version
acknowledged twice, a gap in a table's versions) moves are counted; the resume time is,
per table cut off by the kill, the time from the kill to its first acknowledged move
after it, and its unplayable time is that less the think pause its client took (after
the kill) before that move: how long the table could not be played. The move round trip
is given over the timed window, before the kill and from it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from rummykit.server.benchkit import (
    choose,
    descendants,
    end_orphans,
    free_port,
    start_server,
    tree_cpu_seconds,
)


@dataclass
class Counts:
    """What the clients saw."""

    errors: list[str] = field(default_factory=list)
    trips: list[tuple[float, float]] = field(default_factory=list)  # (at, seconds)
    acked: list[tuple[str, int, str]] = field(default_factory=list)  # table, version, move
    started: set[tuple[str, int]] = field(default_factory=set)
    completed: set[tuple[str, int]] = field(default_factory=set)
    cut: set[str] = field(default_factory=set)  # tables whose clients lost a connection
    resumed: dict[str, float] = field(default_factory=dict)  # table: first ack after kill
    #: table: the same, less the think pause its client took after the kill before that
    #: move (the time the table could not be played)
    unplayable: dict[str, float] = field(default_factory=dict)
    reconnects: int = 0
    refusals: dict[str, int] = field(default_factory=dict)  # error code: how many
    rejoined: dict[str, float] = field(default_factory=dict)  # table: first welcome after kill
    lost_connections: dict[str, int] = field(default_factory=dict)  # why: how many


@dataclass
class Clock:
    """The kill, once it happened."""

    killed_at: float | None = None
    dead: set[int] = field(default_factory=set)
    #: each node's CPU seconds (with its workers) when last sampled (alive)
    node_cpu: list[float] = field(default_factory=list)
    #: (when, CPU seconds of the nodes but the first) every quarter of a second
    samples: list[tuple[float, float]] = field(default_factory=list)
    #: what the killed node left running
    orphans: list[int] = field(default_factory=list)


async def seat_client(urls: list[str], node: int, table: str, token: str, stop_at: float,
                      drain_until: float, think: float, counts: Counts, clock: Clock) -> None:
    """Play one seat; on a lost connection, reconnect to a live node and play on."""
    pause = random.Random(token)
    version: int | None = None
    over = False
    failures = 0  # reconnections in a row that did not get a welcome
    while time.monotonic() < drain_until:
        welcomed = False
        try:
            async with connect(urls[node], max_size=2**22, open_timeout=10) as ws:
                # back after a lost connection: a full sync (one message), rather than
                # the missed events, which may be none when it is this seat's turn
                await ws.send(json.dumps({"type": "hello", "token": token,
                                          "version": None}))
                done, version, over, welcomed = await _play(
                    ws, table, stop_at, drain_until, think, pause, counts, clock, version,
                    over)
                if done:
                    return
        except (ConnectionClosed, OSError, InvalidStatus, TimeoutError) as error:
            counts.lost_connections[why(error)] = counts.lost_connections.get(why(error), 0) + 1
        if time.monotonic() >= stop_at and over:
            return
        if clock.killed_at is not None:
            counts.cut.add(table)
        counts.reconnects += 1
        alive = [i for i in range(len(urls)) if i not in clock.dead and i != node]
        node = random.choice(alive or [node])
        failures = 0 if welcomed else failures + 1
        await asyncio.sleep(backoff(failures, pause))


def why(error: Exception) -> str:
    """What ended a connection: the close code, the HTTP status or the error's kind."""
    if isinstance(error, ConnectionClosed):
        return f"closed {error.rcvd.code if error.rcvd is not None else 'abruptly'}"
    if isinstance(error, InvalidStatus):
        return f"refused {error.response.status_code}"
    return type(error).__name__


def backoff(failures: int, rng: random.Random) -> float:
    """Seconds to wait before reconnecting after ``failures`` failed tries in a row:
    0.05 s doubling up to 1 s, jittered by half either way (the clients of a dead node
    do not all come back in the same instant, nor again and again)."""
    return min(1.0, 0.05 * 2.0 ** failures) * rng.uniform(0.5, 1.5)


async def _play(ws: Any, table: str, stop_at: float, drain_until: float, think: float,
                pause: random.Random, counts: Counts, clock: Clock, version: int | None,
                over: bool) -> tuple[bool, int | None, bool, bool]:
    ack = 0
    welcomed = False
    sent: tuple[float, str] | None = None
    paused = 0.0  # the think pause before the move in flight, after the kill
    latest: dict[str, Any] | None = None
    while True:
        if time.monotonic() >= drain_until:
            return True, version, over, welcomed
        wait = max(stop_at - time.monotonic(), 0) + 8.0
        try:
            async with asyncio.timeout(wait):  # no task per message, as wait_for makes
                raw = await ws.recv()
        except TimeoutError:
            if sent is not None:
                counts.errors.append(f"{table}: no reply to a move within 8 s")
            return True, version, over, welcomed
        message = json.loads(raw)
        kind = message["type"]
        if kind == "ack" and sent is not None:
            counts.trips.append((time.monotonic(), time.perf_counter() - sent[0]))
            counts.acked.append((table, message["version"], sent[1]))
            if clock.killed_at is not None and table in counts.cut \
                    and table not in counts.resumed:
                counts.resumed[table] = time.monotonic() - clock.killed_at
                counts.unplayable[table] = counts.resumed[table] - paused
            sent = None
        elif kind == "welcome":
            welcomed = True
            if clock.killed_at is not None and table in counts.cut \
                    and table not in counts.rejoined:
                counts.rejoined[table] = time.monotonic() - clock.killed_at
        elif kind == "error":
            counts.refusals[message["code"]] = counts.refusals.get(message["code"], 0) + 1
            if not welcomed:  # the hello was refused (the table is changing hands)
                return False, version, over, welcomed
            if message["code"] not in ("stale_version", "unavailable"):
                counts.errors.append(f"{message['code']}: {message['message']}")
            elif sent is not None:  # the table moved or storage failed: start again from
                await ws.send(json.dumps({"type": "sync"}))  # what it holds now
            sent = None
        elif kind in ("event", "sync"):
            version = message["version"]
            latest = message
            match = message["match"] if kind == "event" else message["table"]["match"]
            if match:
                counts.started.add((table, match["number"]))
                over = bool(match["over"])
                if over:
                    counts.completed.add((table, match["number"]))
                    if time.monotonic() < stop_at:
                        await ws.send(json.dumps({"type": "rematch"}))
        if time.monotonic() >= stop_at and sent is None and over:
            return True, version, over, welcomed
        if latest is not None and latest["legal"] and sent is None \
                and latest["version"] == version:
            move = choose(latest["legal"], latest["view"])
            mean = think if time.monotonic() < stop_at else min(think, 0.06)
            paused = 0.0
            if mean > 0:
                thought = time.monotonic()
                await asyncio.sleep(mean * pause.uniform(0.5, 1.5))
                since = thought if clock.killed_at is None else max(thought, clock.killed_at)
                paused = max(time.monotonic() - since, 0.0) if clock.killed_at else 0.0
            ack += 1
            sent = (time.perf_counter(), move)
            await ws.send(json.dumps({"type": "move", "move": move, "version": version,
                                      "ack": ack}))
            latest = None


async def play(bases: list[str], tables: int, duration: float, think: float, drain: float,
               target: int, kill_at: float | None, processes: list[subprocess.Popen[bytes]],
               rules: str, clock: Clock) -> tuple[Counts, float]:
    """Create the tables across the nodes and play them (killing the first node)."""
    counts = Counts()
    urls = [b.replace("http", "ws", 1) + "/ws" for b in bases]
    body = {"rules": rules, "options": {"target_score": target},
            "seats": [{"kind": "human", "name": "North"}, {"kind": "human", "name": "South"}]}
    limits = httpx.Limits(max_connections=20)
    # no deadline on waiting for a pooled connection: a loaded machine creates slowly
    async with httpx.AsyncClient(timeout=httpx.Timeout(60, pool=None), limits=limits) as http:
        created = await asyncio.gather(*(http.post(f"{bases[i % len(bases)]}/api/tables",
                                                   json=body) for i in range(tables)))
    seats = []
    for i, reply in enumerate(created):
        data = reply.json()
        for k, token in enumerate(data["tokens"]):
            seats.append((data["table"]["id"], token["token"], (i + k) % len(bases)))
    started = time.monotonic()
    stop_at = started + duration

    async def killer() -> None:
        if kill_at is None:
            return
        await asyncio.sleep(kill_at)
        clock.node_cpu[0] = tree_cpu_seconds(processes[0].pid) or clock.node_cpu[0]
        clock.orphans = descendants(processes[0].pid)  # its workers outlive its SIGKILL
        processes[0].send_signal(signal.SIGKILL)
        clock.killed_at = time.monotonic()
        clock.dead.add(0)

    async def sampler() -> None:
        while True:
            for i, process in enumerate(processes):
                if i not in clock.dead:
                    clock.node_cpu[i] = tree_cpu_seconds(process.pid) or clock.node_cpu[i]
            clock.samples.append((time.monotonic(), sum(clock.node_cpu[1:])))
            await asyncio.sleep(0.25)

    clock.node_cpu = [tree_cpu_seconds(p.pid) or 0.0 for p in processes]
    watch = asyncio.create_task(sampler())
    results = await asyncio.gather(
        killer(), *(seat_client(urls, node, table, token, stop_at, stop_at + drain, think,
                                counts, clock) for table, token, node in seats),
        return_exceptions=True)
    watch.cancel()
    counts.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return counts, started


def takeover_cpu(clock: Clock, seconds: float) -> float | None:
    """CPU seconds the surviving nodes used from the kill to ``seconds`` after it (what
    resuming every table cost them, with the play going on: on an idle machine with a
    core for them, about how long the takeover takes)."""
    if clock.killed_at is None or not clock.samples:
        return None
    end = clock.killed_at + seconds

    def at(moment: float) -> float:
        return min(clock.samples, key=lambda s: abs(s[0] - moment))[1]

    return round(at(end) - at(clock.killed_at), 2)


def audit(database_url: str, counts: Counts) -> dict[str, int]:
    """Look every acknowledged move up in the stored event log."""
    engine = create_engine(database_url)
    with engine.connect() as db:
        rows = db.execute(text("SELECT table_id, version, kind, data FROM events"))
        stored: dict[tuple[str, int], str | None] = {}
        versions: dict[str, list[int]] = {}
        ours = {t for t, _ in counts.started}
        for table_id, version, kind, data in rows:
            if table_id not in ours:
                continue
            stored[table_id, version] = json.loads(data)["move"] if kind == "move" else None
            versions.setdefault(table_id, []).append(version)
        records = db.execute(text("SELECT table_id, match_no FROM matches")).all()
    engine.dispose()
    seen: set[tuple[str, int]] = set()
    lost = duplicated = 0
    for table, version, move in counts.acked:
        if (table, version) in seen:
            duplicated += 1
        seen.add((table, version))
        if stored.get((table, version)) != move:
            lost += 1
    gaps = sum(1 for vs in versions.values() if sorted(vs) != list(range(1, len(vs) + 1)))
    done = {(t, n) for t, n in records if t in ours}
    return {"acked_moves": len(counts.acked), "lost_moves": lost,
            "duplicated_moves": duplicated + gaps,
            "matches_stored": len(counts.completed & done)}


def run_cluster(args: argparse.Namespace) -> int:
    """``make bench-server ARGS="--cluster 2 --database-url postgresql+psycopg://...
    --kill-at 20"``: start the nodes (and Redis unless given), play, audit, report."""
    database_url = args.database_url
    if not database_url or not database_url.startswith("postgresql"):
        raise SystemExit("--cluster needs --database-url postgresql+psycopg://...")
    folder = Path(tempfile.mkdtemp(prefix="rummykit-cluster-"))
    redis: subprocess.Popen[bytes] | None = None
    redis_url = args.redis_url
    if redis_url is None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("--cluster needs --redis-url or redis-server on the PATH")
        port = free_port()
        redis = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                                  "--save", "", "--appendonly", "no", "--dir", str(folder)],
                                 stdout=subprocess.DEVNULL)
        redis_url = f"redis://127.0.0.1:{port}/0"
        time.sleep(0.5)
    ports = [free_port() for _ in range(args.cluster)]
    extra = {"RUMMYKIT_REDIS_URL": redis_url, "RUMMYKIT_LEASE_SECONDS": "2"}
    processes: list[subprocess.Popen[bytes]] = []
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    clock = Clock()
    try:
        for i, port in enumerate(ports):
            processes.append(start_server(database_url, port, folder / f"node{i}.log", extra))
        cpu_before = [tree_cpu_seconds(p.pid) or 0.0 for p in processes]
        load_before = os.getloadavg()
        client_before = time.process_time()
        counts, started = asyncio.run(play(bases, args.tables, args.duration, args.think,
                                           args.drain, args.target, args.kill_at,
                                           processes, args.rules, clock))
        client_cpu = time.process_time() - client_before
        load_after = os.getloadavg()
        elapsed = time.monotonic() - started
        figures = audit(database_url, counts)
    finally:
        for process in processes:
            clock.orphans += descendants(process.pid)  # any left by a stop cut short
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        end_orphans(clock.orphans)
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=10)
    # the move round trip over the timed window (the kill in it), and over the whole run
    # (the drain too, when every client moves at once with little thought)
    stop_at = started + args.duration
    trips = sorted(t for at, t in counts.trips if at <= stop_at)
    killed = clock.killed_at if clock.killed_at is not None else stop_at
    before = sorted(t for at, t in counts.trips if at <= min(killed, stop_at))
    after = sorted(t for at, t in counts.trips if killed < at <= stop_at)
    every_trip = sorted(t for _, t in counts.trips)
    resumes = sorted(counts.resumed.values())
    unplayable = sorted(counts.unplayable.values())

    def pct(values: list[float], q: float, scale: float = 1000) -> float:
        return round(scale * values[min(len(values) - 1, int(q * len(values)))], 2) \
            if values else 0.0

    servers_cpu = [a - b for a, b in zip(clock.node_cpu, cpu_before, strict=True)]
    takeover = takeover_cpu(clock, max(counts.resumed.values(), default=0.0))
    moves = max(figures["acked_moves"], 1)
    rejoins = sorted(counts.rejoined.values())
    report = {
        "processes": args.cluster, "tables": args.tables, "connections": 2 * args.tables,
        "seconds": round(elapsed, 1), "think_seconds": args.think,
        "killed_at_seconds": args.kill_at, "reconnects": counts.reconnects,
        "round_trip_ms": {"p50": pct(trips, 0.5), "p90": pct(trips, 0.9),
                          "p99": pct(trips, 0.99), "max": pct(trips, 1.0)},
        "round_trip_ms_before_the_kill": {"p50": pct(before, 0.5), "p99": pct(before, 0.99)},
        "round_trip_ms_from_the_kill": {"p50": pct(after, 0.5), "p99": pct(after, 0.99)},
        "round_trip_ms_with_the_drain": {"p50": pct(every_trip, 0.5),
                                         "p99": pct(every_trip, 0.99)},
        "errors": len(counts.errors), "error_samples": counts.errors[:5],
        "refusals": counts.refusals, "lost_connections": counts.lost_connections,
        "matches_started": len(counts.started), "matches_completed": len(counts.completed),
        **figures,
        "tables_cut_by_the_kill": len(counts.cut), "tables_resumed": len(counts.resumed),
        "resume_seconds": {"p50": pct(resumes, 0.5, 1), "p99": pct(resumes, 0.99, 1),
                           "max": pct(resumes, 1.0, 1)},
        "unplayable_seconds": {"p50": pct(unplayable, 0.5, 1),
                               "p99": pct(unplayable, 0.99, 1),
                               "max": pct(unplayable, 1.0, 1)},
        "rejoin_seconds": {"p50": pct(rejoins, 0.5, 1), "p99": pct(rejoins, 0.99, 1),
                           "max": pct(rejoins, 1.0, 1)},
        "survivors_cpu_seconds_from_the_kill_to_the_last_resume": takeover,
        "servers_cpu_seconds": [round(c, 1) for c in servers_cpu],
        "clients_cpu_seconds": round(client_cpu, 1),
        "servers_cpu_ms_per_move": round(1000 * sum(servers_cpu) / moves, 2),
        "clients_cpu_ms_per_move": round(1000 * client_cpu / moves, 2),
        "load_average_before_after": [round(load_before[0], 2), round(load_after[0], 2)],
        "logs": str(folder),
    }
    print(json.dumps(report, indent=2))
    complete = report["matches_started"] == report["matches_completed"] == report[
        "matches_stored"]
    clean = not (report["errors"] or figures["lost_moves"] or figures["duplicated_moves"])
    return 0 if clean and complete and len(counts.resumed) == len(counts.cut) else 1
