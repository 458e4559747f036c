"""Uploaded records, accepted at once and checked in the background.

An upload is kept (``checking``) as soon as its body is read and fits the overall cap,
then replayed in the replay worker. The request waits for the check at most
``upload_wait_seconds``: a check done by then answers as it found (201 with the frames,
or 422 saying what is wrong); a longer one answers 202 with a status URL, and the
record's pages wait for its check (docs/operating.md, Uploads).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

from rummykit.server.errors import ServerError
from rummykit.server.hub import Hub
from rummykit.server.replaypool import ReplayRunner, checked_upload
from rummykit.server.storage import UploadStatus
from rummykit.server.wire import Strict

log = logging.getLogger("rummykit.server")
#: seconds a record's page waits for a check made by another node (or lost with it)
WAIT_ELSEWHERE = 15.0


class ReplayChecking(Strict):
    """Reply 202 to ``POST /api/replays``: the record is kept and being checked; ``status``
    says when it is done (its pages wait for the check meanwhile)."""

    id: str
    status: Literal["checking"] = "checking"
    status_url: str


class ReplayStatusOut(Strict):
    """``GET /api/replays/{id}/status``: ``checking``, ``ok`` (with its frames) or
    ``refused`` (``error`` says why)."""

    id: str
    status: Literal["checking", "ok", "refused"]
    frames: int | None
    error: str | None


class UploadChecks:
    """The checks running on this node, by upload id."""

    def __init__(self, hub: Hub, runner: ReplayRunner) -> None:
        self.hub = hub
        self.runner = runner
        self.running: dict[str, asyncio.Task[int]] = {}

    async def accept(self, replay_id: str, body: bytes) -> int | None:
        """Keep ``body`` and check it; its frames when the check ends within
        ``upload_wait_seconds`` (its error raised if it is refused), else None (it goes
        on in the background)."""
        settings = self.hub.settings
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise ServerError("record", "the record is not UTF-8") from None
        await self.hub.db(self.hub.storage.reserve_upload, replay_id, text,
                          settings.max_stored_upload_bytes)
        task = asyncio.create_task(self._check(replay_id, body))
        self.running[replay_id] = task
        task.add_done_callback(self._done)
        done, _ = await asyncio.wait({task}, timeout=settings.upload_wait_seconds)
        return task.result() if done else None

    def _done(self, task: asyncio.Task[int]) -> None:
        """Forget a finished check (its outcome is stored; a refusal is not an error)."""
        self.running = {k: t for k, t in self.running.items() if t is not task}
        if not task.cancelled():
            task.exception()

    async def _check(self, replay_id: str, body: bytes) -> int:
        hub = self.hub
        try:
            frames, text = await self.runner.run(checked_upload, body,
                                                 hub.settings.max_record_frames)
        except ServerError as error:
            await self._finish(replay_id, None, None, error.message)
            raise
        await self._finish(replay_id, text, frames, None)
        return frames

    async def _finish(self, replay_id: str, text: str | None, frames: int | None,
                      error: str | None) -> None:
        for pause in (0.1, 0.5, 2.0, 5.0, None):  # storage may be down for a moment
            try:
                await self.hub.db(self.hub.storage.finish_upload, replay_id, text, frames,
                                  error)
                return
            except ServerError:
                if pause is None:
                    log.error("upload %s: its check's outcome was not stored", replay_id)
                    raise
                await asyncio.sleep(pause)

    async def status(self, replay_id: str) -> UploadStatus:
        """Where an upload stands (``not_found`` if there is none)."""
        found = await self.hub.db(self.hub.storage.upload_status, replay_id)
        if found is None:
            raise ServerError("not_found", f"no replay {replay_id!r}")
        return found

    async def settled(self, replay_id: str) -> UploadStatus:
        """An upload's status once its check is over: waits for a check running here, or
        for one elsewhere at most :data:`WAIT_ELSEWHERE` seconds (then ``not_ready``)."""
        task = self.running.get(replay_id)
        if task is not None:
            await asyncio.wait({task})
        found = await self.status(replay_id)
        waited = 0.0
        while found.status == "checking":
            if waited >= WAIT_ELSEWHERE:
                raise ServerError("not_ready", f"replay {replay_id!r} is still being "
                                  f"checked: see /api/replays/{replay_id}/status")
            await asyncio.sleep(0.2)
            waited += 0.2
            found = await self.status(replay_id)
        if found.status == "refused":
            raise ServerError("record", found.error or "the record was refused")
        return found

    async def stop(self) -> None:
        """Let the checks running here end (their outcome is stored)."""
        await asyncio.gather(*self.running.values(), return_exceptions=True)
