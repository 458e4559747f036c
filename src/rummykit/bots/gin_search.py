"""The gin search bot: determinized Monte Carlo over the seat's decisions (RULES.md §6).

The bot plays the lookahead policy of :mod:`~rummykit.bots.gin_outs` (take when it lowers
the deadwood below a draw's expected, discard by expected deadwood after the next draw
and the chance of feeding the opponent, knock as soon as it may). At the decisions its
level searches (:data:`KNOCK`: knock now, with which arrangement, or play on; the wall; at
the levels that say so the offer and the draw, or the plain discard) it deals ``worlds``
hands consistent with its view (:func:`~rummykit.bots.gin_sampling.determinize`: the
unseen cards, weighted by what the opponent took, threw and passed; at ``expert`` the
opponent's hand a played one, the least deadwood of several deals), plays every
candidate in each of them and the rest of the hand with the fast greedy policy of
:mod:`~rummykit.bots.gin_playout` for both seats, and scores the hand for the seat (its
points minus the opponent's). Every candidate meets the same worlds, so the comparison is
paired; the policy's move is kept unless another's mean beats it by the level's
``margin`` (plus ``confidence`` standard errors of the paired difference). Candidates
(:func:`candidates`): the policy's move first, then every legal
move outside the discard step; there every knock (and, for the best plain knock, other
arrangements within the limit that leave fewer places to lay off) and the policy's best
discards. The defender's show is played by the greedy policy. :meth:`GinSearchBot.analyse`
(used by the hints) searches any decision.

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> from rummykit.variants.gin.view import gin_view
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> bot = GinSearchBot.for_level("medium")
>>> bot.choose(gin_view(hand, 1), random.Random(0)) in hand.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from rummykit.bots.gin_outs import best_discards, lookahead_move
from rummykit.bots.gin_playout import playout, policy_move
from rummykit.bots.gin_sampling import determinize
from rummykit.core.errors import IllegalMoveError
from rummykit.core.moves import Discard
from rummykit.variants.gin.deadwood import (
    arrangement_mask,
    arrangements,
    mask_value,
    min_deadwood,
)
from rummykit.variants.gin.moves import BigGin, Gin, GinMove, Knock
from rummykit.variants.gin.phases import DISCARD_STEP, DRAW_STEP, OFFER, SHOW, WALL
from rummykit.variants.gin.view import GinView, resample

__all__ = ["SEARCH_LEVELS", "GinAnalysis", "GinCandidate", "GinSearchBot", "SearchLevel",
           "candidates", "decision_kind"]


#: the decisions a level may search: a knock is legal (knock now, which arrangement, or
#: play on), the discard step without a knock, the offer or the draw (take or not), the wall
KNOCK, DISCARD, TAKE, WALL_CHOICE = "knock", "discard", "take", "wall"


@dataclass(frozen=True, slots=True)
class SearchLevel:
    """How a level plays: the lookahead policy with ``feed`` (see :mod:`.gin_outs`), and
    for the decisions in ``searched`` a search over ``worlds`` worlds per decision that
    overrides the policy's move only when another candidate's mean score beats it by
    ``margin`` points; ``discards`` discards are compared; ``inference`` weights the
    opponent's unknown cards; ``arrangements`` knock arrangements are compared; ``draft``
    (> 1) deals the opponent a played hand, the best of up to that many deals (see
    :func:`~rummykit.bots.gin_sampling.determinize`); ``confidence`` adds that many
    standard errors of the paired difference to the margin."""

    name: str
    worlds: int
    searched: frozenset[str]
    feed: float = 4.0
    discards: int = 3
    inference: bool = True
    arrangements: int = 3
    margin: float = 1.0
    draft: int = 0
    confidence: float = 0.0


#: the search levels, weakest first (``easy`` is the greedy bot)
SEARCH_LEVELS: dict[str, SearchLevel] = {
    "medium": SearchLevel("medium", worlds=16, searched=frozenset({KNOCK}), feed=0.0,
                          arrangements=1, inference=False, margin=3.0),
    "hard": SearchLevel("hard", worlds=40, searched=frozenset({KNOCK, WALL_CHOICE})),
    # expert: hard's searches over twice the worlds, with more candidates (5 discards to
    # play on with, 5 knock arrangements), the opponent dealt a played hand (best of up
    # to 6 deals) and the policy's move overridden only by one standard error
    "expert": SearchLevel("expert", worlds=80, searched=frozenset({KNOCK, WALL_CHOICE}),
                          discards=5, arrangements=5, margin=0.0, draft=6, confidence=1.0),
}


@dataclass(frozen=True, slots=True)
class GinCandidate:
    """One move and what the simulations said of it: ``value`` the mean hand score for the
    seat (points won minus points lost), ``win_rate`` the share of worlds it won the hand."""

    move: GinMove
    value: float
    win_rate: float
    simulations: int
    spread: float = 0.0  # standard error of its paired difference to the policy's move


@dataclass(frozen=True, slots=True)
class GinAnalysis:
    """The candidates of one decision, best first, and the search effort spent."""

    seat: int
    candidates: tuple[GinCandidate, ...]
    simulations: int
    seconds: float
    policy_move: GinMove | None = None  # the move the bot's policy would play unsearched

    @property
    def best(self) -> GinMove:
        """The recommended move."""
        return self.candidates[0].move


def _knock_layoff_room(groups: tuple[tuple[int, ...], ...], loose: int) -> int:
    """How many cards could be laid off on ``groups`` (a rough count: run ends, set gaps)."""
    room = 0
    for group in groups:
        if len({c % 13 for c in group}) == 1:
            room += 4 - len(group)
        else:
            room += (min(group) % 13 > 0) + (max(group) % 13 < 12)
    return room * 16 + mask_value(loose)


def _other_arrangements(seen: GinView, move: Knock | Gin, limit: int) -> list[GinMove]:
    """Arrangements of the knock's 10 cards other than the implied one, within the knock
    limit, fewest lay-off places first (at most ``limit`` of them)."""
    rest = seen.hand & ~(1 << move.card)
    cap = seen.knock_limit
    implied = move.groups or ()
    found: list[tuple[int, GinMove]] = []
    for melds in arrangements(rest, cap):
        groups = tuple(sorted(tuple(c for c in range(52) if m >> c & 1) for m in melds))
        if sorted(groups) == sorted(implied):
            continue
        loose = rest & ~arrangement_mask(groups)
        if not melds or (loose and isinstance(move, Gin)):
            continue
        alt: GinMove = Knock(move.card, groups) if loose else Gin(move.card, groups)
        found.append((_knock_layoff_room(groups, loose), alt))
    found.sort(key=lambda pair: pair[0])
    return [alt for _, alt in found[:limit]]


def _paired_error(these: list[int], base: list[int]) -> float:
    """The standard error of the mean of ``these`` minus ``base``, world by world."""
    count = len(these)
    if count < 2:
        return 0.0
    diffs = [a - b for a, b in zip(these, base, strict=True)]
    mean = sum(diffs) / count
    return math.sqrt(sum((d - mean) ** 2 for d in diffs) / (count - 1) / count)


def decision_kind(seen: GinView) -> str:
    """Which kind of decision ``seen`` asks for (``show`` for the defender's show)."""
    phase = seen.phase
    if phase == DISCARD_STEP:
        knocks = any(isinstance(m, (Knock, Gin, BigGin)) for m in seen.legal)
        return KNOCK if knocks else DISCARD
    if phase in (OFFER, DRAW_STEP):
        return TAKE
    if phase == WALL:
        return WALL_CHOICE
    return phase  # show, wall_knock


def candidates(seen: GinView, level: SearchLevel) -> list[GinMove]:
    """The moves the search compares at ``level``, the policy's move first: every legal
    move outside the discard step; there every knock (with, for the best plain knock,
    ``level.arrangements - 1`` other arrangements) and the ``level.discards`` best
    discards of the lookahead policy."""
    first = lookahead_move(seen, level.feed)
    legal = list(seen.legal)
    if seen.phase != DISCARD_STEP:
        return [first, *(m for m in legal if m != first)]
    hand = seen.hand
    knocks = [m for m in legal if isinstance(m, (Knock, Gin, BigGin))]
    kept: list[GinMove] = [first, *(m for m in knocks if m != first)]
    kept += [Discard(c) for c in best_discards(seen, level.feed, level.discards)
             if Discard(c) not in kept]
    plain = [m for m in knocks if isinstance(m, Knock)]
    if plain and level.arrangements > 1:
        best = min(plain, key=lambda m: min_deadwood(hand & ~(1 << m.card)))
        kept += _other_arrangements(seen, best, level.arrangements - 1)
    return kept


class GinSearchBot:
    """The search bot at one :class:`SearchLevel` (see the module docstring)."""

    def __init__(self, level: SearchLevel) -> None:
        self.level = level
        self.name = level.name

    @classmethod
    def for_level(cls, name: str) -> GinSearchBot:
        """The bot of a level of :data:`SEARCH_LEVELS`."""
        try:
            return cls(SEARCH_LEVELS[name])
        except KeyError:
            raise IllegalMoveError(f"unknown gin search level {name!r}: expected one of "
                                   f"{', '.join(SEARCH_LEVELS)}") from None

    def choose(self, seen: GinView, rng: random.Random) -> GinMove:
        """The best move found for the seat to move in ``seen``."""
        if not seen.legal:
            raise IllegalMoveError("gin search: no move to choose (this seat is not to move)")
        if len(seen.legal) == 1:
            return seen.legal[0]
        if seen.phase == SHOW:
            return policy_move(resample(seen, rng))
        if decision_kind(seen) not in self.level.searched:
            return lookahead_move(seen, self.level.feed)
        found = self.analyse(seen, rng)
        first = next(c for c in found.candidates if c.move == found.policy_move)
        best = found.candidates[0]
        level = self.level
        if best.value > first.value + level.margin + level.confidence * best.spread:
            return best.move
        return first.move

    def analyse(self, seen: GinView, rng: random.Random) -> GinAnalysis:
        """Every candidate's mean score over the same worlds, best first (the policy's
        move is ``policy_move``)."""
        start = time.perf_counter()
        if seen.phase == SHOW:
            move = policy_move(resample(seen, rng))
            return GinAnalysis(seen.seat, (GinCandidate(move, 0.0, 0.0, 0),), 0,
                               time.perf_counter() - start, move)
        moves = candidates(seen, self.level)
        if len(moves) == 1:
            return GinAnalysis(seen.seat, (GinCandidate(moves[0], 0.0, 0.0, 0),), 0,
                               time.perf_counter() - start, moves[0])
        seat = seen.seat
        scores: list[list[int]] = [[] for _ in moves]
        worlds = self.level.worlds
        for _ in range(worlds):
            world = determinize(seen, rng, self.level.inference, self.level.draft)
            for index, move in enumerate(moves):
                state = world.copy()
                state.push(move)
                scores[index].append(playout(state, rng, seat))
        found = [GinCandidate(m, sum(scores[i]) / worlds,
                              sum(s > 0 for s in scores[i]) / worlds, worlds,
                              _paired_error(scores[i], scores[0]))
                 for i, m in enumerate(moves)]
        order = sorted(range(len(found)), key=lambda i: -found[i].value)
        return GinAnalysis(seat, tuple(found[i] for i in order), worlds * len(moves),
                           time.perf_counter() - start, moves[0])
