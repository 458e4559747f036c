"""Crash test: `rummykit serve` as a real process, real WebSockets, SIGKILL in mid-match,
restart on the same SQLite file, and the match finishes with no move lost or doubled."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from rummykit.core.record import loads, replay
from rummykit.server.loadbench import free_port
from test_server_support import Player, choose, humans, play_out

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


class RealSocket:
    """A websockets client with the two methods :class:`Player` uses."""

    def __init__(self, url: str) -> None:
        self.connection: ClientConnection = connect(url, open_timeout=10).__enter__()

    def send_json(self, message: dict[str, Any]) -> None:
        self.connection.send(json.dumps(message))

    def receive_json(self) -> Any:
        return json.loads(self.connection.recv(timeout=30))

    def close(self) -> None:
        self.connection.close()


def command() -> list[str]:
    script = Path(sys.executable).parent / "rummykit"
    return [str(script)] if script.exists() else [sys.executable, "-m", "rummykit.cli.main"]


def start(url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "RUMMYKIT_ALLOW_SEEDS": "true", "RUMMYKIT_GRACE_SECONDS": "600",
           "RUMMYKIT_RATE_PER_SECOND": "1000", "RUMMYKIT_RATE_BURST": "1000",
           "RUMMYKIT_MAX_TURNS_PER_HAND": "150"}
    with log.open("ab") as out:
        process = subprocess.Popen([*command(), "serve", "--host", "127.0.0.1", "--port",
                                    str(port), "--database-url", url], env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"the server did not start:\n{log.read_text()}")
        time.sleep(0.1)


def kill(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)


def seat_players(port: int, tokens: list[str], versions: list[int | None]) -> list[Player]:
    players = []
    for token, version in zip(tokens, versions, strict=True):
        player = Player(RealSocket(f"ws://127.0.0.1:{port}/ws"))  # type: ignore[arg-type]
        player.version = version or 0
        player.hello(version, token=token)
        player.until_any(("sync", "seats"))
        players.append(player)
    return players


def moves_seen(player: Player) -> list[str]:
    return [m["move"] for m in player.log if m["type"] == "event" and m["kind"] == "move"]


@pytest.mark.parametrize("in_flight", [False, True])
def test_sigkill_mid_match_loses_and_doubles_nothing(tmp_path: Path, in_flight: bool) -> None:
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    log = tmp_path / "server.log"
    port = free_port()
    server = start(url, port, log)
    try:
        base = f"http://127.0.0.1:{port}"
        body = {"rules": "basic", "seats": humans("Ann", "Bob"), "seed": 17,
                "options": {"target_score": 60}}
        created = httpx.post(f"{base}/api/tables", json=body, timeout=10).json()
        table_id = created["table"]["id"]
        tokens = [t["token"] for t in created["tokens"]]
        players = seat_players(port, tokens, [None, None])
        rng = random.Random(4)
        acked = 0
        while acked < 40:  # about half a match
            latest = max(p.version for p in players)
            for p in players:
                p.catch_up(latest)
            view = players[0].view
            assert view is not None
            mover = players[view["to_move"]]
            top = view["discard"][-1] if view["discard"] else None
            assert mover.view is not None
            move = choose(mover.legal, rng, mover.view["hand"], top)
            assert mover.move(move)["type"] == "ack"
            acked += 1
        for p in players:
            p.catch_up(max(q.version for q in players))
        before = [moves_seen(p) for p in players]
        seen = players[0].version
        if in_flight:  # a move on its way when the server dies: committed or not, never twice
            view = players[0].view
            assert view is not None
            mover = players[view["to_move"]]
            mover.send({"type": "move", "move": mover.legal[0], "version": mover.version,
                        "ack": 999})
        kill(server)
        for p in players:
            p.socket.close()  # type: ignore[attr-defined]

        port = free_port()
        server = start(url, port, log)
        base = f"http://127.0.0.1:{port}"
        table = httpx.get(f"{base}/api/tables/{table_id}", timeout=10).json()
        assert table["status"] == "playing"
        assert table["version"] in ((seen, seen + 1) if in_flight else (seen,))
        again = seat_players(port, tokens, [seen, seen])
        for p, old in zip(again, players, strict=True):
            if p.view is None:  # nothing missed: the client keeps what it had
                p.view, p.legal, p.status = old.view, old.legal, old.status
        play_out(again, random.Random(9))
        final = httpx.get(f"{base}/api/tables/{table_id}", timeout=10).json()
        assert final["status"] == "over"
        record = loads(httpx.get(f"{base}/api/tables/{table_id}/matches/0/record",
                                 timeout=10).text)
        done = replay(record)
        assert done.ok and done.match is not None and done.match.over
        recorded = [m for h in record.hands for m in h.moves]
        resynced = [m for m in again[0].log if m["type"] == "sync"]
        after = moves_seen(again[0])
        extra = recorded[len(before[0]):len(recorded) - len(after)]
        # every acknowledged move is in the record once, in order, then the rest
        assert recorded[:len(before[0])] == before[0] == before[1]
        assert recorded[len(recorded) - len(after):] == after
        assert len(extra) == (table["version"] - seen)  # the in-flight move, if committed
        assert not extra or resynced
        assert list(done.match.totals) == final["match"]["totals"]
        for p in again:
            p.socket.close()  # type: ignore[attr-defined]
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=30)
