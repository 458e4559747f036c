"""HTTP: this browser's player, accounts, public records, the leaderboard; resigning."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request, Response

from rummykit.server import accounts, identity
from rummykit.server.errors import ServerError
from rummykit.server.players import Expired, ExpiryReason, PlayerRow, PlayerStore, Session
from rummykit.server.ratelimit import AddressBuckets
from rummykit.server.routes_tables import HubDep, TableIdPath, TokenHeader, client_of
from rummykit.server.wire import StatLine, TableOut
from rummykit.server.wire_players import Credentials, LeaderLine, MeOut, PlayerOut, Rename

router = APIRouter(prefix="/api", tags=["players"])
PlayerIdPath = Annotated[str, Path(min_length=1, max_length=32)]


def _store(hub: HubDep) -> PlayerStore:
    if hub.players is None:
        raise ServerError("unavailable", "this server keeps no players")
    return hub.players


def _lines(stats: dict[str, tuple[int, int, int]]) -> dict[str, StatLine]:
    return {rules: StatLine(played=p, won=w, lost=lost) for rules, (p, w, lost) in stats.items()}


async def _me(hub: HubDep, player: PlayerRow, csrf: str, *,
              expired: ExpiryReason | None = None, merged: bool = False) -> MeOut:
    found = await hub.db(_store(hub).profile, player.id)
    stats = {} if found is None else found[1]
    row = player if found is None else found[0]
    return MeOut(id=row.id, name=row.name, account=row.account, csrf=csrf,
                 rating=row.rating, rated=row.rated, rules=_lines(stats),
                 expired=expired, merged=merged)


def _new_players(request: Request) -> AddressBuckets:
    """The per-address budget of new anonymous players."""
    state = request.app.state
    found: AddressBuckets | None = getattr(state, "player_quota", None)
    if found is None:
        settings = state.settings
        burst = 4 * settings.table_quota
        found = state.player_quota = AddressBuckets(burst / settings.quota_seconds, burst)
    return found


async def _session(request: Request, hub: HubDep) -> Session:
    """The request's session with its CSRF token checked (``no_session`` without one, or
    when it expired)."""
    session = await identity.session_state(request, hub)
    if isinstance(session, Expired):
        raise ServerError("no_session", identity.expired_message(session.reason))
    if session is None:
        raise ServerError("no_session", "no session: open the app (GET /api/me) first")
    identity.check_csrf(request, session)
    return session


@router.get("/me")
async def me(request: Request, response: Response, hub: HubDep) -> MeOut:
    """This browser's player; a browser without a live session gets a new anonymous
    player and its cookie (HttpOnly: the page never sees the secret). When its session
    had expired, the expired one ends and the reply says why (``expired``)."""
    session = await identity.session_state(request, hub)
    if isinstance(session, Session):
        return await _me(hub, session.player, session.csrf)
    address = client_of(request)
    if not _new_players(request).take(address, time.monotonic()):
        raise ServerError("rate_limited", f"{address} made too many new players: try later")
    store = _store(hub)
    policy = identity.policy_of(request)
    await hub.db(store.purge_due, policy, time.time())
    token, csrf = identity.new_secrets()
    old = identity.cookie_token(request.cookies)
    if isinstance(session, Expired) and old is not None:
        await hub.db(store.end_session, identity.token_hash(old))
    player = await hub.db(store.create_anonymous, identity.token_hash(token), csrf)
    identity.set_cookie(request, response, token)
    return await _me(hub, player, csrf,
                     expired=session.reason if isinstance(session, Expired) else None)


@router.put("/me/name")
async def rename(body: Rename, request: Request, hub: HubDep) -> MeOut:
    """Change your display name (a label others see; it is not who you are)."""
    session = await _session(request, hub)
    await hub.db(_store(hub).rename, session.player.id, body.name)
    found = await hub.db(_store(hub).profile, session.player.id)
    assert found is not None
    return await _me(hub, found[0], session.csrf)


@router.post("/account/signup")
async def sign_up(body: Credentials, request: Request, response: Response,
                  hub: HubDep) -> MeOut:
    """Give this browser's player an account: its record and rating stay its own, and
    signing in elsewhere brings them there."""
    session = await _session(request, hub)
    account = accounts.account_key(body.name)
    password_hash = accounts.hash_password(body.password)
    token, csrf = identity.new_secrets()
    old = identity.cookie_token(request.cookies)
    assert old is not None
    await hub.db(_store(hub).sign_up, identity.token_hash(old), account, password_hash,
                 identity.token_hash(token), csrf)
    identity.set_cookie(request, response, token)
    found = await hub.db(_store(hub).profile, session.player.id)
    assert found is not None
    return await _me(hub, found[0], csrf)


@router.post("/account/signin")
async def sign_in(body: Credentials, request: Request, response: Response,
                  hub: HubDep) -> MeOut:
    """Sign in to an account: this browser becomes its player (``bad_login`` when the
    name or the password is wrong); the guest it was is merged into the account."""
    await _session(request, hub)
    try:
        account = accounts.account_key(body.name)
    except ServerError:
        account = ""
    found = await hub.db(_store(hub).password_of, account) if account else None
    if not accounts.check_password(None if found is None else found[1], body.password):
        raise ServerError("bad_login", "wrong name or password")
    assert found is not None
    token, csrf = identity.new_secrets()
    old = identity.cookie_token(request.cookies)
    merged = await hub.db(_store(hub).sign_in, found[0],
                          None if old is None else identity.token_hash(old),
                          identity.token_hash(token), csrf)
    identity.set_cookie(request, response, token)
    profile = await hub.db(_store(hub).profile, found[0])
    assert profile is not None
    return await _me(hub, profile[0], csrf, merged=merged)


@router.post("/account/signout", status_code=204)
async def sign_out(request: Request, response: Response, hub: HubDep) -> None:
    """Sign out: the cookie is void; the next visit starts a new anonymous player."""
    await _session(request, hub)
    old = identity.cookie_token(request.cookies)
    assert old is not None
    await hub.db(_store(hub).end_session, identity.token_hash(old))
    identity.clear_cookie(request, response)


@router.get("/players/{player_id}")
async def player(player_id: PlayerIdPath, hub: HubDep) -> PlayerOut:
    """A player's public record: display name, rating, results per rule set."""
    found = await hub.db(_store(hub).profile, player_id)
    if found is None:
        raise ServerError("not_found", f"no player {player_id!r}")
    row, stats = found
    return PlayerOut(id=row.id, name=row.name, kind=row.kind,  # type: ignore[arg-type]
                     account=row.account is not None, rating=row.rating, rated=row.rated,
                     rules=_lines(stats))


@router.get("/leaderboard")
async def leaderboard(hub: HubDep,
                      limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[LeaderLine]:
    """The rated players (bots too), best rating first."""
    rows = await hub.db(_store(hub).leaderboard, limit)
    return [LeaderLine(rank=i + 1, id=p.id, name=p.name, kind=p.kind,  # type: ignore[arg-type]
                       rating=p.rating, mu=round(p.mu, 3), sigma=round(p.sigma, 3),
                       rated=p.rated, played=played, won=won)
            for i, (p, played, won) in enumerate(rows)]


@router.post("/tables/{table_id}/resign")
async def resign(table_id: TableIdPath, token: TokenHeader, hub: HubDep) -> TableOut:
    """Resign the match (``X-Seat-Token``): it counts as lost, the seat's bot plays on
    for the others."""
    table, seat = await hub.by_token(token, table_id)
    await hub.resign(table, seat)
    return hub.table_out(table)
