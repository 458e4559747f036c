"""HTTP: upload a record and watch it step by step."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request, Response

from rummykit.server.errors import ServerError
from rummykit.server.replaypool import ReplayRunner, checked_upload, frames_json
from rummykit.server.routes_tables import HubDep, MatchNoPath, TableIdPath, spend
from rummykit.server.wire import ReplayCreated, ReplayOut

router = APIRouter(prefix="/api", tags=["replays"])
ReplayIdPath = Annotated[str, Path(min_length=1, max_length=40)]


def _runner(request: Request) -> ReplayRunner:
    runner: ReplayRunner = request.app.state.replays
    return runner


def _json(text: str) -> Response:
    return Response(text, media_type="application/json")


@router.post("/replays", status_code=201)
async def upload(request: Request, hub: HubDep) -> ReplayCreated:
    """Upload a ``.rummy.json`` record (the request body, at most ``max_record_bytes``,
    ``max_record_frames`` deals and moves) to watch it."""
    spend(request, request.app.state.quotas.uploads, "uploads")
    body = await request.body()  # the edge refuses a body past max_record_bytes (413)
    count, text = await _runner(request).run(checked_upload, body,
                                             hub.settings.max_record_frames)
    replay_id = secrets.token_urlsafe(8)
    await hub.db(hub.storage.save_replay, replay_id, text)
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


@router.get("/replays/{replay_id}", response_model=ReplayOut)
async def watch(replay_id: ReplayIdPath, request: Request, hub: HubDep,
                seat: SeatQuery = None) -> Response:
    """Every frame of an uploaded record, as ``seat`` saw it (default: a spectator;
    ``all``: with every seat's cards)."""
    text = await _record_text(hub, replay_id)
    return _json(await _runner(request).run(frames_json, replay_id, text, seat,
                                            hub.settings.max_record_frames))


@router.get("/tables/{table_id}/matches/{match_no}/replay", response_model=ReplayOut)
async def match_replay(table_id: TableIdPath, match_no: MatchNoPath, request: Request,
                       hub: HubDep, seat: SeatQuery = "all") -> Response:
    """Every frame of a finished match of a table (default: with every seat's cards);
    ``not_over`` while the match is being played."""
    table = await hub.get(table_id)
    if match_no == table.row.match_no and table.status != "over":
        raise ServerError("not_over", f"match {match_no} of table {table_id!r} is not over")
    text = await hub.db(hub.storage.record, table_id, match_no)
    if text is None:
        raise ServerError("not_found", f"table {table_id!r} has no finished match {match_no}")
    return _json(await _runner(request).run(frames_json, f"{table_id}-{match_no}", text,
                                            seat, hub.settings.max_record_frames))


@router.get("/replays/{replay_id}/record")
async def replay_record(replay_id: ReplayIdPath, hub: HubDep) -> Response:
    """The uploaded record itself."""
    text = await _record_text(hub, replay_id)
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="{replay_id}.rummy.json"'})
