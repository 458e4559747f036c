"""Wire schemas of players: who you are, accounts, records and the leaderboard."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import StringConstraints

from rummykit.server.wire import Name, StatLine, Strict

Password = Annotated[str, StringConstraints(min_length=1, max_length=200)]
AccountName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                               max_length=40)]


class MeOut(Strict):
    """``GET /api/me``: this browser's player (an anonymous one is made on the first
    visit), the CSRF token its writes carry in ``X-CSRF-Token``, its rating and results.
    ``id`` is public (the leaderboard shows it); the session cookie is the secret."""

    id: str
    name: str
    account: str | None
    csrf: str
    rating: float
    rated: int
    rules: dict[str, StatLine]
    #: set once, on the reply that replaced an expired session by a new guest's: why it
    #: expired (``idle``: signed in but unused too long; ``lifetime``: signed in too long
    #: ago; ``guest_idle``: a guest's session unused too long)
    expired: Literal["idle", "lifetime", "guest_idle"] | None = None
    #: set on a sign-in's reply when this browser's guest record was merged into the
    #: account (its matches, results and rating)
    merged: bool = False


class Rename(Strict):
    """``PUT /api/me/name``: the display name (a label; names are not unique)."""

    name: Name


class Credentials(Strict):
    """``POST /api/account/signup`` and ``/signin``: a sign-in name and a password."""

    name: AccountName
    password: Password


class PlayerOut(Strict):
    """``GET /api/players/{id}``: a player's public record."""

    id: str
    name: str
    kind: Literal["human", "bot"]
    account: bool
    rating: float
    rated: int
    rules: dict[str, StatLine]


class LeaderLine(Strict):
    """One line of ``GET /api/leaderboard``: rated players, best first."""

    rank: int
    id: str
    name: str
    kind: Literal["human", "bot"]
    rating: float
    mu: float
    sigma: float
    rated: int
    played: int
    won: int
