"""Issue 16's remaining targets, through the real application on real SQLite (and, for the
lobby, real `rummykit serve` processes on PostgreSQL with Redis): a rate-limited move's
error names its ``ack``; HSTS over HTTPS only; the overall cap on stored uploads; seat
updates fenced by the stored table's versions; long uploads accepted at once and checked
in the background; the cluster lobby lists every node's tables."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from rummykit.server.app import create_app
from rummykit.server.storage import Fenced, SeatRow, SqlStorage, TableRow
from test_server_crash import RealSocket, command
from test_server_support import (
    POSTGRES_URL,
    Player,
    choose,
    create,
    fresh_postgres_schema,
    humans,
    pick_port,
    running,
    settings_for,
)

GOLDEN = Path(__file__).parent / "data" / "golden"


def sqlite_settings(tmp_path: Path, **overrides: Any) -> Any:
    return settings_for("sqlite", tmp_path, **overrides)


def error_of(response: httpx.Response) -> tuple[int, str, str]:
    body = response.json()["error"]
    return response.status_code, body["code"], body["message"]


# -- a rate-limited move names its ack --------------------------------------------------

def test_a_rate_limited_move_error_carries_its_ack(tmp_path: Path) -> None:
    # two messages at once (hello, a move), then one every 100 s: the next move is refused
    settings = sqlite_settings(tmp_path, rate_per_second=0.01, rate_burst=2, max_strikes=50)
    with running(settings) as c:
        tokens = create(c, humans("Ann", "Bob"), seed=4)["tokens"]
        with c.websocket_connect("/ws") as ws:
            player = Player(ws)
            player.hello(token=tokens[0]["token"])
            player.until("sync")
            first = player.move("draw" if "draw" in player.legal else "nothing")
            assert first["type"] in ("ack", "error") and first["ack"] == 1
            assert first.get("code") != "rate_limited"
            ws.send_json({"type": "move", "move": "draw", "version": 0, "ack": 41})
            ws.send_json({"type": "ping"})
            ws.send_text("not json")
            replies = [player.until("error") for _ in range(3)]
    assert [(r["code"], r["ack"]) for r in replies] == [
        ("rate_limited", 41), ("rate_limited", None), ("rate_limited", None)]


# -- HSTS ---------------------------------------------------------------------------------

def test_hsts_is_sent_over_https_only(tmp_path: Path) -> None:
    settings = sqlite_settings(tmp_path, trusted_proxies="10.0.0.0/8", hsts_seconds=600)
    app = create_app(settings)
    with TestClient(app, base_url="https://rummy.test") as tls:
        assert tls.get("/api/health").headers["strict-transport-security"] == \
            "max-age=600; includeSubDomains"
    with TestClient(app, base_url="http://rummy.test") as plain:
        assert "strict-transport-security" not in plain.get("/api/health").headers
        # a proxy's word counts only from a trusted proxy
        forwarded = {"x-forwarded-proto": "https"}
        assert "strict-transport-security" not in plain.get(
            "/api/health", headers=forwarded).headers
    with TestClient(app, base_url="http://rummy.test", client=("10.1.2.3", 5000)) as proxy:
        assert proxy.get("/api/health", headers={"x-forwarded-proto": "https"}).headers[
            "strict-transport-security"] == "max-age=600; includeSubDomains"
        assert "strict-transport-security" not in proxy.get("/api/health").headers


def test_hsts_can_be_turned_off(tmp_path: Path) -> None:
    with TestClient(create_app(sqlite_settings(tmp_path, hsts_seconds=0)),
                    base_url="https://rummy.test") as tls:
        assert "strict-transport-security" not in tls.get("/api/health").headers


# -- the overall cap on stored uploads ------------------------------------------------------

def test_uploads_past_the_overall_cap_are_refused_with_507(tmp_path: Path) -> None:
    record = (GOLDEN / "basic_2p.rummy.json").read_bytes()
    cap = int(len(record) * 2.5)  # two fit, not three
    with running(sqlite_settings(tmp_path, max_stored_upload_bytes=cap)) as c:
        kept = [c.post("/api/replays", content=record) for _ in range(2)]
        assert [r.status_code for r in kept] == [201, 201]
        status, code, message = error_of(c.post("/api/replays", content=record))
        assert (status, code) == (507, "storage_full")
        assert f"at most {cap} bytes" in message and str(len(record)) in message
        for reply in kept:  # what was kept is still served
            assert len(c.get(f"/api/replays/{reply.json()['id']}").json()["frames"]) == 134


# -- long uploads: 202 at once, checked in the background --------------------------------------

def test_a_long_upload_is_answered_202_and_checked_in_the_background(tmp_path: Path) -> None:
    long = (GOLDEN / "contract_3p.rummy.json").read_bytes()
    broken = json.loads(long)
    broken["hands"][-1]["moves"][3] = "discard ZZ"
    with running(sqlite_settings(tmp_path, upload_wait_seconds=0.0)) as c:
        started = time.perf_counter()
        reply = c.post("/api/replays", content=long)
        answered = time.perf_counter() - started
        assert reply.status_code == 202, reply.text
        body = reply.json()
        assert body["status"] == "checking" and reply.headers["location"] == body["status_url"]
        assert answered < 1.0  # the check alone takes longer (figures: docs/operating.md)
        frames = c.get(f"/api/replays/{body['id']}").json()["frames"]  # waits for the check
        status = c.get(body["status_url"]).json()
        assert status == {"id": body["id"], "status": "ok", "frames": len(frames),
                          "error": None}
        assert c.get(f"/api/replays/{body['id']}/record").json()["rules"] == "contract"
        refused = c.post("/api/replays", content=json.dumps(broken).encode())
        assert refused.status_code == 202
        bad_id = refused.json()["id"]
        status_code, code, message = error_of(c.get(f"/api/replays/{bad_id}"))
        assert (status_code, code) == (422, "record") and "ZZ" in message
        status = c.get(f"/api/replays/{bad_id}/status").json()
        assert status["status"] == "refused" and "ZZ" in status["error"]
        assert c.get("/api/replays/nope/status").status_code == 404


# -- seat updates are fenced ------------------------------------------------------------------

def test_a_stale_seat_update_is_fenced_out_in_storage(tmp_path: Path) -> None:
    storage = SqlStorage(f"sqlite:///{tmp_path / 'fence.db'}")
    try:
        row = TableRow("t1", "basic", {}, "waiting", 0, 0, None)
        seats = [SeatRow(0, "human", None, None, None, "open"),
                 SeatRow(1, "human", None, None, None, "open")]
        storage.create_table(row, seats)
        storage.save_seat("t1", SeatRow(0, "human", "Ann", None, "h1", "human"), 0, 0)
        with pytest.raises(Fenced):  # made against seat version 0: storage is at 1
            storage.save_seat("t1", SeatRow(0, "human", "Eve", None, "h2", "human"), 0, 0)
        with pytest.raises(Fenced):  # made against a table version that is not stored
            storage.save_seat("t1", SeatRow(1, "human", "Eve", None, "h2", "human"), 3, 1)
        loaded = storage.load("t1")
        assert loaded is not None
        assert [s.name for s in loaded.seats] == ["Ann", None]
        assert loaded.table.seats_version == 1
    finally:
        storage.close()


def test_a_process_that_lost_the_table_cannot_change_a_seat(tmp_path: Path) -> None:
    """Two servers on one SQLite file (as a node that lost its lease would be): the first
    keeps an old copy of the table; its join is refused and the seat stays the other's."""
    settings = sqlite_settings(tmp_path)
    with running(settings) as first, running(settings) as second:
        table = create(first, [{"kind": "human", "name": "Ann"}, {"kind": "human"}],
                       private=False)["table"]["id"]
        assert second.get(f"/api/tables/{table}").json()["status"] == "waiting"
        joined = second.post(f"/api/tables/{table}/join", json={"name": "Bob"})
        assert joined.status_code == 200, joined.text
        # the first server's copy still shows the seat open: its join must not win
        status, code, message = error_of(
            first.post(f"/api/tables/{table}/join", json={"name": "Eve"}))
        assert (status, code) == (503, "unavailable") and "another server" in message
        engine = create_engine(settings.database_url)
        with engine.connect() as db:
            names = [r[0] for r in db.execute(text(
                "SELECT name FROM seats WHERE table_id = :t ORDER BY seat"), {"t": table})]
        engine.dispose()
        assert names == ["Ann", "Bob"]
        # the first server reloads the table from storage and tells the truth again
        deadline = time.monotonic() + 10
        while True:
            seen = first.get(f"/api/tables/{table}").json()
            if [s["name"] for s in seen["seats"]] == ["Ann", "Bob"]:
                break
            assert time.monotonic() < deadline, seen
            time.sleep(0.1)
        assert seen["status"] == "playing"
        status, code, _ = error_of(first.post(f"/api/tables/{table}/join",
                                              json={"name": "Eve"}))
        assert (status, code) == (409, "no_open_seat")


