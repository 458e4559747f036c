"""The browser front end: static ES modules, CSS and ``index.html``, served at ``/``.

There is no build step: the files under ``static/`` are what the browser loads.
"""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

__all__ = ["WEB_ROOT", "mount_web"]

#: the directory holding ``index.html`` and the modules it loads
WEB_ROOT = Path(__file__).parent / "static"


class _WebFiles(StaticFiles):
    """Static files the browser revalidates on each load (no stale modules after an
    upgrade)."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        return response


def mount_web(app: FastAPI) -> None:
    """Serve the web app at ``/``; mount it after the API routes, which keep precedence."""
    app.mount("/", _WebFiles(directory=WEB_ROOT, html=True), name="web")
