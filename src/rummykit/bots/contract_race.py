"""The expert's seventh deal (three runs using every card, RULES.md §4.7) as a race.

In deal 7 a seat goes down only by going out, so a seat that does not win holds its whole
hand (12 cards) at the end. What a seat loses is about ``(1 - p) * V``: ``p`` its chance to
go out first, ``V`` the points it holds. Racing alone (keeping the cards three runs could
hold, :mod:`rummykit.bots.contract_shape`) keeps aces and kings as readily as twos; once
going out is far off, a high card that fits is worth less than the points it costs.

:func:`win_chance` estimates ``p`` from what the hand lacks (the cards three runs of 13
cards cannot hold, one more when no unseen card completes it), how many unseen cards would
bring it closer, and the round (a logistic fit, :data:`WEIGHTS`); a hand one card from
three runs gets :func:`ready_chance` instead, from its outs and the rate at which the
other seats go out (:data:`OTHERS_OUT`). :func:`choose` plays the
move leaving the least ``(1 - p) * V``: the discard, and the discard top against the stock
(the stock's expectation over the unseen cards, each draw followed by its best discard);
it goes out whenever it can.

>>> win_chance(missing=0, draws=8, round_=2) > win_chance(missing=3, draws=8, round_=2)
True
>>> win_chance(missing=2, draws=8, round_=2) > win_chance(missing=2, draws=8, round_=12)
True
>>> ready_chance(outs=12, unseen=70, round_=14, others=3) > win_chance(0, 12, 14)
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from functools import lru_cache

from rummykit.bots.contract_expert import unseen
from rummykit.bots.contract_shape import coverage_without, draw_counts
from rummykit.bots.greedy_contract import card_values, contract
from rummykit.core import handset
from rummykit.core.cards import JOKER, NUM_RANKS, Card
from rummykit.core.engine import DRAW_PHASE
from rummykit.core.moves import Discard, Draw, Meld, Move, Take
from rummykit.core.views import PlayerView
from rummykit.variants.contract.melds import uses_every_card

#: logit of winning deal 7 against greedy seats, on (1, missing, round, missing * round,
#: missing ** 2, draws // 4, draws // 4 * missing): fitted by Newton's method to every draw
#: of 1,000 4-player deals 7 of the fast greedy playouts (tuning seeds 5000-5999)
WEIGHTS = (0.7395, -0.8539, -0.0749, -0.0194, 0.0711, 0.2977, -0.0496)
DRAWS_STEP = 4  # draws (unseen improving cards) per unit of the fit's draws feature
DRAWS_CAP = 12  # ... capped there, as in the fit
ROUND_CAP = 30  # rounds, capped as in the fit
CHANCE_SCALE = 1.0  # weight of the estimated chance (tuned: higher races more)
BONUS_WEIGHT = 0.5  # weight of :func:`others_bonus` (tuned: 0, 0.5 and 1 alike)
LONG_ROUNDS = 60  # rounds after which the estimate counts the rounds from 0 again
#: chance that one of three greedy seats goes out in a round of deal 7 (index: the round;
#: the last beyond), given nobody has: a Kaplan-Meier estimate from 1,500 4-player deals 7
#: of an ``expert`` seat against three ``greedy`` (tuning seeds)
OTHERS_OUT = (0.003, 0.003, 0.003, 0.003, 0.003, 0.003, 0.018, 0.023, 0.033, 0.034, 0.050,
              0.062, 0.072, 0.080)
OUT_ODDS = 2.0  # an out comes from the stock or a discard: per round, this many times the
# stock's chance (tuned on seed 5000: 1.5, 2 and 3 alike)
READY_ROUNDS = 60  # rounds :func:`ready_chance` looks ahead


@lru_cache(maxsize=1 << 14)
def win_chance(missing: int, draws: int, round_: int) -> float:
    """The estimated chance to go out first in deal 7 of a hand lacking ``missing`` cards
    with ``draws`` unseen improving cards, at round ``round_`` (turns per seat)."""
    d = min(draws // DRAWS_STEP, DRAWS_CAP)
    r = min(round_, ROUND_CAP)
    m = min(missing, 7)
    w = WEIGHTS
    z = w[0] + w[1] * m + w[2] * r + w[3] * m * r + w[4] * m * m + w[5] * d + w[6] * d * m
    return min(1.0, CHANCE_SCALE / (1.0 + math.exp(-z)))


@lru_cache(maxsize=1 << 16)
def ready_chance(outs: int, unseen: int, round_: int, others: int) -> float:
    """The chance that a hand one card from three runs, with ``outs`` of the ``unseen``
    cards completing it, goes out at round ``round_`` before ``others`` other seats do
    (:data:`OTHERS_OUT`, scaled from three seats; rounds beyond :data:`READY_ROUNDS` are
    not counted)."""
    draw = min(0.95, OUT_ODDS * outs / max(unseen, 1))
    chance, waiting, nobody = 0.0, 1.0, 1.0
    for ahead in range(READY_ROUNDS):
        three = OTHERS_OUT[min(round_ + ahead, len(OTHERS_OUT) - 1)]
        nobody *= (1.0 - three) ** (others / 3)
        chance += waiting * draw * nobody
        waiting *= 1.0 - draw
    return chance


def expected_loss(missing: int, draws: int, points: int, round_: int, bonus: float) -> float:
    """The :func:`loss_at` of a hand of ``points`` waiting to draw, at its
    :func:`win_chance`.

    Every :data:`LONG_ROUNDS` the round counts from 0 again: a deal that long is one where
    nobody is near going out (three races that each held a dozen low cards and threw even
    jokers ran 1,000 turns), not one where the others must be."""
    return loss_at(win_chance(missing, draws, round_ % LONG_ROUNDS), points, bonus)


def loss_at(chance: float, points: int, bonus: float) -> float:
    """``(1 - p) * V - p * bonus``: a seat holding ``points`` that goes out first with
    ``chance`` ``p``; going out also leaves every other seat its hand, ``bonus`` points
    more of their mean than when another seat goes out."""
    return (1.0 - chance) * points - chance * bonus


def others_bonus(view: PlayerView, left: Sequence[int]) -> float:
    """What going out adds to the others' mean penalty, against another seat going out:
    their mean hand (their cards at the unseen cards' mean value) over the seats less one
    (the seat that would have gone out in its place)."""
    values = card_values(view)
    total = sum(left)
    if not total or view.num_players < 2:
        return 0.0
    mean = sum(values[c] * n for c, n in enumerate(left)) / total
    sizes = [n for s, n in enumerate(view.hand_sizes) if s != view.seat]
    return BONUS_WEIGHT * mean * sum(sizes) / len(sizes) / (view.num_players - 1)


@dataclasses.dataclass(frozen=True, slots=True)
class Outlook:
    """What every estimate of one decision shares: card values, the unseen copies by card
    and their total, the round (:data:`LONG_ROUNDS` folded in), :func:`others_bonus` and
    the number of other seats."""

    values: Sequence[int]
    left: Sequence[int]
    unseen: int
    round_: int
    bonus: float
    others: int

    def loss(self, missing: int, draws: int, points: int) -> float:
        """:func:`expected_loss` of a hand lacking ``missing`` cards, with ``draws``
        improving unseen cards (its outs when ``missing`` is 0) and ``points``."""
        if missing == 0:
            chance = ready_chance(draws, self.unseen, self.round_, self.others)
            return loss_at(chance, points, self.bonus)
        return expected_loss(missing, draws, points, self.round_, self.bonus)


def _outlook(view: PlayerView) -> Outlook:
    left = unseen(view)
    return Outlook(card_values(view), left, sum(left),
                   (view.turn_count // view.num_players) % LONG_ROUNDS,
                   others_bonus(view, left), view.num_players - 1)


def _best_discard(cards: list[Card], allowed: set[Card] | None, outlook: Outlook,
                  draws: int | None = None) -> tuple[float, Card | None]:
    """(least expected loss, the card to throw for it) of a hand after its draw, among the
    ``allowed`` cards (None: any). Without ``draws`` each rest's improving unseen cards are
    counted; with it (a draw's lookahead, faster) every rest has ``draws``, but a rest one
    card from three runs always has its outs counted. A rest complete but for cards nobody
    can still draw counts as one card short."""
    size = len(cards)
    values = outlook.values
    held = coverage_without(cards, size)
    total = sum(values[c] for c in cards)
    best: tuple[float, int, bool, int, int] | None = None
    chosen: Card | None = None
    for card, kept in held.items():
        if allowed is not None and card not in allowed:
            continue
        missing = size - 1 - kept
        counted = draws
        if counted is None or missing == 0:
            rest = list(cards)
            rest.remove(card)
            counted, completing = draw_counts(rest, size, outlook.left)
            if missing == 0 and not completing:
                missing = 1
        loss = outlook.loss(missing, counted, total - values[card])
        key = (loss, -kept, card == JOKER, -values[card], -(card % NUM_RANKS))
        if best is None or key < best:
            best, chosen = key, card
    return (best[0] if best is not None else math.inf), chosen


def choose(view: PlayerView) -> Move:
    """The deal-7 move with the least expected loss: always one of ``view.legal``."""
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    melds = [m for m in legal if isinstance(m, Meld)]
    if melds:
        return melds[0]
    hand = handset.cards(view.hand)
    outlook = _outlook(view)
    if view.phase == DRAW_PHASE:
        return _draw(view, hand, outlook)
    discards = [m for m in legal if isinstance(m, Discard)]
    if not discards:
        return legal[0]
    _, card = _best_discard(hand, {m.card for m in discards}, outlook)
    return next((m for m in discards if m.card == card), discards[0])


def _draw(view: PlayerView, hand: list[Card], outlook: Outlook) -> Move:
    legal = view.legal
    takes = sorted((m for m in legal if isinstance(m, Take)), key=lambda m: m.count)
    draw = next((m for m in legal if isinstance(m, Draw)), None)
    if takes and takes[-1].count > 1:  # a dig is listed only when it goes out
        return next(m for m in takes if m.count > 1)
    single = takes[0] if takes and takes[0].count == 1 else None
    top = view.discard_top
    if draw is None or single is None or top is None:
        return draw or legal[0]
    sets, runs = contract(view)
    if uses_every_card([*hand, top], sets, runs, view.rules):
        return single
    left = outlook.left
    draws = draw_counts(hand, len(hand) + 1, left)[0]  # the same for every draw: counted once
    others = set(hand) - {top}  # the taken card may not be thrown (no copy of it)
    took, _ = _best_discard([*hand, top], others, outlook, draws)
    if not outlook.unseen:
        return draw
    stock = 0.0
    for card, copies in enumerate(left):
        if copies:
            loss, _ = _best_discard([*hand, card], None, outlook, draws)
            stock += copies * loss
    return single if took < stock / outlook.unseen else draw


__all__ = ["CHANCE_SCALE", "LONG_ROUNDS", "OTHERS_OUT", "WEIGHTS", "Outlook", "choose",
           "expected_loss", "loss_at", "ready_chance", "win_chance"]
