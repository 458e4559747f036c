"""HTTP: upload a record and watch it step by step."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request, Response

from rummykit.errors import RummyError
from rummykit.record import dumps, loads
from rummykit.server.errors import ServerError
from rummykit.server.replays import check, frames
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


@router.get("/replays/{replay_id}")
async def watch(replay_id: str, hub: HubDep, seat: int | None = None) -> ReplayOut:
    """Every frame of an uploaded record, as ``seat`` saw it (default: a spectator)."""
    record = loads(await _record_text(hub, replay_id))
    steps = frames(record, seat)
    result = record.result if record.result is not None else {}
    return ReplayOut(id=replay_id, players=list(record.players), rules=record.rules,
                     frames=steps, result=result)


@router.get("/replays/{replay_id}/record")
async def replay_record(replay_id: str, hub: HubDep) -> Response:
    """The uploaded record itself."""
    text = await _record_text(hub, replay_id)
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="{replay_id}.rummy.json"'})
