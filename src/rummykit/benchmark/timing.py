"""Run settings, the timing loop and seeded workloads shared by every engine's measures."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

#: Seconds spent on each measure by default (full run / ``--quick`` run).
FULL_SECONDS = 5.0
QUICK_SECONDS = 0.5


@dataclass(frozen=True, kw_only=True)
class Config:
    """What one benchmark run does.

    >>> Config.make(quick=True).hands
    20000
    """

    seconds: float
    quick: bool
    seed: int = 20260101
    #: distinct random hands pre-generated for each min-deadwood measure; each is solved
    #: at most once (a solver's whole-hand memo must not turn the measure into cache hits)
    hands: int = 200_000
    #: mid-hand positions per (preset, players) for legal-move and push/pop measures
    positions: int = 100
    #: run only the measures whose title holds this text (``--only``); None: all
    only: str | None = None

    @classmethod
    def make(cls, *, quick: bool, seconds: float | None = None, seed: int = 20260101,
             only: str | None = None) -> Config:
        if seconds is None:
            seconds = QUICK_SECONDS if quick else FULL_SECONDS
        if seconds <= 0:
            raise ValueError(f"--seconds must be positive, got {seconds}")
        return cls(
            seconds=seconds,
            quick=quick,
            seed=seed,
            hands=20_000 if quick else 200_000,
            positions=20 if quick else 100,
            only=only,
        )


@dataclass(frozen=True)
class Timing:
    """The outcome of :func:`timed`: work done (``units``) by ``batches`` calls."""

    units: int
    batches: int
    elapsed: float

    @property
    def rate(self) -> float:
        """Units per second."""
        return self.units / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def batch_rate(self) -> float:
        """Batches per second."""
        return self.batches / self.elapsed if self.elapsed > 0 else 0.0


def timed(seconds: float, batch: Callable[[], int], *, limit: int | None = None) -> Timing:
    """Call ``batch`` (which does some work and returns how many units it did) until
    ``seconds`` have passed or it was called ``limit`` times; always at least once.

    >>> t = timed(0.01, lambda: 3)
    >>> t.units == 3 * t.batches and t.batches >= 1
    True
    """
    start = time.perf_counter()
    deadline = start + seconds
    units = batches = 0
    while True:
        units += batch()
        batches += 1
        now = time.perf_counter()
        if now >= deadline or batches == limit:
            return Timing(units, batches, now - start)


_HANDS: dict[tuple[int, int, int], list[list[int]]] = {}


def random_hands(count: int, size: int, seed: int) -> list[list[int]]:
    """``count`` distinct random ``size``-card hands from one 52-card deck, as sorted lists
    of card ints 0..51 (kept for the run, so every engine gets the very same lists).

    All three engines number cards ``suit * 13 + rank - 1`` (ace low), so the same lists
    feed every solver.

    >>> hands = random_hands(3, 10, seed=1)
    >>> [len(set(h)) for h in hands]
    [10, 10, 10]
    >>> hands == random_hands(3, 10, seed=1)
    True
    """
    key = (count, size, seed)
    found = _HANDS.get(key)
    if found is None:
        rng = random.Random(seed)
        deck = range(52)
        seen: set[tuple[int, ...]] = set()
        found = []
        while len(found) < count:
            hand = tuple(sorted(rng.sample(deck, size)))
            if hand not in seen:
                seen.add(hand)
                found.append(list(hand))
        _HANDS[key] = found
    return found


def parts(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """``items`` cut into consecutive parts of ``size`` (the last may be shorter).

    >>> parts([1, 2, 3], 2)
    [[1, 2], [3]]
    """
    return [items[i : i + size] for i in range(0, len(items), size)]
