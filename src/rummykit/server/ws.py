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
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

from rummykit.server.errors import ServerError
from rummykit.server.hub import Hub
from rummykit.server.identity import session_of
from rummykit.server.outbox import NORMAL, POLICY, SERVER_ERROR, Connection
from rummykit.server.ratelimit import Strikes, TokenBucket
from rummykit.server.table import SPECTATOR, LiveTable
from rummykit.server.wire import (
    BATCHES,
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


def _load(text: str) -> dict[str, Any]:
    """A client message's JSON object (with a string ``type``), or :class:`ServerError`."""
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError):
        raise ServerError("bad_json", "the message is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ServerError("bad_message", 'expected a JSON object with a "type"')
    return data


def _validated(data: dict[str, Any]) -> ClientMessage:
    """The message ``data`` (from :func:`_load`) says, or :class:`ServerError` saying what
    is wrong with it."""
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


def parse(text: str) -> ClientMessage:
    """A client message, or :class:`ServerError` saying what is wrong with it."""
    return _validated(_load(text))


async def _receive(websocket: WebSocket, deadline: float | None) -> Message:
    """The next frame; before ``hello`` (``deadline`` set) only until the deadline."""
    if deadline is None:
        return await websocket.receive()
    return await asyncio.wait_for(websocket.receive(), max(0.0, deadline - time.monotonic()))


@router.websocket("/ws")
async def socket(websocket: WebSocket) -> None:
    """Serve one client until it leaves, from a task of its own: the client's messages
    and commits wake that task alone, not the two dozen ASGI layers awaiting it."""
    await asyncio.create_task(serve_client(websocket))


async def serve_client(websocket: WebSocket) -> None:
    """Accept one client's connection and act on its messages until it leaves."""
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
            ack: int | None = None  # a move's, for its refusal
            try:
                data = _load(text)
                if table is not None and data["type"] == "move" and _plain_move(data):
                    ack = data["ack"]  # the common case: no message object made
                    await move(hub, conn, table, data["move"], data["version"], data["ack"])
                else:
                    message = _validated(data)
                    ack = message.ack if isinstance(message, MoveIn) else None
                    table = await handle(hub, conn, table, message)
            except ServerError as error:
                conn.send(error_text(error.code, error.message, ack))
            except SQLAlchemyError:
                log.exception("storage failed")
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
        await move(hub, conn, table, message.move, message.version, message.ack)
    elif isinstance(message, Rematch):
        await hub.vote_rematch(table, seat)
    elif isinstance(message, Resign):
        await hub.resign(table, seat)
    elif isinstance(message, Leave):
        await hub.leave(table, seat)
        raise _Leave
    return table


async def move(hub: Hub, conn: Connection, table: LiveTable, text: str, version: int,
               ack: int) -> None:
    """Make the connection's seat's move; its events reach every viewer, then the ack
    comes (in the same frame as the mover's event in protocol 2)."""
    seat = conn.recipient
    if seat == SPECTATOR:
        raise ServerError("spectator", "spectators cannot play")
    await hub.take_back(table, seat)
    committed = await hub.move(table, seat, text, version)
    conn.send(f'{{"type":"ack","ack":{ack},"version":{committed}}}')  # an Ack


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
    conn.batching = message.protocol >= BATCHES
    await hub.connect(conn, table, message.version)
    return table
