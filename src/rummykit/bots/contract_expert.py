"""The contract heuristics of the search levels (RULES.md §4), on a :class:`PlayerView` only.

A heuristic policy sharper than the greedy one (:mod:`rummykit.bots.greedy_contract`),
shared by ``medium``, ``hard`` and ``expert`` (:func:`ranked`; what each level plays is
:mod:`rummykit.bots.contract_levels`, the hint is :func:`analyse`; :func:`choose` and
:func:`skill_for` are the levels of the previous session, kept for comparison):

- **Going down** as soon as the contract is made, the way leaving the fewest cards once
  every lay-off is made (:mod:`rummykit.bots.contract_leftover`); a level that searches
  enough (:func:`weighs_waiting`) plays going down against waiting a turn in sampled
  worlds and waits only when that measured better.
- **Once down**: every lay-off and useful swap, then a joker laid off (in a set first);
  discards shed the most points (among cards of one value, first the one no run can
  reach).
- **Discards before going down** keep the contract's partial melds, then the cards the
  table takes (each is a card fewer once down, and a seat that is down would take it),
  then the loose cards that pair toward a meld.

The levels differ by what they know (:class:`Skill`, :func:`skill_for`) and how much
they search:

- every level, **deal 7** (three runs using every card, §4.7): keep the cards three runs
  of distinct suits could hold (:mod:`rummykit.bots.contract_shape`), then those that the
  most unseen cards would bring closer (near the end, a card nobody threw counts as
  hoarded);
- ``hard`` and ``expert``, **drawing before going down**: also take a discard top that
  pairs with a loose card toward a meld of the contract; they also play going down
  against waiting a turn in sampled worlds (12 and 32);
- ``expert``, **race discards** (not down, another seat down): never feed a seat that is
  down before breaking a pair, and shed the highest loose card.

A hint searches the level's own move and its alternatives (:func:`alternatives`,
:mod:`rummykit.bots.contract_search`) and recommends the level's move (in deal 7 the
race's, see :func:`rummykit.bots.contract_levels.analyse`); play does not search deal 7.
What each skill measured against greedy, and the changes that measured no better, are in
the documentation's bench log, ``docs/contract-bots.md``.
:class:`~rummykit.bots.expert.ExpertBot` hands every contract decision here.
"""

from __future__ import annotations

import dataclasses
import random
import time
from typing import TYPE_CHECKING

from rummykit.bots import contract_search, contract_shape
from rummykit.bots.analysis import Analysis, Candidate
from rummykit.bots.contract_leftover import laid_in_chain, left_after
from rummykit.bots.greedy_contract import (
    MELDS_INSPECTED,
    all_at_once,
    card_values,
    contract,
    goes_out_at_once,
    greedy_draw,
    kept_and_partners,
    meld_partners,
    opens,
    play_down,
    seventh,
)
from rummykit.core import handset
from rummykit.core.cards import JOKER, NUM_NATURALS, NUM_RANKS, Card
from rummykit.core.engine import DRAW_PHASE
from rummykit.core.melds import JOKER_AS, SET, hand_card, position_card
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Take
from rummykit.core.views import PlayerView
from rummykit.variants.contract.melds import uses_every_card
from rummykit.variants.contract.view import contract_part as part

if TYPE_CHECKING:
    from rummykit.bots.expert import Budget


WAIT_WORLDS = 6  # worlds a level must search to weigh waiting against going down
ALTERNATIVES = 5  # moves a hint compares
HOARD_TURNS = 120  # deal 7: turns after which a card nobody threw is taken as hoarded
RUN_REACH = 8  # closeness of a card next to a run's end (one less per card further)
CLASS = 1000  # ranked() values: -(class * CLASS + place)
WAIT_MARGIN = 6.0  # points waiting a turn must gain over going down (in 12-world tests,
# a made 9-card contract measured waiting 2 points better: noise)
SEVENTH_WORLDS = 16  # deal 7: worlds a hint samples at most (a playout costs ~15 ms)
HARD_WORLDS = 48  # a level searching this many worlds takes discard tops pairing a card
EXPERT_WORLDS = 128  # ... and this many: the race discards
SEVENTH_DISCARDS = 3  # deal 7: discards a hint compares (the heuristic's best first)
SET_DIG_DEPTH = 3  # cards a seat not down digs at most in a deal of sets only


