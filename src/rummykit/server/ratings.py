"""Per-player ratings: OpenSkill's Plackett-Luce model over each match's finishing order.

A player's rating is ``(mu, sigma)``; what the leaderboard shows and sorts by is the
conservative estimate ``mu - 3 sigma`` (OpenSkill's ordinal).
"""

from __future__ import annotations

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
#: a new player's rating
START = (_MODEL.mu, _MODEL.sigma)


def rate(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """The ratings after one match; ``ranks[i]`` is player i's place (0 is first; equal
    ranks tie). Fewer than two players change nothing."""
    if len(ratings) < 2:
        return list(ratings)
    teams = [[_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def shown(mu: float, sigma: float) -> float:
    """The rating as shown and ranked: ``mu - 3 sigma``, one decimal."""
    return round(mu - 3 * sigma, 1)
