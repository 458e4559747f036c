"""Several `rummykit serve` processes on one PostgreSQL database with Redis, as one server:
real processes, real WebSockets, a SIGKILL mid-play; the records replay with
`rummykit replay --check`. Needs RUMMYKIT_TEST_POSTGRES_URL, and Redis
(RUMMYKIT_TEST_REDIS_URL, or a `redis-server` on the PATH started here)."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rummykit.server.benchkit import descendants, end_orphans
from rummykit.server.identity import COOKIE
from rummykit.server.loadbench import free_port
from test_server_crash import RealSocket, command
from test_server_support import POSTGRES_URL, Player, choose, fresh_postgres_schema, humans

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL"),
    pytest.mark.skipif(POSTGRES_URL is None, reason="needs RUMMYKIT_TEST_POSTGRES_URL"),
]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    given = os.environ.get("RUMMYKIT_TEST_REDIS_URL")
    if given:
        yield given
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("needs RUMMYKIT_TEST_REDIS_URL or redis-server")
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    server = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save",
                               "", "--appendonly", "no", "--dir", str(folder)],
                              stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True,
                             check=False).stdout.strip() != b"PONG":
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


class Node:
    """One `rummykit serve` process of the cluster."""

    def __init__(self, database: str, redis: str, log: Path, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"
        self.log = log
        variables = {**os.environ, "RUMMYKIT_ALLOW_SEEDS": "true",
                     "RUMMYKIT_GRACE_SECONDS": "600", "RUMMYKIT_RATE_PER_SECOND": "1000",
                     "RUMMYKIT_RATE_BURST": "1000", "RUMMYKIT_MAX_TURNS_PER_HAND": "150",
                     "RUMMYKIT_LEASE_SECONDS": "1.5", "RUMMYKIT_BOT_DELAY": "0.2", **env}
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [*command(), "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--database-url", database, "--redis-url", redis], env=variables,
                stdout=out, stderr=subprocess.STDOUT)

    def wait_up(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"a node did not start:\n{self.log.read_text()}")
            time.sleep(0.1)

    def kill(self) -> None:
        workers = descendants(self.process.pid)  # they outlive its SIGKILL: ended after
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        end_orphans(workers)

    def stop(self) -> None:
        workers = descendants(self.process.pid)
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        end_orphans(workers)


@pytest.fixture(scope="module")
def cluster(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    """Three nodes for the whole module (the SIGKILL test, last, kills the first)."""
    database = fresh_postgres_schema()
    folder = tmp_path_factory.mktemp("cluster")
    nodes = [Node(database, redis_url, folder / f"node{i}.log") for i in range(3)]
    try:
        for node in nodes:
            node.wait_up()
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def seat(node: Node, token: str | None = None, table: str | None = None,
         version: int | None = None) -> Player:
    player = Player(RealSocket(node.ws))  # type: ignore[arg-type]
    player.version = version or 0
    player.hello(version, **({"token": token} if token else {"table": table or ""}))
    return player


def sync_all(players: list[Player]) -> None:
    latest = max(p.version for p in players)
    for p in players:
        p.catch_up(latest)


def play(players: list[Player], rng: random.Random, moves: int) -> list[str]:
    """Make ``moves`` moves (or finish the match); the moves acknowledged."""
    made = []
    while len(made) < moves and players[0].status != "over":
        sync_all(players)
        if players[0].status == "over":
            break
        view = players[0].view
        assert view is not None
        mover = next(p for p in players if p.view and p.view["seat"] == view["to_move"])
        assert mover.view is not None
        top = mover.view["discard"][-1] if mover.view["discard"] else None
        move = choose(mover.legal, rng, mover.view["hand"], top)
        reply = mover.move(move)
        assert reply["type"] == "ack", reply
        made.append(move)
    sync_all(players)
    return made


def moves_seen(player: Player) -> list[tuple[int, str]]:
    return [(m["version"], m["move"]) for m in player.log
            if m["type"] == "event" and m["kind"] == "move"]


def check_record(node: Node, table_id: str, tmp_path: Path) -> list[str]:
    text = httpx.get(f"{node.base}/api/tables/{table_id}/matches/0/record", timeout=10)
    assert text.status_code == 200, text.text
    path = tmp_path / f"{table_id}.rummy.json"
    path.write_text(text.text)
    checked = subprocess.run([*command(), "replay", "--check", str(path)],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    from rummykit.core.record import loads
    return [m for h in loads(text.text).hands for m in h.moves]


def test_any_node_serves_any_seat_and_spectator(cluster: list[Node], tmp_path: Path) -> None:
    a, b, c = cluster
    body = {"rules": "basic", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}],
            "seed": 3, "options": {"target_score": 25}}
    created = httpx.post(f"{a.base}/api/tables", json=body, timeout=10).json()
    table_id = created["table"]["id"]
    joined = httpx.post(f"{b.base}/api/tables/{table_id}/join", json={"name": "Bob"},
                        timeout=10)
    assert joined.status_code == 200, joined.text
    refused = httpx.post(f"{c.base}/api/tables/{table_id}/join", json={"name": "Cy"},
                         timeout=10)  # the seat is taken: refused wherever asked
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "no_open_seat"
    table = httpx.get(f"{c.base}/api/tables/{table_id}", timeout=10).json()
    assert [s["name"] for s in table["seats"]] == ["Ann", "Bob"]
    assert table["status"] == "playing"
    ann = seat(b, token=created["tokens"][0]["token"])
    bob = seat(c, token=joined.json()["token"])
    watcher = seat(a, table=table_id)
    for p in (ann, bob, watcher):
        p.until("sync")
    play([ann, bob], random.Random(1), 10_000)
    watcher.catch_up(ann.version)
    assert moves_seen(ann) == moves_seen(bob) == moves_seen(watcher)
    for node in cluster:  # every node tells the same story
        assert httpx.get(f"{node.base}/api/tables/{table_id}", timeout=10).json()[
            "status"] == "over"
    recorded = check_record(c, table_id, tmp_path)
    assert recorded == [m for _, m in moves_seen(ann)][-len(recorded):]
    for p in (ann, bob, watcher):
        p.socket.close()  # type: ignore[attr-defined]


def test_events_cross_nodes_in_order(cluster: list[Node]) -> None:
    a, b, _ = cluster
    body = {"rules": "basic", "seats": humans("Ann", "Bob"), "seed": 5}
    created = httpx.post(f"{a.base}/api/tables", json=body, timeout=10).json()
    tokens = [t["token"] for t in created["tokens"]]
    players = [seat(b, token=tokens[0]), seat(b, token=tokens[1])]
    for p in players:
        p.until("sync")
    made = play(players, random.Random(4), 25)
    versions: list[Any] = [v for v, _ in moves_seen(players[0])]
    assert len(made) == 25 and versions == sorted(set(versions))
    for p in players:
        p.socket.close()  # type: ignore[attr-defined]


class CookieSocket(RealSocket):
    """A real WebSocket sent with a browser's session cookie."""

    def __init__(self, url: str, cookie: str) -> None:
        self.connection = connect(url, open_timeout=10,
                                  additional_headers={"Cookie": cookie}).__enter__()


