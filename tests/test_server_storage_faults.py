"""Storage that refuses writes mid-play, against the real databases: SQLite on a full
filesystem (a small tmpfs, as root), PostgreSQL with the server's connection killed; and
a stored table that does not replay (quarantined, the others serve)."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from rummykit.core.match import Match
from rummykit.core.record import loads, replay
from rummykit.core.rules import Rules
from test_server_support import (
    POSTGRES_URL,
    Player,
    choose,
    create,
    humans,
    play_out,
    running,
    settings_for,
)

AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def test_a_match_copy_plays_on_like_the_match() -> None:
    rng = random.Random(3)
    rules = Rules.from_options("basic", {"max_turns_per_hand": 60, "target_score": 40})
    match = Match(rules, ["A", "B"], seed=5)
    match.start_hand()
    copies = []
    while not match.over:
        state = match.state
        assert state is not None
        if state.is_over:
            match.start_hand()
            continue
        copies.append(match.copy())
        move = rng.choice(state.legal_moves())
        match.play(move)
        copies[-1].play(move)  # the copy makes the same move and keeps the same generator
        assert copies[-1].state is not None
        assert copies[-1].state.hands == state.hands and copies[-1].totals == match.totals
        assert copies[-1].state.stock == state.stock
    assert len(copies) > 10
    early = copies[0]  # a copy taken before the first move was not moved by the others
    assert sum(len(h.moves) for h in early.hands) == 1


def players_of(client: TestClient, tokens: list[str], stack: list[object]) -> list[Player]:
    players = []
    for token in tokens:
        context = client.websocket_connect("/ws")
        stack.append(context)
        player = Player(context.__enter__())
        player.hello(token=token)
        player.until("sync")
        players.append(player)
    return players


@contextmanager
def sockets() -> Iterator[list[object]]:
    opened: list[object] = []
    try:
        yield opened
    finally:
        for context in reversed(opened):
            context.__exit__(None, None, None)  # type: ignore[attr-defined]


def play_moves(players: list[Player], rng: random.Random, count: int) -> None:
    for _ in range(count):
        latest = max(p.version for p in players)
        for p in players:
            p.catch_up(latest)
        view = players[0].view
        assert view is not None and players[0].status != "over"
        mover = players[view["to_move"]]
        assert mover.view is not None
        top = mover.view["discard"][-1] if mover.view["discard"] else None
        reply = mover.move(choose(mover.legal, rng, mover.view["hand"], top))
        assert reply["type"] == "ack", reply


def mover_of(players: list[Player]) -> Player:
    view = players[0].view
    assert view is not None
    return players[view["to_move"]]


def check_record(client: TestClient, table_id: str) -> None:
    reply = client.get(f"/api/tables/{table_id}/matches/0/record")
    assert reply.status_code == 200, reply.text
    done = replay(loads(reply.text))
    assert done.ok and done.match is not None and done.match.over


@contextmanager
def small_tmpfs(where: Path) -> Iterator[Path]:
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def fill(disk: Path, database: Path) -> Path:
    """Empty the write-ahead log into the database file, then take every free byte."""
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 512, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


@pytest.mark.skipif(not AS_ROOT, reason="mounting a small tmpfs needs root (CI runs as root)")
def test_sqlite_on_a_full_disk_refuses_moves_and_heals(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "disk") as disk:
        database = disk / "server.db"
        settings = settings_for("sqlite", tmp_path, database_url=f"sqlite:///{database}")
        with running(settings) as client, sockets() as stack:
            created = create(client, humans("Ann", "Bob"), seed=11,
                             options={"target_score": 60})
            table_id = created["table"]["id"]
            players = players_of(client, [t["token"] for t in created["tokens"]], stack)
            rng = random.Random(2)
            play_moves(players, rng, 6)
            for p in players:
                p.catch_up(max(q.version for q in players))
            filler = fill(disk, database)
            committed = players[0].version
            mover = mover_of(players)
            move = mover.legal[0]
            refused = mover.move(move)
            assert refused["type"] == "error" and refused["code"] == "unavailable", refused
            # nobody heard of it, the table is where it was, a spectator sees that too
            assert client.get(f"/api/tables/{table_id}").json()["version"] == committed
            assert client.get("/api/health").json()["status"] == "degraded"
            refused = mover.move(move)  # still full: refused again, still unchanged
            assert refused["code"] == "unavailable"
            filler.unlink()
            assert mover.move(move)["type"] == "ack"
            assert mover.version == committed + 1
            play_out(players, rng)
            versions = [m["version"] for m in players[0].log if m["type"] == "event"]
            assert versions == list(range(versions[0], versions[-1] + 1))  # no gap
            check_record(client, table_id)
        with running(settings) as client:  # the restart loads everything
            assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"
            check_record(client, table_id)


@pytest.mark.skipif(not AS_ROOT, reason="mounting a small tmpfs needs root (CI runs as root)")
def test_bots_go_on_after_the_disk_was_full(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "disk") as disk:
        database = disk / "server.db"
        settings = settings_for("sqlite", tmp_path, database_url=f"sqlite:///{database}",
                                bot_delay=0.005)
        with running(settings) as client:
            created = create(client, [{"kind": "bot", "level": "easy"},
                                      {"kind": "bot", "level": "greedy"}],
                             options={"target_score": 40})
            table_id = created["table"]["id"]
            filler = fill(disk, database)
            deadline = time.monotonic() + 30
            while client.get("/api/health").json()["status"] == "ok":
                assert time.monotonic() < deadline, "no commit failed on the full disk"
                time.sleep(0.02)
            stuck = client.get(f"/api/tables/{table_id}").json()["version"]
            time.sleep(0.3)
            assert client.get(f"/api/tables/{table_id}").json()["version"] == stuck
            filler.unlink()
            deadline = time.monotonic() + 60
            while client.get(f"/api/tables/{table_id}").json()["status"] != "over":
                assert time.monotonic() < deadline, "the bots did not go on"
                time.sleep(0.05)
            check_record(client, table_id)


def schema_of(url: str) -> str:
    return unquote(url).rsplit("search_path=", 1)[1]


@pytest.mark.skipif(POSTGRES_URL is None, reason="needs RUMMYKIT_TEST_POSTGRES_URL")
def test_postgres_connection_killed_mid_commit(tmp_path: Path) -> None:
    assert POSTGRES_URL is not None
    settings = settings_for("postgres", tmp_path)
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    locker = create_engine(POSTGRES_URL).connect()
    try:
        with running(settings) as client, sockets() as stack:
            created = create(client, humans("Ann", "Bob"), seed=13,
                             options={"target_score": 60})
            table_id = created["table"]["id"]
            players = players_of(client, [t["token"] for t in created["tokens"]], stack)
            rng = random.Random(5)
            play_moves(players, rng, 5)
            for p in players:
                p.catch_up(max(q.version for q in players))
            committed = players[0].version
            # the next commit waits on a lock; its connection is killed while it waits
            locker.execute(text(f"LOCK TABLE {schema_of(settings.database_url)}.events "
                                "IN ACCESS EXCLUSIVE MODE"))
            stop = threading.Event()

            def kill_waiters() -> None:
                with admin.connect() as db:
                    while not stop.wait(0.05):
                        db.execute(text("SELECT pg_terminate_backend(pid) FROM "
                                        "pg_stat_activity WHERE wait_event_type = 'Lock' "
                                        "AND datname = current_database() "
                                        "AND pid <> pg_backend_pid()"))

            killer = threading.Thread(target=kill_waiters)
            killer.start()
            mover = mover_of(players)
            move = mover.legal[0]
            try:
                refused = mover.move(move)
            finally:
                stop.set()
                killer.join()
            locker.rollback()
            assert refused["type"] == "error" and refused["code"] == "unavailable", refused
            other = players[1 - players.index(mover)]
            other.send({"type": "ping"})
            assert other.until("pong") and other.version == committed  # heard nothing
            assert client.get(f"/api/tables/{table_id}").json()["version"] == committed
            assert mover.move(move)["type"] == "ack"  # a new connection, the same state
            assert mover.version == committed + 1
            play_out(players, rng)
            check_record(client, table_id)
    finally:
        locker.close()
        admin.dispose()


def test_a_table_that_does_not_replay_is_quarantined(tmp_path: Path) -> None:
    settings = settings_for("sqlite", tmp_path)
    with running(settings) as client, sockets() as stack:
        tables = []
        for seed in (1, 2):
            created = create(client, humans("Ann", "Bob"), seed=seed)
            players = players_of(client, [t["token"] for t in created["tokens"]], stack)
            play_moves(players, random.Random(seed), 4)
            tables.append((created["table"]["id"], [t["token"] for t in created["tokens"]]))
    bad, good = tables
    with sqlite3.connect(tmp_path / "server.db") as db:  # one stored move made illegal
        row = db.execute("SELECT version, data FROM events WHERE table_id = ? AND kind = "
                         "'move' ORDER BY version DESC", (bad[0],)).fetchone()
        data = json.loads(row[1])
        data["move"] = "meld AS 2S 3S"
        db.execute("UPDATE events SET data = ? WHERE table_id = ? AND version = ?",
                   (json.dumps(data), bad[0], row[0]))
    with running(settings) as client, sockets() as stack:
        health = client.get("/api/health").json()
        assert health["status"] == "degraded" and list(health["quarantined"]) == [bad[0]]
        assert "do not replay" in health["quarantined"][bad[0]]
        reply = client.get(f"/api/tables/{bad[0]}")
        assert reply.status_code == 503 and reply.json()["error"]["code"] == "unavailable"
        assert bad[0] not in [t["id"] for t in client.get("/api/tables").json()]
        players = players_of(client, good[1], stack)  # the other table plays on
        play_moves(players, random.Random(7), 3)


def test_a_full_table_left_waiting_starts_when_loaded(tmp_path: Path) -> None:
    settings = settings_for("sqlite", tmp_path)
    with running(settings) as client:
        table_id = create(client, [{"kind": "human"}, {"kind": "human"}])["table"]["id"]
    with sqlite3.connect(tmp_path / "server.db") as db:  # both joined, then the crash
        for seat, name in enumerate(("Ann", "Bob")):
            db.execute("UPDATE seats SET name = ?, controller = 'human', token_hash = ? "
                       "WHERE table_id = ? AND seat = ?", (name, f"{seat:064d}", table_id,
                                                         seat))
    with running(settings) as client:
        table = client.get(f"/api/tables/{table_id}").json()
        assert table["status"] == "playing" and table["version"] >= 1
