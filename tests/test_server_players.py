"""Players on a real ``rummykit serve`` (uvicorn, SQLite, real HTTP and WebSockets): the
anonymous player of a first visit, CSRF refusals, accounts, records per player id (a
typed name is no key), ratings and the leaderboard; resigning and absence."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import ClientConnection, connect

from rummykit.server.identity import COOKIE
from rummykit.server.loadbench import start_server
from test_server_support import POSTGRES_URL, choose, fresh_postgres_schema, pick_port

GRACE = 1.5


BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    POSTGRES_URL is None, reason="needs RUMMYKIT_TEST_POSTGRES_URL"))]


@pytest.fixture(scope="module", params=BACKENDS)
def live(request: pytest.FixtureRequest,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A real server (SQLite, or PostgreSQL when configured): bots move at once, a short
    grace period; its URL and its database's."""
    folder = tmp_path_factory.mktemp("players-live")
    port = pick_port()
    url = f"sqlite:///{folder / 'players.db'}" if request.param == "sqlite" \
        else fresh_postgres_schema()
    process = start_server(url, port, folder / "server.log",
                           {"RUMMYKIT_BOT_DELAY": "0", "RUMMYKIT_GRACE_SECONDS": str(GRACE)})
    try:
        yield f"http://127.0.0.1:{port}", url
    finally:
        process.terminate()
        process.wait(10)


