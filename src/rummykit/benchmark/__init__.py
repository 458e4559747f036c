"""Speed benchmark: rummykit against reference engines (OpenSpiel, RLCard).

Run it with ``make bench`` (which installs the ``anchors`` extra) or
``python -m rummykit.benchmark [--quick] [--json] [--seconds S]``. Besides the engines, it
measures the reinforcement-learning environments against PettingZoo's ``gin_rummy_v4`` and
RLCard's gin env (:mod:`.rl_envs`). Each measure is timed
for ``S`` seconds (5 by default, 0.5 with ``--quick``) on seeded workloads; the figures
are throughputs (things per second, higher is better) measured in this one process, and
the ratios ours / theirs come from the same run. See :mod:`.ours` and :mod:`.anchors` for
exactly what each measure times.
"""

from __future__ import annotations

import os
import platform
import sys
import traceback
from collections.abc import Callable
from typing import Any, TextIO

from rummykit.benchmark.report import OPENSPIEL, OURS, PETTINGZOO, RLCARD, Measure, Report
from rummykit.benchmark.timing import Config, random_hands

__all__ = ["Config", "Measure", "Report", "run"]

Task = tuple[str, Callable[[], list[Measure]]]


def _environment() -> dict[str, Any]:
    from rummykit.benchmark.anchors import version

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "versions": {dist: version(dist) for dist in ("rummykit", "open-spiel", "rlcard", "numpy")},
    }


def _load_ours(cfg: Config) -> list[Task]:
    from rummykit.benchmark import ours

    return ours.tasks(cfg)


def _load_openspiel(cfg: Config) -> list[Task]:
    from rummykit.benchmark import anchors

    return anchors.openspiel_tasks(cfg)


def _load_rlcard(cfg: Config) -> list[Task]:
    from rummykit.benchmark import anchors

    return anchors.rlcard_tasks(cfg)


def _our_envs(anchors: bool) -> Callable[[Config], list[Task]]:
    def load(cfg: Config) -> list[Task]:
        from rummykit.benchmark import rl_envs

        return rl_envs.ours_tasks(cfg, anchors=anchors)

    return load


def _load_pettingzoo(cfg: Config) -> list[Task]:
    from rummykit.benchmark import rl_envs

    return rl_envs.pettingzoo_tasks(cfg)


def _gin(side: str) -> Callable[[Config], list[Task]]:
    def load(cfg: Config) -> list[Task]:
        from rummykit.benchmark import gin

        tasks: Callable[[Config], list[Task]] = getattr(gin, f"{side}_tasks")
        return tasks(cfg)

    return load


def run(cfg: Config, *, anchors: bool = True, log: TextIO | None = None) -> Report:
    """Run every measure and return the report; progress goes to ``log`` (stderr)."""
    out = sys.stderr if log is None else log
    report = Report(
        config={
            "seconds": cfg.seconds,
            "quick": cfg.quick,
            "seed": cfg.seed,
            "hands": cfg.hands,
            "positions": cfg.positions,
            "only": cfg.only,
        },
        environment=_environment(),
    )
    # (engine, loader, whether a missing import is our engine's failure)
    engines: list[tuple[str, Callable[[Config], list[Task]], bool]] = [
        (OURS, _load_ours, True), (OURS, _our_envs(anchors), False), (OURS, _gin("ours"), True)]
    if anchors:
        engines += [(OPENSPIEL, _load_openspiel, False), (RLCARD, _load_rlcard, False),
                    (PETTINGZOO, _load_pettingzoo, False), (OPENSPIEL, _gin("openspiel"), False),
                    (RLCARD, _gin("rlcard"), False)]
    else:
        report.skipped += [{"engine": e, "reason": "--no-anchors"}
                           for e in (OPENSPIEL, RLCARD, PETTINGZOO)]
    available: set[str] = set()
    for engine, load, core in engines:
        try:
            tasks = load(cfg)
        except ImportError as exc:
            if core:
                reason = f"cannot import the rummykit engine: {exc!r}"
                print(f"ERROR: {reason}; our measures are skipped", file=out)
                report.errors.append({"engine": engine, "task": "import", "error": reason})
            else:
                reason = f"{exc.name or engine} {_MISSING}"
                print(f"{engine}: {reason}; skipped", file=out)
                name = engine if engine != OURS else f"{OURS} environments"
                report.skipped.append({"engine": name, "reason": reason})
            continue
        available.add(engine)
        for title, task in tasks:
            if cfg.only is not None and cfg.only not in title:
                continue
            print(f"[{engine}] {title} ...", file=out, end=" ", flush=True)
            try:
                found = task()
            except Exception as exc:
                print("ERROR", file=out)
                traceback.print_exc(file=out)
                report.errors.append({"engine": engine, "task": title, "error": repr(exc)})
                continue
            report.measures += found
            print(", ".join(f"{m.value:,.1f} {m.unit}" for m in found), file=out, flush=True)
    if cfg.only is None:
        _cross_check(cfg, report, available, out)
    return report


_MISSING = "is not installed: install the `anchors` extra (make bench, or uv sync --extra anchors)"


def _cross_check(cfg: Config, report: Report, available: set[str], out: TextIO) -> None:
    """Do the solvers compared in the ratios compute the same thing? (first 1,000 hands)"""
    if OURS not in available or not available & {OPENSPIEL, RLCARD}:
        return
    from rummykit.benchmark import anchors, ours, workloads

    hands = random_hands(cfg.hands, 10, cfg.seed + 10)[:1000]
    try:
        mine = ours.min_deadwood_of(hands)
    except Exception as exc:
        report.errors.append({"engine": OURS, "task": "cross-check", "error": repr(exc)})
        return
    others: list[tuple[str, Callable[[list[list[int]]], list[int]]]] = []
    if OPENSPIEL in available:
        others.append((OPENSPIEL, anchors.openspiel_min_deadwood))
    if RLCARD in available:
        others.append((RLCARD, anchors.rlcard_min_deadwood))
    rules = workloads.reference().rule_set
    for engine, solve in others:
        try:
            theirs = solve(hands)
        except Exception as exc:
            report.errors.append({"engine": engine, "task": "cross-check", "error": repr(exc)})
            continue
        same = sum(a == b for a, b in zip(mine, theirs, strict=True))
        check = {
            "name": f"10-card min deadwood, rummykit ({rules} rules) == {engine}",
            "result": f"{same}/{len(hands)} hands agree",
            "agree": same,
            "hands": len(hands),
        }
        report.checks.append(check)
        print(f"check: {check['name']}: {check['result']}", file=out)
