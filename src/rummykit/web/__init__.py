"""The browser front end: static ES modules, CSS and ``index.html``, served at ``/``.

There is no build step: the files under ``static/`` are what the browser loads. They are
served from memory (read and gzipped once, again when a file changes on disk), with an
``ETag`` the browser revalidates on each load.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Scope

__all__ = ["WEB_ROOT", "WebFiles", "mount_web"]

#: the directory holding ``index.html`` and the modules it loads
WEB_ROOT = Path(__file__).parent / "static"

#: what each served file's name ends with says what it is
MEDIA_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
               ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
               ".png": "image/png", ".json": "application/json"}


@dataclass(frozen=True, slots=True)
class _Held:
    """A file in memory, as it was on disk (its change time and size)."""

    changed: int
    size: int
    body: bytes
    gzipped: bytes
    etag: str
    media_type: str


class WebFiles(StaticFiles):
    """The web app's files from memory: no thread hop or disk read per request (a cold
    start asks for two dozen modules); ``Cache-Control: no-cache`` with an ``ETag``, so a
    browser revalidates (304) and never runs a stale module after an upgrade; gzip for
    clients that accept it. Anything else (a folder, a missing file, HEAD) is
    :class:`StaticFiles`' answer."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, html=True)
        self.root = directory.resolve()
        self._held: dict[str, _Held] = {}

    async def get_response(self, path: str, scope: Scope) -> Response:
        held = self._hold(path) if scope["method"] == "GET" else None
        if held is None:
            return await super().get_response(path, scope)
        headers = {"Cache-Control": "no-cache", "ETag": held.etag, "Vary": "Accept-Encoding"}
        asked = Headers(scope=scope)
        if held.etag in asked.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        body = held.body
        if "gzip" in asked.get("accept-encoding", "") and len(held.gzipped) < len(body):
            body, headers["Content-Encoding"] = held.gzipped, "gzip"
        return Response(body, media_type=held.media_type, headers=headers)

    def _hold(self, path: str) -> _Held | None:
        """The file at ``path`` (the folder's ``index.html`` for the root), read again if
        it changed; None for anything but a known kind of regular file in the folder."""
        name = "index.html" if path in ("", ".") else path
        full = (self.root / name).resolve()
        if full.suffix not in MEDIA_TYPES or not full.is_relative_to(self.root):
            return None
        try:
            found = os.stat(full)
        except OSError:
            return None
        if not stat.S_ISREG(found.st_mode):
            return None
        held = self._held.get(name)
        if held is None or (held.changed, held.size) != (found.st_mtime_ns, found.st_size):
            body = full.read_bytes()
            digest = hashlib.sha256(body).hexdigest()[:20]
            held = _Held(found.st_mtime_ns, found.st_size, body, gzip.compress(body, 6),
                         f'"{digest}"', MEDIA_TYPES[full.suffix])
            self._held[name] = held
        return held


def mount_web(app: FastAPI) -> None:
    """Serve the web app at ``/``; mount it after the API routes, which keep precedence."""
    app.mount("/", WebFiles(WEB_ROOT), name="web")
