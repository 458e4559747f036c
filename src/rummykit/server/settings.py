"""Server settings from the environment (``RUMMYKIT_*``) and the command line."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///rummykit.db"


class Settings(BaseSettings):
    """Every knob of the server; ``RUMMYKIT_PORT=9000`` sets ``port`` and so on."""

    model_config = SettingsConfigDict(env_prefix="RUMMYKIT_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    #: SQLAlchemy URL; the SQLite file is created on first run. PostgreSQL:
    #: ``postgresql+psycopg://user:password@host/db``.
    database_url: str = DEFAULT_DATABASE_URL
    #: SQLite only: ``FULL`` syncs every commit to disk, ``NORMAL`` (WAL) survives a crash of
    #: the process but may lose the last commits on a power cut.
    sqlite_synchronous: Literal["FULL", "NORMAL"] = "NORMAL"
    #: milliseconds a commit waits for others to share its transaction (SQLite without a
    #: sync per commit; see :mod:`~rummykit.server.writer`); 0: only those made meanwhile
    commit_window_ms: float = Field(default=0.0, ge=0, le=100)
    #: seconds a human seat may stay disconnected, after having been connected, before a
    #: bot plays it
    grace_seconds: float = Field(default=30.0, ge=0)
    #: seconds a human seat that has not connected yet (since the match started, or since
    #: the server did) waits for its player before a bot plays it
    join_seconds: float = Field(default=300.0, ge=0)
    #: the level of the bot that takes over a disconnected or departed seat
    takeover_level: str = "medium"
    #: the search level of ``GET /api/tables/{id}/hint`` (``medium``, ``hard`` or ``expert``)
    hint_level: Literal["medium", "hard", "expert"] = "medium"
    #: seconds a bot waits before moving (lets people follow the play); 0 in tests
    bot_delay: float = Field(default=0.4, ge=0)
    #: bot decisions run in threads (0) or in this many worker processes
    bot_processes: int = Field(default=0, ge=0)
    #: largest client message in bytes; larger ones are refused with ``too_large``
    max_message_bytes: int = Field(default=4096, ge=256)
    #: per-connection rate limit: sustained messages per second, and the burst allowed
    rate_per_second: float = Field(default=20.0, gt=0)
    rate_burst: int = Field(default=40, ge=1)
    #: events kept in memory per table for reconnects; older versions get a full resync
    history: int = Field(default=64, ge=0)
    #: tables listed by the lobby
    lobby_size: int = Field(default=100, ge=1)
    #: accept a ``seed`` when creating a table (tests and benchmarks only: a known seed
    #: gives the deck away)
    allow_seeds: bool = False
    #: turn limit added to every table's rules unless the table sets a lower one (bots can
    #: cycle); the rules' own valve by default (RULES §1.10: 1,000 in every preset)
    max_turns_per_hand: int = Field(default=1000, ge=10)

    # -- limits and browser protections (docs/operating.md) -----------------------------
    #: HTTP requests to ``/api`` and WebSocket upgrades per client address: sustained per
    #: second, and the burst allowed; over it a request gets 429 ``rate_limited``
    http_rate_per_second: float = Field(default=20.0, gt=0)
    http_rate_burst: int = Field(default=120, ge=1)
    #: tables one address may create: this many at once, refilled over ``quota_seconds``
    table_quota: int = Field(default=60, ge=1)
    #: records one address may upload: this many at once, refilled over ``quota_seconds``
    upload_quota: int = Field(default=30, ge=1)
    quota_seconds: float = Field(default=3600.0, gt=0)
    #: the largest HTTP body (JSON) and the largest uploaded record, in bytes: a larger
    #: body is refused with 413 ``too_large`` before it is read (or as soon as it has
    #: streamed past the limit when it gives no length)
    max_body_bytes: int = Field(default=65536, ge=1024)
    max_record_bytes: int = Field(default=1_000_000, ge=1024)
    #: the longest uploaded record, in frames (a deal or a move each); counted before the
    #: record is replayed
    max_record_frames: int = Field(default=5000, ge=10)
    #: the uploaded records kept, in all, in bytes (characters of their JSON): an upload
    #: that would pass it is refused with 507 ``storage_full``; 0: no cap
    max_stored_upload_bytes: int = Field(default=500_000_000, ge=0)
    #: seconds an upload waits for its check (a replay) before it is answered 202 with a
    #: status URL (the check goes on; the record's pages wait for it)
    upload_wait_seconds: float = Field(default=0.02, ge=0)
    #: WebSocket connections open at once, in all and per client address; over it the
    #: connection is closed with 1013 ``too many connections``
    max_connections: int = Field(default=10000, ge=1)
    max_connections_per_address: int = Field(default=64, ge=1)
    #: seconds a new WebSocket has to say ``hello`` before it is closed (1008)
    hello_seconds: float = Field(default=10.0, gt=0)
    #: refused (rate-limited) messages a WebSocket may collect before it is closed (1008);
    #: one strike fades every second
    max_strikes: int = Field(default=100, ge=1)
    #: comma-separated origins (``https://rummy.example``) whose pages may open WebSockets
    #: and send POSTs; the server's own origin always may; ``*`` allows every origin
    allowed_origins: str = ""
    #: comma-separated addresses or networks (``127.0.0.1,10.0.0.0/8``) of reverse proxies
    #: whose ``X-Forwarded-For`` names the client; empty: the peer address is the client
    trusted_proxies: str = ""
    #: ``max-age`` of the ``Strict-Transport-Security`` header sent on responses to
    #: requests that came over HTTPS: directly, or through one of ``trusted_proxies``
    #: saying ``X-Forwarded-Proto: https``; 0 sends none
    hsts_seconds: int = Field(default=31_536_000, ge=0)
    #: the CSP ``frame-ancestors`` sources allowed to frame the pages (``'none'``: none)
    frame_ancestors: str = "'none'"
    #: replays (checking an upload, a record's frames) run one at a time in a worker
    #: process (1) or in a thread of the server (0); the worker's address space is
    #: limited to ``replay_memory_mb`` (0: no limit)
    replay_processes: int = Field(default=1, ge=0, le=1)
    replay_memory_mb: int = Field(default=1024, ge=0)
    #: seconds a table nobody is connected to stays in memory (and the lobby) while it
    #: waits for players; it is loaded back from storage when asked for
    idle_seconds: float = Field(default=600.0, ge=0)
    #: seconds a finished table stays in memory and the lobby once nobody watches it
    finished_seconds: float = Field(default=120.0, ge=0)
    #: seconds a table plays on once no human plays or is connected to a seat (bots
    #: playing every seat of an abandoned table); then it ends unfinished
    abandon_seconds: float = Field(default=60.0, ge=0)
    #: a table of bots only ends unfinished after this many seconds, or this much CPU
    #: spent by its bots
    bot_table_seconds: float = Field(default=1800.0, gt=0)
    bot_table_cpu_seconds: float = Field(default=120.0, gt=0)
    #: seconds between two sweeps for idle, finished and abandoned tables
    sweep_seconds: float = Field(default=5.0, gt=0)
    #: Redis URL (``redis://host:6379/0``): this process is one node of a cluster of
    #: ``rummykit serve`` processes sharing one PostgreSQL database; unset: on its own
    redis_url: str | None = None
    #: seconds a node's lease on a table lasts unrenewed (how soon a dead node's tables
    #: move to another node)
    lease_seconds: float = Field(default=3.0, ge=0.5)

    # -- sessions (docs/protocol.md, Players) -------------------------------------------
    #: seconds a signed-in browser's session may go unused, and the longest it lasts
    #: from signing in; then it is refused and the browser plays as a guest, told why
    session_idle_seconds: float = Field(default=30 * 86400.0, gt=0)
    session_lifetime_seconds: float = Field(default=180 * 86400.0, gt=0)
    #: seconds a guest's session (the anonymous player's only key) may go unused
    guest_idle_seconds: float = Field(default=400 * 86400.0, gt=0)
    #: seconds a guest (no account) with no results, no session left and no seat in a
    #: match in play is kept after it was last seen; then it is deleted
    guest_retention_seconds: float = Field(default=30 * 86400.0, gt=0)
