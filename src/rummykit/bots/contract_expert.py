"""The expert's Contract Rummy play (RULES.md §4), on a :class:`PlayerView` only.

A heuristic policy sharper than the greedy one (:mod:`rummykit.bots.greedy_contract`):

- **Deal 7** (three runs using every card, §4.7): cards are kept and taken by how many of
  them three runs of distinct suits could hold (:mod:`rummykit.bots.contract_shape`), and
  near the goal by the unseen cards that would complete the hand.
- **Deal 1** (two sets hold 8 of 10 cards; once every seat is down the sets fill up and
  the hand stalls): go down only to go out in the same turn, keeping sets and cards that
  fit the table until then.
- **Discards** keep the contract's partial melds and never feed a seat that is down (a
  card it could lay off).

:mod:`rummykit.bots.contract_search` then weighs the best discards of one kind in sampled
worlds, once another seat is down (the heuristic's choice keeps a small credit).
:class:`~rummykit.bots.expert.ExpertBot` hands every contract decision here.
"""

from __future__ import annotations

import dataclasses
import random
import time
from typing import TYPE_CHECKING

from rummykit import handset
from rummykit.bots import contract_search, contract_shape
from rummykit.bots.analysis import Analysis, Candidate
from rummykit.bots.greedy_contract import (
    MELDS_INSPECTED,
    all_at_once,
    card_values,
    contract,
    go_down,
    greedy_draw,
    kept_and_partners,
    play_down,
    progress,
)
from rummykit.cards import JOKER, NUM_NATURALS, NUM_RANKS, Card
from rummykit.contract_melds import uses_every_card
from rummykit.engine import DRAW_PHASE
from rummykit.melds import JOKER_AS, SET, hand_card, lay_off, make_meld
from rummykit.moves import Discard, Meld, Move, Take
from rummykit.views import PlayerView

if TYPE_CHECKING:
    from rummykit.bots.expert import Budget


STALLED = 200  # turns after which a hand is taken as stuck: no more searching
CLASS = 1000  # ranked() values: -(class * CLASS + place)
SEARCH_MARGIN = 2.0  # points a searched discard must gain over the heuristic's choice


def choose(view: PlayerView, rng: random.Random, budget: Budget) -> Move:
    """The expert's contract move: always one of ``view.legal``."""
    found = ranked(view)
    if len(found) > 1 and _racing(view) and len(peers(found)) > 1:
        return _searched(view, found, rng, budget, SEARCH_MARGIN).best
    return found[0][0]


def analyse(view: PlayerView, rng: random.Random, budget: Budget) -> Analysis:
    """The expert's contract advice (a hint): a discard's peers searched, best first;
    another decision's heuristic move alone."""
    started = time.perf_counter()
    found = ranked(view)
    if (len(found) > 1 and view.phase != DRAW_PHASE and not all_at_once(view)
            and len(peers(found)) > 1):
        return _searched(view, found, rng, budget, SEARCH_MARGIN)
    return Analysis(view.seat, (Candidate(found[0][0], found[0][1], 0.0, 0),), 0,
                    time.perf_counter() - started)


def _racing(view: PlayerView) -> bool:
    """A discard in deals 1-6 once another seat is down: what is thrown now may cost."""
    return (not all_at_once(view) and view.phase != DRAW_PHASE
            and not _waits(view) and view.turn_count < STALLED
            and bool(view.down & ~(1 << view.seat)))


def _searched(view: PlayerView, found: list[tuple[Move, float]], rng: random.Random,
              budget: Budget, margin: float) -> Analysis:
    """The heuristic's best few searched (:mod:`rummykit.bots.contract_search`); the
    heuristic's own choice is credited ``margin`` points (the search is noisy)."""
    moves = peers(found)[:max(1, budget.candidates)]
    analysis = contract_search.search(view, moves, rng, budget)
    credited = [dataclasses.replace(c, value=c.value + margin) if c.move == moves[0] else c
                for c in analysis.candidates]
    credited.sort(key=lambda c: (-c.value, moves.index(c.move)))
    analysis = dataclasses.replace(analysis, candidates=tuple(credited))
    return analysis