# -- the cluster lobby ------------------------------------------------------------------------

class Node:
    """One `rummykit serve` process of a cluster, on a port of RUMMYKIT_TEST_PORTS."""

    def __init__(self, database: str, redis: str, log: Path) -> None:
        self.port = pick_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"
        self.log = log
        env = {**os.environ, "RUMMYKIT_GRACE_SECONDS": "600", "RUMMYKIT_LEASE_SECONDS": "1.5",
               "RUMMYKIT_BOT_DELAY": "0.2"}
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [*command(), "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--database-url", database, "--redis-url", redis], env=env, stdout=out,
                stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"a node did not start:\n{log.read_text()}")
            time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def two_nodes(tmp_path: Path) -> Iterator[list[Node]]:
    redis = os.environ.get("RUMMYKIT_TEST_REDIS_URL")
    if POSTGRES_URL is None or redis is None:
        pytest.skip("needs RUMMYKIT_TEST_POSTGRES_URL and RUMMYKIT_TEST_REDIS_URL")
    database = fresh_postgres_schema()
    nodes: list[Node] = []
    try:
        for index in range(2):
            nodes.append(Node(database, redis, tmp_path / f"node{index}.log"))
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def lobby_of(node: Node) -> dict[str, dict[str, Any]]:
    reply = httpx.get(f"{node.base}/api/tables", timeout=10)
    assert reply.status_code == 200, reply.text
    return {t["id"]: t for t in reply.json()}


