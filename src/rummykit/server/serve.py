"""``rummykit serve``: run the server with uvicorn."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from rummykit.server.settings import Settings


def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on.")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on.")] = None,
    database_url: Annotated[str | None, typer.Option(
        help="SQLAlchemy URL (default: the SQLite file rummykit.db, created on first run; "
             "PostgreSQL: postgresql+psycopg://user:pass@host/db).")] = None,
    grace: Annotated[float | None, typer.Option(
        help="Seconds a disconnected player keeps the seat before a bot plays it.")] = None,
    join: Annotated[float | None, typer.Option(
        help="Seconds a seat whose player has not connected yet waits before a bot plays "
             "it.")] = None,
) -> None:
    """Run the multiplayer server (HTTP and WebSocket); RUMMYKIT_* variables set defaults."""
    import uvicorn

    from rummykit.server.app import create_app

    given = {"host": host, "port": port, "database_url": database_url, "grace_seconds": grace,
             "join_seconds": join}
    settings = Settings.model_validate({k: v for k, v in given.items() if v is not None})
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port,
                ws_max_size=max(65536, settings.max_message_bytes * 4),
                ws_per_message_deflate=False, log_level="warning",
                access_log=False)
