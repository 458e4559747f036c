"""The server's limits and browser protections, through the real application (real SQLite,
real HTTP and WebSocket handling): rate limits, quotas, bounded bodies and records, option
bounds, connection caps, the hello timeout, close codes, the Origin check, the security
headers, private tables, storage errors as 503."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from rummykit.server.app import create_app
from rummykit.server.settings import Settings
from rummykit.server.table import table_rules
from rummykit.variants.registry import all_rule_set_names, variant_for
from test_server_support import Player, create, humans, running, settings_for

BOT_TABLE = {"rules": "basic", "seats": [{"kind": "human", "name": "Ann"},
                                          {"kind": "bot", "level": "random"}]}


def edge_settings(tmp_path: Path, **overrides: Any) -> Settings:
    return settings_for("sqlite", tmp_path, **overrides)


class Peers:
    """The real application, with the TCP peer address of each request taken from an
    ``x-test-peer`` header (so one test client can be several machines)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            peer = dict(scope["headers"]).get(b"x-test-peer")
            if peer is not None:
                scope = {**scope, "client": (peer.decode(), 1000)}
        await self.app(scope, receive, send)


@contextmanager
def peers(settings: Settings) -> Iterator[TestClient]:
    """A test client whose requests may say which address they come from."""
    with TestClient(Peers(create_app(settings))) as client:
        yield client


def at(address: str, **headers: str) -> dict[str, str]:
    """Headers that make a request come from ``address``."""
    return {"x-test-peer": address, **headers}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running(edge_settings(tmp_path)) as c:
        yield c


def error_of(response: Any) -> tuple[int, str, str]:
    body = response.json()["error"]
    return response.status_code, body["code"], body["message"]


# -- HTTP limits ----------------------------------------------------------------------

def test_http_rate_limit_per_address_with_retry_after(tmp_path: Path) -> None:
    settings = edge_settings(tmp_path, http_rate_per_second=0.5, http_rate_burst=3)
    with peers(settings) as c:
        first, second = at("10.1.1.1"), at("10.1.1.2")
        assert [c.get("/api/health", headers=first).status_code for _ in range(3)] == [200] * 3
        refused = c.get("/api/health", headers=first)
        status, code, message = error_of(refused)
        assert (status, code) == (429, "rate_limited") and "10.1.1.1" in message
        assert int(refused.headers["retry-after"]) >= 1
        assert c.get("/api/health", headers=second).status_code == 200  # its own bucket
        assert c.get("/index.html", headers=first).status_code == 200  # pages not counted


def test_trusted_proxy_forwarded_for_names_the_client(tmp_path: Path) -> None:
    settings = edge_settings(tmp_path, table_quota=1, trusted_proxies="10.0.0.0/8")
    with peers(settings) as c:
        def make(peer: str, forwarded: str) -> Any:
            return c.post("/api/tables", json=BOT_TABLE,
                          headers=at(peer, **{"x-forwarded-for": forwarded}))
        # behind the proxy each forwarded client has its own quota (a forged first hop
        # is ignored: the proxy appends the address it saw)
        assert make("10.0.0.5", "1.1.1.1").status_code == 201
        assert make("10.0.0.5", "6.6.6.6, 1.1.1.1").status_code == 429
        assert make("10.0.0.5", "2.2.2.2").status_code == 201
        # an untrusted peer's header is ignored: it is counted as itself
        assert make("192.0.2.9", "3.3.3.3").status_code == 201
        status, code, message = error_of(make("192.0.2.9", "4.4.4.4"))
        assert (status, code) == (429, "rate_limited") and "192.0.2.9" in message


def test_table_and_upload_quotas_per_address(tmp_path: Path) -> None:
    settings = edge_settings(tmp_path, table_quota=3, upload_quota=2)
    record = (Path(__file__).parent / "data" / "golden" / "basic_2p.rummy.json").read_bytes()
    with running(settings) as c:
        assert [c.post("/api/tables", json=BOT_TABLE).status_code for _ in range(4)] == \
            [201, 201, 201, 429]
        status, code, message = error_of(c.post("/api/tables", json=BOT_TABLE))
        assert (status, code) == (429, "rate_limited") and "at most 3 tables" in message
        assert [c.post("/api/replays", content=record).status_code for _ in range(3)] == \
            [201, 201, 429]


