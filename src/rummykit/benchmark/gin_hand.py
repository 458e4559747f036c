"""Measures of the gin hand engine (:mod:`rummykit.variants.gin.hand`).

Random playouts: hand ``i`` is dealt from ``random.Random(seed + i)`` with the dealer
alternating, and both players choose uniformly among ``legal_moves()`` (one
``random.Random(seed)``), so each knock is one move with its implied arrangement. The
measures are named ``gin_*`` so they never mix with the basic-rummy ones; the same-run
OpenSpiel figures to compare with are ``random_playout_*`` and ``min_deadwood`` of engine
``openspiel`` (whose 10-card hands are the very lists solved here).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rummykit.benchmark.measures import time_solver
from rummykit.benchmark.report import OURS, Measure
from rummykit.benchmark.timing import Config, random_hands, timed
from rummykit.core.cards import mask_of
from rummykit.variants.gin.deadwood import min_deadwood
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.rules import GIN, OKLAHOMA, GinRules, openspiel_profile

Task = tuple[str, Callable[[], list[Measure]]]


def tasks(cfg: Config) -> list[Task]:
    """The gin measures, in the order they run."""
    profiles: list[tuple[str, GinRules]] = [
        (GIN.name, GIN), (OKLAHOMA.name, OKLAHOMA), ("openspiel profile", openspiel_profile())]
    out: list[Task] = [(f"gin random playout {label}", _playout(cfg, label, rules))
                       for label, rules in profiles]
    out.append(("gin min_deadwood 10 cards", lambda: _min_deadwood(cfg)))
    return out


def _playout(cfg: Config, label: str, rules: GinRules) -> Callable[[], list[Measure]]:
    def run() -> list[Measure]:
        rng = random.Random(cfg.seed)
        choice = rng.choice
        index = 0

        def one_hand() -> int:
            nonlocal index
            hand = GinHand.deal(rules, index % 2, random.Random(cfg.seed + index))
            index += 1
            moves = 0
            while hand.result is None:
                hand.push(choice(hand.legal_moves()))
                moves += 1
            return moves

        t = timed(cfg.seconds, one_hand)
        params = {"rules": label, "hands": t.batches, "moves": t.units,
                  "seconds": round(t.elapsed, 3), "seed": cfg.seed}
        return [
            Measure(name="gin_random_playout_hands", engine=OURS, unit="hands/s",
                    value=t.batch_rate, params=params),
            Measure(name="gin_random_playout_moves", engine=OURS, unit="moves/s",
                    value=t.rate, params=params),
        ]

    return run


def _min_deadwood(cfg: Config) -> list[Measure]:
    masks = [mask_of(h) for h in random_hands(cfg.hands, 10, cfg.seed + 10)]
    measures = time_solver(cfg, OURS, min_deadwood, masks,
                           {"cards": 10, "rules": GIN.name, "seed": cfg.seed + 10})
    return [Measure(name="gin_min_deadwood", engine=m.engine, unit=m.unit, value=m.value,
                    params=m.params) for m in measures]
