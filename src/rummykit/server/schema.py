"""The database tables (SQLAlchemy Core). Changes go through an Alembic migration."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

#: one row per table: its rules and where it stands
tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("rules", String(32), nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("status", String(16), nullable=False, index=True),  # waiting, playing, over
    Column("match_no", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("seed", BigInteger, nullable=True),
    Column("created", Float, nullable=False),
    #: not listed in the lobby (reached by its id or a seat's link only)
    Column("private", Boolean, nullable=False, server_default=false()),
    #: seat changes so far: a seat update is a compare-and-set on it (and on ``version``)
    Column("seats_version", Integer, nullable=False, server_default="0"),
)

#: the seats of a table; a human seat's token is kept only as its SHA-256
seats = Table(
    "seats", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human, bot
    Column("name", String(64), nullable=True),
    Column("level", String(16), nullable=True),
    Column("token_hash", String(64), nullable=True, unique=True),
    Column("controller", String(8), nullable=False),  # human, bot, open
    #: the player (``players.id``) who sits there, once known
    Column("player_id", String(32), nullable=True),
    #: ``resigned`` or ``absent`` (away past the grace period): the seat's bot plays on
    Column("left", String(8), nullable=True),
)

#: the event log: a deal (the pack's order) or a move, with any stock rebuilds it caused;
#: the current match's events are its game record
events = Table(
    "events", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("match_no", Integer, nullable=False),
    Column("kind", String(8), nullable=False),  # deal, move
    Column("data", Text, nullable=False),  # JSON
)

#: finished matches as .rummy.json records
matches = Table(
    "matches", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("match_no", Integer, primary_key=True),
    Column("record", Text, nullable=False),
    Column("finished", Float, nullable=False),
)

#: results per player name and rule set
stats = Table(
    "stats", metadata,
    Column("name", String(64), primary_key=True),
    Column("rules", String(32), primary_key=True),
    Column("played", Integer, nullable=False),
    Column("won", Integer, nullable=False),
    Column("lost", Integer, nullable=False),
)

#: a player: anonymous (a browser's secret) or with an account; bots are players too
#: (``bot-LEVEL``); the rating is OpenSkill's (mu, sigma), ``rated`` the matches counted
players = Table(
    "players", metadata,
    Column("id", String(32), primary_key=True),
    Column("kind", String(8), nullable=False),  # human, bot
    Column("name", String(64), nullable=False),
    Column("account", String(40), nullable=True, unique=True),
    Column("password_hash", Text, nullable=True),
    Column("created", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rated", Integer, nullable=False, server_default="0", index=True),
    #: a guest merged into an account when its browser signed in: that account's id
    Column("merged_into", String(32), nullable=True),
    #: when the player was last seen (a session used; created, merged, signed in): a
    #: guest unseen for ``guest_retention_seconds`` with nothing to keep it is pruned
    Column("last_seen", Float, nullable=True, index=True),
)

#: a browser's session (its cookie's SHA-256) and the CSRF token its writes must carry
sessions = Table(
    "sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False, index=True),
    Column("csrf", String(64), nullable=False),
    Column("created", Float, nullable=False),
    #: when it was last used (kept to within a fraction of the idle timeout)
    Column("last_seen", Float, nullable=False, server_default="0"),
)

#: results per player and rule set
player_stats = Table(
    "player_stats", metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("rules", String(32), primary_key=True),
    Column("played", Integer, nullable=False),
    Column("won", Integer, nullable=False),
    Column("lost", Integer, nullable=False),
)

#: records uploaded for watching
replays = Table(
    "replays", metadata,
    Column("id", String(32), primary_key=True),
    Column("record", Text, nullable=False),
    Column("created", Float, nullable=False),
    #: ``checking`` (being replayed), ``ok`` (accepted) or ``refused`` (``error`` says why)
    Column("status", String(16), nullable=False, server_default="ok"),
    Column("frames", Integer, nullable=True),
    Column("error", Text, nullable=True),
)
