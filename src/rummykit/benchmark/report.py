"""Measures, ratios against the anchors, targets, and how they are shown (Rich or JSON)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from rummykit.benchmark import workloads

OURS = "rummykit"
OPENSPIEL = "openspiel"
RLCARD = "rlcard"
PETTINGZOO = "pettingzoo"

Params = dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class Measure:
    """One figure: ``value`` ``unit`` for ``name`` on ``engine``, with how it was obtained.

    >>> m = Measure(name="copy", engine="rummykit", unit="copies/s", value=2.5, params={})
    >>> m.matches("copy", "rummykit"), m.matches("copy", "openspiel")
    (True, False)
    """

    name: str
    engine: str
    unit: str
    value: float
    params: Params = field(default_factory=dict)

    def matches(self, name: str, engine: str, where: Mapping[str, Any] | None = None) -> bool:
        """Whether this is measure ``name`` of ``engine`` with every param in ``where``."""
        if self.name != name or self.engine != engine:
            return False
        return all(self.params.get(k) == v for k, v in (where or {}).items())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "engine": self.engine,
            "unit": self.unit,
            "value": self.value,
            "params": self.params,
        }


@dataclass(frozen=True, kw_only=True)
class Selector:
    """Picks one measure out of a run."""

    name: str
    engine: str
    where: Mapping[str, Any] = field(default_factory=dict)

    def find(self, measures: Sequence[Measure]) -> Measure | None:
        for m in measures:
            if m.matches(self.name, self.engine, self.where):
                return m
        return None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "engine": self.engine, "params": dict(self.where)}


@dataclass(frozen=True, kw_only=True)
class RatioSpec:
    """``ours / theirs``, with the ratio we aim for."""

    title: str
    ours: Selector
    theirs: Selector
    target: float


@dataclass(frozen=True, kw_only=True)
class GoalSpec:
    """An absolute target for one of our measures (a floor, or a ceiling with ``at_most``)."""

    title: str
    measure: Selector
    target: float
    at_most: bool = False

    def met(self, value: float) -> bool:
        return value <= self.target if self.at_most else value >= self.target


#: the table compared with the anchors, as a measure's params
_REFERENCE = workloads.reference()
_AT_REFERENCE = {"rules": _REFERENCE.rule_set, "players": _REFERENCE.players}

RATIOS: tuple[RatioSpec, ...] = (
    RatioSpec(
        title=f"random playout moves/s: {_REFERENCE.label} vs OpenSpiel gin_rummy",
        ours=Selector(name="random_playout_moves", engine=OURS, where=_AT_REFERENCE),
        theirs=Selector(name="random_playout_moves", engine=OPENSPIEL),
        target=2.0,
    ),
    RatioSpec(
        title="min deadwood, 10-card hands: vs OpenSpiel (C++)",
        ours=Selector(name="min_deadwood", engine=OURS, where={"cards": 10}),
        theirs=Selector(name="min_deadwood", engine=OPENSPIEL, where={"cards": 10}),
        target=1.0,
    ),
    RatioSpec(
        title="min deadwood, 10-card hands: vs RLCard",
        ours=Selector(name="min_deadwood", engine=OURS, where={"cards": 10}),
        theirs=Selector(name="min_deadwood", engine=RLCARD, where={"cards": 10}),
        target=15.0,
    ),
    RatioSpec(
        title="copy() vs OpenSpiel clone(), mid-hand 2p",
        ours=Selector(name="copy", engine=OURS),
        theirs=Selector(name="copy", engine=OPENSPIEL),
        target=20.0,
    ),
    RatioSpec(
        title=f"env steps/s, random legal actions: PettingZoo {_REFERENCE.label} vs "
              "gin_rummy_v4",
        ours=Selector(name="env_steps", engine=OURS, where=_AT_REFERENCE),
        theirs=Selector(name="env_steps", engine=PETTINGZOO),
        target=5.0,
    ),
    RatioSpec(
        title=f"env steps/s, random legal actions: PettingZoo {_REFERENCE.label} vs "
              "RLCard gin env",
        ours=Selector(name="env_steps", engine=OURS, where=_AT_REFERENCE),
        theirs=Selector(name="env_steps", engine=RLCARD),
        target=2.0,
    ),
)

#: gin (issue 18): the same game on both sides, our hand under the OpenSpiel profile
#: (our measures: :mod:`.gin_hand` and :mod:`.gin`)
GIN_RATIOS: tuple[RatioSpec, ...] = (
    RatioSpec(
        title="gin random playout moves/s: ours vs OpenSpiel gin_rummy (Python loop)",
        ours=Selector(name="gin_random_playout_moves", engine=OURS,
                      where={"rules": "openspiel profile"}),
        theirs=Selector(name="gin_os_random_playout_moves", engine=OPENSPIEL),
        target=3.0,
    ),
    RatioSpec(
        title="gin random playout hands/s: ours vs OpenSpiel all-C++ random games",
        ours=Selector(name="gin_random_playout_hands", engine=OURS,
                      where={"rules": "openspiel profile"}),
        theirs=Selector(name="gin_cpp_random_hands", engine=OPENSPIEL),
        target=1.0,
    ),
    RatioSpec(
        title="gin random playout hands/s: ours vs OpenSpiel gin_rummy (Python loop)",
        ours=Selector(name="gin_random_playout_hands", engine=OURS,
                      where={"rules": "openspiel profile"}),
        theirs=Selector(name="gin_os_random_playout_hands", engine=OPENSPIEL),
        target=1.0,
    ),
    RatioSpec(
        title="gin random playout hands/s: ours vs RLCard gin-rummy",
        ours=Selector(name="gin_random_playout_hands", engine=OURS,
                      where={"rules": "openspiel profile"}),
        theirs=Selector(name="random_playout_hands", engine=RLCARD),
        target=1.0,
    ),
    RatioSpec(
        title="gin min deadwood, 10 cards: ours vs OpenSpiel (C++)",
        ours=Selector(name="gin_min_deadwood", engine=OURS),
        theirs=Selector(name="gin_min_deadwood", engine=OPENSPIEL),
        target=1.0,
    ),
    RatioSpec(
        title="gin min deadwood, 10 cards: ours vs RLCard",
        ours=Selector(name="gin_min_deadwood", engine=OURS),
        theirs=Selector(name="gin_min_deadwood", engine=RLCARD),
        target=15.0,
    ),
    RatioSpec(
        title="gin knock test (OpenSpiel MinDeadwood), 11 cards: ours vs OpenSpiel (C++)",
        ours=Selector(name="gin_knock_test", engine=OURS),
        theirs=Selector(name="gin_knock_test", engine=OPENSPIEL),
        target=1.0,
    ),
)
RATIOS = RATIOS + GIN_RATIOS

def _decision_goals() -> tuple[GoalSpec, ...]:
    """The median and the worst time of each family's own decision (:mod:`.workloads`)."""
    return tuple(
        GoalSpec(title=f"{work.about}, {work.table.label}: {statistic} (us per decision)",
                 measure=Selector(name=work.name, engine=OURS,
                                  where={"statistic": statistic}),
                 target=target, at_most=True)
        for work in workloads.decisions()
        for statistic, target in (("median", work.median_target_us),
                                  ("worst", work.worst_target_us)))


