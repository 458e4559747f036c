"""The FastAPI application: routers, error handlers, and the hub's life cycle."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from rummykit.extras import MissingExtraError

try:
    import fastapi  # noqa: F401  (the server extra)
except ImportError:
    raise MissingExtraError("server", "fastapi", "rummykit.server.app") from None

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from rummykit.server import (
    apidocs,
    routes_records,
    routes_rules,
    routes_stats,
    routes_tables,
    ws,
)
from rummykit.server.edge import Edge
from rummykit.server.errors import ServerError
from rummykit.server.hub import Hub
from rummykit.server.ratelimit import Quotas
from rummykit.server.replaypool import ReplayRunner
from rummykit.server.settings import Settings
from rummykit.server.storage import SqlStorage
from rummykit.server.uploads import UploadChecks
from rummykit.web import mount_web

log = logging.getLogger("rummykit.server")


#: the error code of an HTTP status raised by the framework
HTTP_CODES = {404: "not_found", 413: "too_large", 429: "rate_limited", 503: "unavailable"}


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _quoted(value: object) -> str:
    """A refused input value as a message quotes it (short values only)."""
    if isinstance(value, (int, float, str, bool)) or value is None:
        text = repr(value)
        return f" (got {text[:60]}{'...' if len(text) > 60 else ''})"
    return ""


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application; storage opens (and migrates) when it starts."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(settings, SqlStorage(settings.database_url, settings.sqlite_synchronous))
        app.state.hub = hub
        app.state.replays = ReplayRunner(settings.replay_processes, settings.replay_memory_mb)
        app.state.uploads = UploadChecks(hub, app.state.replays)
        await hub.start()
        gc.freeze()  # what startup made lives on: keep it out of the collector's walks
        try:
            yield
        finally:
            await app.state.uploads.stop()
            await app.state.replays.stop()
            await hub.stop()

    app = FastAPI(title="rummykit server", lifespan=lifespan, docs_url=None,
                  openapi_url="/api/openapi.json", redoc_url=None)
    app.state.settings = settings
    app.state.quotas = Quotas(settings.table_quota, settings.upload_quota,
                              settings.quota_seconds)
    app.add_middleware(Edge, settings=settings)

    @app.exception_handler(ServerError)
    async def server_error(_: Request, error: ServerError) -> JSONResponse:
        return _error(error.status, error.code, error.message)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "bad request"}
        where = ".".join(str(p) for p in first.get("loc", ())) or "request"
        return _error(400, "bad_request", f"{where}: {first.get('msg', 'bad request')}"
                      f"{_quoted(first.get('input', ()))}")

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(error.status_code, "bad_request")
        return _error(error.status_code, code, str(error.detail))

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(_: Request, error: SQLAlchemyError) -> JSONResponse:
        log.error("storage failed", exc_info=error)
        return _error(503, "unavailable", "storage is unavailable; nothing was changed")

    @app.exception_handler(Exception)
    async def internal(_: Request, error: Exception) -> JSONResponse:
        log.error("request failed", exc_info=error)
        return _error(500, "internal", "internal error")

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, object]:
        hub: Hub = request.app.state.hub
        return hub.health()

    @app.get("/api/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(apidocs.render(app.openapi()))

    app.include_router(routes_tables.router)
    app.include_router(routes_stats.router)
    app.include_router(routes_records.router)
    app.include_router(routes_rules.router)
    app.include_router(ws.router)
    mount_web(app)
    return app