@dataclasses.dataclass(frozen=True, slots=True)
class Skill:
    """What a level knows beyond the shared heuristics (each measured, module docstring)."""

    seventh_draws: bool = True  # deal 7: keep the cards the most unseen draws improve
    pair_takes: bool = True  # deals 1-6, not down: take a discard top pairing a loose card
    race_discards: bool = True  # deals 1-6, not down: once another seat is down, never
    # feed it before breaking a pair, and shed the highest loose card


FULL = Skill()


def skill_for(budget: Budget) -> Skill:
    """The skills of the level searching ``budget.worlds`` worlds: ``medium`` the seventh
    deal's shape, ``hard`` and ``expert`` also the pairing takes."""
    return Skill(seventh_draws=True, pair_takes=budget.worlds >= HARD_WORLDS,
                 race_discards=budget.worlds >= EXPERT_WORLDS)


def choose(view: PlayerView, rng: random.Random, budget: Budget) -> Move:
    """The level's contract move: always one of ``view.legal``."""
    move = ranked(view, skill_for(budget))[0][0]
    if isinstance(move, Meld) and not goes_out_at_once(view) and weighs_waiting(budget):
        return _searched(view, [move, _waiting(view)], rng, budget, WAIT_MARGIN).best
    return move


def _seventh_choices(found: list[tuple[Move, float]]) -> list[Move]:
    """Deal 7's moves worth searching: both draws, or the discards keeping the most."""
    moves = [m for m, _ in found]
    if not isinstance(moves[0], (Draw, Take, Discard)) or \
            (isinstance(moves[0], Take) and moves[0].count > 1):
        return moves[:1]  # going out, or a dig (listed only when it goes out)
    return moves[:SEVENTH_DISCARDS]


def analyse(view: PlayerView, rng: random.Random, budget: Budget,
            first: Move | None = None) -> Analysis:
    """The expert's contract advice (a hint): the heuristic's move and its main
    alternatives (:func:`alternatives`) searched, best first (a ``first`` move ahead of
    them); a forced move alone.

    A ``first`` move (the level's own: :func:`rummykit.bots.contract_levels.analyse`) is
    searched too and stays first, whatever its estimate. The playouts race like greedy:
    a seat playing the search's best of these moves held about 7 points a deal more than
    the level's own moves in deals 1-6, and in deal 7 the race measured better than the
    search's choice (``docs/contract-bots.md``)."""
    started = time.perf_counter()
    moves = alternatives(view)
    if first is not None:
        moves = [first, *(m for m in moves if m != first)][:ALTERNATIVES]
    if len(moves) == 1:
        return Analysis(view.seat, (Candidate(moves[0], 0.0, 0.0, 0),), 0,
                        time.perf_counter() - started)
    if all_at_once(view):
        found = contract_search.search(view, moves, rng, budget,
                                       min(SEVENTH_WORLDS, contract_search.worlds_for(budget)))
    elif first is None:
        return _searched(view, moves, rng, budget, 0.0)
    else:
        found = contract_search.search(view, moves, rng, budget)
    return found if first is None else _kept_first(found, first)


def _kept_first(found: Analysis, first: Move) -> Analysis:
    """``found`` with ``first``'s candidate moved to the front (the rest best first)."""
    ahead = [c for c in found.candidates if c.move == first]
    rest = [c for c in found.candidates if c.move != first]
    return dataclasses.replace(found, candidates=tuple(ahead + rest))