def test_bodies_over_the_limit_are_refused_with_413(client: TestClient) -> None:
    # declared too long: refused from the header, before a byte is read
    status, code, message = error_of(client.post("/api/replays", content=b"{" * 2_100_000))
    assert (status, code) == (413, "too_large") and "2100000" in message
    status, code, _ = error_of(client.post("/api/tables", content=b" " * 70_000,
                                           headers={"content-type": "application/json"}))
    assert (status, code) == (413, "too_large")

    # no length given (chunked): refused once the stream passes the limit
    def chunks() -> Iterator[bytes]:
        for _ in range(40):
            yield b" " * 65536

    status, code, message = error_of(client.post("/api/replays", content=chunks()))
    assert (status, code) == (413, "too_large") and "1000000" in message
    assert client.get("/api/health").status_code == 200


def test_a_long_record_is_refused_before_it_is_replayed(client: TestClient) -> None:
    record = json.loads((Path(__file__).parent / "data" / "golden" /
                         "basic_2p.rummy.json").read_text())
    record["hands"] = record["hands"][:1]
    record["hands"][0]["moves"] = ["draw", "discard C2"] * 75_000  # 150,000 moves, 1.9 MB
    body = json.dumps(record).encode()
    assert 1_500_000 < len(body) < 2_000_000
    status, code, message = error_of(client.post("/api/replays", content=body))
    assert (status, code) == (413, "too_large") and f"{len(body)} bytes" in message
    record["hands"][0]["moves"] = ["draw", "discard C2"] * 5_000  # 10,000 moves, 130 KB
    reply = client.post("/api/replays", content=json.dumps(record).encode())
    status, code, message = error_of(reply)
    assert (status, code) == (422, "record")
    assert "10001 frames" in message and "at most 5000" in message
    bad = client.post("/api/replays", content=b"\xff\xfe")
    assert error_of(bad)[:2] == (422, "record")


