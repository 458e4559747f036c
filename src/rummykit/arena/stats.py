"""Per-bot statistics of an arena, with 95% intervals that respect the mirrored deals.

A bot's ``matches`` count the seats it played (a bot in three seats of a match plays three
matches there); a seat wins when it is among the match's winners (co-winners each win, a
drawn match is nobody's win). The games of one deal set share their cards, so they are not
independent: the **deal set** is the unit. For each set the bot's win rate is its wins over
its seats in that set; the interval is the mean of these ``n`` per-set rates
± 1.96 · sd / √n (sample sd), clipped to [0, 1]. With a single set, or when every set gave
the same rate (sd = 0, which would claim certainty), it falls back to the Wilson score
interval of all the bot's wins over its matches (``interval_method`` says which).

>>> [round(x, 3) for x in interval([0.5, 1.0, 0.5, 0.0])]  # sd 0.408, n 4
[0.5, 0.1, 0.9]
>>> [round(x, 4) for x in wilson(3, 4)]
[0.75, 0.3006, 0.9544]
>>> percentile([4.0, 1.0, 3.0, 2.0], 0.5)
2.0
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rummykit.arena.play import GameResult

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal


def interval(rates: Sequence[float]) -> tuple[float, float, float]:
    """Mean of ``rates`` and its normal 95% interval, clipped to [0, 1] (needs 2 rates)."""
    mean = statistics.fmean(rates)
    half = Z95 * statistics.stdev(rates) / math.sqrt(len(rates))
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def wilson(wins: int, trials: int) -> tuple[float, float, float]:
    """``wins / trials`` and its Wilson score 95% interval."""
    rate = wins / trials
    z2 = Z95 * Z95
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials)) \
        / (1 + z2 / trials)
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    return rate, low, 1.0 if wins == trials else min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of ``values`` (not empty)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass(slots=True)
class BotTally:
    """Running sums for one bot name over every seat it played."""

    matches: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    totals: int = 0
    aborted_hands: int = 0
    drawn_hands: int = 0
    seconds: list[float] = field(default_factory=list)
    by_set: dict[int, list[int]] = field(default_factory=dict)  # set -> [wins, seats]
    hand_points: list[int] = field(default_factory=list)


def tally(results: Sequence[GameResult]) -> dict[str, BotTally]:
    """Per-bot running sums, bots in order of first appearance."""
    bots: dict[str, BotTally] = {}
    for game in results:
        for name in dict.fromkeys(game.bots):  # hands of a game count once per bot
            one = bots.setdefault(name, BotTally())
            one.aborted_hands += game.aborted_hands
            one.drawn_hands += game.drawn_hands
        for seat, name in enumerate(game.bots):
            one = bots[name]
            won = seat in game.winners
            one.matches += 1
            one.wins += won
            one.hands += game.hands
            points = [scores[seat] for scores in game.hand_scores]
            one.points += sum(points)
            one.hand_points.extend(points)
            one.totals += game.totals[seat]
            one.seconds.extend(game.seconds[seat])
            counts = one.by_set.setdefault(game.deal_set, [0, 0])
            counts[0] += won
            counts[1] += 1
    return bots


def summarize(one: BotTally) -> dict[str, Any]:
    """The JSON-ready summary of one bot (timings under ``decision_seconds``)."""
    rates = [wins / seats for wins, seats in one.by_set.values()]
    if len(rates) > 1 and len(set(rates)) > 1:
        rate, low, high = interval(rates)
        method = "deal sets"
    else:
        rate, low, high = wilson(one.wins, one.matches)
        method = "wilson"
    times = one.seconds or [0.0]
    return {
        "matches": one.matches, "wins": one.wins, "win_rate": rate,
        "interval": [low, high], "interval_method": method, "deal_sets": len(rates),
        "hands": one.hands, "mean_points_per_hand": one.points / max(1, one.hands),
        "mean_match_total": one.totals / max(1, one.matches),
        "decisions": len(one.seconds), "aborted_hands": one.aborted_hands,
        "drawn_hands": one.drawn_hands,
        "decision_seconds": {"mean": statistics.fmean(times),
                             "median": statistics.median(times),
                             "p95": percentile(times, 0.95)},
    }