GOALS: tuple[GoalSpec, ...] = (
    GoalSpec(
        title=f"greedy vs greedy, {_REFERENCE.label} hands/s",
        measure=Selector(name="greedy_hands", engine=OURS),
        target=300.0,
    ),
    GoalSpec(
        title=f"observation build, {_REFERENCE.label} (us per observation)",
        measure=Selector(name="observation_build", engine=OURS, where=_AT_REFERENCE),
        target=20.0,
        at_most=True,
    ),
    *_decision_goals(),
)


def ratios_json(measures: Sequence[Measure]) -> list[dict[str, Any]]:
    """Every ratio in :data:`RATIOS`; ``value`` and ``met`` are null when a side is missing."""
    out: list[dict[str, Any]] = []
    for spec in RATIOS:
        ours, theirs = spec.ours.find(measures), spec.theirs.find(measures)
        value = ours.value / theirs.value if ours and theirs and theirs.value > 0 else None
        out.append(
            {
                "name": spec.title,
                "ours": spec.ours.to_json(),
                "theirs": spec.theirs.to_json(),
                "ours_value": ours.value if ours else None,
                "theirs_value": theirs.value if theirs else None,
                "value": value,
                "target": spec.target,
                "met": None if value is None else value >= spec.target,
            }
        )
    return out


