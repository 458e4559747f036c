"""What a search bot found: candidate moves with their estimated values (for hints)."""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.core.moves import Move


@dataclass(frozen=True, slots=True)
class Candidate:
    """One legal move and what the simulations said of it.

    ``value`` is the mean hand score for the seat over the simulations, in the rule set's
    points: positive is good (points won minus the average points the others won; under
    penalty scoring, the others' mean penalty minus the seat's). ``win_rate`` is the share
    of the simulations in which the seat won the hand.
    """

    move: Move
    value: float
    win_rate: float
    simulations: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """The candidates of one decision, best first, and the search effort spent."""

    seat: int
    candidates: tuple[Candidate, ...]
    simulations: int
    seconds: float

    @property
    def best(self) -> Move:
        """The recommended move."""
        return self.candidates[0].move
