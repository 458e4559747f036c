"""HTTP: the lobby, tables, seats and finished matches' records."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Path, Request, Response

from rummykit.server.bounds import check_options
from rummykit.server.edge import CLIENT_KEY
from rummykit.server.errors import ServerError
from rummykit.server.hub import Hub
from rummykit.server.ratelimit import AddressBuckets
from rummykit.server.wire import (
    Created,
    CreateTable,
    HintOut,
    JoinTable,
    SeatOfToken,
    SeatToken,
    TableOut,
)

router = APIRouter(prefix="/api", tags=["tables"])


def get_hub(request: Request) -> Hub:
    """The application's hub."""
    hub: Hub = request.app.state.hub
    return hub


def client_of(request: Request) -> str:
    """The client address the edge found for this request."""
    address: str = request.scope.get(CLIENT_KEY) or "unknown"
    return address


def spend(request: Request, quota: AddressBuckets, what: str) -> None:
    """Take one of the client's ``quota``, or refuse with ``rate_limited``."""
    address = client_of(request)
    now = time.monotonic()
    if not quota.take(address, now):
        settings = request.app.state.settings
        wait = quota.retry_after(address, now)
        raise ServerError("rate_limited", f"{address} may create at most {quota.burst} "
                          f"{what} per {settings.quota_seconds:g} s: try again in "
                          f"{wait:.0f} s")


#: the highest match number a path may name (storage keeps 32-bit integers)
MAX_MATCH_NO = 2**31 - 1
HubDep = Annotated[Hub, Depends(get_hub)]
TokenHeader = Annotated[str, Header(alias="X-Seat-Token", min_length=1, max_length=100)]
TableIdPath = Annotated[str, Path(min_length=1, max_length=40)]
MatchNoPath = Annotated[int, Path(ge=0, le=MAX_MATCH_NO)]
TokenPath = Annotated[str, Path(min_length=1, max_length=100)]


@router.post("/tables", status_code=201)
async def create_table(spec: CreateTable, request: Request, hub: HubDep) -> Created:
    """Open a table: named human seats get their tokens, open ones wait for the lobby
    (a table with no open seat is private unless ``private`` is false)."""
    check_options(spec.options, hub.settings.max_turns_per_hand)
    spend(request, request.app.state.quotas.tables, "tables")
    table, tokens = await hub.create(spec)
    return Created(table=hub.table_out(table), tokens=tokens)


@router.get("/tables")
async def list_tables(hub: HubDep) -> list[TableOut]:
    """The lobby: the newest public tables (in a cluster, every node's)."""
    return await hub.lobby()


@router.get("/tables/{table_id}")
async def get_table(table_id: TableIdPath, hub: HubDep) -> TableOut:
    """One table's public facts."""
    return hub.table_out(await hub.get(table_id))


@router.post("/tables/{table_id}/join")
async def join_table(table_id: TableIdPath, body: JoinTable, hub: HubDep) -> SeatToken:
    """Take an open seat; the reply holds the seat's secret token."""
    return await hub.join(table_id, body.name)


@router.post("/tables/{table_id}/leave")
async def leave_table(table_id: TableIdPath, token: TokenHeader, hub: HubDep) -> TableOut:
    """Leave a seat (``X-Seat-Token``): open again before the start, else a bot plays."""
    table, seat = await hub.by_token(token, table_id)
    await hub.leave(table, seat)
    return hub.table_out(table)


@router.post("/tables/{table_id}/rematch")
async def rematch(table_id: TableIdPath, token: TokenHeader, hub: HubDep) -> TableOut:
    """Vote for a rematch (``X-Seat-Token``)."""
    table, seat = await hub.by_token(token, table_id)
    await hub.vote_rematch(table, seat)
    return hub.table_out(table)


@router.get("/tables/{table_id}/hint")
async def table_hint(table_id: TableIdPath, token: TokenHeader, hub: HubDep) -> HintOut:
    """Advice for the seat of ``X-Seat-Token`` when it is to move, computed from that
    seat's view only (``not_your_turn``, ``not_started``, ``match_over`` otherwise)."""
    table, seat = await hub.by_token(token, table_id)
    return await hub.hint(table, seat)


@router.get("/seats/{token}")
async def seat_of_token(token: TokenPath, hub: HubDep) -> SeatOfToken:
    """Where a secret token sits (for a private URL)."""
    table, seat = await hub.by_token(token)
    return SeatOfToken(table=table.id, seat=seat, name=table.seats[seat].name or "")


@router.get("/tables/{table_id}/matches/{match_no}/record")
async def match_record(table_id: TableIdPath, match_no: MatchNoPath, hub: HubDep) -> Response:
    """A finished match as a ``.rummy.json`` record (never a match still in play)."""
    text = await hub.db(hub.storage.record, table_id, match_no)
    if text is None:
        raise ServerError("not_found", f"table {table_id!r} has no finished match {match_no}")
    name = f"{table_id}-{match_no}.rummy.json"
    return Response(text, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
