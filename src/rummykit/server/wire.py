"""Wire schemas: the JSON messages and HTTP bodies, separate from the engine's types.

Every message from a client is parsed here at the edge (:data:`CLIENT_MESSAGE`); every
message to a client is one of the ``*Out`` models below. Cards are in the notation of
RULES.md §1.2 and moves in FORMATS.md §1.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
)

from rummykit.display.terms import DEFAULT_RULE_SET
from rummykit.variants.registry import all_rule_set_names

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40,
                                        pattern=r"^[^\x00-\x1f\x7f]+$")]
Token = Annotated[str, StringConstraints(min_length=1, max_length=100)]
TableId = Annotated[str, StringConstraints(min_length=1, max_length=40)]


def _registered(name: str) -> str:
    if name not in all_rule_set_names():
        raise ValueError(f"unknown rule set {name!r}: expected one of "
                         f"{', '.join(all_rule_set_names())}")
    return name


#: a registered rule set's name (``basic``, ``contract``, ...)
RuleSetName = Annotated[str, StringConstraints(max_length=40), AfterValidator(_registered)]


class Strict(BaseModel):
    """A message with no unknown fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# -- client to server (WebSocket) -----------------------------------------------------

#: the protocol version from which the server may send several messages in one frame, as
#: a JSON array (docs/protocol.md, Batches)
BATCHES = 2


class Hello(Strict):
    """The first message: a seat token (a player) or a table id (a spectator), the last
    version seen (``null`` on a first connection), and the protocol version the client
    speaks (1 by default; 2: it takes batches)."""

    type: Literal["hello"]
    token: Token | None = None
    table: TableId | None = None
    version: int | None = Field(default=None, ge=0)
    protocol: int = Field(default=1, ge=1, le=1000)


class MoveIn(Strict):
    """A move in notation, made against ``version``; ``ack`` comes back in the reply."""

    type: Literal["move"]
    move: Annotated[str, StringConstraints(min_length=1, max_length=300)]
    version: int = Field(ge=0)
    ack: int = Field(ge=0, le=2**53)


class Ping(Strict):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


class SyncIn(Strict):
    """Ask for a full resync."""

    type: Literal["sync"]


class Rematch(Strict):
    """Ask for a new match at the same table once the match is over."""

    type: Literal["rematch"]


class Leave(Strict):
    """Leave the seat: a bot plays it until the token is used again."""

    type: Literal["leave"]


class Resign(Strict):
    """Resign the match: it counts as lost, and the seat's bot plays on for the others."""

    type: Literal["resign"]


ClientMessage = Annotated[Hello | MoveIn | Ping | SyncIn | Rematch | Leave | Resign,
                          Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "move", "ping", "sync", "rematch", "leave", "resign")


# -- what a viewer sees ---------------------------------------------------------------

class MeldOut(Strict):
    """A meld on the table, numbered from 1 in the order placed (``lay X on N``)."""

    number: int
    kind: str
    cards: list[str]
    placed_by: list[int]


class ResultOut(Strict):
    """How a hand ended (FORMATS.md §3)."""

    result: str
    winner: int | None
    rummy: bool
    reason: str | None
    scores: list[int]


class ContractOut(Strict):
    """Contract rummy: what the deal asks for to go down (RULES.md), and in words."""

    sets: int
    runs: int
    words: str


class FactOut(Strict):
    """One fact of the deal in play, as its rule family states it: ``Contract: 2 sets``."""

    label: str
    value: str