def weighs_waiting(budget: Budget) -> bool:
    """Whether a level searches going down against waiting a turn (the others go down as
    soon as they can: waiting never paid in their playouts worth the search)."""
    return contract_search.worlds_for(budget) >= WAIT_WORLDS


def _waiting(view: PlayerView) -> Move:
    """The discard a seat that could go down would make to wait a turn."""
    return _discards(view, False)[0][0]


def alternatives(view: PlayerView) -> list[Move]:
    """The heuristic's move first, then the other moves worth comparing: the other draws;
    waiting instead of going down, or another way to go down; the next discards."""
    found = ranked(view)
    first = found[0][0]
    legal = view.legal
    if all_at_once(view):  # both draws, or the discards keeping the most
        choices = _seventh_choices(found)
        return [m for m, _ in found[:ALTERNATIVES]] if len(choices) > 1 else choices
    moves = [first]

    def add(move: Move | None) -> None:
        if move is not None and move not in moves and len(moves) < ALTERNATIVES:
            moves.append(move)

    if view.phase == DRAW_PHASE:
        legal = draw_choices(view)
        if first not in legal:
            moves = [greedy_draw(view, legal)]
        add(next((m for m in legal if isinstance(m, Draw)), None))
        add(next((m for m in legal if isinstance(m, Take) and m.count == 1), None))
        add(min((m for m in legal if isinstance(m, Take) and m.count > 1),
                key=lambda m: m.count, default=None))
        return moves
    if isinstance(first, Meld):
        add(_waiting(view))
        for meld in (m for m in legal[:MELDS_INSPECTED] if isinstance(m, Meld)):
            add(meld)
            if len(moves) >= 3:
                break
        return moves
    if not isinstance(first, Discard):
        add(next((m for m in legal if isinstance(m, Discard)), None))
    for move, _ in _discards(view, bool(part(view).down >> view.seat & 1)):
        add(move)
    return moves


def draw_choices(view: PlayerView) -> tuple[Move, ...]:
    """The legal draws worth playing or searching: in a deal whose contract has no run, no
    dig deeper than :data:`SET_DIG_DEPTH` cards. Such a dig goes down at once with the dug
    cards in hand, and those deals mostly end blocked with every hand scored (§4.8.1); the
    search's greedy playouts do not see it (``docs/contract-bots.md``)."""
    if contract(view)[1]:
        return view.legal
    return tuple(m for m in view.legal if not isinstance(m, Take) or m.count <= SET_DIG_DEPTH)


def _searched(view: PlayerView, moves: list[Move], rng: random.Random, budget: Budget,
              margin: float) -> Analysis:
    """``moves`` searched (:mod:`rummykit.bots.contract_search`), the first (the
    heuristic's own choice) credited ``margin`` points: the search is noisy."""
    analysis = contract_search.search(view, moves, rng, budget)
    credited = [dataclasses.replace(c, value=c.value + margin) if c.move == moves[0] else c
                for c in analysis.candidates]
    credited.sort(key=lambda c: (-c.value, moves.index(c.move)))
    return dataclasses.replace(analysis, candidates=tuple(credited))


def ranked(view: PlayerView, skill: Skill = FULL) -> list[tuple[Move, float]]:
    """Candidate moves with a heuristic value, best first (one move when it is routine)."""
    legal = view.legal
    if len(legal) == 1:
        return [(legal[0], 0.0)]
    if all_at_once(view):
        return _seventh(view) if skill.seventh_draws else [(seventh(view, legal), 0.0)]
    down = bool(part(view).down >> view.seat & 1)
    if view.phase == DRAW_PHASE:
        if not skill.pair_takes:
            return [(greedy_draw(view, legal), 0.0)]
        return [(_draw(view, legal, down), 0.0)]
    if not down:
        melds = [m for m in legal[:MELDS_INSPECTED] if isinstance(m, Meld)]
        if melds:
            return [(_go_down(view, melds), 0.0)]
    else:
        move = _play_down(view, legal)
        if move is not None:
            return [(move, 0.0)]
    return _discards(view, down, skill.race_discards)