def goals_json(measures: Sequence[Measure]) -> list[dict[str, Any]]:
    """Every goal in :data:`GOALS`; ``value`` and ``met`` are null when the measure is missing."""
    out: list[dict[str, Any]] = []
    for spec in GOALS:
        m = spec.measure.find(measures)
        out.append(
            {
                "name": spec.title,
                "measure": spec.measure.to_json(),
                "value": m.value if m else None,
                "target": spec.target,
                "at_most": spec.at_most,
                "met": None if m is None else spec.met(m.value),
            }
        )
    return out


@dataclass(kw_only=True)
class Report:
    """Everything one run found."""

    config: Params
    environment: Params
    measures: list[Measure] = field(default_factory=list)
    #: engines not measured at all, with why (e.g. the ``anchors`` extra is missing)
    skipped: list[Params] = field(default_factory=list)
    #: measures that raised
    errors: list[Params] = field(default_factory=list)
    #: cross-checks between engines (informative, not targets)
    checks: list[Params] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "config": self.config,
            "environment": self.environment,
            "measures": [m.to_json() for m in self.measures],
            "ratios": ratios_json(self.measures),
            "goals": goals_json(self.measures),
            "checks": self.checks,
            "skipped": self.skipped,
            "errors": self.errors,
        }

    def write_json(self, out: TextIO) -> None:
        json.dump(self.to_json(), out, indent=2)
        out.write("\n")

    def write_text(self, out: TextIO) -> None:
        """Rich tables (plain text when ``out`` is not a terminal)."""
        from rich.console import Console
        from rich.table import Table

        console = Console(file=out)
        if not console.is_terminal:
            console.width = 120
        table = Table(title="rummykit benchmark", title_justify="left")
        table.add_column("engine")
        table.add_column("measure", no_wrap=True)
        table.add_column("params")
        table.add_column("value", justify="right")
        table.add_column("unit")
        for m in self.measures:
            table.add_row(m.engine, m.name, _short_params(m.params), _num(m.value), m.unit)
        console.print(table)

        ratios = Table(title="ratios (ours / theirs)", title_justify="left")
        ratios.add_column("comparison")
        ratios.add_column("ours", justify="right")
        ratios.add_column("theirs", justify="right")
        ratios.add_column("ratio", justify="right")
        ratios.add_column("target", justify="right")
        ratios.add_column("met")
        for r in ratios_json(self.measures):
            ratios.add_row(
                r["name"],
                _num(r["ours_value"]),
                _num(r["theirs_value"]),
                "n/a" if r["value"] is None else f"{r['value']:.2f}x",
                f">= {r['target']:g}x",
                _met(r["met"]),
            )
        for g in goals_json(self.measures):
            bound = f"<= {g['target']:g}" if g["at_most"] else f">= {g['target']:g}/s"
            ratios.add_row(g["name"], _num(g["value"]), "", "", bound, _met(g["met"]))
        console.print(ratios)

        for c in self.checks:
            console.print(f"check: {c['name']}: {c['result']}", markup=False)
        for s in self.skipped:
            console.print(f"skipped {s['engine']}: {s['reason']}", markup=False)
        for e in self.errors:
            console.print(f"ERROR in {e['engine']} {e['task']}: {e['error']}", markup=False)


def _num(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:,.2f}"


def _met(met: bool | None) -> str:
    return "n/a" if met is None else ("yes" if met else "NO")


#: params left out of the table (they stay in the JSON)
_SHOWN = {"rules", "players", "cards", "game", "positions", "mean_moves", "turns_done"}


def _short_params(params: Params) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items() if k in _SHOWN)