class ViewOut(Strict):
    """One viewer's view of the current hand: exactly a ``PlayerView`` in wire form.

    ``seat`` is null for spectators (no hand, no legal moves); ``revealed`` holds every
    hand once the hand is over, else null; ``contract`` is the deal's contract (in rule
    sets with contracts, else null); ``facts`` are what the rule family shows about the
    deal (its contract, ...), in words.
    """

    rules: str
    seat: int | None
    hand_number: int
    dealer: int
    to_move: int
    phase: str
    hand: list[str]
    hand_sizes: list[int]
    table: list[MeldOut]
    discard: list[str]
    stock_size: int
    known: list[list[str]]
    discarded: list[list[str]]
    taken: str | None
    turn_count: int
    rebuilds: int
    down: list[int]
    result: ResultOut | None
    revealed: list[list[str]] | None
    contract: ContractOut | None
    facts: list[FactOut] = Field(default_factory=list)


class SeatOut(Strict):
    """A seat as everyone may see it."""

    seat: int
    name: str | None
    kind: Literal["human", "bot"]
    level: str | None
    controller: Literal["human", "bot", "open"]
    connected: bool
    #: the player left the match (``resigned``, or ``absent`` past the grace period):
    #: the match counts as lost for them and the seat's bot plays on
    left: Literal["resigned", "absent"] | None = None
    #: while the seat's player is away: when (Unix seconds) the absence becomes a
    #: resignation
    away_until: float | None = None


class MatchOut(Strict):
    """The match in progress at a table: its number, hands, totals and winners; ``hands``
    holds each finished hand's result and points (FORMATS.md §3), in order."""

    number: int
    hands_played: int
    hands: list[ResultOut]
    totals: list[int]
    over: bool
    winners: list[int]


class TableOut(Strict):
    """Public facts about a table (lobby, spectators)."""

    id: str
    rules: str
    options: dict[str, Any]
    status: Literal["waiting", "playing", "over"]
    version: int
    seats: list[SeatOut]
    match: MatchOut | None
    rematch_votes: list[int]
    private: bool = False


# -- server to client (WebSocket) -----------------------------------------------------

class Welcome(Strict):
    """Reply to ``hello``: who you are at which table."""

    type: Literal["welcome"] = "welcome"
    table: str
    seat: int | None
    role: Literal["player", "spectator"]


class EventOut(Strict):
    """A versioned event filtered for its recipient: ``deal`` (a hand starts) or ``move``
    (``seat`` made ``move``), with the recipient's view after it and its legal moves."""

    type: Literal["event"] = "event"
    version: int
    kind: Literal["deal", "move"]
    seat: int | None
    move: str | None
    #: the move was made by the seat's bot (for a player who left, or before arriving)
    bot: bool = False
    match: MatchOut
    view: ViewOut | FamilyView
    legal: list[str]


class LoggedMove(Strict):
    """A move of the current hand: the version of its event, who made it, the move in
    canonical notation (public: ``draw`` names no card)."""

    version: int
    seat: int
    move: str
    bot: bool = False


#: a family's own view in wire form (a family with its own hand type, such as gin: see
#: :mod:`rummykit.server.faces`); its ``kind`` names the face that draws it
FamilyView = dict[str, Any]


class SyncOut(Strict):
    """A full resync: the table, the recipient's view and legal moves (null view before
    the first deal), and the current hand's moves so far."""

    type: Literal["sync"] = "sync"
    version: int
    table: TableOut
    view: ViewOut | FamilyView | None
    legal: list[str]
    log: list[LoggedMove]


class SeatsOut(Strict):
    """Seats changed (joined, connected, left, taken over by a bot); not versioned."""

    type: Literal["seats"] = "seats"
    seats: list[SeatOut]
    rematch_votes: list[int]


class Ack(Strict):
    """The move with this ``ack`` id was committed as ``version``."""

    type: Literal["ack"] = "ack"
    ack: int
    version: int


class ErrorOut(Strict):
    """A refused message: a stable ``code`` and the reason; ``ack`` echoes a move's id."""

    type: Literal["error"] = "error"
    code: str
    message: str
    ack: int | None = None


class Pong(Strict):
    """Reply to ``ping``."""

    type: Literal["pong"] = "pong"


# -- HTTP -----------------------------------------------------------------------------

