"""OpenSkill ratings (Plackett-Luce model) of the bots: one rating per bot name.

Games update the ratings one by one in game order, so the same games give the same
ratings however they were run. A match ranks its seats by result: winners first, then by
match total (higher is better, or lower under ``penalty`` scoring); equal results share a
rank. When one bot holds several seats, each seat is rated as its own copy of the bot's
current rating (a one-player team) and the bot's new mu and sigma are the means of its
copies' new values: a match moves a bot once, however many seats it held. A match played
by one bot alone says nothing about its strength and leaves the ratings unchanged.
``ordinal`` is the conservative mu - 3·sigma.

>>> seat_ranks((150, 20, 150, 40), (0, 2), penalty=False)
[1, 3, 1, 2]
>>> seat_ranks((12, 30, 7), (), penalty=True)
[2, 3, 1]
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

from rummykit.arena.play import GameResult


def seat_ranks(totals: Sequence[int], winners: Sequence[int], *, penalty: bool) -> list[int]:
    """Each seat's rank (1 = best, ties share) from the winners and the totals."""
    keys = [(seat not in winners, total if penalty else -total)
            for seat, total in enumerate(totals)]
    order = sorted(set(keys))
    return [order.index(key) + 1 for key in keys]


def rate(results: Sequence[GameResult], *, penalty: bool) -> dict[str, dict[str, float]]:
    """``{bot: {"mu", "sigma", "ordinal"}}`` after every game, bots by first appearance."""
    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    for game in results:
        for name in game.bots:
            ratings.setdefault(name, model.rating(name=name))
        if len(set(game.bots)) < 2:
            continue
        teams = [[model.rating(mu=ratings[name].mu, sigma=ratings[name].sigma)]
                 for name in game.bots]
        ranks = seat_ranks(game.totals, game.winners, penalty=penalty)
        updated = model.rate(teams, ranks=[float(r) for r in ranks])
        for name in dict.fromkeys(game.bots):
            copies = [team[0] for team, bot in zip(updated, game.bots, strict=True)
                      if bot == name]
            ratings[name] = model.rating(mu=statistics.fmean(c.mu for c in copies),
                                         sigma=statistics.fmean(c.sigma for c in copies),
                                         name=name)
    return {name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
            for name, r in ratings.items()}
