"""The multiplayer server: tables, seats, versioned events per viewer, storage.

``create_app(settings)`` builds the FastAPI application; ``rummykit serve`` runs it with
uvicorn. The wire protocol is documented in ``docs/protocol.md``.
"""

from __future__ import annotations

from rummykit.server.app import create_app
from rummykit.server.settings import Settings

__all__ = ["Settings", "create_app"]
