"""Who a request comes from: the session cookie (HttpOnly, never in a URL) and the CSRF
token every write of a signed-in browser carries (``X-CSRF-Token``, from ``GET
/api/me``)."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Mapping

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from rummykit.server.errors import ServerError
from rummykit.server.hub import Hub
from rummykit.server.players import Expired, Session, SessionPolicy

#: the session cookie's name
COOKIE = "rummykit_session"
CSRF_HEADER = "x-csrf-token"
#: how long a browser keeps its cookie (seconds): a year
COOKIE_AGE = 365 * 24 * 3600
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def token_hash(token: str) -> str:
    """What storage keeps of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_secrets() -> tuple[str, str]:
    """A new session token and CSRF token."""
    return secrets.token_urlsafe(32), secrets.token_urlsafe(24)


def cookie_token(cookies: Mapping[str, str]) -> str | None:
    """The session token a client sent, if it looks like one."""
    token = cookies.get(COOKIE)
    return token if token and len(token) <= 100 else None


def policy_of(conn: HTTPConnection) -> SessionPolicy:
    """How long sessions last, from the server's settings."""
    settings = conn.app.state.settings
    return SessionPolicy(idle=settings.session_idle_seconds,
                         lifetime=settings.session_lifetime_seconds,
                         guest_idle=settings.guest_idle_seconds,
                         guest_retention=settings.guest_retention_seconds)


async def session_state(conn: HTTPConnection, hub: Hub) -> Session | Expired | None:
    """The session of a request or WebSocket, :class:`Expired` when its cookie's session
    expired, or None (no cookie, or an unknown or revoked one)."""
    token = cookie_token(conn.cookies)
    if token is None or hub.players is None:
        return None
    return await hub.db(hub.players.session, token_hash(token), policy_of(conn), time.time())


async def session_of(conn: HTTPConnection, hub: Hub) -> Session | None:
    """The live session of a request or WebSocket, or None (none, or an expired one)."""
    found = await session_state(conn, hub)
    return found if isinstance(found, Session) else None


def expired_message(reason: str) -> str:
    """What a browser whose session expired is told."""
    why = "signed in too long ago" if reason == "lifetime" else "unused too long"
    return f"your session expired ({why}): GET /api/me gives this browser a new guest " \
        "session" + ("" if reason == "guest_idle" else ", then sign in again")


def check_csrf(request: Request, session: Session) -> None:
    """Refuse (``csrf``) a write that does not carry the session's CSRF token."""
    if request.method in SAFE_METHODS:
        return
    sent = request.headers.get(CSRF_HEADER, "")
    if not secrets.compare_digest(sent.encode(), session.csrf.encode()):
        raise ServerError("csrf", "this request lacks the session's CSRF token "
                          "(X-CSRF-Token from GET /api/me): nothing was changed")


async def player_of(request: Request, hub: Hub) -> str | None:
    """The player a write comes from (its CSRF token checked), or None for a client
    without a session (an API client: its seats belong to no player); an expired session
    is refused (``no_session``: the browser asks ``GET /api/me`` again)."""
    session = await session_state(request, hub)
    if isinstance(session, Expired):
        raise ServerError("no_session", expired_message(session.reason))
    if session is None:
        return None
    check_csrf(request, session)
    return session.player.id


def _secure(request: Request) -> bool:
    """Whether the page was served over HTTPS (here, or at a proxy that says so: a
    forged header only makes the cookie stricter)."""
    return request.url.scheme == "https" or \
        request.headers.get("x-forwarded-proto", "").split(",")[0].strip() == "https"


def set_cookie(request: Request, response: Response, token: str) -> None:
    """Give the browser its session cookie (``Secure`` over HTTPS)."""
    response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="lax",
                        secure=_secure(request), path="/")


def clear_cookie(request: Request, response: Response) -> None:
    """Make the browser forget its session cookie."""
    response.delete_cookie(COOKIE, httponly=True, samesite="lax", secure=_secure(request),
                           path="/")