def test_a_table_match_longer_than_the_bound_is_not_replayed(tmp_path: Path) -> None:
    with running(edge_settings(tmp_path, max_record_frames=10)) as c:
        created = create(c, [{"kind": "bot", "level": "greedy"},
                             {"kind": "bot", "level": "greedy"}], options={"target_score": 10})
        table = created["table"]["id"]
        deadline = time.monotonic() + 60
        while c.get(f"/api/tables/{table}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.05)
        assert c.get(f"/api/tables/{table}/matches/0/record").status_code == 200
        status, code, message = error_of(c.get(f"/api/tables/{table}/matches/0/replay"))
        assert (status, code) == (422, "record") and "at most 10" in message


def test_the_default_turn_limit_is_the_rules_own_valve() -> None:
    """RULES §1.10: the valve is 1,000 turns in every preset; a table made without options
    gets that limit, not a longer one of the server's."""
    limit = Settings().max_turns_per_hand
    for name in all_rule_set_names():
        assert variant_for(name).rules_from_options(name, {}).max_turns_per_hand == limit
        assert table_rules(name, {}, limit).max_turns_per_hand == limit


@pytest.mark.parametrize(("options", "quoted"), [
    ({"num_hands": 10**9}, "options.num_hands: 1000000000 is out of range: allowed 1 to 50"),
    ({"num_hands": 1e9}, "options.num_hands: 1000000000.0 is out of range"),
    ({"target_score": 10**12}, "options.target_score: 1000000000000 is out of range: "
                               "allowed 1 to 10000"),
    ({"target_score": {"2": 99999}}, "options.target_score: 99999 is out of range"),
    ({"max_turns_per_hand": None}, "options.max_turns_per_hand: None is out of range: "
                                   "allowed 1 to 150"),
    ({"max_turns_per_hand": 10**6}, "options.max_turns_per_hand: 1000000 is out of range"),
    ({"hand_size": {str(n): 7 for n in range(60)}}, "options.hand_size: 60 entries"),
])
def test_option_bounds(client: TestClient, options: dict[str, Any], quoted: str) -> None:
    reply = client.post("/api/tables", json={**BOT_TABLE, "options": options})
    status, code, message = error_of(reply)
    assert (status, code) == (400, "bad_request") and quoted in message
    assert client.get("/api/tables").json() == []  # nothing was made


def test_huge_numbers_and_ids_in_paths_are_4xx(client: TestClient) -> None:
    table = create(client, humans("Ann", "Bob"))["table"]["id"]
    for path in (f"/api/tables/{table}/matches/{10**30}/record",
                 f"/api/tables/{table}/matches/{2**31}/replay",
                 f"/api/tables/{table}/matches/-1/record"):
        status, code, message = error_of(client.get(path))
        assert (status, code) == (400, "bad_request"), path
        assert "match_no" in message and "got" in message
    assert error_of(client.get(f"/api/tables/{'x' * 500}"))[:2] == (400, "bad_request")
    assert error_of(client.get(f"/api/tables/{table}/matches/7/record"))[:2] == \
        (404, "not_found")


def test_storage_errors_are_503(tmp_path: Path) -> None:
    settings = edge_settings(tmp_path)
    record = (Path(__file__).parent / "data" / "golden" / "basic_2p.rummy.json").read_bytes()
    with running(settings) as c:
        engine = create_engine(settings.database_url)
        with engine.begin() as db:  # the database loses a table under the server
            db.execute(text("DROP TABLE replays"))
        engine.dispose()
        status, code, message = error_of(c.post("/api/replays", content=record))
        assert (status, code) == (503, "unavailable") and "storage" in message
        assert c.get("/api/health").status_code == 200


# -- private tables -------------------------------------------------------------------

def test_private_tables_are_not_in_the_lobby(client: TestClient) -> None:
    friends = create(client, humans("Ann", "Bob"))["table"]
    bots = create(client, BOT_TABLE["seats"])["table"]
    open_seat = create(client, [{"kind": "human", "name": "Cy"}, {"kind": "human"}])["table"]
    listed = create(client, humans("Dee", "Eve"), private=False)["table"]
    hidden = create(client, [{"kind": "human"}, {"kind": "human"}], private=True)["table"]
    assert friends["private"] and bots["private"] and hidden["private"]
    assert not open_seat["private"] and not listed["private"]
    lobby = {t["id"] for t in client.get("/api/tables").json()}
    assert lobby == {open_seat["id"], listed["id"]}
    # a private table is still reached by its id (spectators) and joined by link
    assert client.get(f"/api/tables/{hidden['id']}").json()["private"] is True
    assert client.post(f"/api/tables/{hidden['id']}/join", json={"name": "Fay"}).status_code \
        == 200


def test_private_tables_stay_private_after_a_restart(tmp_path: Path) -> None:
    settings = edge_settings(tmp_path)
    with running(settings) as c:
        hidden = create(c, [{"kind": "human"}, {"kind": "human"}], private=True)["table"]
        shown = create(c, [{"kind": "human"}, {"kind": "human"}])["table"]
    with running(settings) as c:
        assert {t["id"] for t in c.get("/api/tables").json()} == {shown["id"]}
        assert c.get(f"/api/tables/{hidden['id']}").json()["private"] is True


# -- browser protections --------------------------------------------------------------

def test_security_headers_on_pages_and_api(client: TestClient) -> None:
    for path in ("/", "/js/main.js", "/api/health", "/api/tables/nope"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "default-src 'self'" in policy and "object-src 'none'" in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"


def test_frame_ancestors_is_configurable(tmp_path: Path) -> None:
    with running(edge_settings(tmp_path, frame_ancestors="https://portal.test")) as c:
        headers = c.get("/").headers
        assert "frame-ancestors https://portal.test" in headers["content-security-policy"]
        assert "x-frame-options" not in headers


def test_api_docs_load_no_script(client: TestClient) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<script" not in page.text.lower() and "cdn" not in page.text.lower()
    assert "POST /api/tables" in page.text and "CreateTable" in page.text
    assert client.get("/api/openapi.json").json()["paths"]


def test_posts_from_a_foreign_origin_are_refused(client: TestClient) -> None:
    host = {"host": "rummy.test"}
    foreign = client.post("/api/tables", json=BOT_TABLE,
                          headers={**host, "origin": "https://evil.test"})
    status, code, message = error_of(foreign)
    assert (status, code) == (403, "bad_origin") and "evil.test" in message
    same = client.post("/api/tables", json=BOT_TABLE,
                       headers={**host, "origin": "http://rummy.test"})
    assert same.status_code == 201
    assert client.post("/api/tables", json=BOT_TABLE).status_code == 201  # no Origin: no page


def test_websocket_origin_check(tmp_path: Path) -> None:
    settings = edge_settings(tmp_path, allowed_origins="https://friend.test")
    with running(settings) as c:
        table = create(c, humans("Ann", "Bob"))["table"]["id"]
        hello = {"type": "hello", "table": table, "version": None}
        with pytest.raises(WebSocketDisconnect) as refused, \
                c.websocket_connect("/ws", headers={"origin": "https://evil.test"}) as ws:
            ws.receive_json()
        assert refused.value.code == 1008
        for origin in ("https://friend.test", "http://testserver"):  # allowed, same origin
            with c.websocket_connect("/ws", headers={"origin": origin}) as ws:
                ws.send_json(hello)
                assert ws.receive_json()["type"] == "welcome"


# -- WebSocket limits and close codes -------------------------------------------------

def closed(ws: Any) -> WebSocketDisconnect:
    """Read until the server closes ``ws``; the close."""
    try:
        while True:
            ws.receive_json()
    except WebSocketDisconnect as close:
        return close


def test_hello_timeout_closes_with_its_reason(tmp_path: Path) -> None:
    with running(edge_settings(tmp_path, hello_seconds=0.3)) as c:
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "ping"})  # not a hello: refused, the clock runs on
            assert ws.receive_json()["code"] == "not_hello"
            close = closed(ws)
        assert close.code == 1008 and close.reason == "no hello within 0.3 s"


