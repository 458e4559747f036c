"""A resignation is one transaction on a real ``rummykit serve`` (SQLite): the fenced seat
write and the counted loss are stored together or not at all. The database is made to
refuse the count (a trigger on ``player_stats``); the seat must then be unchanged in
storage and in memory, and the next try, once the database accepts it again, counts the
loss once."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from rummykit.server.loadbench import start_server
from test_server_players import Browser, record
from test_server_support import pick_port

REFUSE = [f"CREATE TRIGGER refuse_{kind} BEFORE {kind} ON player_stats "
          "BEGIN SELECT RAISE(ABORT, 'player_stats refused'); END"
          for kind in ("INSERT", "UPDATE")]


@pytest.fixture()
def live(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A real server on a SQLite file: its URL and the file."""
    port = pick_port()
    path = tmp_path / "resign.db"
    process = start_server(f"sqlite:///{path}", port, tmp_path / "server.log",
                           {"RUMMYKIT_BOT_DELAY": "0"})
    try:
        yield f"http://127.0.0.1:{port}", path
    finally:
        process.terminate()
        process.wait(10)


def stored_seat(path: Path, table_id: str) -> tuple[str | None, str, int]:
    """Seat 0's ``left`` and controller, and the table's ``seats_version``, as stored."""
    with sqlite3.connect(path) as db:
        left, controller = db.execute("SELECT \"left\", controller FROM seats WHERE "
                                      "table_id = ? AND seat = 0", (table_id,)).fetchone()
        (seats_version,) = db.execute("SELECT seats_version FROM tables WHERE id = ?",
                                      (table_id,)).fetchone()
    return left, controller, seats_version


def test_a_resignation_whose_count_fails_changes_nothing(live: tuple[str, Path]) -> None:
    base, path = live
    ann, bob = Browser(base), Browser(base)
    created = ann.write("POST", "/api/tables", {"seats": [{"kind": "human", "name": "Ann"},
                                                          {"kind": "human"}]}).json()
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    assert bob.write("POST", f"/api/tables/{table_id}/join", {"name": "Bob"}).status_code == 200
    before = stored_seat(path, table_id)
    assert before[:2] == (None, "human")
    with sqlite3.connect(path) as db:
        for statement in REFUSE:
            db.execute(statement)
    refused = httpx.post(f"{base}/api/tables/{table_id}/resign",
                         headers={"X-Seat-Token": token})
    assert refused.status_code == 503, refused.text
    assert refused.json()["error"]["code"] == "unavailable"
    assert stored_seat(path, table_id) == before  # neither the seat nor its version moved
    shown = httpx.get(f"{base}/api/tables/{table_id}").json()
    assert shown["seats"][0]["left"] is None and shown["seats"][0]["controller"] == "human"
    with sqlite3.connect(path) as db:
        for kind in ("INSERT", "UPDATE"):
            db.execute(f"DROP TRIGGER refuse_{kind}")
    done = httpx.post(f"{base}/api/tables/{table_id}/resign", headers={"X-Seat-Token": token})
    assert done.status_code == 200, done.text
    assert done.json()["seats"][0]["left"] == "resigned"
    left, controller, seats_version = stored_seat(path, table_id)
    assert (left, controller, seats_version) == ("resigned", "bot", before[2] + 1)
    assert record(ann) == {"basic": {"played": 1, "won": 0, "lost": 1}}  # counted once