def _go_down(view: PlayerView, melds: list[Meld]) -> Meld:
    """The way to go down leaving the fewest cards once every lay-off is made
    (:func:`rummykit.bots.contract_leftover.left_after`), then the fewest points; among
    equals, greedy's (the most points placed, the fewest jokers). Mirrored deals 1-6
    against three greedy, ``medium``: -0.12 +- 0.04 points a deal (2,400 deals)."""
    values = card_values(view)
    hand = handset.cards(view.hand)

    def key(move: Meld) -> tuple[int, int, int, int]:
        left = left_after(hand, move.groups, view.table, view.rules)
        placed = [hand_card(c) for g in move.groups for c in g]
        return (-len(left), -sum(values[c] for c in left),
                sum(values[c] for c in placed), -placed.count(JOKER))

    return max(melds, key=key)


def _draw(view: PlayerView, legal: tuple[Move, ...], down: bool) -> Move:
    """The greedy draw, except that a seat not down also takes a discard top that pairs
    with one of its loose cards toward a meld of the contract (240 mirrored deals 1-6
    against greedy: 3.9 +- 1.5 points a deal better than drawing)."""
    move = greedy_draw(view, legal)
    top = view.discard_top
    if down or not isinstance(move, Draw) or top is None or top == JOKER:
        return move
    single = next((m for m in legal if isinstance(m, Take) and m.count == 1), None)
    if single is None or _feeds(view, top):
        return move
    hand = handset.cards(view.hand)
    if top in hand:
        return move
    kept, _ = kept_and_partners(hand, view, down)
    loose = [c for c in hand if c not in kept]
    return single if top in meld_partners([*loose, top], view) else move


def _play_down(view: PlayerView, legal: tuple[Move, ...]) -> Move | None:
    """The greedy lay-offs and swaps, then a joker laid off at once (a swapped one too),
    in a set first (a set's joker is dead: no other seat can swap it out and shed a
    card), unless a run's place lets a card held follow it. A joker held costs 15 points
    when another seat goes out (mirrored deals 1-6 against three greedy, ``medium``:
    -0.07 +- 0.02 points a deal against holding it while a run is on the table, 2,400
    deals)."""
    move = play_down(view, legal)
    joker = move is None or (isinstance(move, LayOff) and move.card >= JOKER_AS)
    if not joker:
        return move
    if isinstance(move, LayOff) and opens(view, move) & handset.presence(view.hand):
        return move  # a run's place that lets a card held follow
    jokers = [m for m in legal if isinstance(m, LayOff) and m.card >= JOKER_AS]
    in_sets = [m for m in jokers if view.table[m.target - 1].kind == SET]
    if in_sets:
        return in_sets[0]
    if move is not None:
        return move
    return jokers[0] if jokers else None


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
    others_down = part(view).down & ~(1 << view.seat)
    if not others_down:
        return False
    if card == JOKER:
        return True
    return any(m.accepts >> card & 1 for m in view.table)


# -- discards in deals 1-6 ----------------------------------------------------------------