def test_connection_caps_per_address_and_in_all(tmp_path: Path) -> None:
    settings = edge_settings(tmp_path, max_connections_per_address=2, max_connections=3)
    with peers(settings) as c:
        table = create(c, humans("Ann", "Bob"))["table"]["id"]
        hello = {"type": "hello", "table": table, "version": None}
        one, two = at("10.2.0.1"), at("10.2.0.2")
        with c.websocket_connect("/ws", headers=one) as a, \
                c.websocket_connect("/ws", headers=one) as b:
            for ws in (a, b):
                ws.send_json(hello)
                assert ws.receive_json()["type"] == "welcome"
            with c.websocket_connect("/ws", headers=one) as third:
                close = closed(third)
            assert close.code == 1013 and "10.2.0.1 has 2 connections open" in close.reason
            with c.websocket_connect("/ws", headers=two) as c3:
                c3.send_json(hello)
                assert c3.receive_json()["type"] == "welcome"
                with c.websocket_connect("/ws", headers=two) as c4:
                    close = closed(c4)
                assert close.code == 1013 and "the server has 3 connections" in close.reason
        with c.websocket_connect("/ws", headers=one) as again:  # closed ones are not counted
            again.send_json(hello)
            assert again.receive_json()["type"] == "welcome"


def test_close_codes_say_the_reason(tmp_path: Path) -> None:
    settings = edge_settings(tmp_path, rate_per_second=1.0, rate_burst=2, max_strikes=5)
    with running(settings) as c:
        tokens = create(c, humans("Ann", "Bob"))["tokens"]
        with c.websocket_connect("/ws") as ws:
            player = Player(ws)
            player.hello(token=tokens[0]["token"])
            player.send({"type": "leave"})
            leave = closed(ws)
        assert (leave.code, leave.reason) == (1000, "left the seat")
        with c.websocket_connect("/ws") as ws:
            for _ in range(30):
                ws.send_json({"type": "ping"})
            flood = closed(ws)
        assert flood.code == 1008 and flood.reason.startswith("rate limit")


def test_strikes_fade_so_an_occasional_burst_is_not_cut_off(tmp_path: Path) -> None:
    # two tokens a second: the second ping of a pair is refused unless 0.5 s pass
    settings = edge_settings(tmp_path, rate_per_second=2.0, rate_burst=1, max_strikes=3)
    with running(settings) as c:
        table = create(c, humans("Ann", "Bob"))["table"]["id"]
        with c.websocket_connect("/ws") as ws:
            player = Player(ws)
            player.hello(table=table)
            player.until("seats")
            for _ in range(5):  # five strikes in all, one a burst: they fade in between
                time.sleep(1.1)
                ws.send_json({"type": "ping"})
                ws.send_json({"type": "ping"})
                replies = [ws.receive_json() for _ in range(2)]
                assert [r["type"] for r in replies] == ["pong", "error"]
                assert replies[1]["code"] == "rate_limited"
            time.sleep(1.1)
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"  # still open


def test_a_replay_over_the_memory_limit_is_refused_and_the_server_lives_on(
        tmp_path: Path) -> None:
    golden = Path(__file__).parent / "data" / "golden"
    long, short = ((golden / f"{name}.rummy.json").read_bytes()
                   for name in ("contract_3p", "basic_2p"))
    # the worker may grow by some 40 MB: checking a record fits, its 2,211 frames
    # (about 50 MB of objects) do not
    with running(edge_settings(tmp_path, replay_memory_mb=80)) as c:
        long_id = c.post("/api/replays", content=long).json()["id"]
        short_id = c.post("/api/replays", content=short).json()["id"]
        status, code, message = error_of(c.get(f"/api/replays/{long_id}?seat=all"))
        assert (status, code) in ((413, "too_large"), (503, "unavailable"))
        assert "memory" in message
        assert len(c.get(f"/api/replays/{short_id}").json()["frames"]) == 134  # lives on