def ranked(view: PlayerView) -> list[tuple[Move, float]]:
    """Candidate moves with a heuristic value, best first (one move when it is routine)."""
    legal = view.legal
    if len(legal) == 1:
        return [(legal[0], 0.0)]
    if all_at_once(view):
        return _seventh(view)
    down = bool(view.down >> view.seat & 1)
    if view.phase == DRAW_PHASE:
        if not down and _waits(view):
            return [(_draw_waiting(view), 0.0)]
        return [(greedy_draw(view, legal), 0.0)]
    down = bool(view.down >> view.seat & 1)
    if not down:
        melds = [m for m in legal[:MELDS_INSPECTED] if isinstance(m, Meld)]
        if melds and _waits(view):
            melds = [m for m in melds if _goes_out(view, m)]
        if melds:
            return [(go_down(view, melds), 0.0)]
    else:
        move = play_down(view, legal)
        if move is not None:
            return [(move, 0.0)]
    return _discards(view, down)


# -- shared measures --------------------------------------------------------------------

def unseen(view: PlayerView) -> list[int]:
    """Per card (the joker at 52), the copies the seat has not seen anywhere."""
    decks, jokers = view.rules.pack_spec(view.num_players)
    left = [decks] * NUM_NATURALS + [jokers]
    for card in handset.cards(view.hand):
        left[card] -= 1
    for card in view.discard:
        left[card] -= 1
    for meld in view.table:
        for code in meld.cards:
            left[hand_card(code)] -= 1
    for seat, known in enumerate(view.known):
        if seat != view.seat:
            for card in handset.cards(known):
                left[card] -= 1
    return [max(0, n) for n in left]


def _feeds(view: PlayerView, card: Card) -> bool:
    """Whether a seat that is down could lay ``card`` off (it would take it)."""
    others_down = view.down & ~(1 << view.seat)
    if not others_down:
        return False
    if card == JOKER:
        return True
    return any(m.accepts >> card & 1 for m in view.table)


# -- discards in deals 1-6 ----------------------------------------------------------------

def _discards(view: PlayerView, down: bool) -> list[tuple[Move, float]]:
    discards = [m for m in view.legal if isinstance(m, Discard)]
    if not discards:
        return [(view.legal[0], 0.0)]
    values = card_values(view)
    hand = handset.cards(view.hand)
    kept, partners = kept_and_partners(hand, view, down)

    wait = not down and _waits(view)

    def key(move: Discard) -> tuple[tuple[bool, ...], int, int]:
        c = move.card
        kind = (c != JOKER, c not in kept, not (wait and _layable_now(view, c)),
                c not in partners, not _feeds(view, c))
        return kind, values[c], c % NUM_RANKS

    order = sorted(discards, key=key, reverse=True)
    kinds = [key(m)[0] for m in order]
    return [(m, -float(CLASS * sorted(set(kinds), reverse=True).index(kinds[i]) + i))
            for i, m in enumerate(order)]