def test_a_hello_on_another_node_binds_the_player_as_the_owner_would(
        cluster: list[Node]) -> None:
    owner, other = cluster[1], cluster[2]
    body = {"rules": "basic", "seats": humans("Ann", "Bob"), "seed": 9}
    created = httpx.post(f"{owner.base}/api/tables", json=body, timeout=10).json()
    browser = httpx.Client(base_url=other.base, timeout=10)
    me = browser.get("/api/me").json()  # Ann's browser, on the node that does not own it
    cookie = f"{COOKIE}={browser.cookies[COOKIE]}"
    ann = Player(CookieSocket(other.ws, cookie))  # type: ignore[arg-type]
    ann.hello(token=created["tokens"][0]["token"])
    ann.until("sync")
    ann.send({"type": "resign"})  # counted for the seat's player: Ann's, if it was bound
    deadline = time.monotonic() + 15
    while browser.get("/api/me").json()["rules"] != {
            "basic": {"played": 1, "won": 0, "lost": 1}}:
        assert time.monotonic() < deadline, browser.get("/api/me").json()
        time.sleep(0.1)
    owned = httpx.get(f"{owner.base}/api/players/{me['id']}", timeout=10)
    assert owned.status_code == 200  # every node knows the player
    ann.socket.close()  # type: ignore[attr-defined]
    browser.close()


