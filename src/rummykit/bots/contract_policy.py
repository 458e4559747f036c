"""The stronger contract policy of ``medium`` and above (RULES.md §4), on a view only.

The shared heuristics of :mod:`rummykit.bots.contract_expert` (:func:`ranked`), with the
draw of a seat that is down chosen by what it adds (:func:`down_draw`): a seat that is
down keeps its card count and sheds its highest card every turn, so the discard top is
worth taking when it is lower than what the stock is expected to leave, counting a stock
card it could lay off as one card fewer. Deals 1 and 4 (sets only) mostly end blocked
(§4.8.1) with every hand scored; there the points held are all that counts.

>>> import random
>>> from rummykit.core.match import Match
>>> from rummykit.variants import CONTRACT
>>> from rummykit.core.views import view
>>> match = Match(CONTRACT, ["a", "b", "c"], seed=2)
>>> state = match.start_hand()
>>> seen = view(state, state.to_move)
>>> choose(seen) in seen.legal
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rummykit.bots import contract_search
from rummykit.bots.contract_expert import FULL, SET_DIG_DEPTH, Skill, draw_choices, ranked, unseen
from rummykit.bots.contract_leftover import left_after
from rummykit.bots.contract_worlds import layable as _layable
from rummykit.bots.greedy_contract import card_values, contract, goes_out_at_once, greedy_draw
from rummykit.core import handset
from rummykit.core.engine import DRAW_PHASE
from rummykit.core.moves import Discard, Draw, Meld, Move, Take
from rummykit.core.views import PlayerView
from rummykit.variants.contract.melds import least_penalty
from rummykit.variants.contract.view import seats_down

if TYPE_CHECKING:
    from rummykit.bots.expert import Budget

CARD_WORTH = 8.0  # penalty points one card fewer in hand is worth (a stock card laid off)
TAKE_MARGIN = 0.0  # points the discard top must save over the stock's expectation


def is_down(view: PlayerView) -> bool:
    """Whether the seat to decide has gone down (read in one place: the view's fields)."""
    return bool(seats_down(view) >> view.seat & 1)


def choose(view: PlayerView, skill: Skill = FULL) -> Move:
    """The policy's move: always one of ``view.legal``."""
    if view.phase == DRAW_PHASE and len(view.legal) > 1 and not goes_out_at_once(view):
        if is_down(view):
            return down_draw(view)
        return up_draw(view, ranked(view, skill)[0][0])
    return ranked(view, skill)[0][0]


def up_draw(view: PlayerView, move: Move) -> Move:
    """The draw of a seat not yet down: ``move`` (the heuristics'), except that a dig in a
    deal with runs is the one leaving the fewest cards (:func:`_best_dig`), and in a deal
    whose contract has no run it never digs deeper than :data:`SET_DIG_DEPTH` cards (the
    shallower draw greedy's rules pick instead). A deep dig goes down at once but with the
    dug cards in hand, and those deals mostly end blocked with every hand scored (§4.8.1):
    mirrored deals against three greedy (``python -m rummykit.benchmark.contract_bots
    --table medium,greedy --sets 8 --seeds 7,9``, tuning seeds), deal 1 -15.3 +- 1.7 and
    deal 4 -21.4 +- 3.6 points a deal with 3 cards at most (-14.6 +- 1.9 and -21.2 +- 3.6
    with 2, -14.2 and -19.1 with none); digging as greedy does: -3.3 and +0.4 (seeds 3, 5)."""
    if not isinstance(move, Take) or move.count == 1:
        return move
    if contract(view)[1]:
        return _best_dig(view)
    return greedy_draw(view, draw_choices(view))


def _best_dig(view: PlayerView) -> Move:
    """Of the digs listed (each lets the seat go down this turn), the one leaving the
    fewest cards, then the fewest points, once it has gone down the way leaving the least
    penalty, made every lay-off (:func:`rummykit.bots.contract_leftover.left_after`) and
    thrown its highest card; the shallowest among equals. Mirrored deals 1-6 against
    three greedy, ``medium``: -0.07 +- 0.04 points a deal against the shallowest dig
    (2,400 deals)."""
    values = card_values(view)
    hand = handset.cards(view.hand)
    sets, runs = contract(view)
    digs = sorted((m for m in view.legal if isinstance(m, Take) and m.count > 1),
                  key=lambda m: m.count)
    best: tuple[tuple[int, int], Move] | None = None
    for dig in digs:
        cards = hand + list(view.discard[-dig.count:])
        _, way = least_penalty(cards, sets, runs, view.rules)
        if way is None:
            continue
        left = left_after(cards, way, view.table, view.rules)
        if left:
            left.remove(max(left, key=values.__getitem__))
        key = (len(left), sum(values[c] for c in left))
        if best is None or key < best[0]:
            best = (key, dig)
    return best[1] if best is not None else digs[0]


def searched(view: PlayerView, rng: random.Random, budget: Budget, worlds: int, margin: float,
             skill: Skill = FULL, waits: bool = True, draws: bool = True) -> Move:
    """:func:`choose`, searched (:mod:`rummykit.bots.contract_search`, ``worlds`` worlds
    shared by the candidates) against going down a turn later (``waits``) or against the
    other draws of a seat not down (``draws``: :func:`draw_choices`, so never a deep dig in
    a deal of sets); the policy's move is kept unless another measured more than
    ``margin`` points better. With the deep digs searched too, ``expert`` held 0.51 +-
    0.45 points a deal more in deals 1 and 4 (+0.96 +- 0.49 against greedy; held-out seed
    31, 800 mirrored deals), nearly all of it in deal 4."""
    move = choose(view, skill)
    if goes_out_at_once(view) or len(view.legal) == 1:
        return move
    moves = [move]
    if waits and isinstance(move, Meld):
        moves.extend(_discards_first(view))
    elif draws and view.phase == DRAW_PHASE and not is_down(view):
        for other in _other_draws(draw_choices(view)):  # in deals of sets, no deep dig
            if other not in moves:
                moves.append(other)
    if len(moves) == 1:
        return move
    found = contract_search.search(view, moves, rng, budget, worlds)
    values = {c.move: c.value for c in found.candidates}
    best = max(moves, key=lambda m: values[m])
    return best if values[best] > values[move] + margin else move


def _other_draws(legal: tuple[Move, ...]) -> list[Move]:
    """The stock draw, the discard top and the shallowest dig, those legal."""
    found: list[Move] = []
    found.extend([m for m in legal if isinstance(m, Draw)][:1])
    found.extend([m for m in legal if isinstance(m, Take) and m.count == 1][:1])
    digs = [m for m in legal if isinstance(m, Take) and m.count > 1]
    if digs:
        found.append(min(digs, key=lambda m: m.count))
    return found


def _discards_first(view: PlayerView) -> list[Move]:
    """The discard a seat that could go down makes to wait a turn (none when it may not
    discard)."""
    discards = tuple(m for m in view.legal if isinstance(m, Discard))
    if not discards:
        return []
    return [ranked(view._replace(legal=discards), FULL)[0][0]]


def down_draw(view: PlayerView) -> Move:
    """A seat that is down: greedy's draw (a top or dig it can lay off), else the discard
    top when keeping it and shedding the highest card is expected to leave fewer points
    than the stock (:func:`stock_cost`)."""
    legal = view.legal
    move = greedy_draw(view, legal)
    top = view.discard_top
    if not isinstance(move, Draw) or top is None:
        return move
    single = next((m for m in legal if isinstance(m, Take) and m.count == 1), None)
    hand = handset.cards(view.hand)
    if single is None or all(c == top for c in hand):
        return move
    values = card_values(view)
    highest = max(values[c] for c in hand)
    kept = values[top] - max(highest, values[top])
    expected = stock_cost(view, highest)
    return single if expected is not None and kept < expected - TAKE_MARGIN else move


def stock_cost(view: PlayerView, highest: int) -> float | None:
    """The expected change in penalty held of drawing from the stock and shedding the
    highest card (``highest`` points), over the cards the seat has not seen less those
    the seats that are down hold (cards they could not lay off); a card it could lay off
    counts as its highest card gone and :data:`CARD_WORTH` more."""
    left = unseen(view)
    values = card_values(view)
    layable = 0
    dead = 0.0
    cost = 0.0
    for card, copies in enumerate(left):
        if not copies:
            continue
        if _layable(card, view.table):
            layable += copies
        else:
            dead += copies
            cost += copies * (values[card] - max(highest, values[card]))
    down = seats_down(view)
    held = sum(n for seat, n in enumerate(view.hand_sizes)
               if seat != view.seat and down >> seat & 1)
    stock_dead = max(0.0, dead - held)
    if not layable + stock_dead:
        return None
    mean_dead = cost / dead if dead else 0.0
    return (stock_dead * mean_dead - layable * (highest + CARD_WORTH)) / (layable + stock_dead)


__all__ = ["CARD_WORTH", "SET_DIG_DEPTH", "choose", "down_draw", "is_down", "stock_cost",
           "up_draw"]
