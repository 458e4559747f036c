"""Guests are pruned (the real application on SQLite, and PostgreSQL when configured): a
guest with no result, no session left and no seat in a match in play is deleted once
unseen for ``guest_retention_seconds``, in batches; one with results, a seat in play or a
merged pointer still in use stays."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, insert, select, update

from rummykit.server import schema
from rummykit.server.players import PlayerStore, SessionPolicy
from test_server_sessions import Browser
from test_server_support import BACKENDS, running, settings_for


@pytest.fixture(params=BACKENDS)
def short(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """Guests idle out after 1 s and are kept 0.5 s after they were last seen."""
    settings = settings_for(request.param, tmp_path, guest_idle_seconds=1.0,
                            guest_retention_seconds=0.5)
    with running(settings) as client:
        yield client


def store_of(client: TestClient) -> PlayerStore:
    store: PlayerStore = client.app.state.hub.players  # type: ignore[attr-defined]
    return store


def rows(client: TestClient, table: Any, **where: Any) -> list[Any]:
    """The rows of ``table`` matching ``where`` (column=value), read from the database."""
    with store_of(client).engine.connect() as db:
        return list(db.execute(select(table).where(
            *(table.c[k] == v for k, v in where.items()))))


def exists(client: TestClient, player_id: str) -> bool:
    return bool(rows(client, schema.players, id=player_id))


def bot_done(client: TestClient, table_id: str) -> None:
    """Wait until the bot of the table has moved and the guest (seat 0) is to move."""
    live = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while live.to_move() != 0:
        assert time.monotonic() < deadline, "the bot never moved"
        time.sleep(0.05)


def sessions_gone(client: TestClient) -> None:
    """Let every guest session expire and purge it (no day of grace)."""
    settings = client.app.state.settings  # type: ignore[attr-defined]
    time.sleep(settings.guest_idle_seconds + 0.2)
    policy = SessionPolicy(idle=settings.session_idle_seconds,
                           lifetime=settings.session_lifetime_seconds,
                           guest_idle=settings.guest_idle_seconds,
                           guest_retention=settings.guest_retention_seconds)
    store_of(client).purge_sessions(policy, time.time(), after=0)


def test_only_guests_with_nothing_to_keep_them_are_pruned(short: TestClient) -> None:
    idle = Browser(short)  # opened the app, never played
    loser = Browser(short)
    loser.lose()  # a result
    seated = Browser(short)
    seated.table()  # a seat in a match in play
    account = Browser(short)
    account.ok("POST", "/api/account/signup", {"name": "prune_ann", "password": "long enough"})
    merged, kept_pointer = Browser(short), Browser(short)
    for guest in (merged, kept_pointer):  # both sign in: merged into the account
        signed = guest.ok("POST", "/api/account/signin",
                          {"name": "prune_ann", "password": "long enough"})
        assert signed["merged"] is True
    token = kept_pointer.table()  # a finished table whose seat names the merged guest
    table = short.get(f"/api/seats/{token}").json()["table"]
    bot_done(short, table)
    with store_of(short).engine.begin() as db:
        db.execute(update(schema.seats).where(schema.seats.c.table_id == table,
                                              schema.seats.c.seat == 0)
                   .values(player_id=kept_pointer.me["id"]))
        db.execute(update(schema.tables).where(schema.tables.c.id == table)
                   .values(status="over"))
    assert store_of(short).prune_guests(3600.0, time.time()) == 0  # all seen just now
    sessions_gone(short)
    time.sleep(0.6)
    assert store_of(short).prune_guests(0.5, time.time()) == 2
    assert not exists(short, idle.me["id"]) and not exists(short, merged.me["id"])
    for player in (loser, seated, kept_pointer, account):
        assert exists(short, player.me["id"])
    lines = short.get(f"/api/players/{loser.me['id']}").json()["rules"]
    assert lines["basic"]["lost"] == 1  # its record stays public
    assert short.get(f"/api/players/{idle.me['id']}").status_code == 404
    assert store_of(short).prune_guests(0.5, time.time()) == 0  # nothing more
    me = idle.get_me()  # the pruned guest's browser comes back: a new guest
    assert me["id"] != idle.me["id"] and me["expired"] is None


def test_a_recently_seen_guest_is_kept_for_the_retention_period(short: TestClient) -> None:
    guest = Browser(short)
    sessions_gone(short)
    store = store_of(short)
    seen = rows(short, schema.players, id=guest.me["id"])[0].last_seen
    assert store.prune_guests(3600.0, time.time()) == 0  # unseen for seconds, not an hour
    assert store.prune_guests(0.5, seen + 0.4) == 0
    assert store.prune_guests(0.5, seen + 0.6) == 1


def test_a_finished_table_keeps_the_seat_name_of_a_pruned_guest(short: TestClient) -> None:
    guest = Browser(short)
    token = guest.table()
    table = short.get(f"/api/seats/{token}").json()["table"]
    assert rows(short, schema.seats, table_id=table, seat=0)[0].player_id == guest.me["id"]
    bot_done(short, table)  # else the bot's move, stored later, says "playing" again
    with store_of(short).engine.begin() as db:  # the match ended without a result
        db.execute(update(schema.tables).where(schema.tables.c.id == table)
                   .values(status="over"))
    sessions_gone(short)
    time.sleep(0.6)
    assert store_of(short).prune_guests(0.5, time.time()) == 1
    seat = rows(short, schema.seats, table_id=table, seat=0)[0]
    assert seat.player_id is None and seat.name == "Ann"


def test_guests_are_pruned_in_batches(short: TestClient) -> None:
    store = store_of(short)
    old = time.time() - 100
    with store.engine.begin() as db:
        db.execute(insert(schema.players), [
            {"id": f"old-{n}", "kind": "human", "name": f"Player {n}", "created": old,
             "last_seen": old, "mu": 25.0, "sigma": 8.3, "rated": 0} for n in range(7)])
    assert store.prune_guests(10.0, time.time(), batch=3, batches=2) == 6
    assert store.prune_guests(10.0, time.time(), batch=3, batches=2) == 1
    with store.engine.connect() as db:
        left = db.execute(select(func.count()).select_from(schema.players)
                          .where(schema.players.c.id.like("old-%"))).scalar_one()
    assert left == 0


def test_the_server_prunes_on_its_own(short: TestClient) -> None:
    """The purge that runs when a new guest comes (at most every 10 minutes) prunes too."""
    gone = Browser(short)
    sessions_gone(short)
    time.sleep(0.6)
    store_of(short)._purged = 0.0  # the last purge was long ago
    Browser(short)  # a new visitor: GET /api/me purges, then prunes
    assert not exists(short, gone.me["id"])


def test_the_migration_starts_last_seen_from_the_latest_session(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from rummykit.server import storage

    engine = create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    config = Config()
    config.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    with engine.begin() as db:  # the schema before guests were pruned
        config.attributes["connection"] = db
        command.upgrade(config, "0005")
        db.execute(text("INSERT INTO players (id, kind, name, created, mu, sigma, rated) "
                        "VALUES ('p1', 'human', 'Ann', 5, 25, 8.3, 0), "
                        "('p2', 'human', 'Bob', 7, 25, 8.3, 0)"))
        db.execute(text("INSERT INTO sessions (token_hash, player_id, csrf, created, last_seen)"
                        " VALUES ('h1', 'p1', 'c1', 10, 40), ('h2', 'p1', 'c2', 11, 30)"))
    storage.migrate(engine)
    with engine.connect() as db:
        query = text("SELECT id, last_seen FROM players ORDER BY id")
        seen: dict[str, float] = dict(db.execute(query).all())
    assert seen == {"p1": 40.0, "p2": 7.0}
    engine.dispose()
