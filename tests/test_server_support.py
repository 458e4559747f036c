"""Shared helpers of the server tests (no tests here): settings, clients, a move policy."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.testclient import WebSocketTestSession

from rummykit.core.cards import parse_card, rank_of
from rummykit.server.app import create_app
from rummykit.server.loadbench import partners
from rummykit.server.settings import Settings

POSTGRES_URL = os.environ.get("RUMMYKIT_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", *(["postgres"] if POSTGRES_URL else [])]


def fresh_postgres_schema() -> str:
    """The test PostgreSQL URL with a new, empty schema first on the search path (so no
    test loads another's tables)."""
    assert POSTGRES_URL is not None
    schema = f"test_{random.SystemRandom().getrandbits(48):012x}"
    engine = create_engine(POSTGRES_URL)
    with engine.begin() as db:
        db.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    joiner = "&" if "?" in POSTGRES_URL else "?"
    return f"{POSTGRES_URL}{joiner}options=-csearch_path%3D{schema}"


def settings_for(backend: str, tmp_path: Path, **overrides: Any) -> Settings:
    """Fast, deterministic settings on a fresh SQLite file or a fresh PostgreSQL schema."""
    url = f"sqlite:///{tmp_path / 'server.db'}" if backend == "sqlite" \
        else fresh_postgres_schema()
    base: dict[str, Any] = {"database_url": url, "bot_delay": 0.0, "grace_seconds": 60.0,
                            "allow_seeds": True, "rate_per_second": 1000.0,
                            "rate_burst": 1000, "max_turns_per_hand": 150,
                            # one test client makes every request: lift the per-address
                            # limits (tests of the limits set their own)
                            "http_rate_per_second": 1000.0, "http_rate_burst": 1000,
                            "table_quota": 1000, "upload_quota": 1000,
                            # uploads answer once checked (tests of the 202 path set 0)
                            "upload_wait_seconds": 60.0}
    base.update(overrides)
    return Settings.model_validate(base)


@contextmanager
def running(settings: Settings) -> Iterator[TestClient]:
    """The real application, started and stopped around the block."""
    with TestClient(create_app(settings)) as client:
        yield client


def choose(legal: list[str], rng: random.Random, hand: list[str] | None = None,
           top: str | None = None) -> str:
    """A quick, sensible move: lay melds and lay-offs; take a discard that fits; discard
    the card with the fewest partners, the highest first (so hands do end)."""
    for prefix in ("meld", "lay", "swap"):
        found = [m for m in legal if m.startswith(prefix)]
        if found:
            return rng.choice(found)
    if "draw" in legal:
        if "take" in legal and top is not None and hand is not None \
                and partners(top, [*hand, top]) >= 2:
            return "take"
        return "draw"
    discards = [m for m in legal if m.startswith("discard")]
    if discards:
        cards = hand or []
        return min(discards, key=lambda m: (partners(m.split()[1], cards),
                                            -rank_of(parse_card(m.split()[1])), m))
    return rng.choice(legal)


class Player:
    """One WebSocket client: remembers the version, view and legal moves it last got."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.legal: list[str] = []
        self.status = "waiting"
        self.match: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.acks = 0

    def send(self, message: dict[str, Any]) -> None:
        """Send one message."""
        self.socket.send_json(message)

    def receive(self) -> dict[str, Any]:
        """The next message, noting events and syncs."""
        message: dict[str, Any] = self.socket.receive_json()
        self.log.append(message)
        if message["type"] == "event":
            assert message["version"] == self.version + 1, (message["version"], self.version)
            self.version, self.view = message["version"], message["view"]
            self.legal, self.match = message["legal"], message["match"]
            if message["match"]["over"]:
                self.status = "over"
        elif message["type"] == "sync":
            self.version, self.view, self.legal = (message["version"], message["view"],
                                                   message["legal"])
            self.status, self.match = message["table"]["status"], message["table"]["match"]
        return message

    def until(self, kind: str) -> dict[str, Any]:
        """Read until a message of type ``kind``."""
        while True:
            message = self.receive()
            if message["type"] == kind:
                return message

    def until_any(self, kinds: tuple[str, ...]) -> dict[str, Any]:
        """Read until a message of one of these types."""
        while True:
            message = self.receive()
            if message["type"] in kinds:
                return message

    def hello(self, version: int | None = None, **who: str) -> dict[str, Any]:
        """Say hello; returns the welcome (events or the sync follow)."""
        self.send({"type": "hello", "version": version, **who})
        return self.until("welcome")

    def move(self, move: str, version: int | None = None) -> dict[str, Any]:
        """Send a move and read up to its ack or error."""
        self.acks += 1
        self.send({"type": "move", "move": move, "ack": self.acks,
                   "version": self.version if version is None else version})
        while True:
            message = self.receive()
            if message["type"] in ("ack", "error"):
                assert message["ack"] == self.acks
                return message

    def catch_up(self, version: int) -> None:
        """Read until this client has seen ``version``."""
        while self.version < version:
            self.receive()


def create(client: TestClient, seats: list[dict[str, Any]], rules: str = "basic",
           **extra: Any) -> dict[str, Any]:
    """Create a table; fails the test on an error."""
    response = client.post("/api/tables", json={"rules": rules, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def humans(*names: str) -> list[dict[str, Any]]:
    """Named human seats."""
    return [{"kind": "human", "name": n} for n in names]


def play_out(players: list[Player], rng: random.Random, limit: int = 100000) -> int:
    """Play until the match is over (every player reads every event); the moves made."""
    made = 0
    while players[0].status != "over" and made < limit:
        latest = max(p.version for p in players)
        for p in players:
            p.catch_up(latest)
        view = players[0].view
        assert view is not None
        if players[0].status == "over":
            break
        mover = next(p for p in players if p.view and p.view["seat"] == view["to_move"])
        seen = mover.view
        assert seen is not None
        top = seen["discard"][-1] if seen["discard"] else None
        reply = mover.move(choose(mover.legal, rng, seen["hand"], top))
        assert reply["type"] == "ack", reply
        made += 1
    for p in players:
        p.catch_up(max(q.version for q in players))
    return made


IDENTIFIER_KEYS = frozenset({"id", "token", "player_id", "table_id"})


def without_identifiers(message: Any) -> Any:
    """``message`` with the random identifiers blanked (a table id like ``1wUNA05G-DA``
    reads as a card name to a scan for cards)."""
    if isinstance(message, dict):
        return {k: "" if k in IDENTIFIER_KEYS and isinstance(v, str)
                else without_identifiers(v) for k, v in message.items()}
    if isinstance(message, list):
        return [without_identifiers(v) for v in message]
    return message



def pick_port() -> int:
    """A free loopback port for a test server: the first free one of
    ``RUMMYKIT_TEST_PORTS`` (e.g. ``18200-18299``) when it is set, else any free one."""
    import socket

    span = os.environ.get("RUMMYKIT_TEST_PORTS")
    candidates = [0]
    if span:
        low, high = (int(p) for p in span.split("-"))
        candidates = list(range(low, high + 1))
    for port in candidates:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            found: int = s.getsockname()[1]
            return found
    raise RuntimeError(f"no free port in {span}")
