"""Frozen results of a hand (RULES.md §1.10, FORMATS.md §3)."""

from __future__ import annotations

from dataclasses import dataclass

WIN = "win"
DRAW = "draw"
ABORTED = "aborted"
STOCK_EXHAUSTED = "stock_exhausted"
DEADLOCK = "deadlock"
BLOCKED = "blocked"
MAX_TURNS = "max_turns"


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and the points it added to each seat's total."""

    result: str
    winner: int | None
    rummy: bool
    reason: str | None
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        """The per-hand object of the replay output (FORMATS.md §3)."""
        return {"result": self.result, "winner": self.winner, "rummy": self.rummy,
                "reason": self.reason, "scores": list(self.scores)}
