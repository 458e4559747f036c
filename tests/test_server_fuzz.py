"""Protocol fuzz test (Hypothesis): random and malformed WebSocket messages get an error
with a known code or a proper reply, the connection stays usable, nothing changes unless
a move was acknowledged, and no reply carries a stack trace."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.server.errors import STATUS
from test_server_support import Player, create, humans, running, settings_for

REPLIES = {"error", "event", "ack", "sync", "seats", "pong"}
SCALARS = st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(
    max_size=30)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
MOVE_WORDS = st.sampled_from(["draw", "take", "meld", "lay", "on", "discard", "swap", "low",
                              "high", "/", "H7", "JK", "JK=H6", "SA", "D9", "2", "99", "x"])
MOVE_TEXT = st.lists(MOVE_WORDS, min_size=1, max_size=5).map(" ".join) | st.text(max_size=40)
TYPED = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "move", "ping", "sync", "rematch", "dance", ""])},
    optional={"move": MOVE_TEXT | SCALARS, "version": st.integers(-3, 10**6) | SCALARS,
              "ack": st.integers(-3, 2**60) | SCALARS, "token": st.text(max_size=20) | SCALARS,
              "table": SCALARS, "extra": JSON})
FRAMES = (st.text(max_size=200) | JSON.map(json.dumps) | TYPED.map(json.dumps)
          | st.integers(4000, 9000).map(lambda n: '{"type": "ping", "x": "' + "y" * n + '"}'))


def check_reply(message: dict[str, Any]) -> None:
    assert message["type"] in REPLIES, message
    if message["type"] == "error":
        assert message["code"] in STATUS and message["message"]
        assert "Traceback" not in message["message"] and "File " not in message["message"]


def test_random_messages_are_refused_cleanly(tmp_path: Path) -> None:
    with running(settings_for("sqlite", tmp_path)) as client:
        created = create(client, humans("A", "B"), seed=3)
        table_id = created["table"]["id"]
        tokens = [t["token"] for t in created["tokens"]]
        with client.websocket_connect("/ws") as socket, \
                client.websocket_connect("/ws") as raw:
            seat = Player(socket)
            seat.hello(token=tokens[0])
            seat.until("sync")
            raw.send_text(json.dumps({"type": "hello", "table": table_id}))  # a spectator

            @settings(max_examples=150, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])
            @given(frame=FRAMES, spectator=st.booleans())
            def fuzz(frame: str, spectator: bool) -> None:
                before = client.get(f"/api/tables/{table_id}").json()["version"]
                target = raw if spectator else socket
                target.send_text(frame)
                target.send_text('{"type": "ping"}')
                acked = False
                while True:
                    message = target.receive_json()
                    if message["type"] in ("welcome",):
                        continue
                    check_reply(message)
                    acked |= message["type"] == "ack"
                    if message["type"] == "pong":
                        break
                after = client.get(f"/api/tables/{table_id}").json()
                assert after["version"] == before or acked
                assert after["status"] == "playing"

            fuzz()
