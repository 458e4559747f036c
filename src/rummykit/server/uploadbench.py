"""``python -m rummykit.server.uploadbench``: how long uploads take to be refused or
accepted by a real ``rummykit serve`` while another table plays, and how much they delay
that table's moves.

Kinds of upload, sent in turn: ``2mb_declared`` (2 MiB with its Content-Length: refused
from the header), ``2mb_streamed`` (2 MiB with no length: refused once past the limit),
``150k_moves`` (a 1.9 MB record of 150,000 moves: refused by its length, before it is
parsed or replayed), ``record_134`` and ``record_2211`` (real records of 134 and 2,211
frames, basic and contract: accepted after their replay).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from rummykit.server.benchkit import DEFAULT_RULES, choose, cpu_seconds, start_server

GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "data" / "golden"
TWO_MIB = 2 * 1024 * 1024


def bodies(record: bytes) -> dict[str, tuple[bytes, bool]]:
    """Each kind's body and whether it is streamed with no length."""
    long = json.loads(record)
    long["hands"] = long["hands"][:1]
    long["hands"][0]["moves"] = ["draw", "discard C2"] * 75_000
    contract = (GOLDEN / "contract_3p.rummy.json").read_bytes()
    return {"2mb_declared": (b" " * TWO_MIB, False), "2mb_streamed": (b" " * TWO_MIB, True),
            "150k_moves": (json.dumps(long).encode(), False), "record_134": (record, False),
            "record_2211": (contract, False)}


async def upload(port: int, body: bytes, streamed: bool) -> tuple[int, float]:
    """POST ``body`` to ``/api/replays`` over a raw connection (no client library in the
    timing); the status and the seconds from the first byte sent to the reply's end."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    began = time.perf_counter()
    head = "POST /api/replays HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    head += "Transfer-Encoding: chunked\r\n\r\n" if streamed \
        else f"Content-Length: {len(body)}\r\n\r\n"
    writer.write(head.encode())

    async def collect() -> tuple[bytes, float]:
        got = b""
        try:
            while piece := await reader.read(65536):
                got += piece
        except ConnectionError:  # the server closed with our body unread: a reset
            pass
        return got, time.perf_counter() - began

    replied = asyncio.create_task(collect())
    try:
        if streamed:
            for start in range(0, len(body), 65536):
                piece = body[start:start + 65536]
                writer.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                await writer.drain()
            writer.write(b"0\r\n\r\n")
        else:
            writer.write(body)
        await writer.drain()
    except ConnectionError:  # refused before the body was sent: the reply is waiting
        pass
    reply, elapsed = await replied
    writer.close()
    return int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/") else 0, elapsed


async def play(base: str, stop: asyncio.Event, trips: list[tuple[float, float]]) -> None:
    """Play a human seat against a bot until ``stop``, noting (sent at, round trip) of
    each move (a new match when one ends)."""
    async with httpx.AsyncClient(base_url=base) as http:
        created = (await http.post("/api/tables", json={
            "rules": DEFAULT_RULES, "seats": [{"kind": "human", "name": "Ann"},
                                              {"kind": "bot", "level": "random"}]})).json()
    token = created["tokens"][0]["token"]
    async with connect(base.replace("http", "ws", 1) + "/ws", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "version": None}))
        ack, sent, waiting = 0, 0.0, False
        latest: dict[str, Any] | None = None  # the newest event or sync not acted on
        while not stop.is_set():
            message = json.loads(await ws.recv())
            if message["type"] == "ack":
                trips.append((sent, time.perf_counter() - sent))
                waiting = False
            elif message["type"] == "error":
                waiting = False
            elif message["type"] in ("event", "sync"):
                latest = message
                match = message["match"] if message["type"] == "event" \
                    else message["table"]["match"]
                if match and match["over"]:
                    await ws.send(json.dumps({"type": "rematch"}))
            if latest is not None and latest["legal"] and not waiting:
                await asyncio.sleep(0.06)  # within the per-connection rate limit
                ack += 1
                waiting = True
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "version": latest["version"],
                                          "ack": ack,
                                          "move": choose(latest["legal"], latest["view"])}))
                latest = None


async def run(base: str, port: int, rounds: int, pid: int | None = None) -> dict[str, Any]:
    """Upload each kind ``rounds`` times while a table plays (``pid``: the server's, for
    its CPU time per upload)."""
    record = (GOLDEN / "basic_2p.rummy.json").read_bytes()
    kinds = bodies(record)
    stop = asyncio.Event()
    trips: list[tuple[float, float]] = []
    player = asyncio.create_task(play(base, stop, trips))
    await asyncio.sleep(2.0)
    times: dict[str, list[float]] = {k: [] for k in kinds}
    statuses: dict[str, set[int]] = {k: set() for k in kinds}
    cpu: dict[str, list[float]] = {k: [] for k in kinds}
    windows: list[tuple[float, float]] = []
    for _ in range(rounds):
        for kind, (body, streamed) in kinds.items():
            began, cpu_before = time.perf_counter(), cpu_seconds(pid)
            status, elapsed = await upload(port, body, streamed)
            cpu_after = cpu_seconds(pid)
            if cpu_before is not None and cpu_after is not None:
                cpu[kind].append(1000 * (cpu_after - cpu_before))
            times[kind].append(1000 * elapsed)
            statuses[kind].add(status)
            windows.append((began, began + elapsed))
            await asyncio.sleep(0.3)
    stop.set()
    player.cancel()
    await asyncio.gather(player, return_exceptions=True)

    def during(at: float) -> bool:
        return any(a <= at <= b for a, b in windows)

    busy = sorted(1000 * t for at, t in trips if during(at))
    calm = sorted(1000 * t for at, t in trips if not during(at))

    def summary(values: list[float]) -> dict[str, float]:
        if not values:
            return {"n": 0}
        return {"n": len(values), "p50": round(statistics.median(values), 2),
                "max": round(max(values), 2)}

    return {"uploads_ms": {k: {**summary(sorted(v)), "status": sorted(statuses[k]),
                               "server_cpu_ms_p50": round(statistics.median(cpu[k]), 1)
                               if cpu[k] else None}
                           for k, v in times.items()},
            "other_table_move_ms": {"during_uploads": summary(busy),
                                    "otherwise": summary(calm)}}


def main() -> None:
    """Start a server, measure, print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=18250)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    os.environ.update({"RUMMYKIT_BOT_DELAY": "0", "RUMMYKIT_UPLOAD_QUOTA": "100000"})
    with tempfile.TemporaryDirectory() as folder:
        process = start_server(f"sqlite:///{folder}/bench.db", args.port,
                               Path(folder) / "server.log")
        try:
            result = asyncio.run(run(f"http://127.0.0.1:{args.port}", args.port, args.rounds,
                                     process.pid))
        finally:
            process.terminate()
            process.wait(10)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
