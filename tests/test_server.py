"""The server over HTTP and WebSocket, against the real application (SQLite, and
PostgreSQL when RUMMYKIT_TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummykit.core.record import loads, match_result, replay
from rummykit.server.errors import ServerError
from rummykit.server.hub import Hub
from rummykit.server.wire import HintOut
from test_server_support import (
    BACKENDS,
    Player,
    create,
    humans,
    play_out,
    running,
    settings_for,
)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def client(backend: str, tmp_path: Path) -> Iterator[TestClient]:
    with running(settings_for(backend, tmp_path)) as c:
        yield c


def tag() -> str:
    return f"{random.SystemRandom().getrandbits(32):08x}"


def seated(client: TestClient, names: tuple[str, ...], **extra: object) -> tuple[str, list[str]]:
    created = create(client, humans(*names), **extra)
    return created["table"]["id"], [t["token"] for t in created["tokens"]]


def connect(client: TestClient, stack: list[object], token: str | None = None,
            table: str | None = None, version: int | None = None) -> Player:
    context = client.websocket_connect("/ws")
    socket = context.__enter__()
    stack.append(context)
    player = Player(socket)
    who = {"token": token} if token else {"table": table or ""}
    player.hello(version, **who)
    if version is None:
        player.until("sync")
    return player


@contextmanager
def closing() -> Iterator[list[object]]:
    """WebSocket sessions opened by :func:`connect`, closed at the end of the block."""
    opened: list[object] = []
    try:
        yield opened
    finally:
        for context in reversed(opened):
            context.__exit__(None, None, None)  # type: ignore[attr-defined]


@pytest.fixture
def sockets() -> Iterator[list[object]]:
    with closing() as opened:
        yield opened


# -- HTTP ---------------------------------------------------------------------------

def test_create_join_and_lobby(client: TestClient) -> None:
    name = f"Ann-{tag()}"
    created = create(client, [{"kind": "human", "name": name}, {"kind": "human"},
                              {"kind": "bot", "level": "easy"}])
    table = created["table"]
    assert table["status"] == "waiting" and table["version"] == 0
    assert [s["controller"] for s in table["seats"]] == ["human", "open", "bot"]
    assert len(created["tokens"]) == 1 and len(created["tokens"][0]["token"]) >= 32
    assert any(t["id"] == table["id"] for t in client.get("/api/tables").json())
    joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bob"}).json()
    assert joined["seat"] == 1 and joined["token"] != created["tokens"][0]["token"]
    after = client.get(f"/api/tables/{table['id']}").json()
    assert after["status"] == "playing" and after["version"] >= 1
    again = client.post(f"/api/tables/{table['id']}/join", json={"name": "Cy"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "no_open_seat"
    seat = client.get(f"/api/seats/{joined['token']}").json()
    assert seat == {"table": table["id"], "seat": 1, "name": "Bob"}


def test_leave_before_the_start_opens_the_seat(client: TestClient) -> None:
    created = create(client, [{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    left = client.post(f"/api/tables/{table_id}/leave", headers={"X-Seat-Token": token})
    assert left.status_code == 200
    assert [s["controller"] for s in left.json()["seats"]] == ["open", "open"]
    assert client.get(f"/api/seats/{token}").json()["error"]["code"] == "bad_token"


@pytest.mark.parametrize(("body", "code"), [
    ({"rules": "gin", "seats": humans("A", "B", "C")}, "bad_request"),  # gin is for 2
    ({"rules": "basic", "seats": humans("A")}, "bad_request"),
    ({"rules": "basic", "seats": humans(*"ABCDEFG")}, "bad_request"),
    ({"rules": "basic", "options": {"ace_mode": "sideways"}, "seats": humans("A", "B")},
     "bad_request"),
    ({"rules": "basic", "seats": [{"kind": "bot", "level": "godlike"}] * 2}, "bad_request"),
    ({"rules": "basic", "seats": humans("A", "B"), "extra": 1}, "bad_request"),
    ({"rules": "basic", "seats": [{"kind": "human", "name": "\x07bell"}] * 2}, "bad_request"),
    ({"rules": "contract", "options": {"deals": 9}, "seats": humans("A", "B")},
     "bad_request"),
    ({"rules": "basic", "options": {"deals": 2}, "seats": humans("A", "B")}, "bad_request"),
])
def test_bad_table_specs(client: TestClient, body: dict[str, object], code: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code and error["message"] and "Traceback" not in response.text


def test_http_errors_have_codes(client: TestClient) -> None:
    assert client.get("/api/tables/nope").json()["error"]["code"] == "unknown_table"
    assert client.get("/api/seats/nope").status_code == 403
    bad = client.post("/api/tables", content=b"{not json", headers={
        "content-type": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request"
    assert client.get("/api/nothing").json()["error"]["code"] == "not_found"
    table_id, tokens = seated(client, ("A", "B"))
    other_id, _ = seated(client, ("C", "D"))
    wrong = client.post(f"/api/tables/{other_id}/leave", headers={"X-Seat-Token": tokens[0]})
    assert wrong.json()["error"]["code"] == "bad_token"
    early = client.post(f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": tokens[0]})
    assert early.json()["error"]["code"] == "not_over"
    record = client.get(f"/api/tables/{table_id}/matches/0/record")
    assert record.status_code == 404  # the match is in play: its record holds the decks


def test_seeds_only_when_allowed(backend: str, tmp_path: Path) -> None:
    with running(settings_for(backend, tmp_path, allow_seeds=False)) as c:
        response = c.post("/api/tables", json={"seats": humans("A", "B"), "seed": 3})
        assert response.json()["error"]["code"] == "bad_request"


# -- a whole match --------------------------------------------------------------------

def test_full_match_between_two_clients(client: TestClient, sockets: list[object]) -> None:
    ann, bob = f"Ann-{tag()}", f"Bob-{tag()}"
    table_id, tokens = seated(client, (ann, bob), options={"target_score": 40}, seed=11)
    players = [connect(client, sockets, token=t) for t in tokens]
    watcher = connect(client, sockets, table=table_id)
    made = play_out(players, random.Random(5))
    watcher.catch_up(players[0].version)
    final = players[0].version
    assert all(p.version == final for p in (*players, watcher))
    assert made == sum(1 for m in players[0].log if m["type"] == "event" and m["kind"] == "move")
    # every viewer saw every event once, in order (Player.receive checks the order)
    for p in (*players, watcher):
        versions = [m["version"] for m in p.log if m["type"] == "event"]
        assert versions == list(range(2, final + 1))
    assert watcher.view is not None and watcher.view["hand"] == [] and watcher.legal == []
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["status"] == "over" and table["match"]["over"]
    record = client.get(f"/api/tables/{table_id}/matches/0/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    replayed = replay(loads(record.text))
    assert replayed.ok and replayed.match is not None and replayed.match.over
    assert list(replayed.match.totals) == table["match"]["totals"]
    hands = table["match"]["hands"]  # each hand's result, as the record's replay has it
    assert hands == match_result(replayed.match)["hands"]
    assert len(hands) == table["match"]["hands_played"] >= 1
    assert [sum(h["scores"][s] for h in hands) for s in (0, 1)] == table["match"]["totals"]
    assert sum(len(h.moves) for h in loads(record.text).hands) == made
    winners = set(table["match"]["winners"])
    for seat, name in enumerate((ann, bob)):
        stats = client.get(f"/api/stats/{name}").json()
        assert stats["rules"] == {"basic": {"played": 1, "won": int(seat in winners),
                                            "lost": int(seat not in winners)}}


def test_rematch_continues_the_versions(client: TestClient, sockets: list[object]) -> None:
    table_id, tokens = seated(client, ("A", "B"), options={"target_score": 10}, seed=4)
    players = [connect(client, sockets, token=t) for t in tokens]
    play_out(players, random.Random(1))
    end = players[0].version
    players[0].send({"type": "rematch"})
    players[0].until("seats")
    assert client.get(f"/api/tables/{table_id}").json()["rematch_votes"] == [0]
    players[1].send({"type": "rematch"})
    players[1].catch_up(end + 1)
    deal = players[1].log[-1]
    assert deal["kind"] == "deal" and deal["match"]["number"] == 1
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"


def test_traditional_drawn_match_is_lost_by_everyone(client: TestClient,
                                                     sockets: list[object]) -> None:
    """RULES.md §3.4: a drawn hand ends the match and counts as a loss for all."""
    names = (f"Ann-{tag()}", f"Bob-{tag()}")
    _, tokens = seated(client, names, rules="traditional", seed=2)
    players = [connect(client, sockets, token=t) for t in tokens]
    while players[0].status != "over":
        latest = max(p.version for p in players)
        for p in players:
            p.catch_up(latest)
        if players[0].status == "over":
            break
        assert players[0].view is not None
        mover = players[players[0].view["to_move"]]
        # never meld: draw, and throw back the card just drawn or the first one
        move = "draw" if "draw" in mover.legal else next(
            m for m in mover.legal if m.startswith("discard"))
        assert mover.move(move)["type"] == "ack"
    assert players[0].view is not None and players[0].view["result"]["result"] == "draw"
    for name in names:
        line = client.get(f"/api/stats/{name}").json()["rules"]["traditional"]
        assert line == {"played": 1, "won": 0, "lost": 1}


def test_bots_play_a_whole_match_server_side(client: TestClient) -> None:
    name = f"Bot-{tag()}"
    created = create(client, [{"kind": "bot", "level": "easy", "name": name},
                              {"kind": "bot", "level": "greedy"}],
                     options={"target_score": 30})
    table_id = created["table"]["id"]
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table_id}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    assert client.get(f"/api/stats/{name}").json()["rules"]["basic"]["played"] == 1
    assert client.get(f"/api/tables/{table_id}/matches/0/record").status_code == 200


def test_a_house_game_named_by_its_deals(client: TestClient) -> None:
    """``{"deals": 2}`` (contract's preset option) makes a table of the last two deals:
    its stored options are the knobs the choice sets, and bots play it to its end."""
    created = create(client, [{"kind": "bot", "level": "greedy"}] * 3, rules="contract",
                     options={"deals": 2})
    table_id = created["table"]["id"]
    assert created["table"]["options"] == {
        "contract_schedule": [[1, 2], [0, 3]], "hand_size": [12, 12], "num_hands": 2}
    deadline = time.monotonic() + 120
    while client.get(f"/api/tables/{table_id}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    record = loads(client.get(f"/api/tables/{table_id}/matches/0/record").text)
    assert len(record.hands) == 2
    bad = client.post("/api/tables", json={"rules": "contract", "options": {"deals": "two"},
                                           "seats": humans("A", "B")})
    assert "deals='two': expected one of 7, 6, 5, 4, 3, 2, 1" in bad.json()["error"]["message"]


# -- moves refused ------------------------------------------------------------------

def test_stale_illegal_and_out_of_turn_moves(client: TestClient,
                                             sockets: list[object]) -> None:
    _, tokens = seated(client, ("A", "B"), seed=7)
    players = [connect(client, sockets, token=t) for t in tokens]
    view = players[0].view
    assert view is not None
    mover, other = players[view["to_move"]], players[1 - view["to_move"]]
    start = mover.version
    refused = [
        (other.move("draw"), "not_your_turn"),
        (mover.move("draw", version=start - 1), "stale_version"),
        (mover.move("draw", version=start + 5), "stale_version"),
        (mover.move("discard H2"), "illegal"),
        (mover.move("jump"), "syntax"),
        (mover.move("meld H5 JK H7"), "illegal"),
    ]
    for reply, code in refused:
        assert reply["type"] == "error" and reply["code"] == code, reply
        assert reply["message"]
    assert "draw" in refused[3][0]["message"] or refused[3][0]["message"]
    assert mover.move("draw")["type"] == "ack"
    assert mover.version == start + 1
    other.catch_up(start + 1)
    stale = other.move("draw", version=start)
    assert stale["code"] in ("stale_version", "not_your_turn")


# -- reconnecting -------------------------------------------------------------------

def test_reconnect_replays_the_missed_events(client: TestClient,
                                             sockets: list[object]) -> None:
    table_id, tokens = seated(client, ("A", "B"), seed=3)
    players = [connect(client, sockets, token=t) for t in tokens]
    away = players[1]
    seen = away.version
    sockets.remove(away_context := sockets[1])
    away_context.__exit__(None, None, None)  # type: ignore[attr-defined]
    rng = random.Random(2)
    for _ in range(6):
        view = players[0].view
        assert view is not None
        if view["to_move"] != 0:
            break
        assert players[0].move(random_choice(players[0].legal, rng))["type"] == "ack"
    back = connect(client, sockets, token=tokens[1], version=seen)
    back.version = seen
    back.catch_up(players[0].version)
    missed = [m for m in back.log if m["type"] == "event"]
    assert [m["version"] for m in missed] == list(range(seen + 1, players[0].version + 1))
    assert not any(m["type"] == "sync" for m in back.log)
    assert all(m["view"]["seat"] == 1 for m in missed)
    spectator = connect(client, sockets, table=table_id, version=seen)
    spectator.version = seen
    spectator.catch_up(players[0].version)
    assert all(m["view"]["hand"] == [] for m in spectator.log if m["type"] == "event")


def random_choice(legal: list[str], rng: random.Random) -> str:
    moves = [m for m in legal if not m.startswith("take")] or legal
    return rng.choice(moves)


def test_reconnect_too_far_back_gets_a_resync(backend: str, tmp_path: Path) -> None:
    with running(settings_for(backend, tmp_path, history=2)) as c, closing() as sockets:
        _, tokens = seated(c, ("A", "B"), seed=9)
        players = [connect(c, sockets, token=t) for t in tokens]
        rng = random.Random(0)
        while players[0].version < 6:
            view = players[0].view
            assert view is not None
            mover = players[view["to_move"]]
            assert mover.move(random_choice(mover.legal, rng))["type"] == "ack"
            for p in players:
                p.catch_up(mover.version)
        for version in (1, 99):  # too old for a history of 2; from the future
            late = connect(c, sockets, token=tokens[0], version=version)
            sync = late.until("sync")
            assert sync["version"] == players[0].version
            assert sync["view"] == players[0].view and sync["legal"] == players[0].legal


def test_restart_loads_the_table_back(backend: str, tmp_path: Path) -> None:
    settings = settings_for(backend, tmp_path)
    with running(settings) as c:
        table_id, tokens = seated(c, ("A", "B"), seed=21)
        with c.websocket_connect("/ws") as s0, c.websocket_connect("/ws") as s1:
            players = [Player(s0), Player(s1)]
            for p, t in zip(players, tokens, strict=True):
                p.hello(token=t)
                p.until("sync")
            rng = random.Random(8)
            for _ in range(12):
                view = players[0].view
                assert view is not None
                mover = players[view["to_move"]]
                assert mover.move(random_choice(mover.legal, rng))["type"] == "ack"
                for p in players:
                    p.catch_up(mover.version)
            players[0].send({"type": "sync"})
            log0 = players[0].until("sync")["log"]
            events = [m for m in players[0].log if m["type"] == "event"]
            deal = max((m["version"] for m in events if m["kind"] == "deal"), default=1)
            assert log0 == [{"version": m["version"], "seat": m["seat"], "move": m["move"],
                             "bot": m["bot"]}
                            for m in events if m["kind"] == "move" and m["version"] > deal]
            assert log0 and log0[-1]["version"] == players[0].version
        version, view0 = players[0].version, players[0].view
    with running(settings) as c, c.websocket_connect("/ws") as s0, \
            c.websocket_connect("/ws") as s1:
        again = Player(s0)
        again.hello(version=version - 2, token=tokens[0])
        sync = again.until("sync")  # the history is gone: a full resync
        assert sync["version"] == version and sync["view"] == view0
        assert sync["log"] == log0  # the hand's move log, rebuilt from storage
        current = Player(s1)  # a client that saw everything is told nothing more
        current.version = version
        current.hello(version=version, token=tokens[1])
        assert current.until("seats")["type"] == "seats"
        assert not any(m["type"] in ("sync", "event") for m in current.log)
        assert c.get(f"/api/tables/{table_id}").json()["status"] == "playing"
        view = again.view
        assert view is not None
        mover = (again, current)[view["to_move"]]
        mover.view, mover.legal = view, again.legal if mover is again else current.legal
        if mover is current:
            mover.send({"type": "sync"})
            mover.until("sync")
        assert mover.move(random_choice(mover.legal, random.Random(1)))["ack"] == 1
        assert mover.version == version + 1


# -- tokens, spectators and bad input -------------------------------------------------

def test_tokens_and_spectators(client: TestClient, sockets: list[object]) -> None:
    table_id, tokens = seated(client, ("A", "B"), seed=1)
    with client.websocket_connect("/ws") as socket:
        p = Player(socket)
        p.send({"type": "hello", "token": "x" * 40})
        assert p.until("error")["code"] == "bad_token"
        p.send({"type": "move", "move": "draw", "version": 1, "ack": 1})
        assert p.until("error")["code"] == "not_hello"
        p.send({"type": "hello", "table": "nope"})
        assert p.until("error")["code"] == "unknown_table"
        p.send({"type": "hello", "token": tokens[0], "table": "other"})
        assert p.until("error")["code"] == "bad_token"
        assert p.hello(token=tokens[0])["seat"] == 0  # still usable
        p.send({"type": "hello", "token": tokens[0]})
        assert p.until("error")["code"] == "bad_message"
    watcher = connect(client, sockets, table=table_id)
    assert watcher.view is not None and watcher.view["seat"] is None
    assert watcher.view["hand"] == [] and watcher.legal == []
    watcher.send({"type": "move", "move": "draw", "version": watcher.version, "ack": 1})
    assert watcher.until("error")["code"] == "spectator"
    assert client.get(f"/api/tables/{table_id}").json()["version"] == watcher.version


@pytest.mark.parametrize(("frame", "code"), [
    ("{nope", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"type": 5}', "bad_message"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "move", "move": "draw"}', "bad_message"),
    ('{"type": "move", "move": "draw", "version": -1, "ack": 1}', "bad_message"),
    ('{"type": "ping", "extra": true}', "bad_message"),
    ("[" * 100000 + "]" * 100000, "too_large"),
    ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "too_large"),
])
def test_malformed_messages(client: TestClient, frame: str, code: str) -> None:
    _, tokens = seated(client, ("A", "B"))
    with client.websocket_connect("/ws") as socket:
        p = Player(socket)
        p.hello(token=tokens[0])
        p.until("sync")
        socket.send_text(frame)
        error = p.until("error")
        assert error["code"] == code and "Traceback" not in error["message"]
        socket.send_bytes(b"\x00\x01")
        assert p.until("error")["code"] == "bad_message"
        p.send({"type": "ping"})
        assert p.until("pong") == {"type": "pong"}  # the connection stays usable


def test_rate_limit(backend: str, tmp_path: Path) -> None:
    with running(settings_for(backend, tmp_path, rate_per_second=5.0, rate_burst=5)) as c:
        _, tokens = seated(c, ("A", "B"))
        with c.websocket_connect("/ws") as socket:
            p = Player(socket)
            p.hello(token=tokens[0])
            for _ in range(12):
                p.send({"type": "ping"})
            replies = [p.until_any(("pong", "error")) for _ in range(11)]
            codes = [r.get("code") for r in replies if r["type"] == "error"]
            assert "rate_limited" in codes and len(codes) >= 5


def test_grace_period_bot_takeover_and_take_back(backend: str, tmp_path: Path) -> None:
    with running(settings_for(backend, tmp_path, grace_seconds=60, join_seconds=0.2,
                              takeover_level="greedy")) as c:
        table_id, tokens = seated(c, ("A", "B"), seed=12)
        with c.websocket_connect("/ws") as socket:
            p = Player(socket)
            p.hello(token=tokens[0])
            p.until("sync")
            # seat 1 never connects: after join_seconds a bot plays it
            deadline = time.monotonic() + 20
            while True:
                seats = c.get(f"/api/tables/{table_id}").json()["seats"]
                if seats[1]["controller"] == "bot":
                    break
                assert time.monotonic() < deadline
                time.sleep(0.05)
            rng = random.Random(3)
            for _ in range(8):  # the bot answers our moves
                p.catch_up(c.get(f"/api/tables/{table_id}").json()["version"])
                view = p.view
                assert view is not None
                if view["to_move"] == 0 and p.legal:
                    assert p.move(random_choice(p.legal, rng))["type"] == "ack"
                else:
                    p.receive()
            assert p.version > 4
        with c.websocket_connect("/ws") as socket:
            back = Player(socket)
            back.hello(token=tokens[1])
            back.until("sync")
            seats = c.get(f"/api/tables/{table_id}").json()["seats"]
            assert seats[1]["controller"] == "human" and seats[1]["connected"]


def controllers(client: TestClient, table_id: str) -> list[str]:
    return [s["controller"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]]


def test_unconnected_seats_wait_longer_than_the_grace_period(backend: str,
                                                             tmp_path: Path) -> None:
    """A seat that never connected waits ``join_seconds``; one that connected and then
    dropped gets the (shorter) grace period from its disconnection on."""
    with running(settings_for(backend, tmp_path, grace_seconds=0.2, join_seconds=60,
                              takeover_level="greedy")) as c:
        table_id, tokens = seated(c, ("A", "B", "C"), seed=12)
        time.sleep(0.5)  # well past the grace period: nobody has arrived, no bot yet
        assert controllers(c, table_id) == ["human"] * 3
        with c.websocket_connect("/ws") as socket:
            p = Player(socket)
            p.hello(token=tokens[0])
            p.until("sync")
            time.sleep(0.4)  # connected: no timer runs for seat 0
            assert controllers(c, table_id) == ["human"] * 3
        deadline = time.monotonic() + 20  # seat 0 dropped: a bot plays it after the grace
        while controllers(c, table_id)[0] != "bot":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert controllers(c, table_id)[1:] == ["human", "human"]  # still waiting


def test_leave_hands_the_seat_to_a_bot(client: TestClient) -> None:
    table_id, tokens = seated(client, ("A", "B"), seed=5)
    with client.websocket_connect("/ws") as socket:
        p = Player(socket)
        p.hello(token=tokens[1])
        p.until("sync")
        p.send({"type": "leave"})
        with pytest.raises(WebSocketDisconnect):  # the server closes after the leave
            while True:
                p.receive()
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert seats[1]["controller"] == "bot" and seats[1]["name"] == "B"


# -- records for watching ---------------------------------------------------------------

def test_upload_a_record_and_watch_it(client: TestClient, sockets: list[object]) -> None:
    table_id, tokens = seated(client, ("A", "B"), options={"target_score": 10}, seed=6)
    players = [connect(client, sockets, token=t) for t in tokens]
    made = play_out(players, random.Random(6))
    text = client.get(f"/api/tables/{table_id}/matches/0/record").text
    uploaded = client.post("/api/replays", content=text.encode())
    assert uploaded.status_code == 201, uploaded.text
    info = uploaded.json()
    hands = len(loads(text).hands)
    assert info["frames"] == made + hands
    public = client.get(f"/api/replays/{info['id']}").json()
    assert len(public["frames"]) == info["frames"]
    assert all(f["view"]["hand"] == [] for f in public["frames"])
    seat0 = client.get(f"/api/replays/{info['id']}", params={"seat": 0}).json()
    assert seat0["frames"][0]["view"]["hand"]
    assert client.get(f"/api/replays/{info['id']}/record").text == text
    broken = text.replace('"draw"', '"discard H2"', 1)
    refused = client.post("/api/replays", content=broken.encode())
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "record"
    assert client.post("/api/replays", content=b"\xff").json()["error"]["code"] == "record"
    assert client.get("/api/replays/zzz").status_code == 404
    # every seat's cards: the public view, and each seat's hand as that seat saw it
    seat1 = client.get(f"/api/replays/{info['id']}", params={"seat": 1}).json()
    every = client.get(f"/api/replays/{info['id']}", params={"seat": "all"}).json()
    assert [f["view"] for f in every["frames"]] == [f["view"] for f in public["frames"]]
    assert [f["hands"] for f in every["frames"]] == [
        [a["view"]["hand"], b["view"]["hand"]]
        for a, b in zip(seat0["frames"], seat1["frames"], strict=True)]
    assert public["frames"][0]["hands"] is None
    for bad in ("some", "-1", "9"):
        reply = client.get(f"/api/replays/{info['id']}", params={"seat": bad})
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_request"


def test_the_replay_of_a_table_match(client: TestClient, sockets: list[object]) -> None:
    table_id, tokens = seated(client, ("A", "B"), options={"target_score": 10}, seed=6)
    early = client.get(f"/api/tables/{table_id}/matches/0/replay")
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_over"
    players = [connect(client, sockets, token=t) for t in tokens]
    made = play_out(players, random.Random(6))
    replay_of = client.get(f"/api/tables/{table_id}/matches/0/replay").json()
    record = loads(client.get(f"/api/tables/{table_id}/matches/0/record").text)
    assert replay_of["id"] == f"{table_id}-0" and replay_of["players"] == ["A", "B"]
    assert len(replay_of["frames"]) == made + len(record.hands)
    assert all(f["hands"] is not None and len(f["hands"]) == 2 for f in replay_of["frames"])
    assert replay_of["frames"][0]["hands"][0]  # dealt cards, face up
    assert replay_of["result"]["totals"] == client.get(
        f"/api/tables/{table_id}").json()["match"]["totals"]
    seat0 = client.get(f"/api/tables/{table_id}/matches/0/replay", params={"seat": 0}).json()
    assert [f["view"]["hand"] for f in seat0["frames"]] == [
        f["hands"][0] for f in replay_of["frames"]]
    missing = client.get(f"/api/tables/{table_id}/matches/5/replay")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    unknown = client.get("/api/tables/nope/matches/0/replay")
    assert unknown.json()["error"]["code"] == "unknown_table"


# -- the view of a contract deal ------------------------------------------------------

def test_the_view_names_the_contract(client: TestClient, sockets: list[object]) -> None:
    _, tokens = seated(client, ("A", "B", "C"), rules="contract", seed=3)
    player = connect(client, sockets, token=tokens[0])
    assert player.view is not None
    assert player.view["contract"] == {"sets": 2, "runs": 0, "words": "2 sets"}
    assert player.view["facts"] == [{"label": "Contract", "value": "2 sets"}]
    _, plain = seated(client, ("D", "E"))
    other = connect(client, sockets, token=plain[0])
    assert other.view is not None and other.view["contract"] is None
    assert other.view["facts"] == []


# -- hints ----------------------------------------------------------------------------

def test_hint_for_the_seat_to_move(client: TestClient) -> None:
    table_id, tokens = seated(client, ("A", "B"), seed=7)
    paths = client.get("/api/openapi.json").json()["paths"]
    assert "/api/tables/{table_id}/hint" in paths
    for token in tokens:
        reply = client.get(f"/api/tables/{table_id}/hint", headers={"X-Seat-Token": token})
        if reply.status_code == 409:
            assert reply.json()["error"]["code"] == "not_your_turn"
            continue
        assert reply.status_code == 200, reply.text
        advice = reply.json()
        assert set(advice) == {"move", "text", "lines"}
        assert advice["move"] in ("draw", "take")
        assert advice["text"].endswith(".") and "\n" not in advice["text"]
        assert advice["lines"][0] == f"Recommended: {advice['move']}"
    codes = [client.get(f"/api/tables/{table_id}/hint", headers={"X-Seat-Token": t}).status_code
             for t in tokens]
    assert sorted(codes) == [200, 409]  # exactly the seat to move gets advice


def test_hint_refusals(client: TestClient) -> None:
    created = create(client, [{"kind": "human", "name": "A"}, {"kind": "human"}])
    waiting_id, waiting_token = created["table"]["id"], created["tokens"][0]["token"]
    early = client.get(f"/api/tables/{waiting_id}/hint", headers={"X-Seat-Token": waiting_token})
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_started"
    table_id, _ = seated(client, ("B", "C"))
    for headers, code in (({"X-Seat-Token": "nope"}, "bad_token"),
                          ({"X-Seat-Token": waiting_token}, "bad_token"),
                          ({}, "bad_request")):
        reply = client.get(f"/api/tables/{table_id}/hint", headers=headers)
        assert reply.json()["error"]["code"] == code, reply.text


def test_one_hint_at_a_time_per_seat(client: TestClient) -> None:
    """Two hints asked at once for one seat: the second is refused (a search costs CPU)."""
    table_id, tokens = seated(client, ("A", "B"), seed=7)
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]

    async def twice() -> tuple[HintOut | BaseException, HintOut | BaseException]:
        table = await hub.get(table_id)
        seat = table.to_move()
        assert seat is not None
        return await asyncio.gather(hub.hint(table, seat), hub.hint(table, seat),
                                    return_exceptions=True)

    first, second = client.portal.call(twice)  # type: ignore[union-attr]
    assert isinstance(first, HintOut)
    assert isinstance(second, ServerError) and second.code == "rate_limited"
    again = [client.get(f"/api/tables/{table_id}/hint", headers={"X-Seat-Token": t})
             for t in tokens]
    assert sorted(r.status_code for r in again) == [200, 409]  # free again afterwards


def test_no_hint_after_the_match(client: TestClient, sockets: list[object]) -> None:
    table_id, tokens = seated(client, ("A", "B"), options={"target_score": 10}, seed=4)
    players = [connect(client, sockets, token=t) for t in tokens]
    play_out(players, random.Random(1))
    for token in tokens:
        over = client.get(f"/api/tables/{table_id}/hint", headers={"X-Seat-Token": token})
        assert over.status_code == 409 and over.json()["error"]["code"] == "match_over"


# -- rummykit serve ---------------------------------------------------------------------

def test_serve_says_where_it_listens(tmp_path: Path) -> None:
    """``rummykit serve`` prints its URL once it listens (port 0: the port it got)."""
    command = Path(sys.executable).parent / "rummykit"
    process = subprocess.Popen(
        [str(command) if command.exists() else "rummykit", "serve", "--host", "127.0.0.1",
         "--port", "0", "--database-url", f"sqlite:///{tmp_path / 'serve.db'}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        deadline = time.monotonic() + 30
        lines: list[str] = []
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            assert line or process.poll() is None, "".join(lines)
            lines.append(line)
            if line.startswith("rummykit: serving on "):
                break
        said = [ln for ln in lines if ln.startswith("rummykit: serving on ")]
        assert len(said) == 1, "".join(lines)
        url = said[0].split()[-1]
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0")
        with urllib.request.urlopen(f"{url}/api/health", timeout=5) as reply:
            assert json.loads(reply.read()) == {"status": "ok"}
    finally:
        process.terminate()
        process.wait(timeout=10)
