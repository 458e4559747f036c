"""HTTP: upload a record and watch it step by step."""

from __future__ import annotations

import asyncio
import secrets
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from rummykit.errors import RummyError
from rummykit.record import dumps, loads
from rummykit.server.errors import ServerError
from rummykit.server.replays import check, parse_seat, replay_out
from rummykit.server.routes_tables import HubDep
from rummykit.server.wire import ReplayCreated, ReplayOut

router = APIRouter(prefix="/api", tags=["replays"])
#: the largest record accepted
MAX_RECORD_BYTES = 2_000_000


@router.post("/replays", status_code=201)
async def upload(request: Request, hub: HubDep) -> ReplayCreated:
    """Upload a ``.rummy.json`` record (the request body) to watch it."""
    body = await request.body()
    if len(body) > MAX_RECORD_BYTES:
        raise ServerError("too_large", f"a record may hold at most {MAX_RECORD_BYTES} bytes")
    try:
        record = loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise ServerError("record", "the record is not UTF-8") from None
    except RummyError as error:
        raise ServerError("record", str(error)) from None
    count = check(record)
    replay_id = secrets.token_urlsafe(8)
    await hub.db(hub.storage.save_replay, replay_id, dumps(record))
    return ReplayCreated(id=replay_id, frames=count)


async def _record_text(hub: HubDep, replay_id: str) -> str:
    text = await hub.db(hub.storage.replay, replay_id)
    if text is None:
        raise ServerError("not_found", f"no replay {replay_id!r}")
    return text


SeatQuery = Annotated[str | None, Query(
    pattern=r"^(all|[0-9]{1,2})$",
    description="a seat number (that seat's view), `all` (every seat's cards), or absent "
                "(a spectator's view)")]


@router.get("/replays/{replay_id}")
async def watch(replay_id: str, hub: HubDep, seat: SeatQuery = None) -> ReplayOut:
    """Every frame of an uploaded record, as ``seat`` saw it (default: a spectator;
    ``all``: with every seat's cards)."""
    record = loads(await _record_text(hub, replay_id))
    return await asyncio.to_thread(replay_out, replay_id, record, parse_seat(seat))


@router.get("/tables/{table_id}/matches/{match_no}/replay")
async def match_replay(table_id: str, match_no: int, hub: HubDep,
                       seat: SeatQuery = "all") -> ReplayOut:
    """Every frame of a finished match of a table (default: with every seat's cards);
    ``not_over`` while the match is being played."""
    table = await hub.get(table_id)
    if match_no == table.row.match_no and table.status != "over":
        raise ServerError("not_over", f"match {match_no} of table {table_id!r} is not over")
    text = await hub.db(hub.storage.record, table_id, match_no)
    if text is None:
        raise ServerError("not_found", f"table {table_id!r} has no finished match {match_no}")
    return await asyncio.to_thread(replay_out, f"{table_id}-{match_no}", loads(text),
                                   parse_seat(seat))


@router.get("/replays/{replay_id}/record")
async def replay_record(replay_id: str, hub: HubDep) -> Response:
    """The uploaded record itself."""
    text = await _record_text(hub, replay_id)
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="{replay_id}.rummy.json"'})