class Browser:
    """One browser: its cookie jar and the CSRF token ``GET /api/me`` gave it."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=10)
        self.csrf = ""
        self.me = self.get("/api/me")

    def get(self, path: str) -> Any:
        reply = self.http.get(path)
        assert reply.status_code == 200, reply.text
        data = reply.json()
        if path == "/api/me":
            self.csrf = data["csrf"]
        return data

    def write(self, method: str, path: str, body: Any = None, csrf: bool = True,
              **headers: str) -> httpx.Response:
        if csrf:
            headers["X-CSRF-Token"] = self.csrf
        return self.http.request(method, path, json=body, headers=headers)

    def cookie(self) -> str:
        return f"{COOKIE}={self.http.cookies[COOKIE]}"


class Seat:
    """A seat's WebSocket, with the browser's cookie."""

    def __init__(self, browser: Browser, token: str) -> None:
        self.ws: ClientConnection = connect(browser.base.replace("http", "ws", 1) + "/ws",
                                            additional_headers={"Cookie": browser.cookie()},
                                            legacy=True)
        self.version = 0
        self.view: dict[str, Any] = {}
        self.legal: list[str] = []
        self.seats: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.acks = 0
        self.send({"type": "hello", "token": token, "version": None})
        self.until("sync")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=15))
        if message["type"] == "event":
            self.events.append(message)
            self.version, self.view, self.legal = (message["version"], message["view"],
                                                   message["legal"])
        elif message["type"] == "sync":
            self.version, self.view, self.legal = (message["version"], message["view"] or {},
                                                   message["legal"])
            self.seats = message["table"]["seats"]
        elif message["type"] == "seats":
            self.seats = message["seats"]
        return message

    def until(self, kind: str) -> dict[str, Any]:
        while (message := self.receive())["type"] != kind:
            pass
        return message

    def until_seats(self, check: Any) -> list[dict[str, Any]]:
        """Read until the seats satisfy ``check``."""
        deadline = time.monotonic() + 15
        while not (self.seats and check(self.seats)):
            assert time.monotonic() < deadline, self.seats
            self.receive()
        return self.seats

    def move(self) -> dict[str, Any]:
        """A sensible legal move; its ack or error."""
        self.acks += 1
        move = choose(self.legal, random.Random(self.acks), self.view.get("hand"))
        self.send({"type": "move", "move": move, "version": self.version, "ack": self.acks})
        while (message := self.receive())["type"] not in ("ack", "error"):
            pass
        return message

    def close(self) -> None:
        self.ws.close()


def table_with(owner: Browser, seats: list[dict[str, Any]]) -> tuple[str, list[str]]:
    reply = owner.write("POST", "/api/tables", {"seats": seats, "options": {"target_score": 500}})
    assert reply.status_code == 201, reply.text
    created = reply.json()
    return created["table"]["id"], [t["token"] for t in created["tokens"]]


def record(browser: Browser) -> dict[str, Any]:
    rules: dict[str, Any] = browser.get("/api/me")["rules"]
    return rules


ANN_VS_BOT = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}]


# -- identity -------------------------------------------------------------------------

def test_a_first_visit_makes_a_durable_anonymous_player(live: tuple[str, str]) -> None:
    base, _ = live
    first = httpx.get(f"{base}/api/me")
    cookie = first.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie
    assert "samesite=lax" in cookie.lower() and "Path=/" in cookie
    me = first.json()
    secret = first.cookies[COOKIE]
    assert me["id"] not in secret and secret not in json.dumps(me)  # the id is public
    assert me["account"] is None and me["rules"] == {} and me["csrf"]
    again = httpx.get(f"{base}/api/me", cookies={COOKIE: secret}).json()
    assert again["id"] == me["id"] and again["csrf"] == me["csrf"]
    assert httpx.get(f"{base}/api/me").json()["id"] != me["id"]  # another browser
    void = httpx.get(f"{base}/api/me", cookies={COOKIE: "made-up"})
    assert void.json()["id"] != me["id"] and COOKIE in void.headers["set-cookie"]
    assert "Secure" not in cookie  # plain HTTP here; behind an HTTPS proxy it is Secure
    behind = httpx.get(f"{base}/api/me", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in behind.headers["set-cookie"]


def test_writes_without_the_csrf_token_are_refused(live: tuple[str, str]) -> None:
    base, _ = live
    ann = Browser(base)
    for sent in ({}, {"X-CSRF-Token": "wrong"}):
        reply = ann.write("PUT", "/api/me/name", {"name": "Mallory"}, csrf=False, **sent)
        assert reply.status_code == 403 and reply.json()["error"]["code"] == "csrf"
    assert ann.get("/api/me")["name"] != "Mallory"  # unchanged
    lobby = len(httpx.get(f"{base}/api/tables").json())
    reply = ann.write("POST", "/api/tables", {"seats": ANN_VS_BOT}, csrf=False)
    assert reply.status_code == 403 and reply.json()["error"]["code"] == "csrf"
    refused = ann.write("POST", "/api/account/signup", {"name": "ann_csrf",
                                                        "password": "long enough"}, csrf=False)
    assert refused.status_code == 403 and ann.get("/api/me")["account"] is None
    assert len(httpx.get(f"{base}/api/tables").json()) == lobby
    renamed = ann.write("PUT", "/api/me/name", {"name": "Ann"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Ann"
    bad = ann.write("PUT", "/api/me/name", {"name": "\x00"})
    assert bad.status_code == 400 and "name" in bad.json()["error"]["message"]


def test_a_typed_name_neither_reads_nor_adds_to_a_record(live: tuple[str, str]) -> None:
    base, _ = live
    ann, other = Browser(base), Browser(base)
    for browser in (ann, other):  # both call themselves Ann
        assert browser.write("PUT", "/api/me/name", {"name": "Ann"}).status_code == 200
    table_id, tokens = table_with(ann, ANN_VS_BOT)
    seat = Seat(ann, tokens[0])
    seat.send({"type": "resign"})
    seat.until_seats(lambda s: s[0]["left"] == "resigned")
    seat.close()
    assert httpx.get(f"{base}/api/tables/{table_id}").json()["status"] == "over"
    assert record(ann) == {"basic": {"played": 1, "won": 0, "lost": 1}}
    assert record(other) == {}  # the same name reads nothing
    _, tokens = table_with(other, ANN_VS_BOT)
    seat = Seat(other, tokens[0])
    seat.send({"type": "resign"})
    seat.until_seats(lambda s: s[0]["left"] == "resigned")
    seat.close()
    assert record(ann) == {"basic": {"played": 1, "won": 0, "lost": 1}}  # nothing added
    assert record(other) == {"basic": {"played": 1, "won": 0, "lost": 1}}
    # the old per-name statistics do not see seats a player sat at
    assert httpx.get(f"{base}/api/stats/Ann").json()["rules"] == {}
    public = httpx.get(f"{base}/api/players/{ann.me['id']}").json()
    assert public["rules"] == {"basic": {"played": 1, "won": 0, "lost": 1}}
    assert "csrf" not in public and public["account"] is False


# -- accounts -----------------------------------------------------------------------

def test_sign_up_keeps_the_record_and_sign_in_brings_it(live: tuple[str, str]) -> None:
    base, database = live
    ann = Browser(base)
    _, tokens = table_with(ann, ANN_VS_BOT)
    seat = Seat(ann, tokens[0])
    seat.send({"type": "resign"})
    seat.until_seats(lambda s: s[0]["left"] == "resigned")
    seat.close()
    anonymous_cookie = ann.cookie()
    name = f"ann_{random.randrange(10**6)}"
    short = ann.write("POST", "/api/account/signup", {"name": name, "password": "short"})
    assert short.status_code == 400 and "password" in short.json()["error"]["message"]
    odd = ann.write("POST", "/api/account/signup", {"name": "a b", "password": "long enough"})
    assert odd.status_code == 400 and "'a b'" in odd.json()["error"]["message"]
    signed = ann.write("POST", "/api/account/signup", {"name": name, "password": "s3cret pass"})
    assert signed.status_code == 200, signed.text
    me = signed.json()
    assert me["id"] == ann.me["id"] and me["account"] == name  # the same player, its record
    assert me["rules"] == {"basic": {"played": 1, "won": 0, "lost": 1}}
    assert ann.cookie() != anonymous_cookie  # a new session; the old cookie is void
    stale = httpx.get(f"{base}/api/me", headers={"Cookie": anonymous_cookie}).json()
    assert stale["id"] != me["id"]
    engine = create_engine(database)
    with engine.connect() as db:
        stored = db.execute(text("SELECT password_hash FROM players WHERE id = :id"),
                            {"id": me["id"]}).scalar_one()
    engine.dispose()
    assert stored.startswith("$argon2id$") and "s3cret" not in stored
    ann.get("/api/me")
    again = ann.write("POST", "/api/account/signup", {"name": name + "x", "password": "x" * 9})
    assert again.status_code == 409 and again.json()["error"]["code"] == "has_account"
    rival = Browser(base)
    taken = rival.write("POST", "/api/account/signup", {"name": name.upper(),
                                                        "password": "another one"})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
    # another device signs in
    device = Browser(base)
    for wrong in ({"name": name, "password": "not it!!"}, {"name": "nobody_here",
                                                             "password": "s3cret pass"}):
        reply = device.write("POST", "/api/account/signin", wrong)
        assert reply.status_code == 401 and reply.json()["error"]["message"] == \
            "wrong name or password"
    signed_in = device.write("POST", "/api/account/signin", {"name": name.upper(),
                                                             "password": "s3cret pass"})
    assert signed_in.status_code == 200 and signed_in.json()["id"] == me["id"]
    assert record(device) == {"basic": {"played": 1, "won": 0, "lost": 1}}
    assert device.write("POST", "/api/account/signout").status_code == 204
    assert device.get("/api/me")["id"] != me["id"]  # a new anonymous player
    assert ann.get("/api/me")["id"] == me["id"]  # the first device is still signed in


# -- resigning, absence, ratings --------------------------------------------------------

def two_players(base: str) -> tuple[Browser, Browser, list[str], list[Seat]]:
    """Ann's table with a seat for Bob: both connected (Bob's seat becomes his)."""
    ann, bob = Browser(base), Browser(base)
    _, tokens = table_with(ann, [{"kind": "human", "name": "Ann"},
                                 {"kind": "human", "name": "Bob"}])
    return ann, bob, tokens, [Seat(ann, tokens[0]), Seat(bob, tokens[1])]


def play_until(seats: list[Seat], done: Any, limit: int = 2500) -> None:
    """Both seats play sensible moves until ``done()`` (the limit only stops a broken run:
    a hand of these seeded-random moves against a bot can last hundreds of turns)."""
    for _ in range(limit):
        if done():
            return
        latest = max(s.version for s in seats)
        for s in seats:
            while s.version < latest:
                s.receive()
        mover = next((s for s in seats if s.legal), None)
        if mover is None:
            seats[-1].receive()
            continue
        assert mover.move()["type"] == "ack"
    raise AssertionError("not done")


def test_resign_is_a_loss_and_the_bot_plays_on(live: tuple[str, str]) -> None:
    base, _ = live
    ann, bob, tokens, (a, b) = two_players(base)
    play_until([a, b], lambda: a.version >= 4)
    a.send({"type": "resign"})
    seats = b.until_seats(lambda s: s[0]["left"] == "resigned")
    assert seats[0]["controller"] == "bot" and seats[1]["left"] is None
    # Bob plays on against the bot; the bot's moves say so
    play_until([b], lambda: any(e["seat"] == 0 and e["bot"] for e in b.events))
    assert not any(e["bot"] for e in b.events if e["seat"] == 1)
    while a.version < b.version:
        a.receive()
    a.send({"type": "move", "move": "draw", "version": a.version, "ack": 99})
    while (reply := a.receive())["type"] != "error":
        pass
    assert reply["code"] == "resigned" and reply["ack"] == 99  # never Ann's move again
    table_id = httpx.get(f"{base}/api/seats/{tokens[0]}").json()["table"]
    forged = httpx.post(f"{base}/api/tables/{table_id}/resign",
                        headers={"X-Seat-Token": "nope"})
    assert forged.status_code == 403
    assert record(ann) == {"basic": {"played": 1, "won": 0, "lost": 1}}
    assert record(bob) == {}  # Bob's match goes on
    board = {line["id"]: line for line in httpx.get(f"{base}/api/leaderboard").json()}
    assert board[bob.me["id"]]["rating"] > board[ann.me["id"]]["rating"]
    assert board[ann.me["id"]]["rated"] == 1 and board[ann.me["id"]]["kind"] == "human"
    b.send({"type": "sync"})
    synced = b.until("sync")
    assert not any(m["bot"] for m in synced["log"] if m["seat"] == 1)
    a.close()
    b.close()


def test_resign_over_http_and_its_refusals(live: tuple[str, str]) -> None:
    base, _ = live
    ann = Browser(base)
    reply = ann.write("POST", "/api/tables", {"seats": [{"kind": "human", "name": "Ann"},
                                                        {"kind": "human"}]})
    created = reply.json()
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]
    early = httpx.post(f"{base}/api/tables/{table_id}/resign", headers={"X-Seat-Token": token})
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_started"
    bob = Browser(base)
    joined = bob.write("POST", f"/api/tables/{table_id}/join", {"name": "Bob"})
    assert joined.status_code == 200
    done = httpx.post(f"{base}/api/tables/{table_id}/resign", headers={"X-Seat-Token": token})
    assert done.status_code == 200 and done.json()["seats"][0]["left"] == "resigned"
    assert done.json()["status"] == "playing"  # Bob is still in the match
    twice = httpx.post(f"{base}/api/tables/{table_id}/resign", headers={"X-Seat-Token": token})
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "resigned"
    bob_token = joined.json()["token"]
    last = httpx.post(f"{base}/api/tables/{table_id}/resign",
                      headers={"X-Seat-Token": bob_token})
    assert last.json()["status"] == "over"  # nobody is left: the match ends unfinished
    assert record(bob) == {"basic": {"played": 1, "won": 0, "lost": 1}}


def test_absence_past_the_grace_period_is_a_resignation(live: tuple[str, str]) -> None:
    base, _ = live
    ann, _, tokens, (a, b) = two_players(base)
    a.close()
    left_at = time.time()
    seats = b.until_seats(lambda s: s[0]["away_until"] is not None)
    assert seats[0]["left"] is None and seats[0]["controller"] == "human"
    assert left_at - 1 < seats[0]["away_until"] - GRACE < left_at + 1  # the countdown's end
    seats = b.until_seats(lambda s: s[0]["left"] == "absent")
    assert seats[0]["away_until"] is None and time.time() >= left_at + GRACE - 0.5
    assert record(ann) == {"basic": {"played": 1, "won": 0, "lost": 1}}
    back = Seat(ann, tokens[0])  # a returning player learns what happened
    assert back.seats[0]["left"] == "absent" and back.seats[0]["controller"] == "bot"
    back.close()
    b.close()


def test_the_leaderboard_lists_rated_players_best_first(live: tuple[str, str]) -> None:
    base, _ = live
    board = httpx.get(f"{base}/api/leaderboard").json()
    assert board, "earlier tests rated players"
    ratings = [line["rating"] for line in board]
    assert ratings == sorted(ratings, reverse=True)
    assert [line["rank"] for line in board] == list(range(1, len(board) + 1))
    assert any(line["id"] == "bot-easy" and line["kind"] == "bot" for line in board)
    assert all(round(line["mu"] - 3 * line["sigma"], 1) == line["rating"] for line in board)
    assert len(httpx.get(f"{base}/api/leaderboard?limit=1").json()) == 1
    refused = httpx.get(f"{base}/api/leaderboard?limit=0")
    assert refused.status_code == 400 and "limit" in refused.json()["error"]["message"]
    missing = httpx.get(f"{base}/api/players/nobody")
    assert missing.status_code == 404


def test_back_within_the_grace_period_nothing_is_lost(live: tuple[str, str]) -> None:
    base, _ = live
    ann, _, tokens, (a, b) = two_players(base)
    a.send({"type": "leave"})  # the bot plays meanwhile
    seats = b.until_seats(lambda s: s[0]["away_until"] is not None)
    assert seats[0]["controller"] == "bot" and seats[0]["left"] is None
    back = Seat(ann, tokens[0])
    seats = b.until_seats(lambda s: s[0]["away_until"] is None)
    assert seats[0]["controller"] == "human" and seats[0]["left"] is None
    time.sleep(GRACE + 0.5)  # the grace period would be over: no resignation
    assert httpx.get(f"{base}/api/seats/{tokens[0]}").status_code == 200
    b.send({"type": "sync"})
    assert b.until("sync")["table"]["seats"][0]["left"] is None
    assert record(ann) == {}
    back.close()
    b.close()


def test_a_match_its_bot_finished_is_never_a_win_for_the_absent(live: tuple[str, str]) -> None:
    """Ann leaves at once; her bot and the other bot play the short match out (or her
    grace period ends first): either way it is a loss for Ann, whoever won."""
    base, _ = live
    ann = Browser(base)
    reply = ann.write("POST", "/api/tables", {
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}],
        "options": {"target_score": 10}})
    created = reply.json()
    table_id = created["table"]["id"]
    seat = Seat(ann, created["tokens"][0]["token"])
    seat.send({"type": "leave"})
    deadline = time.monotonic() + 60
    while httpx.get(f"{base}/api/tables/{table_id}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.1)
    assert record(ann) == {"basic": {"played": 1, "won": 0, "lost": 1}}


def test_a_player_who_resigned_and_votes_for_a_rematch_plays_it(live: tuple[str, str]) -> None:
    base, _ = live
    ann, bob = Browser(base), Browser(base)
    reply = ann.write("POST", "/api/tables", {
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "options": {"target_score": 1}})
    created = reply.json()
    table_id = created["table"]["id"]
    a, b = (Seat(p, t["token"]) for p, t in zip((ann, bob), created["tokens"], strict=True))
    a.send({"type": "resign"})
    b.until_seats(lambda s: s[0]["left"] == "resigned")
    play_until([b], lambda: httpx.get(f"{base}/api/tables/{table_id}").json()["status"]
               == "over")
    for seat in (a, b):
        seat.send({"type": "rematch"})
    seats = b.until_seats(lambda s: s[0]["left"] is None)
    assert seats[0]["controller"] == "human"
    table = httpx.get(f"{base}/api/tables/{table_id}").json()
    assert table["status"] == "playing" and table["match"]["number"] == 1
    assert record(ann)["basic"]["lost"] == 1
    a.close()
    b.close()


def test_a_match_played_out_counts_for_both_players_and_rates_them(
        live: tuple[str, str]) -> None:
    base, _ = live
    ann, bob = Browser(base), Browser(base)
    reply = ann.write("POST", "/api/tables", {
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "options": {"target_score": 1}})
    created = reply.json()
    table_id = created["table"]["id"]
    seats = [Seat(p, t["token"]) for p, t in zip((ann, bob), created["tokens"], strict=True)]
    play_until(seats, lambda: httpx.get(f"{base}/api/tables/{table_id}").json()["status"]
               == "over")
    winners = httpx.get(f"{base}/api/tables/{table_id}").json()["match"]["winners"]
    for seat, browser in enumerate((ann, bob)):
        won = int(seat in winners)
        assert record(browser) == {"basic": {"played": 1, "won": won, "lost": 1 - won}}
    board = {line["id"]: line for line in httpx.get(f"{base}/api/leaderboard?limit=200").json()}
    first, second = (board[p.me["id"]] for p in (ann, bob))
    assert first["rated"] == second["rated"] == 1
    if len(winners) == 1:
        assert (first["rating"] > second["rating"]) == (winners == [0])
    for seat in seats:
        seat.close()
