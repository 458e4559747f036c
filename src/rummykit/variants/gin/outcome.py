"""The gin facts of a finished hand beyond the core result (FORMATS.md §4.3)."""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.core.outcome import HandResult

#: FORMATS.md §4.3 reasons
KNOCK = "knock"
GIN = "gin"
BIG_GIN = "big_gin"
UNDERCUT = "undercut"
DEAD_HAND = "dead_hand"
REPEATED_MOVE = "repeated_move"
UPCARD_LIMIT = "upcard_limit"
KNOCK_TIE = "knock_tie"
MAX_TURNS = "max_turns"


@dataclass(frozen=True, slots=True)
class GinOutcome:
    """Who knocked, the hand's knock limit and multiplier, and the counted deadwood.

    ``deadwood`` is ``(seat 0, seat 1)`` after the show, or None when nobody knocked.
    """

    knocker: int | None
    knock_limit: int
    multiplier: int
    deadwood: tuple[int, int] | None

    def to_json(self) -> dict[str, object]:
        """The gin fields of a replay hand object."""
        return {"knocker": self.knocker, "knock_limit": self.knock_limit,
                "multiplier": self.multiplier,
                "deadwood": None if self.deadwood is None else list(self.deadwood)}


def hand_json(result: HandResult, outcome: GinOutcome) -> dict[str, object]:
    """The whole gin hand object of the replay output (FORMATS.md §4.3)."""
    return {**result.to_json(), **outcome.to_json()}