def _discards(view: PlayerView, down: bool, race: bool = False) -> list[tuple[Move, float]]:
    discards = [m for m in view.legal if isinstance(m, Discard)]
    if not discards:
        return [(view.legal[0], 0.0)]
    values = card_values(view)
    hand = handset.cards(view.hand)
    kept, partners = kept_and_partners(hand, view, down)
    reach = _reach(view) if down else {}
    racing = race and bool(part(view).down & ~(1 << view.seat))
    layable = set() if down or racing else set(laid_in_chain(hand, view.table, view.rules))

    def key(move: Discard) -> tuple[tuple[bool, ...], int, int]:
        c = move.card
        kind: tuple[bool, ...]
        if down:  # shed points (measured better than keeping cards a run may reach:
            # 240 mirrored deals 1-6 against greedy, 3.9 +- 1.8 points a deal worse);
            # among cards of one value, the one no run can reach first
            kind = (c != JOKER,)
            return kind, values[c] * 100 - reach.get(c, 0), c % NUM_RANKS
        if racing:
            kind = (c != JOKER, c not in kept, not _feeds(view, c))
        else:  # a card the table takes is one fewer once down: kept before partners
            kind = (c != JOKER, c not in kept, c not in layable, c not in partners)
        return kind, values[c], c % NUM_RANKS

    order = sorted(discards, key=key, reverse=True)
    kinds = [key(m)[0] for m in order]
    return [(m, -float(CLASS * sorted(set(kinds), reverse=True).index(kinds[i]) + i))
            for i, m in enumerate(order)]


# -- toward going out -----------------------------------------------------------------

def _reach(view: PlayerView) -> dict[Card, int]:
    """Natural cards no table meld takes now that a run could still reach, by closeness
    (higher is closer: a card next to a run's end scores the most)."""
    found: dict[Card, int] = {}
    top = 14 if view.rules.ace_high else 13
    for meld in view.table:
        if meld.kind == SET:
            continue
        for step, position in enumerate(range(meld.low - 2, 0, -1)):
            card = position_card(meld.suit, position)
            found[card] = max(found.get(card, 0), RUN_REACH - step)
        for step, position in enumerate(range(meld.high + 2, top + 1)):
            card = position_card(meld.suit, position)
            found[card] = max(found.get(card, 0), RUN_REACH - step)
    return {c: v for c, v in found.items() if v > 0}


# -- deal 7: three runs, every card --------------------------------------------------------

def _shape(cards: list[Card], left: list[int]) -> tuple[int, int]:
    """(cards three runs can hold, tie-break) of a hand waiting for one more card: the
    unseen copies of the cards that would bring it closer (its outs when one card away)."""
    size = len(cards) + 1
    held = contract_shape.held_count(cards, size)
    draws = contract_shape.improving(cards, size, left)
    if held == size - 1 and draws == 0:  # every card that completes it is held elsewhere
        return held - 1, 0
    return held, draws


def _available(view: PlayerView) -> list[int]:
    """:func:`unseen`, except that once the hand is long (:data:`HOARD_TURNS`) a card
    nobody has discarded this hand counts as held for good by another seat."""
    left = unseen(view)
    if view.turn_count < HOARD_TURNS:
        return left
    thrown = 0
    for bits in view.discarded:
        thrown |= bits
    for card in view.discard:
        thrown |= 1 << card
    return [n if thrown >> card & 1 else 0 for card, n in enumerate(left)]


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
        left = _available(view)
        now = _shape(hand, left)
        best = None
        for i in range(len(hand)):
            rest = with_top[:i] + with_top[i + 1:]
            shaped = _shape(rest, left)
            if best is None or shaped > best:
                best = shaped
        if best is not None and best > now:
            return [(single, 1.0), (draw, 0.0)]
        return [(draw, 0.0), (single, -1.0)]
    melds = [m for m in legal if isinstance(m, Meld)]
    if melds:
        return [(melds[0], 1.0)]
    discards = [m for m in legal if isinstance(m, Discard)]
    if not discards:
        return [(legal[0], 0.0)]
    left = _available(view)
    values = card_values(view)
    scored = []
    for move in discards:
        rest = list(hand)
        rest.remove(move.card)
        held, tie = _shape(rest, left)
        scored.append(((held, tie, values[move.card], move.card % NUM_RANKS), move))
    scored.sort(key=lambda e: e[0], reverse=True)
    return [(m, float(k[0])) for k, m in scored]


__all__ = ["FULL", "SET_DIG_DEPTH", "Skill", "alternatives", "analyse", "choose",
           "draw_choices", "ranked", "skill_for", "unseen", "weighs_waiting"]