def test_every_node_lists_every_nodes_tables(two_nodes: list[Node]) -> None:
    a, b = two_nodes
    open_seat = {"rules": "basic", "seats": [{"kind": "human", "name": "Ann"},
                                             {"kind": "human"}]}
    waiting = httpx.post(f"{a.base}/api/tables", json=open_seat, timeout=10).json()
    vs_bot = {"rules": "basic", "private": False,
              "seats": [{"kind": "human", "name": "Cy"}, {"kind": "bot", "level": "random"}]}
    playing = httpx.post(f"{b.base}/api/tables", json=vs_bot, timeout=10).json()
    hidden = {**vs_bot, "private": True}
    private = httpx.post(f"{b.base}/api/tables", json=hidden, timeout=10).json()
    cy = Player(RealSocket(b.ws))  # type: ignore[arg-type]
    cy.hello(token=playing["tokens"][0]["token"])
    cy.until("sync")
    waiting_id, playing_id = waiting["table"]["id"], playing["table"]["id"]
    try:
        for node in (a, b):
            deadline = time.monotonic() + 10
            while True:  # the owner's summary (who is connected) is written in the background
                listed = lobby_of(node)
                if listed.get(playing_id, {}).get("seats", [{}])[0].get("connected"):
                    break
                assert time.monotonic() < deadline, json.dumps(listed)
                time.sleep(0.1)
            assert private["table"]["id"] not in listed
            assert listed[waiting_id]["status"] == "waiting"
            assert [(s["name"], s["controller"]) for s in listed[waiting_id]["seats"]] == [
                ("Ann", "human"), (None, "open")]
            table = listed[playing_id]
            assert table["status"] == "playing" and table["match"] is not None
            assert [(s["kind"], s["controller"], s["connected"]) for s in table["seats"]] == [
                ("human", "human", True), ("bot", "bot", False)]
            assert table["version"] >= 1
        # the waiting table fills from the other node: every lobby shows it playing
        joined = httpx.post(f"{b.base}/api/tables/{waiting_id}/join", json={"name": "Bo"},
                            timeout=10)
        assert joined.status_code == 200, joined.text
        for node in (a, b):
            shown = lobby_of(node)[waiting_id]
            assert shown["status"] == "playing"
            assert [s["name"] for s in shown["seats"]] == ["Ann", "Bo"]
    finally:
        cy.socket.close()  # type: ignore[attr-defined]


