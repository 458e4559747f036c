"""HTTP: upload a record and watch it step by step."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import JSONResponse

from rummykit.server.errors import ServerError
from rummykit.server.replaypool import ReplayRunner, frames_json
from rummykit.server.routes_tables import HubDep, MatchNoPath, TableIdPath, spend
from rummykit.server.uploads import ReplayChecking, ReplayStatusOut, UploadChecks
from rummykit.server.wire import ReplayCreated, ReplayOut

router = APIRouter(prefix="/api", tags=["replays"])
ReplayIdPath = Annotated[str, Path(min_length=1, max_length=40)]


def _runner(request: Request) -> ReplayRunner:
    runner: ReplayRunner = request.app.state.replays
    return runner


def _json(text: str) -> Response:
    return Response(text, media_type="application/json")


def _checks(request: Request) -> UploadChecks:
    checks: UploadChecks = request.app.state.uploads
    return checks


@router.post("/replays", status_code=201, response_model=ReplayCreated,
             responses={202: {"model": ReplayChecking}})
async def upload(request: Request, hub: HubDep) -> Response:
    """Upload a ``.rummy.json`` record (the request body, at most ``max_record_bytes``,
    ``max_record_frames`` deals and moves) to watch it. A record checked within
    ``upload_wait_seconds`` answers 201 (or 422); a longer one 202 with its status URL,
    and its pages wait for the check. 507 ``storage_full`` when the uploads kept would
    pass ``max_stored_upload_bytes``."""
    spend(request, request.app.state.quotas.uploads, "uploads")
    body = await request.body()  # the edge refuses a body past max_record_bytes (413)
    replay_id = secrets.token_urlsafe(8)
    frames = await _checks(request).accept(replay_id, body)
    if frames is None:
        checking = ReplayChecking(id=replay_id, status_url=f"/api/replays/{replay_id}/status")
        return JSONResponse(checking.model_dump(), status_code=202,
                            headers={"Location": checking.status_url})
    return JSONResponse(ReplayCreated(id=replay_id, frames=frames).model_dump(),
                        status_code=201)


@router.get("/replays/{replay_id}/status")
async def upload_status(replay_id: ReplayIdPath, request: Request) -> ReplayStatusOut:
    """Where an upload stands: ``checking``, ``ok`` (with its frames) or ``refused``."""
    found = await _checks(request).status(replay_id)
    return ReplayStatusOut(id=replay_id, status=found.status,  # type: ignore[arg-type]
                           frames=found.frames, error=found.error)


async def _record_text(hub: HubDep, replay_id: str, request: Request) -> str:
    await _checks(request).settled(replay_id)
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
    text = await _record_text(hub, replay_id, request)
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
async def replay_record(replay_id: ReplayIdPath, request: Request, hub: HubDep) -> Response:
    """The uploaded record itself."""
    text = await _record_text(hub, replay_id, request)
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="{replay_id}.rummy.json"'})
