"""How long one of a family's own decisions takes (a :class:`DecisionWorkload` the family
declares, e.g. contract's completability after a dig or a swap, RULES.md §1.6).

The family gives the seeded positions and the decision; each position is decided once,
timed in CPU time, after a few untimed decisions on copies (tables built once). The
figures are the median and the worst time, in microseconds.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from rummykit.benchmark.report import OURS, Measure
from rummykit.benchmark.timing import Config
from rummykit.variants.workloads import DecisionWorkload

#: untimed decisions first, on copies of the first positions
WARM_UP = 20


def measure(cfg: Config, work: DecisionWorkload) -> list[Measure]:
    """The median and the worst decision time, in microseconds of CPU time (the wall
    clock's figures, which a busy machine inflates, are in the params)."""
    count = work.decisions if not cfg.quick else work.decisions // 10
    positions, hands = work.positions(count, cfg.seed)
    for _, state in positions[:WARM_UP]:
        work.decide(state.copy())
    cpu: list[float] = []
    wall: list[float] = []
    yes = 0
    for _, state in positions:
        start, start_cpu = time.perf_counter_ns(), time.process_time_ns()
        verdict = work.decide(state)
        cpu.append((time.process_time_ns() - start_cpu) / 1000)
        wall.append((time.perf_counter_ns() - start) / 1000)
        yes += bool(verdict)
    median, worst = statistics.median(cpu), max(cpu)
    params: dict[str, Any] = {
        "rules": work.table.rule_set, "players": work.table.players,
        "decisions": len(cpu), "hands": hands,
        "kinds": {k: sum(1 for kind, _ in positions if kind == k) for k in work.kinds},
        work.yes: yes,
        "median_us": round(median, 2),
        "p99_us": round(statistics.quantiles(cpu, n=100)[98], 2),
        "worst_us": round(worst, 2),
        "wall_median_us": round(statistics.median(wall), 2),
        "wall_worst_us": round(max(wall), 2),
        "seed": cfg.seed,
        "note": work.note,
    }
    return [
        Measure(name=work.name, engine=OURS, unit="us/decision", value=median,
                params={**params, "statistic": "median"}),
        Measure(name=work.name, engine=OURS, unit="us/decision", value=worst,
                params={**params, "statistic": "worst"}),
    ]