class SeatSpec(Strict):
    """A seat of a new table: a human (named, or open for the lobby) or a bot."""

    kind: Literal["human", "bot"]
    name: Name | None = None
    level: str | None = None


class CreateTable(Strict):
    """``POST /api/tables``."""

    rules: RuleSetName = DEFAULT_RULE_SET
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=2, max_length=8)
    seed: int | None = Field(default=None, ge=0, le=2**63)
    #: not listed in the lobby; by default a table is private when no seat is open
    private: bool | None = None


class SeatToken(Strict):
    """A seat's secret token: keep it private, it is the seat's key."""

    seat: int
    name: str
    token: str


class Created(Strict):
    """Reply to ``POST /api/tables``: the public id and the tokens of the named seats."""

    table: TableOut
    tokens: list[SeatToken]


class JoinTable(Strict):
    """``POST /api/tables/{id}/join``: take an open seat under this name."""

    name: Name


class HintOut(Strict):
    """``GET /api/tables/{id}/hint``: advice for the seat to move, from its own view only:
    the recommended move in notation, the same in words (one line), and the search's
    findings (``rummykit hint``'s lines)."""

    move: str
    text: str
    lines: list[str]


class SeatOfToken(Strict):
    """``GET /api/seats/{token}``: where a token sits."""

    table: str
    seat: int
    name: str


class StatLine(Strict):
    """Matches played, won and lost under one rule set."""

    played: int
    won: int
    lost: int


class PlayerStats(Strict):
    """``GET /api/stats/{name}``: a player's results per rule set."""

    name: str
    rules: dict[str, StatLine]


class TermsOut(Strict):
    """The words of a rule set: its title, what a hand is called, what a score means."""

    title: str
    hand: str
    hands: str
    score: str
    lowest_wins: bool
    match: str
    #: what a seat that has laid its contract is ("down"); empty where there is none
    down: str
    #: show who placed each table card (not where melds belong to nobody)
    meld_owners: bool


class OptionOut(Strict):
    """An option the lobby offers for a rule set: one knob, its kind and bounds; a
    ``preset`` sets ``sets[i]`` in ``options`` for ``choices[i]`` (``knob`` names the
    control)."""

    knob: str
    label: str
    kind: Literal["bool", "int", "choice", "preset"]
    default: Any
    choices: list[Any]
    minimum: int | None
    maximum: int | None
    help: str
    sets: list[dict[str, Any]] = Field(default_factory=list)


class RuleSetOut(Strict):
    """``GET /api/rule-sets``: one registered rule set as its family describes it.

    ``players`` is the range of player counts; ``knobs`` every knob's preset value in the
    JSON form of ``options`` (RULES.md §5.1); ``help`` the rules for players, as text.
    """

    name: str
    family: str
    players: tuple[int, int]
    terms: TermsOut
    options: list[OptionOut]
    knobs: dict[str, Any]
    help: str
    #: the bot levels a seat of this rule set may have, and the one a new seat gets
    bots: list[str] = Field(default_factory=list)
    default_bot: str = "medium"


class ReplayCreated(Strict):
    """Reply to ``POST /api/replays``."""

    id: str
    frames: int


class Frame(Strict):
    """One step of a record: after ``move`` by ``seat`` (null at a deal); ``hands`` holds
    every seat's cards when all seats were asked for (``?seat=all``), else null."""

    index: int
    hand_index: int
    seat: int | None
    move: str | None
    view: ViewOut | FamilyView
    totals: list[int]
    hands: list[list[str]] | None = None


class ReplayOut(Strict):
    """``GET /api/replays/{id}`` (``id``: the upload's) and ``GET
    /api/tables/{id}/matches/{n}/replay`` (``id``: ``TABLE-n``): the frames of a record
    for one viewer, or for all seats."""

    id: str
    players: list[str]
    rules: str
    frames: list[Frame]
    result: dict[str, Any]
