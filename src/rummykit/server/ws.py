"""The WebSocket endpoint ``/ws``: one connection per seat or spectator.

The first message is ``hello``; then moves, pings, resync requests, rematch votes and
``leave``. Every message is parsed here; anything bad gets an ``error`` with a code and the
connection stays open, except when the client floods or its first message is unusable.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from rummykit.server.errors import ServerError
from rummykit.server.hub import Hub
from rummykit.server.ratelimit import TokenBucket
from rummykit.server.table import SPECTATOR, LiveTable
from rummykit.server.wire import (
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    Ack,
    ClientMessage,
    ErrorOut,
    Hello,
    Leave,
    MoveIn,
    Ping,
    Pong,
    Rematch,
    SyncIn,
)

router = APIRouter()
log = logging.getLogger("rummykit.server")
#: a client that keeps going over the rate limit this many times is disconnected
MAX_STRIKES = 100
#: messages queued for a client that does not read them before it is disconnected
MAX_QUEUE = 2000


class Connection:
    """One WebSocket: an outbox drained by a writer task, in order."""

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.table_id = ""
        self.recipient = SPECTATOR
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closing = (1008, "too far behind")
        self.writer = asyncio.create_task(self._write())

    def drop(self) -> None:
        """Close the connection (code 1012): the table is served elsewhere now and the
        client reconnects."""
        self.closing = (1012, "the table moved: reconnect")
        self.queue.put_nowait(None)

    def send(self, text: str) -> None:
        """Queue one message; a client too far behind is cut off."""
        if self.queue.qsize() > MAX_QUEUE:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def _write(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    await self.socket.close(*self.closing)
                    return
                await self.socket.send_text(text)
        except Exception:  # the peer went away; the reader notices
            return

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """Flush the queue, then close."""
        self.queue.put_nowait(None)
        await asyncio.gather(self.writer, return_exceptions=True)
        if self.socket.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await self.socket.close(code, reason)


def error_text(code: str, message: str, ack: int | None = None) -> str:
    """An ``error`` message."""
    return ErrorOut(code=code, message=message, ack=ack).model_dump_json()


def parse(text: str) -> ClientMessage:
    """A client message, or :class:`ServerError` saying what is wrong with it."""
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError):
        raise ServerError("bad_json", "the message is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ServerError("bad_message", 'expected a JSON object with a "type"')
    if data["type"] not in CLIENT_TYPES:
        raise ServerError("unknown_type", f"unknown message type {data['type'][:40]!r}: "
                          f"expected one of {', '.join(CLIENT_TYPES)}")
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ServerError("bad_message", f"{where}: {first['msg']}") from None


@router.websocket("/ws")
async def socket(websocket: WebSocket) -> None:
    """Serve one client until it leaves."""
    hub: Hub = websocket.app.state.hub
    settings = hub.settings
    await websocket.accept()
    conn = Connection(websocket)
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst, time.monotonic())
    strikes = 0
    table: LiveTable | None = None
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            if not bucket.take(time.monotonic()):
                strikes += 1
                if strikes > MAX_STRIKES:
                    await conn.close(1008, "rate limit")
                    break
                conn.send(error_text("rate_limited", "too many messages: slow down"))
                continue
            text = frame.get("text")
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
            except _Leave:
                await conn.close(1000, "left the seat")
                break
    except WebSocketDisconnect:
        pass
    except Exception:  # never a stack trace to the client
        log.exception("websocket handler failed")
        conn.send(error_text("internal", "internal error"))
        await conn.close(1011, "internal error")
    finally:
        hub.disconnect(conn)
        conn.queue.put_nowait(None)


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
        conn.send(Ack(ack=message.ack, version=version).model_dump_json())
    elif isinstance(message, Rematch):
        await hub.vote_rematch(table, seat)
    elif isinstance(message, Leave):
        await hub.leave(table, seat)
        raise _Leave
    return table


async def hello(hub: Hub, conn: Connection, message: Hello) -> LiveTable:
    """Seat a player by token or a spectator by table id."""
    if message.token is not None:
        table, seat = await hub.by_token(message.token, message.table)
        conn.recipient = seat
    elif message.table is not None:
        table = await hub.get(message.table)
        conn.recipient = SPECTATOR
    else:
        raise ServerError("bad_message", "hello needs a token (a player) or a table "
                          "(a spectator)")
    conn.table_id = table.id
    await hub.connect(conn, table, message.version)
    return table
