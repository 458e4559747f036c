"""Tables leave memory and the lobby when idle or finished; abandoned tables and bot-only
tables end instead of playing for ever (the real application, SQLite)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from test_server_support import create, humans, running, settings_for

FAST = {"sweep_seconds": 0.05, "idle_seconds": 0.3, "finished_seconds": 0.3,
        "abandon_seconds": 0.3, "bot_delay": 0.01}


def wait_for(client: TestClient, table_id: str, status: str, within: float) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        table: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
        if table["status"] == status:
            return table
        assert time.monotonic() < deadline, table
        time.sleep(0.05)


def lobby(client: TestClient) -> list[str]:
    return [t["id"] for t in client.get("/api/tables").json()]


def test_idle_waiting_tables_leave_memory_and_the_lobby(tmp_path: Path) -> None:
    with running(settings_for("sqlite", tmp_path, **FAST)) as client:
        table_id = create(client, [{"kind": "human"}, {"kind": "human"}])["table"]["id"]
        assert table_id in lobby(client)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        deadline = time.monotonic() + 5
        while table_id in hub.tables:
            assert time.monotonic() < deadline, "the idle table stayed in memory"
            time.sleep(0.05)
        assert table_id not in lobby(client)
        # still stored: it loads back when asked for, and can be joined
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "waiting"
        assert client.post(f"/api/tables/{table_id}/join", json={"name": "Ann"}
                           ).status_code == 200


def test_abandoned_tables_end_unfinished(tmp_path: Path) -> None:
    with running(settings_for("sqlite", tmp_path, **FAST)) as client:
        created = create(client, humans("Ann", "Bob"), options={"target_score": 500})
        table_id = created["table"]["id"]
        for token in created["tokens"]:  # both leave: bots play their seats, nobody is there
            reply = client.post(f"/api/tables/{table_id}/leave",
                                headers={"X-Seat-Token": token["token"]})
            assert reply.status_code == 200, reply.text
        table = wait_for(client, table_id, "over", 10)
        assert table["match"] is not None and not table["match"]["over"]  # unfinished
        assert client.get(f"/api/tables/{table_id}/matches/0/record").status_code == 404
        hub = client.app.state.hub  # type: ignore[attr-defined]
        deadline = time.monotonic() + 5
        while table_id in hub.tables:  # finished and unwatched: out of memory
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_bot_only_tables_are_bounded_in_time_and_cpu(tmp_path: Path) -> None:
    bots = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    timed = {**FAST, "bot_table_seconds": 0.5}
    with running(settings_for("sqlite", tmp_path, **timed)) as client:
        table_id = create(client, bots, options={"target_score": 5000})["table"]["id"]
        time.sleep(0.3)
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"
        table = wait_for(client, table_id, "over", 10)
        assert not table["match"]["over"]
    cpu = {**FAST, "bot_table_cpu_seconds": 0.02}
    with running(settings_for("sqlite", tmp_path / "cpu", **cpu)) as client:
        table_id = create(client, bots, options={"target_score": 5000})["table"]["id"]
        table = wait_for(client, table_id, "over", 20)
        assert not table["match"]["over"] and table["version"] > 2
