"""What a search bot found: candidate moves with their estimated values (for hints)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

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


class CandidateLike(Protocol):
    """A candidate of any family's search (its move is the family's own)."""

    @property
    def move(self) -> Any: ...

    @property
    def value(self) -> float: ...

    @property
    def win_rate(self) -> float: ...

    @property
    def simulations(self) -> int: ...


class AnalysisLike(Protocol):
    """An analysis of any family's search: candidates best first, the effort spent."""

    @property
    def candidates(self) -> Sequence[CandidateLike]: ...

    @property
    def simulations(self) -> int: ...


def analysis_lines(found: AnalysisLike, level: str, arrangement: object, top: int) -> list[str]:
    """The recommended move, the ``top`` candidates (at least one), the search effort and
    the best arrangement of the hand, as the hint faces print them."""
    best = found.candidates[0].move
    if found.simulations == 0:  # forced, or the only move the search would consider
        return [f"Recommended: {best}",
                f"  (the only move worth considering at level {level}: no simulations)",
                f"Best arrangement: {arrangement}"]
    shown = found.candidates[:max(top, 1)]
    width = max([4, *(len(str(c.move)) for c in shown)])
    lines = [f"Recommended: {best}",
             f"Candidates (level {level}, {found.simulations} simulations in all):",
             f"      {'move':<{width}}   win  points/hand  simulations"]
    for rank, candidate in enumerate(shown, 1):
        lines.append(f"  {rank:>2}. {candidate.move!s:<{width}}  {candidate.win_rate:>4.0%}  "
                     f"{candidate.value:>+11.1f}  {candidate.simulations:>11}")
    if len(found.candidates) > len(shown):
        lines.append(f"  ... {len(found.candidates) - len(shown)} more")
    lines.append(f"Best arrangement: {arrangement}")
    return lines
