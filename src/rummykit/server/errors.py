"""Errors the server reports to clients: a stable code and a reason."""

from __future__ import annotations

from rummykit.core.errors import RummyError

#: HTTP status per code (WebSocket errors carry the code only)
STATUS = {
    "bad_request": 400, "bad_json": 400, "bad_message": 400, "unknown_type": 400,
    "too_large": 413, "bad_token": 403, "not_found": 404, "unknown_table": 404,
    "bad_origin": 403, "no_open_seat": 409, "not_started": 409, "match_over": 409, "not_over": 409,
    "not_your_turn": 409, "spectator": 403, "stale_version": 409, "syntax": 422,
    "illegal": 422, "ambiguous": 422, "record": 422, "rate_limited": 429,
    "not_hello": 400, "unavailable": 503, "internal": 500, "storage_full": 507,
    "not_ready": 409,
}


class ServerError(Exception):
    """A refused request: ``code`` is one of :data:`STATUS`; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[ServerError], tuple[str, str]]:
        return ServerError, (self.code, self.message)  # crosses process boundaries whole

    @property
    def status(self) -> int:
        """The HTTP status of this error."""
        return STATUS.get(self.code, 400)


def from_engine(error: RummyError) -> ServerError:
    """The engine's error as a server error: its kind is the code, its text the reason."""
    return ServerError(error.kind.value, str(error))
