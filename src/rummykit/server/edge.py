"""The server's edge, an ASGI middleware in front of every request: the client address,
per-address rate limits and connection caps, bounded bodies, the ``Origin`` check and the
browser security headers (docs/operating.md)."""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from dataclasses import dataclass, field

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummykit.server.clients import (
    came_over_https,
    client_address,
    header,
    origin_allowed,
    parse_networks,
    parse_origins,
)
from rummykit.server.ratelimit import AddressBuckets
from rummykit.server.settings import Settings

#: where the client address is kept in the ASGI scope for the routes
CLIENT_KEY = "rummykit.client"
#: methods that change something: a foreign page may not send them
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: the path whose body is a record (bounded by ``max_record_bytes``)
UPLOAD_PATH = "/api/replays"
#: WebSocket close code when the server has too many connections (RFC 6455 "try again
#: later")
TRY_AGAIN_LATER = 1013


def security_headers(settings: Settings) -> list[tuple[bytes, bytes]]:
    """Headers added to every HTTP response: a CSP that allows only this server's own
    scripts, styles and sockets, no framing (``frame_ancestors``), no sniffing, no
    referrer."""
    policy = ("default-src 'self'; script-src 'self'; style-src 'self'; "
              "img-src 'self' data:; connect-src 'self'; font-src 'self'; "
              "object-src 'none'; base-uri 'none'; form-action 'self'; "
              f"frame-ancestors {settings.frame_ancestors}")
    frames = b"DENY" if settings.frame_ancestors.strip() == "'none'" else None
    headers = [
        (b"content-security-policy", policy.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"cross-origin-resource-policy", b"same-origin"),
        (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
    ]
    if frames is not None:
        headers.append((b"x-frame-options", frames))
    return headers


@dataclass
class Connections:
    """WebSocket connections open now, in all and per address."""

    total: int = 0
    per_address: Counter[str] = field(default_factory=Counter)

    def open(self, address: str) -> None:
        """Count one more."""
        self.total += 1
        self.per_address[address] += 1

    def close(self, address: str) -> None:
        """Count one less."""
        self.total -= 1
        self.per_address[address] -= 1
        if self.per_address[address] <= 0:
            del self.per_address[address]


def _error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


class Edge:
    """The middleware; one per application, holding the per-address state."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.proxies = parse_networks(settings.trusted_proxies)
        self.origins = parse_origins(settings.allowed_origins)
        self.requests = AddressBuckets(settings.http_rate_per_second, settings.http_rate_burst)
        self.connections = Connections()
        self.headers = security_headers(settings)
        #: sent on responses to requests that came over HTTPS (none if ``hsts_seconds`` 0)
        self.tls_headers = self.headers + ([] if not settings.hsts_seconds else [
            (b"strict-transport-security",
             f"max-age={settings.hsts_seconds}; includeSubDomains".encode())])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # -- HTTP -----------------------------------------------------------------------
    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = scope[CLIENT_KEY] = client_address(scope, self.proxies)
        extra = self.tls_headers if came_over_https(scope, self.proxies) else self.headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        path: str = scope["path"]
        method: str = scope["method"]
        if method in UNSAFE_METHODS and not origin_allowed(scope, self.origins):
            return await self._refuse(send_with_headers, 403, "bad_origin",
                                      f"requests from {header(scope, b'origin')!r} are not "
                                      "allowed")
        if path.startswith("/api/"):
            now = time.monotonic()
            if not self.requests.take(address, now):
                wait = self.requests.retry_after(address, now)
                return await self._refuse(
                    send_with_headers, 429, "rate_limited",
                    f"too many requests from {address}: at most "
                    f"{self.settings.http_rate_per_second:g} a second (bursts of "
                    f"{self.settings.http_rate_burst})",
                    [(b"retry-after", str(max(1, math.ceil(wait))).encode())])
        limit = (self.settings.max_record_bytes if path == UPLOAD_PATH
                 else self.settings.max_body_bytes)
        length = header(scope, b"content-length")
        if length is not None:
            try:
                declared = int(length.split(",")[0])
            except ValueError:
                return await self._refuse(send_with_headers, 400, "bad_request",
                                          f"Content-Length {length[:20]!r} is not a number")
            if declared > limit:
                return await self._refuse(send_with_headers, 413, "too_large",
                                          f"the body has {declared} bytes; at most {limit}")
        await self.app(scope, _bounded(receive, limit), send_with_headers)

    @staticmethod
    async def _refuse(send: Send, status: int, code: str, message: str,
                      extra: list[tuple[bytes, bytes]] | None = None) -> None:
        body = _error_body(code, message)
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()), *(extra or [])]})
        await send({"type": "http.response.body", "body": body})

    # -- WebSocket ------------------------------------------------------------------
    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = scope[CLIENT_KEY] = client_address(scope, self.proxies)
        if not origin_allowed(scope, self.origins):
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008})  # before accept: 403
            return
        settings = self.settings
        refusal = None
        if not self.requests.take(address, time.monotonic()):
            refusal = f"too many connection attempts from {address}"
        elif self.connections.total >= settings.max_connections:
            refusal = f"the server has {settings.max_connections} connections"
        elif self.connections.per_address[address] >= settings.max_connections_per_address:
            refusal = (f"{address} has {settings.max_connections_per_address} "
                       "connections open")
        if refusal is not None:
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER,
                        "reason": refusal[:120]})
            return
        self.connections.open(address)
        try:
            await self.app(scope, receive, send)
        finally:
            self.connections.close(address)


def _bounded(receive: Receive, limit: int) -> Receive:
    """``receive`` that refuses a body streaming past ``limit`` bytes with 413."""
    seen = 0

    async def bounded() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise HTTPException(413, f"the body is longer than {limit} bytes")
        return message

    return bounded