# -- event messages rendered once for every viewer ------------------------------------------

@pytest.mark.parametrize(("rules", "players"), [("basic", 2), ("traditional", 3),
                                                ("contract", 3)])
def test_event_texts_match_each_viewers_own_view(rules: str, players: int) -> None:
    """Every viewer's ``event`` message holds exactly what ``view_out`` of its own view
    says, and its own legal moves, over whole hands of play (deals, melds, hand ends)."""
    import random

    from rummykit.core.cards import format_card
    from rummykit.core.match import Match
    from rummykit.core.rules import PRESETS
    from rummykit.core.views import public_view, view
    from rummykit.server.eventtext import EventText
    from rummykit.server.render import legal_out, view_out
    from rummykit.server.wire import EventOut

    rng = random.Random(players)
    match = Match(PRESETS[rules], [f"P{i}" for i in range(players)], seed=players)
    state = match.start_hand()
    checked = ends = 0
    while checked < 400:
        event = EventText(checked, '{"type":"event","version":1,"kind":"move","seat":0,'
                          '"move":"draw","match":{"number":0,"hands_played":0,"hands":[],'
                          '"totals":[0],"over":false,"winners":[]}', state)
        for recipient in [-1, *range(players)]:
            seen = public_view(state) if recipient < 0 else view(state, recipient)
            message = json.loads(event.text(recipient))
            assert message["view"] == json.loads(view_out(seen).model_dump_json())
            assert message["legal"] == legal_out(seen)
            EventOut.model_validate(message)
        checked += 1
        if state.result is not None:
            ends += 1
            if match.over:
                break
            state = match.start_hand()
            continue
        seen = view(state, state.to_move)
        top = format_card(seen.discard[-1]) if seen.discard else None
        hand = [format_card(c) for c in seen.hand_cards]
        match.play(choose(legal_out(seen), rng, hand, top))
        state = match.state
        assert state is not None
    assert checked >= 100 and ends >= 1


@pytest.mark.parametrize("message", [
    {"type": "move", "move": "draw", "version": 3, "ack": 7},
    {"type": "move", "move": "discard S9", "version": 0, "ack": 2**53},
    {"type": "move", "move": "draw", "version": "3", "ack": 7},  # converted by validation
    {"type": "move", "move": "draw", "version": 3, "ack": True},
    {"type": "move", "move": "", "version": 3, "ack": 7},
    {"type": "move", "move": "x" * 301, "version": 3, "ack": 7},
    {"type": "move", "move": "draw", "version": -1, "ack": 7},
    {"type": "move", "move": "draw", "version": 3, "ack": 2**53 + 1},
    {"type": "move", "move": "draw", "version": 3, "ack": 7, "extra": 1},
    {"type": "move", "move": "draw", "version": 3},
])
def test_the_quick_move_parse_agrees_with_validation(message: dict[str, Any]) -> None:
    from pydantic import ValidationError

    from rummykit.server.errors import ServerError
    from rummykit.server.wire import CLIENT_MESSAGE
    from rummykit.server.ws import parse

    try:
        expected: Any = CLIENT_MESSAGE.validate_python(message)
    except ValidationError:
        expected = None
    try:
        got: Any = parse(json.dumps(message))
    except ServerError as error:
        assert expected is None and error.code == "bad_message"
        return
    assert got == expected and type(got) is type(expected)
