"""Sessions on the real application (TestClient, SQLite, and PostgreSQL when configured):
a guest's record merged into the account its browser signs in to, and sessions that
expire (idle, lifetime), are revoked by signing out, and are purged."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select

from rummykit.server import schema
from rummykit.server.guest_merge import combine
from rummykit.server.identity import COOKIE
from rummykit.server.players import SessionPolicy
from test_server_support import BACKENDS, running, settings_for

ANN_VS_BOT = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}]


class Browser:
    """One browser on a shared TestClient: its own session cookie and CSRF token."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.token: str | None = None
        self.csrf = ""
        self.me = self.get_me()

    def request(self, method: str, path: str, body: Any = None, *, csrf: bool = True,
                **headers: str) -> httpx.Response:
        self.client.cookies.clear()
        if self.token is not None:
            headers["Cookie"] = f"{COOKIE}={self.token}"
        if csrf and method != "GET":
            headers["X-CSRF-Token"] = self.csrf
        reply: httpx.Response = self.client.request(method, path, json=body, headers=headers)
        for line in reply.headers.get_list("set-cookie"):
            if line.startswith(f"{COOKIE}="):
                value = line.split(";")[0].partition("=")[2].strip('"')
                self.token = None if "max-age=0" in line.lower() or not value else value
        self.client.cookies.clear()
        if reply.status_code == 200 and path.startswith(("/api/me", "/api/account")):
            self.csrf = reply.json()["csrf"]  # a Me: the session's token
        return reply

    def get_me(self) -> dict[str, Any]:
        reply = self.request("GET", "/api/me")
        assert reply.status_code == 200, reply.text
        data: dict[str, Any] = reply.json()
        return data

    def ok(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        reply = self.request(method, path, body)
        assert reply.status_code in (200, 201), reply.text
        data: dict[str, Any] = reply.json()
        return data

    def table(self, rules: str = "basic") -> str:
        """A table against a bot with this browser's player seated; its seat token."""
        created = self.ok("POST", "/api/tables", {"rules": rules, "seats": ANN_VS_BOT,
                                                  "options": {"target_score": 500}})
        token: str = created["tokens"][0]["token"]
        return token

    def lose(self, rules: str = "basic") -> None:
        """Play a match by resigning it at once (a loss, rated against the bot)."""
        self.resign(self.table(rules))

    def resign(self, seat_token: str) -> None:
        seat = self.client.get("/api/seats/" + seat_token).json()
        reply = self.client.post(f"/api/tables/{seat['table']}/resign",
                                 headers={"X-Seat-Token": seat_token})
        assert reply.status_code == 200, reply.text


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def app(backend: str, tmp_path: Path) -> Iterator[TestClient]:
    with running(settings_for(backend, tmp_path)) as client:
        yield client


def _mu_sigma(client: TestClient, player_id: str) -> tuple[float, float]:
    for line in client.get("/api/leaderboard", params={"limit": 200}).json():
        if line["id"] == player_id:
            return line["mu"], line["sigma"]
    raise AssertionError(f"{player_id} is not on the leaderboard")


def _seats_of(client: TestClient, player_id: str) -> int:
    engine = create_engine(client.app.state.settings.database_url)  # type: ignore[attr-defined]
    try:
        with engine.connect() as db:
            return int(db.execute(select(func.count()).select_from(schema.seats)
                                  .where(schema.seats.c.player_id == player_id)).scalar_one())
    finally:
        engine.dispose()


# -- a guest's record merged into the account -------------------------------------------

def test_signing_in_merges_the_guest_record_once(app: TestClient) -> None:
    account = Browser(app)
    assert account.ok("POST", "/api/account/signup",
                      {"name": "merge_ann", "password": "long enough"})["account"]
    account.lose()
    account_id = account.me["id"]
    guest = Browser(app)  # another browser, a guest with its own record
    guest.lose()
    guest.lose("traditional")
    live = guest.table()  # and a match still in play
    guest_id = guest.me["id"]
    before = (_mu_sigma(app, account_id), _mu_sigma(app, guest_id))
    old_cookie = guest.token

    merged = guest.ok("POST", "/api/account/signin",
                      {"name": "merge_ann", "password": "long enough"})
    assert merged["id"] == account_id and merged["merged"] is True
    assert merged["rules"] == {"basic": {"played": 2, "won": 0, "lost": 2},
                               "traditional": {"played": 1, "won": 0, "lost": 1}}
    assert merged["rated"] == 3
    mu, sigma = _mu_sigma(app, account_id)
    assert (mu, sigma) == pytest.approx(combine(*before), abs=1e-3)
    assert sigma < min(before[0][1], before[1][1])  # two records know more than one
    # the guest now points at the account; it left the leaderboard; its seats moved
    public = app.get(f"/api/players/{guest_id}").json()
    assert public["id"] == account_id and public["rules"] == merged["rules"]
    ids = {line["id"] for line in app.get("/api/leaderboard").json()}
    assert guest_id not in ids and account_id in ids
    assert _seats_of(app, guest_id) == 0 and _seats_of(app, account_id) >= 4

    # the match the guest was playing ends after the merge: it counts for the account
    guest.resign(live)
    assert guest.get_me()["rules"]["basic"] == {"played": 3, "won": 0, "lost": 3}

    # idempotent: the guest's old session is gone, a second sign-in merges nothing
    stale = httpx.Headers({"Cookie": f"{COOKIE}={old_cookie}", "X-CSRF-Token": "x"})
    app.cookies.clear()
    refused = app.post("/api/account/signin", headers=stale,
                       json={"name": "merge_ann", "password": "long enough"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "no_session"
    again = guest.ok("POST", "/api/account/signin",
                     {"name": "merge_ann", "password": "long enough"})
    assert again["merged"] is False and again["rules"]["basic"]["played"] == 3
    assert account.get_me()["rules"] == again["rules"]  # the first device sees it too


def test_an_account_signing_in_to_another_is_not_merged(app: TestClient) -> None:
    first, second = Browser(app), Browser(app)
    first.ok("POST", "/api/account/signup", {"name": "first_one", "password": "long enough"})
    first.lose()
    second.ok("POST", "/api/account/signup", {"name": "second_one",
                                              "password": "long enough"})
    moved = first.ok("POST", "/api/account/signin", {"name": "second_one",
                                                     "password": "long enough"})
    assert moved["merged"] is False and moved["rules"] == {}
    assert app.get(f"/api/players/{first.me['id']}").json()["rules"]["basic"]["played"] == 1


def test_a_guest_without_matches_merges_into_an_unrated_account(app: TestClient) -> None:
    account = Browser(app)
    account.ok("POST", "/api/account/signup", {"name": "fresh_one", "password": "long enough"})
    guest = Browser(app)
    merged = guest.ok("POST", "/api/account/signin", {"name": "fresh_one",
                                                      "password": "long enough"})
    assert merged["merged"] is True and merged["rated"] == 0 and merged["rules"] == {}


# -- sessions expire -----------------------------------------------------------------

@pytest.fixture
def short(backend: str, tmp_path: Path) -> Iterator[TestClient]:
    """Signed-in sessions idle out after 1 s and last 2 s; guests idle out after 1.5 s."""
    settings = settings_for(backend, tmp_path, session_idle_seconds=1.0,
                            session_lifetime_seconds=2.0, guest_idle_seconds=1.5)
    with running(settings) as client:
        yield client


def test_an_idle_session_is_refused_and_the_browser_becomes_a_guest(short: TestClient
                                                                    ) -> None:
    ann = Browser(short)
    signed = ann.ok("POST", "/api/account/signup", {"name": "idle_ann",
                                                    "password": "long enough"})
    time.sleep(1.3)
    refused = ann.request("PUT", "/api/me/name", {"name": "Late"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "no_session"
    assert "expired" in refused.json()["error"]["message"]
    me = ann.get_me()
    assert me["expired"] == "idle" and me["account"] is None and me["id"] != signed["id"]
    assert ann.get_me()["expired"] is None  # told once; the guest's session lives
    assert short.get(f"/api/players/{signed['id']}").json()["name"] != "Late"  # unchanged
    back = ann.ok("POST", "/api/account/signin", {"name": "idle_ann",
                                                  "password": "long enough"})
    assert back["id"] == signed["id"] and back["merged"] is True


def test_a_session_in_use_still_ends_at_its_lifetime(short: TestClient) -> None:
    ann = Browser(short)
    ann.ok("POST", "/api/account/signup", {"name": "busy_ann", "password": "long enough"})
    start = time.monotonic()
    while time.monotonic() - start < 1.8:  # used every 0.3 s: never idle
        assert ann.get_me()["account"] == "busy_ann"
        time.sleep(0.3)
    time.sleep(0.4)
    me = ann.get_me()
    assert me["expired"] == "lifetime" and me["account"] is None


def test_a_guest_session_idles_out_too(short: TestClient) -> None:
    guest = Browser(short)
    first = guest.me["id"]
    time.sleep(0.8)
    assert guest.get_me()["id"] == first  # used: its idle time starts again
    time.sleep(0.8)
    assert guest.get_me()["id"] == first
    time.sleep(1.8)
    me = guest.get_me()
    assert me["id"] != first and me["expired"] == "guest_idle"


def test_signing_out_revokes_the_session(app: TestClient) -> None:
    ann = Browser(app)
    signed = ann.ok("POST", "/api/account/signup", {"name": "out_ann",
                                                    "password": "long enough"})
    kept, csrf = ann.token, ann.csrf
    assert ann.request("POST", "/api/account/signout").status_code == 204
    assert ann.token is None  # the cookie is cleared
    app.cookies.clear()
    reply = app.put("/api/me/name", json={"name": "Ghost"},
                    headers={"Cookie": f"{COOKIE}={kept}", "X-CSRF-Token": csrf})
    assert reply.status_code == 401 and reply.json()["error"]["code"] == "no_session"
    app.cookies.clear()
    again = app.get("/api/me", headers={"Cookie": f"{COOKIE}={kept}"}).json()
    assert again["id"] != signed["id"] and again["expired"] is None
    app.cookies.clear()


def test_expired_sessions_are_purged(short: TestClient) -> None:
    store = short.app.state.hub.players  # type: ignore[attr-defined]
    settings = short.app.state.settings  # type: ignore[attr-defined]
    policy = SessionPolicy(idle=settings.session_idle_seconds,
                           lifetime=settings.session_lifetime_seconds,
                           guest_idle=settings.guest_idle_seconds)
    old_guest, old_account = Browser(short), Browser(short)
    old_account.ok("POST", "/api/account/signup", {"name": "purge_ann",
                                                   "password": "long enough"})
    time.sleep(1.7)
    fresh = Browser(short)
    assert store.purge_sessions(policy, time.time()) == 0  # a day's grace to say why
    assert store.purge_sessions(policy, time.time(), after=0) == 2
    assert fresh.get_me()["id"] == fresh.me["id"]  # a live session stays
    for gone in (old_guest, old_account):
        me = gone.get_me()
        assert me["expired"] is None and me["id"] != gone.me["id"]  # no row left


def test_the_migration_starts_existing_sessions_from_their_creation(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from rummykit.server import storage

    engine = create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    config = Config()
    config.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    with engine.begin() as db:  # the schema before sessions expired
        config.attributes["connection"] = db
        command.upgrade(config, "0004")
        db.execute(text("INSERT INTO players (id, kind, name, created, mu, sigma, rated) "
                        "VALUES ('p1', 'human', 'Ann', 5, 25, 8.3, 0)"))
        db.execute(text("INSERT INTO sessions (token_hash, player_id, csrf, created) "
                        "VALUES ('h1', 'p1', 'c1', 123.5)"))
    storage.migrate(engine)
    with engine.connect() as db:
        assert db.execute(text("SELECT last_seen FROM sessions")).scalar_one() == 123.5
        assert db.execute(text("SELECT merged_into FROM players")).scalar_one() is None
    engine.dispose()