def test_through_nginx_with_the_documented_config(cluster: list[Node], tmp_path: Path) -> None:
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                       else None)
    if binary is None:
        pytest.skip("needs nginx (.ci/run installs it)")
    a, b, _ = cluster
    port = free_port()
    conf = (Path(__file__).parent.parent / "docs" / "nginx-cluster.conf").read_text()
    conf = conf.replace("127.0.0.1:8001", f"127.0.0.1:{a.port}")
    conf = conf.replace("127.0.0.1:8002", f"127.0.0.1:{b.port}")
    conf = conf.replace("listen 8000;", f"listen 127.0.0.1:{port};")
    (tmp_path / "logs").mkdir()
    config = tmp_path / "nginx.conf"
    config.write_text(f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
                      f"events {{}}\nhttp {{\naccess_log off;\n"
                      f"client_body_temp_path {tmp_path};\nproxy_temp_path {tmp_path};\n"
                      f"{conf}\n}}\n")
    nginx = subprocess.Popen([binary, "-p", str(tmp_path), "-c", str(config), "-g",
                              "daemon off;"], stderr=subprocess.PIPE)
    try:
        front = Node.__new__(Node)
        front.port, front.base = port, f"http://127.0.0.1:{port}"
        front.ws = f"ws://127.0.0.1:{port}/ws"
        deadline = time.monotonic() + 10
        while True:
            try:
                if httpx.get(f"{front.base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert nginx.poll() is None and time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
        body = {"rules": "basic", "seats": humans("Ann", "Bob"), "seed": 9}
        created = httpx.post(f"{front.base}/api/tables", json=body, timeout=10).json()
        players = [seat(front, token=t["token"]) for t in created["tokens"]]
        for p in players:
            p.until("sync")
        assert len(play(players, random.Random(6), 12)) == 12
        for p in players:
            p.socket.close()  # type: ignore[attr-defined]
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)


def test_sigkill_of_the_owner_moves_its_tables(cluster: list[Node], tmp_path: Path) -> None:
    owner, b, c = cluster
    body = {"rules": "basic", "seats": humans("Ann", "Bob"), "seed": 8,
            "options": {"target_score": 60}}
    created = httpx.post(f"{owner.base}/api/tables", json=body, timeout=10).json()
    table_id = created["table"]["id"]
    tokens = [t["token"] for t in created["tokens"]]
    bots = httpx.post(f"{owner.base}/api/tables", timeout=10, json={
        "rules": "basic", "options": {"target_score": 1000},
        "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "greedy"}]}
    ).json()["table"]["id"]
    ann, bob = seat(b, token=tokens[0]), seat(owner, token=tokens[1])
    for p in (ann, bob):
        p.until("sync")
    before = play([ann, bob], random.Random(2), 30)
    seen = ann.version
    owner.kill()
    bots_at = httpx.get(f"{b.base}/api/tables/{bots}", timeout=10).json()["version"]
    killed_at = time.monotonic()
    with pytest.raises(ConnectionClosed):  # b closes the clients of the dead owner's table
        while True:
            ann.socket.connection.recv(timeout=10)  # type: ignore[attr-defined]
    closed_after = time.monotonic() - killed_at
    # both move to the surviving nodes, each to another one, and play on
    again = [seat(c, token=tokens[0], version=seen), seat(b, token=tokens[1], version=seen)]
    resumed_after = time.monotonic() - killed_at
    for p, old in zip(again, (ann, bob), strict=True):
        p.until_any(("sync", "seats"))
        if p.view is None:
            p.view, p.legal, p.status = old.view, old.legal, old.status
    assert resumed_after < 5, resumed_after
    assert closed_after < 5, closed_after
    play(again, random.Random(3), 10_000)
    recorded = check_record(c, table_id, tmp_path)
    after = [m for _, m in moves_seen(again[0])]
    assert recorded[:len(before)] == before  # nothing lost, nothing doubled
    assert recorded[len(before):] == after
    # the dead node's bot table was adopted: its bots play on elsewhere
    deadline = time.monotonic() + 10
    while httpx.get(f"{b.base}/api/tables/{bots}", timeout=10).json()["version"] <= bots_at:
        assert time.monotonic() < deadline, "the bot table did not go on elsewhere"
        time.sleep(0.1)
    for p in again:
        p.socket.close()  # type: ignore[attr-defined]
