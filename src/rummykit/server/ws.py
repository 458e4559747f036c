"""The WebSocket endpoint ``/ws``: one connection per seat or spectator.

The first message is ``hello``; then moves, pings, resync requests, rematch votes,
``resign`` and ``leave``. Every message is parsed here; anything bad gets an ``error``
with a code and the connection stays open, except when the client floods, says no
``hello`` in time or does not read what it is sent; each close has a code and a reason
that say which (docs/protocol.md, Close codes).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect, WebSocketState

from rummykit.server.errors import ServerError
from rummykit.server.hub import Hub
from rummykit.server.identity import session_of
from rummykit.server.ratelimit import Strikes, TokenBucket
from rummykit.server.table import SPECTATOR, LiveTable
from rummykit.server.wire import (
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    ClientMessage,
    ErrorOut,
    Hello,
    Leave,
    MoveIn,
    Ping,
    Pong,
    Rematch,
    Resign,
    SyncIn,
)

router = APIRouter()
log = logging.getLogger("rummykit.server")
#: messages queued for a client that does not read them before it is disconnected
MAX_QUEUE = 2000
#: seconds a closing connection has to take the messages still queued for it
FLUSH_SECONDS = 5.0
#: close codes (RFC 6455): a normal close, a policy breach (the reason says which), a
#: server failure, the table served elsewhere now (the client reconnects)
NORMAL, POLICY, SERVER_ERROR, MOVED = 1000, 1008, 1011, 1012


@dataclass(frozen=True, slots=True)
class Close:
    """An outbox entry: close the socket with this code and reason (after what was
    queued before it)."""

    code: int
    reason: str


class Connection:
    """One WebSocket: an outbox drained by a writer task, in order."""

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.table_id = ""
        self.recipient = SPECTATOR
        self.queue: asyncio.Queue[str | Close] = asyncio.Queue()
        self.closing = False
        self.writer = asyncio.create_task(self._write())

    def drop(self) -> None:
        """Close the connection (code 1012): the table is served elsewhere now and the
        client reconnects."""
        self.end(MOVED, "the table moved: reconnect")

    def send(self, text: str) -> None:
        """Queue one message; a client too far behind is cut off."""
        if self.closing:
            return
        if self.queue.qsize() > MAX_QUEUE:
            self.end(POLICY, f"too far behind: more than {MAX_QUEUE} messages unread")
            return
        self.queue.put_nowait(text)

    def end(self, code: int, reason: str) -> None:
        """Close after the messages already queued (the first reason given wins)."""
        if not self.closing:
            self.closing = True
            self.queue.put_nowait(Close(code, reason))

    async def _write(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, Close):
                    if self.socket.application_state != WebSocketState.DISCONNECTED:
                        await self.socket.close(item.code, item.reason)
                    return
                await self.socket.send_text(item)
        except Exception:  # the peer went away; the reader notices
            return

    async def close(self, code: int = NORMAL, reason: str = "") -> None:
        """Flush the queue, then close with ``code`` and ``reason``; a peer that does not
        take the rest within ``FLUSH_SECONDS`` is dropped."""
        self.end(code, reason)
        await self.finish()

    async def finish(self) -> None:
        """Wait for the writer to end (at most ``FLUSH_SECONDS``, then stop it)."""
        done, _ = await asyncio.wait({self.writer}, timeout=FLUSH_SECONDS)
        if not done:
            self.writer.cancel()
            await asyncio.gather(self.writer, return_exceptions=True)


def error_text(code: str, message: str, ack: int | None = None) -> str:
    """An ``error`` message."""
    return ErrorOut(code=code, message=message, ack=ack).model_dump_json()


def ack_of(text: str | None, limit: int) -> int | None:
    """The ``ack`` of a move message not acted on (rate-limited), so that its error can
    name it; None for anything else (not a move, not JSON, longer than ``limit``).

    >>> ack_of('{"type": "move", "move": "draw", "version": 3, "ack": 7}', 4096)
    7
    >>> ack_of('{"type": "ping", "ack": 7}', 4096) is None
    True
    """
    if text is None or len(text) > limit:
        return None
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("type") != "move":
        return None
    ack = data.get("ack")
    return ack if type(ack) is int and 0 <= ack <= 2**53 else None


#: the fields of a move message
_MOVE_FIELDS = frozenset({"type", "move", "version", "ack"})


def _plain_move(data: dict[str, Any]) -> bool:
    """Whether ``data`` is a move message exactly as :class:`MoveIn` asks (anything else,
    even one it would accept after conversion, goes through its validation)."""
    if data.keys() != _MOVE_FIELDS:
        return False
    move, version, ack = data["move"], data["version"], data["ack"]
    return (type(move) is str and 1 <= len(move) <= 300 and type(version) is int
            and version >= 0 and type(ack) is int and 0 <= ack <= 2**53)


def parse(text: str) -> ClientMessage:
    """A client message, or :class:`ServerError` saying what is wrong with it."""
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError):
        raise ServerError("bad_json", "the message is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ServerError("bad_message", 'expected a JSON object with a "type"')
    if data["type"] == "move" and _plain_move(data):  # the common case, checked by hand
        return MoveIn.model_construct(type="move", move=data["move"],
                                      version=data["version"], ack=data["ack"])
    if data["type"] not in CLIENT_TYPES:
        raise ServerError("unknown_type", f"unknown message type {data['type'][:40]!r}: "
                          f"expected one of {', '.join(CLIENT_TYPES)}")
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ServerError("bad_message", f"{where}: {first['msg']}") from None


async def _receive(websocket: WebSocket, deadline: float | None) -> Message:
    """The next frame; before ``hello`` (``deadline`` set) only until the deadline."""
    if deadline is None:
        return await websocket.receive()
    return await asyncio.wait_for(websocket.receive(), max(0.0, deadline - time.monotonic()))


@router.websocket("/ws")
async def socket(websocket: WebSocket) -> None:
    """Serve one client until it leaves."""
    hub: Hub = websocket.app.state.hub
    settings = hub.settings
    await websocket.accept()
    conn = Connection(websocket)
    now = time.monotonic()
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst, now)
    strikes = Strikes(fade_per_second=1.0)
    table: LiveTable | None = None
    try:
        while not conn.closing:
            deadline = None if table is not None else now + settings.hello_seconds
            try:
                frame = await _receive(websocket, deadline)
            except TimeoutError:
                await conn.close(POLICY, f"no hello within {settings.hello_seconds:g} s")
                break
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if not bucket.take(time.monotonic()):
                if strikes.add(time.monotonic()) > settings.max_strikes:
                    await conn.close(POLICY, "rate limit: too many messages for too long")
                    break
                conn.send(error_text("rate_limited", "too many messages: slow down",
                                     ack_of(text, settings.max_message_bytes)))
                continue
            if text is None:
                conn.send(error_text("bad_message", "send JSON in text frames"))
                continue
            if len(text) > settings.max_message_bytes or \
                    len(text.encode()) > settings.max_message_bytes:
                conn.send(error_text("too_large", "the message is longer than "
                                     f"{settings.max_message_bytes} bytes"))
                continue
            message: ClientMessage | None = None
            try:
                message = parse(text)
                table = await handle(hub, conn, table, message)
            except ServerError as error:
                ack = message.ack if isinstance(message, MoveIn) else None
                conn.send(error_text(error.code, error.message, ack))
            except SQLAlchemyError:
                log.exception("storage failed")
                ack = message.ack if isinstance(message, MoveIn) else None
                conn.send(error_text("unavailable", "storage is unavailable; nothing was "
                                     "changed", ack))
            except _Leave:
                await conn.close(NORMAL, "left the seat")
                break
    except WebSocketDisconnect:
        pass
    except Exception:  # never a stack trace to the client
        log.exception("websocket handler failed")
        conn.send(error_text("internal", "internal error"))
        await conn.close(SERVER_ERROR, "internal error")
    finally:
        hub.disconnect(conn)
        conn.end(NORMAL, "")
        await conn.finish()


class _Leave(Exception):
    """The client left its seat: close the connection."""


async def handle(hub: Hub, conn: Connection, table: LiveTable | None,
                 message: ClientMessage) -> LiveTable:
    """Act on one parsed message; returns the connection's table."""
    if isinstance(message, Hello):
        if table is not None:
            raise ServerError("bad_message", "hello was already said")
        return await hello(hub, conn, message)
    if table is None:
        raise ServerError("not_hello", 'the first message must be "hello"')
    seat = conn.recipient
    if isinstance(message, Ping):
        conn.send(Pong().model_dump_json())
    elif isinstance(message, SyncIn):
        await hub.resync(conn, table)
    elif seat == SPECTATOR:
        raise ServerError("spectator", "spectators cannot play")
    elif isinstance(message, MoveIn):
        await hub.take_back(table, seat)
        version = await hub.move(table, seat, message.move, message.version)
        conn.send(f'{{"type":"ack","ack":{message.ack},"version":{version}}}')  # an Ack
    elif isinstance(message, Rematch):
        await hub.vote_rematch(table, seat)
    elif isinstance(message, Resign):
        await hub.resign(table, seat)
    elif isinstance(message, Leave):
        await hub.leave(table, seat)
        raise _Leave
    return table


async def hello(hub: Hub, conn: Connection, message: Hello) -> LiveTable:
    """Seat a player by token or a spectator by table id."""
    if message.token is not None:
        table, seat = await hub.by_token(message.token, message.table)
        conn.recipient = seat
        session = await session_of(conn.socket, hub)  # the browser's player sits there
        if session is not None:
            await hub.bind_player(table, seat, session.player.id)
    elif message.table is not None:
        table = await hub.get(message.table)
        conn.recipient = SPECTATOR
    else:
        raise ServerError("bad_message", "hello needs a token (a player) or a table "
                          "(a spectator)")
    conn.table_id = table.id
    await hub.connect(conn, table, message.version)
    return table
