"""Protocol 2 (docs/protocol.md, Batches): the messages queued together for a client go in
one frame, as a JSON array; each viewer learns exactly what protocol 1 tells it, and a
move costs one frame per viewer. Against the real application on SQLite."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from rummykit.server.outbox import BATCH_MOST, batches
from test_server_support import choose, create, humans, running, settings_for

#: moves played in each run (a basic hand is over well before: a deal follows in the run)
MOVES = 120


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running(settings_for("sqlite", tmp_path)) as c:
        yield c


class Viewer:
    """A raw client: every frame as it came, and the messages in order."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        self.frames: list[Any] = []
        self.messages: list[dict[str, Any]] = []

    def frame(self) -> list[dict[str, Any]]:
        """The next frame's messages."""
        parsed = json.loads(self.socket.receive_text())
        self.frames.append(parsed)
        got = parsed if isinstance(parsed, list) else [parsed]
        self.messages += got
        return got

    def until(self, kind: str) -> dict[str, Any]:
        """Read frames until a message of type ``kind``; returns it."""
        while True:
            found = [m for m in self.frame() if m["type"] == kind]
            if found:
                return found[-1]


def play(client: TestClient, protocol: int | None
         ) -> tuple[list[Viewer], list[list[int]]]:
    """Two seats and a spectator on a seeded table, each speaking ``protocol`` (None: says
    none); the seats play ``MOVES`` moves. Returns the viewers and, per move, how many
    frames each viewer got for it."""
    created = create(client, humans("Ann", "Bob"), seed=7)
    table, tokens = created["table"]["id"], [t["token"] for t in created["tokens"]]
    extra = {} if protocol is None else {"protocol": protocol}
    per_move: list[list[int]] = []
    with ExitStack() as stack:
        viewers = []
        for who in ({"token": tokens[0]}, {"token": tokens[1]}, {"table": table}):
            socket = stack.enter_context(client.websocket_connect("/ws"))
            socket.send_json({"type": "hello", "version": None, **who, **extra})
            viewer = Viewer(socket)
            viewer.until("sync")
            viewers.append(viewer)
        for arrivals, viewer in zip((3, 2, 1), viewers, strict=True):
            while sum(m["type"] == "seats" for m in viewer.messages) < arrivals:
                viewer.frame()  # each arrival is told to everyone connected
        rng = random.Random(3)
        for ack in range(1, MOVES + 1):
            latest = [last_state(v) for v in viewers]
            version = latest[0]["version"]
            mover = next(i for i in (0, 1) if latest[i]["legal"])
            view = latest[mover]["view"]
            top = view["discard"][-1] if view["discard"] else None
            move = choose(latest[mover]["legal"], rng, view["hand"], top)
            viewers[mover].socket.send_json({"type": "move", "move": move,
                                             "version": version, "ack": ack})
            counts = [0, 0, 0]
            while True:  # protocol 1: the events, then the ack, each in a frame
                counts[mover] += 1
                got = viewers[mover].frame()
                if got[-1]["type"] == "ack":
                    break
            assert got[-1] == {"type": "ack", "ack": ack, "version": version + 1}
            now = last_state(viewers[mover])["version"]
            for other in (i for i in range(3) if i != mover):
                while last_state(viewers[other])["version"] < now:
                    counts[other] += 1
                    viewers[other].frame()
            per_move.append(counts)
    return viewers, per_move


def last_state(viewer: Viewer) -> dict[str, Any]:
    """The viewer's last event or sync."""
    return next(m for m in reversed(viewer.messages) if m["type"] in ("event", "sync"))


def test_a_move_is_one_frame_per_viewer_and_tells_the_same(client: TestClient) -> None:
    batched, frames_2 = play(client, 2)
    single, frames_1 = play(client, None)
    for two, one in zip(batched, single, strict=True):
        def told(viewer: Viewer) -> list[dict[str, Any]]:  # ids and tokens differ by table
            return [m for m in viewer.messages if m["type"] in ("event", "ack")]
        assert told(two) == told(one)  # each viewer learns exactly the same
        assert all(isinstance(f, dict) for f in one.frames)  # protocol 1: never an array
    assert all(counts == [1, 1, 1] for counts in frames_2)
    deals = sum(1 for m in batched[2].messages if m["type"] == "event" and m["kind"] == "deal")
    assert deals >= 2  # a hand ended within the run: its move and the deal in one frame
    ended = [f for f in batched[2].frames if isinstance(f, list)
             and [m["kind"] for m in f if m["type"] == "event"][-2:] == ["move", "deal"]]
    assert ended
    # protocol 1: the mover got its event and its ack apart (at least two frames)
    assert all(counts[0] + counts[1] >= 3 for counts in frames_1)
    # the welcome, the sync and the seats of a hello in one frame
    first = batched[0].frames[0]
    assert isinstance(first, list) and [m["type"] for m in first][:2] == ["welcome", "sync"]


def test_a_client_that_asks_for_a_later_protocol_gets_batches(client: TestClient) -> None:
    created = create(client, humans("Ann", "Bob"))
    table = created["table"]["id"]
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"type": "hello", "table": table, "version": None, "protocol": 9})
        first = json.loads(socket.receive_text())
        assert [m["type"] for m in first][:2] == ["welcome", "sync"]
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"type": "hello", "table": table, "version": None, "protocol": 0})
        error = socket.receive_json()
        assert error["type"] == "error" and error["code"] == "bad_message"
        assert "protocol" in error["message"]


def test_batches_are_bounded() -> None:
    texts = [json.dumps({"n": n}) for n in range(BATCH_MOST * 2 + 1)]
    frames = batches(texts)
    assert len(frames) == 3
    flat = [m for f in frames for m in (json.loads(f) if f.startswith("[") else [json.loads(f)])]
    assert flat == [{"n": n} for n in range(BATCH_MOST * 2 + 1)]
    big = ["x" * 70000, "y" * 10]
    assert batches([json.dumps(t) for t in big]) == [json.dumps(big[0]), json.dumps(big[1])]