def peers(found: list[tuple[Move, float]]) -> list[Move]:
    """The moves of :func:`ranked` in the same class as the first: discards that keep as
    much of the contract and feed nobody more (what a search may reorder)."""
    first = int(-found[0][1]) // CLASS
    return [m for m, v in found if int(-v) // CLASS == first]


# -- deal 1: sets only, too few to hold a hand ----------------------------------------------

def _waits(view: PlayerView) -> bool:
    """Whether the deal's contract holds too few cards for going down to lead anywhere but
    a stall (two sets hold 8 of 10 cards; tables of sets fill up): go down only to go out."""
    sets, runs = contract(view)
    size = view.rules.hand_size_for(view.num_players, view.deal_index)
    return runs == 0 and 4 * sets < size


def _goes_out(view: PlayerView, meld: Meld) -> bool:
    """Whether going down with ``meld`` lets every card but one be laid off this turn."""
    rules = view.rules
    rest = handset.cards(view.hand)
    table = list(view.table)
    for group in meld.groups:
        for code in group:
            rest.remove(hand_card(code))
        made = make_meld(group, rules, view.seat)
        if isinstance(made, str):
            return False
        table.append(made)
    stuck = 0
    for card in sorted(rest):  # naturals first, the joker last
        for i, target in enumerate(table):
            if card == JOKER:
                if target.kind == SET and len(target.cards) < 4:
                    free = target.accepts & -target.accepts
                    table[i] = lay_off(target, JOKER_AS + free.bit_length() - 1, "high",
                                       view.seat, rules)
                    break
            elif target.accepts >> card & 1:
                table[i] = lay_off(target, card, target.ends_for(card, rules)[0], view.seat,
                                   rules)
                break
        else:
            stuck += 1
    return stuck <= 1


def _layable_now(view: PlayerView, card: Card) -> bool:
    return card != JOKER and any(m.accepts >> card & 1 for m in view.table)


# -- deal 7: three runs, every card --------------------------------------------------------

def _shape(cards: list[Card], left: list[int]) -> tuple[int, int]:
    """(cards three runs can hold, tie-break) of a hand waiting for one more card."""
    size = len(cards) + 1
    held, ways = contract_shape.coverage(cards, size)
    if held == size - 1:
        return held, 1000 + contract_shape.outs(cards, size, left)
    return held, ways


def _seventh(view: PlayerView) -> list[tuple[Move, float]]:
    legal = view.legal
    hand = handset.cards(view.hand)
    sets, runs = contract(view)
    if view.phase == DRAW_PHASE:
        takes = [m for m in legal if isinstance(m, Take)]
        digs = sorted((m for m in takes if m.count > 1), key=lambda m: m.count)
        if digs:  # a dig is legal only when it lets the seat go out this turn
            return [(digs[0], 1.0)]
        single = next((m for m in takes if m.count == 1), None)
        draw = next((m for m in legal if not isinstance(m, Take)), legal[0])
        top = view.discard_top
        if single is None or top is None:
            return [(draw, 0.0)]
        with_top = [*hand, top]
        if uses_every_card(with_top, sets, runs, view.rules):
            return [(single, 1.0)]
        left = unseen(view)
        now = _shape(hand, left)
        best = None
        for i in range(len(hand)):
            rest = with_top[:i] + with_top[i + 1:]
            shaped = _shape(rest, left)
            if best is None or shaped > best:
                best = shaped
        if best is not None and best[0] > now[0]:
            return [(single, 1.0), (draw, 0.0)]
        return [(draw, 0.0), (single, -1.0)]
    melds = [m for m in legal if isinstance(m, Meld)]
    if melds:
        return [(melds[0], 1.0)]
    discards = [m for m in legal if isinstance(m, Discard)]
    if not discards:
        return [(legal[0], 0.0)]
    left = unseen(view)
    values = card_values(view)
    scored = []
    for move in discards:
        rest = list(hand)
        rest.remove(move.card)
        held, tie = _shape(rest, left)
        scored.append(((held, tie, values[move.card], move.card % NUM_RANKS), move))
    scored.sort(key=lambda e: e[0], reverse=True)
    return [(m, float(k[0])) for k, m in scored]


__all__ = ["analyse", "choose", "ranked", "unseen"]


def _draw_waiting(view: PlayerView) -> Move:
    """Deal 1 draw while waiting to go out at once: never dig; take the top when it adds
    a card to the best sets or fits the table."""
    legal = view.legal
    single = next((m for m in legal if isinstance(m, Take) and m.count == 1), None)
    draw = next((m for m in legal if not isinstance(m, Take)), None)
    top = view.discard_top
    if draw is None:
        return single or legal[0]
    if single is None or top is None:
        return draw
    hand = handset.cards(view.hand)
    if top == JOKER or _layable_now(view, top):
        return single
    return single if _placed([*hand, top], view) > _placed(hand, view) else draw


def _placed(cards: list[Card], view: PlayerView) -> tuple[int, int]:
    """(contract melds makeable, cards they hold) of the best partial arrangement."""
    count, _, way = progress(cards, view)
    return count, sum(len(g) for g in way)
