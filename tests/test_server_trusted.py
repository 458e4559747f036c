"""The trusted replay (a stored table's moves applied without the rule checks, for a fast
resume): it rebuilds the same table as the checked replay; a log that does not hold
together (a version gap, a move by the wrong seat, a move that does not parse) is left to
the checked replay; and a corrupt stored move it did take is caught by the checked replay
run afterwards in the replay worker: the table is quarantined (real SQLite, the real app,
a real worker process)."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
import time
from pathlib import Path

import pytest

from rummykit.core.cards import format_card, parse_card
from rummykit.core.handset import cards
from rummykit.server.hub import Hub
from rummykit.server.storage import SqlStorage, StoredTable
from rummykit.server.table import SPECTATOR, LiveTable, table_rules
from rummykit.server.trusted import chained
from test_server_storage_faults import play_moves, players_of, sockets
from test_server_support import create, humans, running, settings_for


def played_table(tmp_path: Path, moves: int, **settings: object) -> tuple[str, Path]:
    """A stored table of two humans after ``moves`` moves: its id and database file."""
    with running(settings_for("sqlite", tmp_path, **settings)) as client, \
            sockets() as stack:
        created = create(client, humans("Ann", "Bob"), seed=5)
        players = players_of(client, [t["token"] for t in created["tokens"]], stack)
        play_moves(players, random.Random(5), moves)
    return created["table"]["id"], tmp_path / "server.db"


def restored(stored: StoredTable, trusted: bool) -> LiveTable:
    rules = table_rules(stored.table.rules, stored.table.options, 150)
    return LiveTable.restore(stored, rules, 8, trusted)


def test_a_trusted_replay_rebuilds_the_table_the_checked_one_does(tmp_path: Path) -> None:
    table_id, path = played_table(tmp_path, 40)
    storage = SqlStorage(f"sqlite:///{path}")
    stored = storage.load(table_id)
    storage.close()
    assert stored is not None
    checked, trusted = restored(stored, False), restored(stored, True)
    assert checked.unchecked is None and trusted.unchecked is not None
    for who in (0, 1, SPECTATOR):
        assert trusted.viewer(who) == checked.viewer(who)
    assert trusted.hand_log == checked.hand_log
    assert checked.match is not None and trusted.match is not None
    assert trusted.match.totals == checked.match.totals
    seat = checked.to_move()
    assert seat is not None
    seen = checked.viewer(seat)
    assert seen is not None
    move = str(seen.legal[0])  # both play on alike
    for table in (checked, trusted):
        table.adopt(table.play(seat, move, table.version))
    assert trusted.viewer(seat) == checked.viewer(seat)


def test_a_log_that_does_not_hold_together_is_left_to_the_checked_replay(
        tmp_path: Path) -> None:
    table_id, path = played_table(tmp_path, 12)
    storage = SqlStorage(f"sqlite:///{path}")
    stored = storage.load(table_id)
    storage.close()
    assert stored is not None
    events, version = stored.events, stored.table.version
    assert chained(events, version)
    gap = [e if i < 3 else dataclasses.replace(e, version=e.version + 1)  # a version skipped
           for i, e in enumerate(events)]
    moves = [i for i, e in enumerate(events) if e.kind == "move"]
    wrong_seat = list(events)
    data = dict(events[moves[2]].data, seat=1 - events[moves[2]].data["seat"])
    wrong_seat[moves[2]] = dataclasses.replace(events[moves[2]], data=data)
    garbled = list(events)
    garbled[moves[-1]] = dataclasses.replace(events[moves[-1]],
                                             data=dict(events[moves[-1]].data, move="dance"))
    assert not chained(gap, version)
    for broken in (gap, wrong_seat):  # the moves are fine: the checked replay takes them
        built = restored(dataclasses.replace(stored, events=broken), True)
        assert built.unchecked is None  # not trusted
        assert built.viewer(0) == restored(stored, False).viewer(0)
    with pytest.raises(RuntimeError, match="do not replay"):
        restored(dataclasses.replace(stored, events=garbled), True)


def test_a_corrupt_move_a_trusted_replay_took_is_quarantined_by_the_check(
        tmp_path: Path) -> None:
    table_id, path = played_table(tmp_path, 30)
    settings = settings_for("sqlite", tmp_path, replay_processes=1)
    with running(settings) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        # an intact table loaded again (after the start): trusted, then checked, kept
        client.portal.call(hub.drop, table_id)  # type: ignore[union-attr]
        assert client.get(f"/api/tables/{table_id}").status_code == 200
        assert hub.tables[table_id].unchecked is not None
        deadline = time.monotonic() + 60
        while hub.tables[table_id].unchecked is not None:
            assert time.monotonic() < deadline, "the check did not end"
            time.sleep(0.05)
        assert client.get("/api/health").json() == {"status": "ok"}
        # the last discard made illegal: a card the other seat holds
        with sqlite3.connect(path) as db:
            row = db.execute("SELECT version, data FROM events WHERE table_id = ? AND kind "
                             "= 'move' AND data LIKE '%discard%' ORDER BY version DESC",
                             (table_id,)).fetchone()
            data = json.loads(row[1])
            seen = hub.tables[table_id].viewer(1 - data["seat"])
            assert seen is not None
            thrown = parse_card(data["move"].split()[1])
            other = next(c for c in cards(seen.hand) if c != thrown)
            data["move"] = f"discard {format_card(other)}"
            db.execute("UPDATE events SET data = ? WHERE table_id = ? AND version = ?",
                       (json.dumps(data), table_id, row[0]))
        client.portal.call(hub.drop, table_id)  # type: ignore[union-attr]
        assert client.get(f"/api/tables/{table_id}").status_code == 200  # trusted: served
        while table_id not in hub.quarantined:
            assert time.monotonic() < deadline, "the corrupt move was not caught"
            time.sleep(0.05)
        assert "do not replay" in hub.quarantined[table_id]
        assert table_id not in hub.tables
        health = client.get("/api/health").json()
        assert health["status"] == "degraded" and list(health["quarantined"]) == [table_id]
        reply = client.get(f"/api/tables/{table_id}")
        assert reply.status_code == 503 and reply.json()["error"]["code"] == "unavailable"
