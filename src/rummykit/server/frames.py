"""Several WebSocket messages written in one socket write.

uvicorn writes each ASGI ``websocket.send`` to the socket on its own; a move sends its
mover two messages at once (the ``event``, then the ``ack``), a hand's end three. This
subclass of uvicorn's WebSocket protocol offers an ASGI extension, ``SEND_MANY`` in the
scope's ``extensions``, whose ``send`` writes several text messages - one frame each, as
before, so clients see the very same frames - with one write to the socket. Where the
server does not offer it (another ASGI server, a test client),
:class:`~rummykit.server.ws.Connection` sends the messages one by one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request

#: the scope's extension key; its value is ``{"send": SendMany}``
SEND_MANY = "rummykit.send_many"
SendMany = Callable[[Sequence[str]], Awaitable[None]]


class ManyFramesProtocol(WebSocketsSansIOProtocol):
    """uvicorn's protocol (websockets, sans-I/O), with :data:`SEND_MANY` offered to the
    application once the upgrade is accepted."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)
        if scope is not None and self.response.status_code == 101:
            scope["extensions"][SEND_MANY] = {"send": self.send_many}

    async def send_many(self, texts: Sequence[str]) -> None:
        """Send ``texts`` as text messages, in order, with one write (after the socket
        has taken what was written before, as uvicorn's own sends wait)."""
        await self.writable.wait()
        if self.disconnected or self.close_sent or not self.handshake_complete:
            raise ClientDisconnected
        try:
            for text in texts:
                self.conn.send_text(text.encode())
        except InvalidState:
            raise ClientDisconnected from None
        self.transport.write(b"".join(self.conn.data_to_send()))
