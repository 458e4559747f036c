"""Who a request comes from: the client address (through trusted proxies) and whether
its ``Origin`` may use the server."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import Scope

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: the port a URL scheme implies (``https://a`` is the origin of ``Host: a:443``)
DEFAULT_PORTS = {"http": 80, "https": 443}
#: the longest address string kept as a key (a forged header cannot make huge keys)
MAX_ADDRESS = 64


def parse_networks(text: str) -> tuple[Network, ...]:
    """Comma-separated addresses or networks; ``ValueError`` quoting a bad one.

    >>> parse_networks("127.0.0.1, 10.0.0.0/8")
    (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8'))
    """
    found = []
    for part in (p.strip() for p in text.split(",")):
        if part:
            try:
                found.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise ValueError(f"trusted_proxies: {part!r} is not an address or "
                                 "network") from None
    return tuple(found)


def _trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def header(scope: Scope, name: bytes) -> str | None:
    """The values of a request header joined by commas, or None."""
    values = [v.decode("latin-1") for k, v in scope.get("headers", ()) if k == name]
    return ",".join(values) if values else None


def client_address(scope: Scope, proxies: tuple[Network, ...]) -> str:
    """The client's address: the peer's, or when the peer is a trusted proxy the last
    address of ``X-Forwarded-For`` that is not one (each proxy appends its peer).

    >>> scope = {"client": ("10.0.0.2", 1), "headers": [(b"x-forwarded-for", b"6.6.6.6, 1.2.3.4")]}
    >>> client_address(scope, parse_networks("10.0.0.0/8")), client_address(scope, ())
    ('1.2.3.4', '10.0.0.2')
    """
    peer = scope.get("client")
    address = str(peer[0]) if peer else "unknown"
    if not proxies or not _trusted(address, proxies):
        return address[:MAX_ADDRESS]
    forwarded = header(scope, b"x-forwarded-for")
    hops = [h.strip() for h in forwarded.split(",") if h.strip()] if forwarded else []
    for hop in reversed(hops):
        address = hop
        if not _trusted(hop, proxies):
            break
    return address[:MAX_ADDRESS]


def came_over_https(scope: Scope, proxies: tuple[Network, ...]) -> bool:
    """Whether the client reached the server over TLS: directly (``https``/``wss``), or
    through a trusted proxy whose ``X-Forwarded-Proto`` says ``https`` (the first hop's).

    >>> proxied = {"scheme": "http", "client": ("10.0.0.2", 1),
    ...            "headers": [(b"x-forwarded-proto", b"https")]}
    >>> came_over_https(proxied, parse_networks("10.0.0.0/8")), came_over_https(proxied, ())
    (True, False)
    """
    if scope.get("scheme") in ("https", "wss"):
        return True
    peer = scope.get("client")
    if not proxies or not peer or not _trusted(str(peer[0]), proxies):
        return False
    proto = header(scope, b"x-forwarded-proto")
    return proto is not None and proto.split(",")[0].strip().lower() == "https"


def parse_origins(text: str) -> frozenset[str]:
    """Comma-separated origins, normalised (lower case, no trailing slash)."""
    return frozenset(p.strip().lower().rstrip("/") for p in text.split(",") if p.strip())


def origin_allowed(scope: Scope, allowed: Iterable[str]) -> bool:
    """Whether the request's ``Origin`` (if it has one: browsers always send it on a
    WebSocket upgrade and a POST) is the server's own or one of ``allowed``.

    >>> same = {"headers": [(b"host", b"rummy.test"), (b"origin", b"http://rummy.test")]}
    >>> other = {"headers": [(b"host", b"rummy.test"), (b"origin", b"http://evil.test")]}
    >>> origin_allowed(same, ()), origin_allowed(other, ()), origin_allowed(other, ["*"])
    (True, False, True)
    >>> origin_allowed({"headers": [(b"host", b"a.test:443"), (b"origin", b"https://a.test")]}, ())
    True
    """
    origin = header(scope, b"origin")
    if origin is None:
        return True  # not a browser (or a same-origin GET): nothing to protect against
    origin = origin.strip().lower().rstrip("/")
    allowed = set(allowed)
    if "*" in allowed or origin in allowed:
        return True
    host = (header(scope, b"host") or "").strip().lower()
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if not host or parts.scheme not in DEFAULT_PORTS:
        return False
    default = f":{DEFAULT_PORTS[parts.scheme]}"
    return parts.netloc.removesuffix(default) == host.removesuffix(default)
