"""Players in storage: identities, sessions, statistics and ratings per player id.

A player is anonymous (a browser's session cookie is its only key) until it signs up;
its display name is only a label, never a key. A guest whose browser signs in to an
account is merged into it (:mod:`.guest_merge`). Sessions expire
(:class:`SessionPolicy`); a guest left with nothing is pruned (:func:`prunable`). Bots
are players too (``bot-LEVEL``), so that ratings count
games against them. The calls block: the hub makes them on its
storage thread (``Hub.db``); :func:`record_match` runs inside a match's commit.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import (
    ColumnElement,
    Engine,
    and_,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Row
from sqlalchemy.exc import IntegrityError

from rummykit.server import guest_merge, ratings, schema
from rummykit.server.errors import ServerError

if TYPE_CHECKING:
    from rummykit.server.storage import Finished, SeatRow


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player as others may see it (no secret)."""

    id: str
    kind: str
    name: str
    account: str | None
    mu: float
    sigma: float
    rated: int

    @property
    def rating(self) -> float:
        """What the leaderboard shows and sorts by."""
        return ratings.shown(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class Session:
    """A browser's session: its player and the CSRF token its writes must carry."""

    player: PlayerRow
    csrf: str


#: why a session expired (see :class:`Expired`)
ExpiryReason = Literal["idle", "lifetime", "guest_idle"]


@dataclass(frozen=True, slots=True)
class Expired:
    """A session refused because it expired: ``idle`` (signed in, unused too long),
    ``lifetime`` (signed in too long ago) or ``guest_idle`` (a guest's, unused too long)."""

    reason: ExpiryReason


@dataclass(frozen=True, slots=True)
class SessionPolicy:
    """How long sessions last (seconds): a signed-in one while used within ``idle`` and
    for at most ``lifetime`` from signing in; a guest's while used within ``guest_idle``;
    a guest with nothing to keep it is kept ``guest_retention`` after it was last seen
    (the settings ``session_idle_seconds``, ``session_lifetime_seconds``,
    ``guest_idle_seconds``, ``guest_retention_seconds``).

    >>> policy = SessionPolicy(idle=10, lifetime=100, guest_idle=50)
    >>> policy.expired(True, created=0, last_seen=95, now=101), policy.expired(
    ...     True, created=0, last_seen=80, now=91), policy.expired(False, 0, 80, 91)
    ('lifetime', 'idle', None)
    >>> policy.expired(False, created=0, last_seen=40, now=91)
    'guest_idle'

    """

    idle: float
    lifetime: float
    guest_idle: float
    guest_retention: float = 30 * 86400.0

    def expired(self, signed_in: bool, created: float, last_seen: float, now: float
                ) -> ExpiryReason | None:
        """Why a session with these times is void at ``now``, or None."""
        if signed_in and now - created > self.lifetime:
            return "lifetime"
        if now - last_seen > (self.idle if signed_in else self.guest_idle):
            return "idle" if signed_in else "guest_idle"
        return None

    def touch_after(self, signed_in: bool) -> float:
        """How stale ``last_seen`` may get before a use writes it: a twentieth of the
        idle timeout, at most a minute (a use is not a write each time)."""
        return min(60.0, (self.idle if signed_in else self.guest_idle) / 20)


#: expired sessions are purged this long after they expired (until then a browser coming
#: back is told why it plays as a guest again), at most every PURGE_EVERY seconds
PURGE_AFTER = 24 * 3600.0
PURGE_EVERY = 600.0
#: guests pruned in one transaction, and the most batches one purge runs (the rest wait
#: for the next purge)
PRUNE_BATCH = 500
PRUNE_BATCHES = 20


def prunable(cutoff: float) -> ColumnElement[bool]:
    """Which ``players`` rows may be deleted: guests (human, no account) last seen before
    ``cutoff`` with no result (no statistics line, never rated), no session left and no
    seat at a table that is not over; a merged guest only while no seat at all names it
    (its pointer to the account is not in use)."""
    players, seats, tables = schema.players, schema.seats, schema.tables
    named = seats.c.player_id == players.c.id
    in_play = select(seats.c.table_id).join(tables, tables.c.id == seats.c.table_id) \
        .where(named, tables.c.status != "over")
    return and_(players.c.last_seen < cutoff, players.c.kind == "human",
                players.c.account.is_(None), players.c.rated == 0,
                ~exists().where(schema.sessions.c.player_id == players.c.id),
                ~exists().where(schema.player_stats.c.player_id == players.c.id),
                ~in_play.exists(),
                or_(players.c.merged_into.is_(None), ~exists().where(named)))


def bot_player(level: str) -> str:
    """The player id of a bot level."""
    return f"bot-{level}"


def _player(row: Row[Any]) -> PlayerRow:
    return PlayerRow(row.id, row.kind, row.name, row.account, row.mu, row.sigma, row.rated)


def _new_player(db: Connection, player_id: str, kind: str, name: str) -> None:
    mu, sigma = ratings.START
    now = time.time()
    db.execute(insert(schema.players).values(id=player_id, kind=kind, name=name,
                                             created=now, last_seen=now, mu=mu,
                                             sigma=sigma, rated=0))


def _seen(db: Connection, player_id: str, now: float) -> None:
    db.execute(update(schema.players).where(schema.players.c.id == player_id)
               .values(last_seen=now))


def _bump(db: Connection, player_id: str, rules: str, won: bool, lost: bool) -> None:
    """Count one match for ``player_id`` under ``rules``."""
    table = schema.player_stats
    key = (table.c.player_id == player_id, table.c.rules == rules)
    row = db.execute(select(table).where(*key)).first()
    if row is None:
        db.execute(insert(table).values(player_id=player_id, rules=rules, played=1,
                                        won=int(won), lost=int(lost)))
    else:
        db.execute(update(table).where(*key).values(
            played=row.played + 1, won=row.won + int(won), lost=row.lost + int(lost)))


def _bump_name(db: Connection, name: str, rules: str, lost: bool) -> None:
    """Count one match under a seat name (a seat no player was known for)."""
    table = schema.stats
    key = (table.c.name == name, table.c.rules == rules)
    row = db.execute(select(table).where(*key)).first()
    if row is None:
        db.execute(insert(table).values(name=name, rules=rules, played=1, won=0,
                                        lost=int(lost)))
    else:
        db.execute(update(table).where(*key).values(played=row.played + 1,
                                                    lost=row.lost + int(lost)))


def _seat_player(db: Connection, seat: Row[Any]) -> str | None:
    """Who is rated for a seat: its player, or the bot level's player (made on first
    use); None for a human seat no player was known for."""
    if seat.kind != "bot":  # a merged guest's seat counts for its account
        if seat.player_id is None:
            return None
        row = db.execute(select(schema.players.c.merged_into)
                         .where(schema.players.c.id == seat.player_id)).first()
        if row is None:  # a pruned guest's seat, played again (a rematch)
            return None
        return str(row.merged_into or seat.player_id)
    player_id = bot_player(seat.level or "medium")
    if db.execute(select(schema.players.c.id)
                  .where(schema.players.c.id == player_id)).first() is None:
        _new_player(db, player_id, "bot", f"Bot ({seat.level or 'medium'})")
    return player_id


def _rate(db: Connection, placed: Sequence[tuple[str, int]]) -> None:
    """Rate one result: (player id, rank) pairs, each player once (its best rank)."""
    best: dict[str, int] = {}
    for player_id, rank in placed:
        best[player_id] = min(rank, best.get(player_id, rank))
    if len(best) < 2:
        return
    ids = list(best)
    rows = {r.id: r for r in db.execute(select(schema.players)
                                        .where(schema.players.c.id.in_(ids)))}
    before = [(rows[i].mu, rows[i].sigma) for i in ids]
    after = ratings.rate(before, [best[i] for i in ids])
    for player_id, (mu, sigma) in zip(ids, after, strict=True):
        db.execute(update(schema.players).where(schema.players.c.id == player_id)
                   .values(mu=mu, sigma=sigma, rated=rows[player_id].rated + 1))


def _seats(db: Connection, table_id: str) -> list[Row[Any]]:
    return list(db.execute(select(schema.seats).where(schema.seats.c.table_id == table_id)
                           .order_by(schema.seats.c.seat)))


def record_match(db: Connection, table_id: str, finished: Finished) -> set[int]:
    """Count a finished match for its players and rate it (inside the match's commit).
    Seats that left were counted when they left; a human seat its bot was playing at the
    end counts as lost. Returns the seats handled here or then, which the statistics
    per seat name skip."""
    handled: set[int] = set()
    placed: list[tuple[str, int]] = []
    counted: set[str] = set()
    for seat, line in zip(_seats(db, table_id), finished.results, strict=False):
        if seat.left is not None:
            handled.add(seat.seat)
            continue
        player_id = _seat_player(db, seat)
        if player_id is None:
            continue
        won, lost, rank = line.won, line.lost, 0 if line.won else 1
        if seat.kind == "human":
            handled.add(seat.seat)
            if seat.controller == "bot":  # its bot ended the match: never a win for them
                won, lost, rank = False, True, 2
        if player_id not in counted:
            counted.add(player_id)
            _bump(db, player_id, finished.rules, won, lost)
        placed.append((player_id, rank))
    _rate(db, placed)
    return handled


class PlayerStore:
    """Players, sessions and accounts in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._purged = 0.0  # when expired sessions were last purged

    # -- sessions -------------------------------------------------------------------
    def session(self, token_hash: str, policy: SessionPolicy, now: float
                ) -> Session | Expired | None:
        """The session of a cookie's hash (its use noted), :class:`Expired` when it is
        void by ``policy``, or None."""
        with self.engine.begin() as db:
            row = db.execute(select(schema.players, schema.sessions.c.csrf,
                                    schema.sessions.c.created.label("opened"),
                                    schema.sessions.c.last_seen)
                             .join(schema.sessions,
                                   schema.sessions.c.player_id == schema.players.c.id)
                             .where(schema.sessions.c.token_hash == token_hash)).first()
            if row is None:
                return None
            signed_in = row.account is not None
            reason = policy.expired(signed_in, row.opened, row.last_seen, now)
            if reason is not None:
                return Expired(reason)
            if now - row.last_seen > policy.touch_after(signed_in):
                db.execute(update(schema.sessions)
                           .where(schema.sessions.c.token_hash == token_hash)
                           .values(last_seen=now))
                _seen(db, row.id, now)
            return Session(_player(row), row.csrf)

    def purge_sessions(self, policy: SessionPolicy, now: float,
                       after: float = PURGE_AFTER) -> int:
        """Delete the sessions that expired more than ``after`` seconds before ``now``;
        how many."""
        sessions, players = schema.sessions, schema.players
        signed_in = select(players.c.id).where(players.c.account.is_not(None))
        guests = select(players.c.id).where(players.c.account.is_(None))
        with self.engine.begin() as db:
            done = db.execute(delete(sessions).where(
                sessions.c.player_id.in_(signed_in.scalar_subquery()),
                (sessions.c.created < now - policy.lifetime - after)
                | (sessions.c.last_seen < now - policy.idle - after))).rowcount
            done += db.execute(delete(sessions).where(
                sessions.c.player_id.in_(guests.scalar_subquery()),
                sessions.c.last_seen < now - policy.guest_idle - after)).rowcount
        self._purged = now
        return int(done)

    def prune_guests(self, retention: float, now: float, batch: int = PRUNE_BATCH,
                     batches: int = PRUNE_BATCHES) -> int:
        """Delete the guests :func:`prunable` (last seen ``retention`` seconds before
        ``now``), ``batch`` per transaction, at most ``batches`` transactions; their seats
        at finished tables keep the seat name only. How many were deleted."""
        players, seats, tables = schema.players, schema.seats, schema.tables
        done = 0
        for _ in range(batches):
            with self.engine.begin() as db:
                found = select(players.c.id).where(prunable(now - retention)) \
                    .order_by(players.c.last_seen, players.c.id).limit(batch)
                ids = list(db.execute(found).scalars())
                if not ids:
                    break
                gone = list(db.execute(delete(players).where(
                    players.c.id.in_(ids), prunable(now - retention))
                    .returning(players.c.id)).scalars())
                over = select(tables.c.id).where(tables.c.status == "over")
                if gone:
                    db.execute(update(seats).where(
                        seats.c.player_id.in_(gone),
                        seats.c.table_id.in_(over.scalar_subquery())).values(player_id=None))
                done += len(gone)
            if len(ids) < batch:
                break
        return done

    def purge_due(self, policy: SessionPolicy, now: float) -> None:
        """Purge expired sessions, then prune guests, if the last purge was
        :data:`PURGE_EVERY` ago."""
        if now - self._purged >= PURGE_EVERY:
            self.purge_sessions(policy, now)
            self.prune_guests(policy.guest_retention, now)

    def create_anonymous(self, token_hash: str, csrf: str) -> PlayerRow:
        """A new anonymous player with its first session."""
        player_id = secrets.token_urlsafe(12)
        with self.engine.begin() as db:
            _new_player(db, player_id, "human", f"Player {player_id[:4]}")
            self._open(db, player_id, token_hash, csrf)
            row = db.execute(select(schema.players)
                             .where(schema.players.c.id == player_id)).one()
            return _player(row)

    @staticmethod
    def _open(db: Connection, player_id: str, token_hash: str, csrf: str) -> None:
        now = time.time()
        db.execute(insert(schema.sessions).values(token_hash=token_hash, player_id=player_id,
                                                  csrf=csrf, created=now, last_seen=now))

    def end_session(self, token_hash: str) -> None:
        """Sign a browser out: its cookie is void."""
        with self.engine.begin() as db:
            db.execute(delete(schema.sessions)
                       .where(schema.sessions.c.token_hash == token_hash))

    def rename(self, player_id: str, name: str) -> None:
        """Change a player's display name (a label: several players may share one)."""
        with self.engine.begin() as db:
            db.execute(update(schema.players).where(schema.players.c.id == player_id)
                       .values(name=name))

    # -- accounts -------------------------------------------------------------------
    def sign_up(self, old_hash: str, account: str, password_hash: str, new_hash: str,
                csrf: str) -> None:
        """Give the session's anonymous player an account (its record stays its own) and
        replace the session by a new one; ``name_taken`` or ``has_account`` refuse."""
        try:
            with self.engine.begin() as db:
                row = db.execute(select(schema.players)
                                 .join(schema.sessions,
                                       schema.sessions.c.player_id == schema.players.c.id)
                                 .where(schema.sessions.c.token_hash == old_hash)).first()
                if row is None:
                    raise ServerError("no_session", "no session: reload the page")
                if row.account is not None:
                    raise ServerError("has_account", f"you are signed in as {row.account!r}: "
                                      "sign out first")
                db.execute(update(schema.players).where(schema.players.c.id == row.id)
                           .values(account=account, password_hash=password_hash))
                db.execute(delete(schema.sessions)
                           .where(schema.sessions.c.token_hash == old_hash))
                self._open(db, row.id, new_hash, csrf)
        except IntegrityError:
            raise ServerError("name_taken", f"the name {account!r} is taken") from None

    def password_of(self, account: str) -> tuple[str, str] | None:
        """An account's player id and password hash."""
        with self.engine.connect() as db:
            row = db.execute(select(schema.players.c.id, schema.players.c.password_hash)
                             .where(schema.players.c.account == account)).first()
            return None if row is None else (row.id, row.password_hash)

    def sign_in(self, player_id: str, old_hash: str | None, new_hash: str, csrf: str
                ) -> bool:
        """Open a session for an account's player; the browser's old session ends, and a
        guest it was is merged into the account (:mod:`.guest_merge`), all in one
        transaction. Whether a guest was merged."""
        merged = False
        with self.engine.begin() as db:
            if old_hash is not None:
                was = db.execute(select(schema.sessions.c.player_id)
                                 .where(schema.sessions.c.token_hash == old_hash)).scalar()
                db.execute(delete(schema.sessions)
                           .where(schema.sessions.c.token_hash == old_hash))
                if was is not None:
                    merged = guest_merge.merge_guest(db, str(was), player_id)
                    if merged:  # its pointer is kept a retention period from now
                        _seen(db, str(was), time.time())
            self._open(db, player_id, new_hash, csrf)
            _seen(db, player_id, time.time())
        return merged

    # -- records --------------------------------------------------------------------
    def profile(self, player_id: str) -> tuple[PlayerRow, dict[str, tuple[int, int, int]]] | None:
        """A player and its results per rule set (played, won, lost); a merged guest's
        are its account's."""
        with self.engine.connect() as db:
            player_id = guest_merge.current_player(db, player_id)
            row = db.execute(select(schema.players)
                             .where(schema.players.c.id == player_id)).first()
            if row is None:
                return None
            lines = db.execute(select(schema.player_stats)
                               .where(schema.player_stats.c.player_id == player_id)
                               .order_by(schema.player_stats.c.rules))
            return _player(row), {r.rules: (r.played, r.won, r.lost) for r in lines}

    def leaderboard(self, limit: int) -> list[tuple[PlayerRow, int, int]]:
        """The rated players, best first: (player, matches played, won)."""
        played = (select(schema.player_stats.c.player_id,
                         func.sum(schema.player_stats.c.played).label("played"),
                         func.sum(schema.player_stats.c.won).label("won"))
                  .group_by(schema.player_stats.c.player_id).subquery())
        shown = schema.players.c.mu - 3 * schema.players.c.sigma
        with self.engine.connect() as db:
            rows = db.execute(select(schema.players, played.c.played, played.c.won)
                              .outerjoin(played, played.c.player_id == schema.players.c.id)
                              .where(schema.players.c.rated > 0)
                              .order_by(shown.desc(), schema.players.c.id).limit(limit))
            return [(_player(r), int(r.played or 0), int(r.won or 0)) for r in rows]

    # -- leaving a match --------------------------------------------------------------
    def resign(self, table_id: str, seat: SeatRow, rules: str) -> None:
        """Store that ``seat`` left its match (its ``left`` and ``controller`` as given)
        and count the match as lost for its player, rated below every other seat still
        in it, in one transaction."""
        with self.engine.begin() as db:
            count_resignation(db, table_id, seat, rules)


def count_resignation(db: Connection, table_id: str, seat: SeatRow, rules: str) -> None:
    """In ``db``'s transaction: what :meth:`PlayerStore.resign` stores (the server runs it
    in the same transaction as the fenced seat write)."""
    db.execute(update(schema.seats)
               .where(schema.seats.c.table_id == table_id,
                      schema.seats.c.seat == seat.seat)
               .values(controller=seat.controller, left=seat.left))
    others: list[tuple[str, int]] = []
    mine: str | None = None
    for row in _seats(db, table_id):
        if row.seat == seat.seat:
            mine = _seat_player(db, row)
        elif row.left is None and (player_id := _seat_player(db, row)) is not None:
            others.append((player_id, 0))
    if mine is None:
        if seat.name:
            _bump_name(db, seat.name, rules, lost=True)
        return
    _bump(db, mine, rules, won=False, lost=True)
    _rate(db, [(p, r) for p, r in others if p != mine] + [(mine, 1)])
