"""A WebSocket's outbox: the messages queued for one client, written in order by one
writer task.

A client that said ``"protocol": 2`` in its ``hello`` gets the messages queued together
(in the same turn of the event loop: a move's events and its ack, a hand's last move and
the next deal, the backlog of a reconnect) in one text frame, as a JSON array of those
messages (docs/protocol.md, Batches): one socket write instead of one a message. Protocol
1 clients get one message a frame, as before.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from starlette.websockets import WebSocket, WebSocketState

from rummykit.server.table import SPECTATOR

#: messages queued for a client that does not read them before it is disconnected
MAX_QUEUE = 2000
#: seconds a closing connection has to take the messages still queued for it
FLUSH_SECONDS = 5.0
#: a batch holds at most this many messages, and more only while under BATCH_CHARS
BATCH_MOST = 64
BATCH_CHARS = 65536
#: close codes (RFC 6455): a normal close, a policy breach (the reason says which), a
#: server failure, the table served elsewhere now (the client reconnects)
NORMAL, POLICY, SERVER_ERROR, MOVED = 1000, 1008, 1011, 1012


@dataclass(frozen=True, slots=True)
class Close:
    """An outbox entry: close the socket with this code and reason (after what was
    queued before it)."""

    code: int
    reason: str


def batches(texts: list[str]) -> list[str]:
    """The frames that carry ``texts`` (JSON messages, in order): a lone message as it is,
    several as JSON arrays of at most :data:`BATCH_MOST` messages, each cut once it passes
    :data:`BATCH_CHARS` characters.

    >>> batches(['{"a":1}'])
    ['{"a":1}']
    >>> batches(['{"a":1}', '{"b":2}'])
    ['[{"a":1},{"b":2}]']
    """
    if len(texts) == 1:
        return texts
    frames: list[str] = []
    group: list[str] = []
    size = 0
    for text in texts:
        group.append(text)
        size += len(text)
        if len(group) >= BATCH_MOST or size >= BATCH_CHARS:
            frames.append(group[0] if len(group) == 1 else f"[{','.join(group)}]")
            group, size = [], 0
    if group:
        frames.append(group[0] if len(group) == 1 else f"[{','.join(group)}]")
    return frames


class Connection:
    """One WebSocket: an outbox drained by a writer task, in order (batched when the client
    speaks protocol 2: :attr:`batching`)."""

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.table_id = ""
        self.recipient = SPECTATOR
        #: send the messages queued together as one frame (protocol 2)
        self.batching = False
        self.closing = False
        self._pending: list[str | Close] = []
        self._wake: asyncio.Future[None] | None = None
        self.writer = asyncio.create_task(self._write())

    def drop(self) -> None:
        """Close the connection (code 1012): the table is served elsewhere now and the
        client reconnects."""
        self.end(MOVED, "the table moved: reconnect")

    def send(self, text: str) -> None:
        """Queue one message; a client too far behind is cut off."""
        if self.closing:
            return
        if len(self._pending) > MAX_QUEUE:
            self.end(POLICY, f"too far behind: more than {MAX_QUEUE} messages unread")
            return
        self._queue(text)

    def end(self, code: int, reason: str) -> None:
        """Close after the messages already queued (the first reason given wins)."""
        if not self.closing:
            self.closing = True
            self._queue(Close(code, reason))

    def _queue(self, item: str | Close) -> None:
        self._pending.append(item)
        wake = self._wake
        if wake is not None:
            self._wake = None
            if not wake.done():
                wake.set_result(None)

    async def _write(self) -> None:
        try:
            while True:
                if not self._pending:
                    self._wake = asyncio.get_running_loop().create_future()
                    await self._wake
                    continue
                items, self._pending = self._pending, []
                texts: list[str] = []
                for item in items:
                    if isinstance(item, Close):
                        await self._send(texts)
                        if self.socket.application_state != WebSocketState.DISCONNECTED:
                            await self.socket.close(item.code, item.reason)
                        return
                    texts.append(item)
                await self._send(texts)
        except Exception:  # the peer went away; the reader notices
            return

    async def _send(self, texts: list[str]) -> None:
        if not texts:
            return
        for frame in batches(texts) if self.batching else texts:
            await self.socket.send_text(frame)

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
