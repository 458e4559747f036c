"""What a family asks the speed benchmark to measure: its tables and its own decisions.

A family's folder may hold a ``benchmarks.py`` whose ``WORKLOADS`` is a
:class:`Workloads`; :mod:`rummykit.benchmark.workloads` reads it for every registered
family, in registration order, so adding a family adds no benchmark code outside its
folder. The tables (a rule set at a player count) are of families on the engine's
``Rules`` (:class:`~rummykit.core.engine.HandState`); a family with its own hand type
declares none yet (gin's measures are :mod:`rummykit.benchmark.gin_hand`'s).

>>> Table("basic", 2).label
'basic 2p'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: (kind, position) pairs and how many hands were played to find them
Positions = tuple[Sequence[tuple[str, Any]], int]


@dataclass(frozen=True, slots=True)
class Table:
    """A rule set played by a number of players."""

    rule_set: str
    players: int

    @property
    def label(self) -> str:
        """How measure titles name it: ``basic 2p``."""
        return f"{self.rule_set} {self.players}p"


@dataclass(frozen=True, slots=True)
class DecisionWorkload:
    """A family's own decision, timed once per position in CPU time (lower is better):
    the benchmark reports the median and the worst, each against its target."""

    name: str  # the measure's name, e.g. "completability"
    about: str  # what is timed, for the goals' titles: "completability after a dig or swap"
    table: Table
    decisions: int  # positions timed in a full run (a quick run times a tenth)
    positions: Callable[[int, int], Positions]  # (count, seed) -> positions, hands played
    decide: Callable[[Any], object]  # the decision; a true result counts as "yes"
    kinds: tuple[str, ...]  # the kinds of position ``positions`` gives
    yes: str  # the params' name for the count of true results, e.g. "finishable"
    note: str
    median_target_us: float
    worst_target_us: float


@dataclass(frozen=True, slots=True)
class Workloads:
    """Everything one family asks the benchmark to measure."""

    #: random playouts (hands/s and moves/s)
    playouts: tuple[Table, ...] = ()
    #: where the mid-hand positions of legal-move generation and push/pop come from
    positions: tuple[Table, ...] = ()
    #: the table compared with the anchors (OpenSpiel's and RLCard's gin rummy): copy,
    #: min deadwood, greedy hands, the ratios; exactly one family declares it
    reference: Table | None = None
    decisions: tuple[DecisionWorkload, ...] = ()
