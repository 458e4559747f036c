"""Measures built the same way for our engine and the anchors."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rummykit.benchmark.report import Measure
from rummykit.benchmark.timing import Config, Timing, parts, timed


def time_solver(cfg: Config, engine: str, solve: Callable[[Any], object], hands: Sequence[Any],
                params: dict[str, Any]) -> list[Measure]:
    """Solves per second of ``solve`` over one pass of distinct ``hands`` (no hand twice)."""
    todo = parts(list(hands), 1000)
    k = 0

    def batch() -> int:
        nonlocal k
        part = todo[k]
        k += 1
        for hand in part:
            solve(hand)
        return len(part)

    t = timed(cfg.seconds, batch, limit=len(todo))
    return [Measure(name="min_deadwood", engine=engine, unit="solves/s", value=t.rate,
                    params={**params, "distinct_hands": len(hands), "solves": t.units,
                            "note": "one pass over distinct hands: no hand is solved twice",
                            "seconds": round(t.elapsed, 3)})]


def playout_measures(engine: str, t: Timing, params: dict[str, Any]) -> list[Measure]:
    """Hands per second and moves per second of one timed series of random playouts."""
    return [
        Measure(name="random_playout_hands", engine=engine, unit="hands/s",
                value=t.batch_rate, params=params),
        Measure(name="random_playout_moves", engine=engine, unit="moves/s", value=t.rate,
                params=params),
    ]
