"""``rummykit serve``: run the server with uvicorn."""

from __future__ import annotations

import gc
import logging
import socket
import sys
from typing import Annotated

import typer

from rummykit.extras import require


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
    redis_url: Annotated[str | None, typer.Option(
        help="Redis URL (redis://host:6379/0): run as one of several processes on one "
             "PostgreSQL database, as one server.")] = None,
) -> None:
    """Run the multiplayer server (HTTP and WebSocket); RUMMYKIT_* variables set defaults."""
    require("server", what="rummykit serve")
    import uvicorn

    from rummykit.server.app import create_app
    from rummykit.server.settings import Settings

    given = {"host": host, "port": port, "database_url": database_url, "grace_seconds": grace,
             "join_seconds": join, "redis_url": redis_url}
    settings = Settings.model_validate({k: v for k, v in given.items() if v is not None})
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    config = uvicorn.Config(create_app(settings), host=settings.host, port=settings.port,
                            ws_max_size=max(65536, settings.max_message_bytes * 4),
                            ws_per_message_deflate=False, log_level="warning",
                            access_log=False, proxy_headers=False)  # the edge reads them

    class AnnouncingServer(uvicorn.Server):
        """Says where it listens, once its sockets are bound."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started and not self.should_exit:
                bound = [s for server in self.servers for s in server.sockets]
                print(f"rummykit: serving on {listening_url(self.config.host, bound)}",
                      file=sys.stderr, flush=True)

    tune_gc()
    AnnouncingServer(config).run()


#: the collector's thresholds while serving (Python's default: 700, 10, 10)
GC_THRESHOLDS = (50_000, 50, 100)


def tune_gc() -> None:
    """Collect garbage less often while serving: what is loaded by now (modules, the app)
    is kept out of every collection (``gc.freeze``), and the young generation is
    collected after 50,000 allocations instead of 700. A move allocates thousands of
    short-lived objects (drafts, views, messages); with the defaults the collector took
    about 7% of the server's CPU under the load benchmark, and these thresholds cut the
    CPU per move by 5-10% (concurrent pairs of ``python -m rummykit.server.loadbench
    --tables 60 --duration 15``: 0.67 -> 0.61 ms, and 0.62 ms at 10,000 -> 0.59 ms)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def listening_url(host: str, sockets: list[socket.socket]) -> str:
    """The URL a server bound to ``sockets`` answers on (the real port when 0 was asked).

    >>> listening_url("127.0.0.1", [])
    'http://127.0.0.1:0'
    """
    port = sockets[0].getsockname()[1] if sockets else 0
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"
