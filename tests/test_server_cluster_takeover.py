"""Taking a dead node's tables over: a node is dead once nobody listens on its channel
(seen twice) or its key expired; its leases are taken in one script; the tables are read
in batches; a SIGKILLed node's tables go on elsewhere long before its leases run out.
Real Redis, SQLite and PostgreSQL, real processes."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import secrets
import sys
import time
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
import redis.asyncio as aioredis
from sqlalchemy import event

from rummykit.server.adoption import BatchLoads, load_batch, load_many
from rummykit.server.cluster import (
    SILENT_SECONDS,
    Cluster,
    channel,
    lease_key,
    node_key,
)
from rummykit.server.hub import Hub
from rummykit.server.resumebench import store
from rummykit.server.storage import EventRow, SqlStorage, StoredTable
from test_server_cluster import Node, redis_url
from test_server_support import BACKENDS, POSTGRES_URL, fresh_postgres_schema, settings_for

__all__ = ["redis_url"]  # the fixture, shared with test_server_cluster


@pytest.mark.parametrize("backend", BACKENDS)
def test_load_many_reads_what_load_reads(backend: str, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}" if backend == "sqlite" else fresh_postgres_schema()
    storage = SqlStorage(url)
    try:
        ids, _ = store(storage, 4, "basic", 30)
        # a table in its second match: only that match's events are loaded
        first = storage.load(ids[0])
        assert first is not None
        row = dataclasses.replace(first.table, match_no=1, version=first.table.version + 1)
        storage.commit(row, [EventRow(row.version, 1, "deal", {"deck": ["H2", "S3"]})], None)
        many = load_many(storage, [*ids, "no-such-table"])
        assert sorted(many) == sorted(ids)
        for table_id in ids:
            assert many[table_id] == storage.load(table_id)
        assert [e.version for e in many[ids[0]].events] == [row.version]
        assert load_many(storage, []) == {}
    finally:
        storage.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_loads_asked_for_together_are_read_together(backend: str, tmp_path: Path) -> None:
    settings = settings_for(backend, tmp_path, bot_processes=0, replay_processes=0)
    storage = SqlStorage(settings.database_url)
    ids, _ = store(storage, 6, "basic", 20)
    queries: list[str] = []
    event.listen(storage.engine, "before_cursor_execute",
                 lambda *args: queries.append(args[2]))
    hub = Hub(settings, storage)

    async def scenario() -> list[StoredTable | None]:
        loads = BatchLoads(hub)
        try:
            return await asyncio.gather(*(loads.load(t) for t in [*ids, "nope"] * 10))
        finally:
            await hub.stop()

    found = asyncio.run(scenario())
    reads = [q for q in queries if q.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 3, reads  # 70 asks, one batch: tables, seats, events
    again = SqlStorage(settings.database_url)
    try:
        assert found == [again.load(t) for t in [*ids, "nope"] * 10]
    finally:
        again.close()


def test_a_table_being_adopted_answers_other_nodes_once_loaded(redis_url: str,
                                                                tmp_path: Path) -> None:
    """A node that closes its clients of a dead owner's table and then adopts it is asked
    for it at once by the node those clients reconnect to: it answers once the table is
    loaded, instead of "moved to another server" (seen in CI: the reconnect's hello failed)."""
    settings = settings_for("sqlite", tmp_path, bot_processes=0, replay_processes=0)
    storage = SqlStorage(settings.database_url)
    ids, _ = store(storage, 2, "basic", 20)
    hub = Hub(settings, storage)
    cluster = Cluster(hub, redis_url, 2.0)

    async def scenario() -> list[dict[str, Any]]:
        try:
            adopting = asyncio.create_task(load_batch(hub, ids))
            await asyncio.sleep(0)  # the batch is being read
            assert ids[0] in hub._loading and ids[0] not in hub.tables
            asks = [{"k": "req", "id": f"other:{i}", "from": "other", "op": "table",
                     "table": t, "args": {}} for i, t in enumerate([*ids, "nope"])]
            await asyncio.gather(*(cluster._serve(ask) for ask in asks))
            assert await adopting == 2
            return sorted(cluster._outgoing["other"], key=lambda reply: str(reply["id"]))
        finally:
            await hub.stop()
            await cluster.redis.aclose()
            cluster._sync.close()

    replies = asyncio.run(scenario())
    assert [r.get("ok", {}).get("id") for r in replies] == [*ids, None]
    assert replies[2]["err"][0] == "unavailable"  # not served here


def test_a_silent_channel_means_a_dead_node_and_its_leases_are_taken(redis_url: str) -> None:
    async def scenario() -> None:
        cluster = Cluster(cast(Any, None), redis_url, 2.0)  # no hub: leases and liveness only
        other = aioredis.Redis.from_url(redis_url, decode_responses=True)
        listening = other.pubsub()
        live, killed, expired = (f"test-{secrets.token_hex(4)}" for _ in range(3))
        try:
            await other.set(node_key(live), "1", px=60_000)
            await other.set(node_key(killed), "1", px=60_000)  # its key outlives it
            await listening.subscribe(channel(live), channel(expired))
            nodes = [live, killed, expired]
            # silent once: not dead yet (a listener reconnecting); no key: dead at once
            assert await cluster._liveness(nodes) == [True, True, False]
            await asyncio.sleep(SILENT_SECONDS + 0.05)
            assert await cluster._liveness(nodes) == [True, False, False]
            tables = [f"t-{secrets.token_hex(4)}" for _ in range(3)]
            await other.set(lease_key(tables[0]), live, px=60_000)
            await other.set(lease_key(tables[1]), killed, px=60_000)
            taken = await cluster.take(tables, {killed})
            assert taken == tables[1:]  # the dead node's and the unheld one
            assert await other.get(lease_key(tables[0])) == live
            assert await other.get(lease_key(tables[1])) == cluster.node
            assert await cluster.take(tables, {killed}) == []  # ours now: nothing to take
        finally:
            await listening.aclose()  # type: ignore[no-untyped-call]
            await other.aclose()
            await cluster.redis.aclose()
            cluster._sync.close()

    asyncio.run(scenario())


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
@pytest.mark.skipif(POSTGRES_URL is None, reason="needs RUMMYKIT_TEST_POSTGRES_URL")
def test_a_killed_nodes_tables_go_on_long_before_its_leases_run_out(
        redis_url: str, tmp_path: Path) -> None:
    database = fresh_postgres_schema()
    lease = "60"  # waiting for the leases to run out would take 60 s
    doomed, survivor = (Node(database, redis_url, tmp_path / f"node{i}.log",
                             RUMMYKIT_LEASE_SECONDS=lease) for i in range(2))
    try:
        doomed.wait_up()
        survivor.wait_up()
        body = {"rules": "basic", "options": {"target_score": 1000},
                "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]}
        tables = [httpx.post(f"{doomed.base}/api/tables", json=body, timeout=20).json()
                  ["table"]["id"] for _ in range(12)]
        time.sleep(1.0)  # the bots play on the doomed node
        doomed.kill()
        killed_at = time.monotonic()
        # nobody asks for the tables: the survivor's watch sees the node dead and adopts
        # them all, in a batch
        adopted = re.compile(r"adopted (\d+) tables without a live owner")
        while sum(int(n) for n in adopted.findall(survivor.log.read_text())) < len(tables):
            # seen in ~0.5 s on an idle machine; the bound leaves room for a loaded one
            assert time.monotonic() - killed_at < 25, survivor.log.read_text()[-3000:]
            time.sleep(0.1)
        versions = [httpx.get(f"{survivor.base}/api/tables/{t}", timeout=10).json()["version"]
                    for t in tables]
        deadline = time.monotonic() + 10
        for table_id, seen in zip(tables, versions, strict=True):  # their bots go on there
            while httpx.get(f"{survivor.base}/api/tables/{table_id}",
                            timeout=10).json()["version"] <= seen:
                assert time.monotonic() < deadline, f"table {table_id} stands still"
                time.sleep(0.1)
        assert time.monotonic() - killed_at < 40  # well within the 60 s leases
    finally:
        for node in (doomed, survivor):
            node.stop()


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
@pytest.mark.skipif(POSTGRES_URL is None, reason="needs RUMMYKIT_TEST_POSTGRES_URL")
def test_the_cluster_benchmark_kills_a_node_and_counts_nothing_lost(
        redis_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from rummykit.server.loadbench import main
    code = main(["--cluster", "2", "--database-url", fresh_postgres_schema(),
                 "--redis-url", redis_url, "--tables", "6", "--duration", "6",
                 "--kill-at", "3", "--drain", "90", "--target", "20", "--think", "0.05"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report
    assert report["errors"] == report["lost_moves"] == report["duplicated_moves"] == 0
    assert report["tables_cut_by_the_kill"] == report["tables_resumed"] == 6
    assert report["matches_started"] == report["matches_completed"] == report[
        "matches_stored"] > 0
    assert all(cpu > 0 for cpu in report["servers_cpu_seconds"])
    assert report["clients_cpu_seconds"] > 0
    assert 0 < report["resume_seconds"]["max"] < 30
    assert 0 < report["unplayable_seconds"]["max"] <= report["resume_seconds"]["max"]
    assert report["round_trip_ms_before_the_kill"]["p50"] > 0
    assert report["round_trip_ms_from_the_kill"]["p50"] > 0
