"""Contract Rummy turns (RULES.md §4): going down, lay-offs once down, joker swaps, digs,
the turn duties and the completability rule (§1.6), and the seventh-deal rule (§4.7).

These are the engine's named hooks for the ``contract`` rule set; the engine calls them
when ``rules.contract_schedule`` is set. Moves are generated lazily in a fixed order:
going down (or, once down, new melds where allowed), lay-offs, swaps, discards.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rummykit import handset
from rummykit.cards import JOKER, NUM_RANKS
from rummykit.contract_melds import (
    can_make,
    can_make_containing,
    is_way_to_go_down,
    uses_every_card,
    ways_to_go_down,
)
from rummykit.melds import JOKER_AS, RUN, SET, TableMeld, identity, position_card
from rummykit.moves import Discard, LayOff, Meld, Move, Swap, Take

if TYPE_CHECKING:
    from rummykit.engine import HandState


def contract_of(state: HandState) -> tuple[int, int]:
    """(sets, runs) of the current deal's contract."""
    schedule = state.rules.contract_schedule
    return schedule[state.deal_index % len(schedule)]


def final_rule(state: HandState) -> str:
    """The seventh-deal rule in force this deal: ``none`` except in the last deal."""
    schedule = state.rules.contract_schedule
    if state.deal_index % len(schedule) != len(schedule) - 1:
        return "none"
    return state.rules.final_deal_rule


# -- draw step ------------------------------------------------------------------------------

def digs(state: HandState) -> Iterator[Take]:
    """Every dig (``take N``, N ≥ 2) whose dug card can be placed this turn."""
    if not state.rules.discard_dig:
        return
    down = _is_down(state)
    hand = handset.cards(state.hands[state.to_move])
    sets, runs = contract_of(state)
    for count in range(2, len(state.discard) + 1):
        if not down and not can_make(hand + state.discard[-count:], sets, runs, state.rules):
            continue  # the dug card can only be placed by going down this turn
        move = Take(count)
        if _finishable_after(state, move):
            yield move


def take_ok(state: HandState) -> bool:
    """Whether taking the discard top leaves a turn that can be finished."""
    return _finishable_after(state, Take())


# -- play step ------------------------------------------------------------------------------

def _is_down(state: HandState) -> bool:
    return bool(state.down >> state.to_move & 1)


def _empties(state: HandState, cards: int) -> bool:
    return handset.size(state.hands[state.to_move]) == cards


def joker_identities(meld: TableMeld, state: HandState) -> list[int]:
    """The identities a joker may take when laid off on ``meld``."""
    if meld.kind == SET:
        if len(meld.cards) >= 4:
            return []
        present = {identity(c) // NUM_RANKS for c in meld.cards}
        return [s * NUM_RANKS + meld.rank - 1 for s in range(4) if s not in present]
    found = []
    if meld.low > 1:
        found.append(position_card(meld.suit, meld.low - 1))
    if meld.high < (14 if state.rules.ace_high else 13):
        found.append(position_card(meld.suit, meld.high + 1))
    return found


def joker_places(meld: TableMeld, state: HandState) -> list[tuple[int, str | None]]:
    """(identity, END) of every place a joker may take on ``meld``; END is written only
    where one identity fits both ends (a joker ace on ``H2 .. HK``)."""
    if meld.kind == SET:
        return [(ident, None) for ident in joker_identities(meld, state)]
    ends = []
    if meld.low > 1:
        ends.append((position_card(meld.suit, meld.low - 1), "low"))
    if meld.high < (14 if state.rules.ace_high else 13):
        ends.append((position_card(meld.suit, meld.high + 1), "high"))
    if len(ends) == 2 and ends[0][0] == ends[1][0]:
        return [(ident, end) for ident, end in ends]
    return [(ident, None) for ident, _ in ends]


def _meld_moves(state: HandState) -> Iterator[Meld]:
    hand = state.hands[state.to_move]
    cards = handset.cards(hand)
    rules = state.rules
    strict = rules.must_discard_to_go_out
    if not _is_down(state):
        sets, runs = contract_of(state)
        everything = final_rule(state) == "all_at_once_no_discard"
        for way in ways_to_go_down(cards, sets, runs, rules):
            used = sum(len(g) for g in way)
            if everything and used != len(cards):
                continue
            if strict and used == len(cards):
                continue
            yield Meld(way)
    elif rules.extra_melds_after_contract and final_rule(state) == "none":
        for sets, runs in ((1, 0), (0, 1)):
            for way in ways_to_go_down(cards, sets, runs, rules):
                if not (strict and len(way[0]) == len(cards)):
                    yield Meld(way)


def _lay_moves(state: HandState) -> Iterator[LayOff]:
    hand = state.hands[state.to_move]
    if state.rules.must_discard_to_go_out and handset.size(hand) == 1:
        return
    present = handset.presence(hand)
    jokers = handset.count(hand, JOKER)
    for index, meld in enumerate(state.table):
        fits = present & meld.accepts
        while fits:
            low = fits & -fits
            fits ^= low
            card = low.bit_length() - 1
            ends = meld.ends_for(card, state.rules)
            for end in ends:
                yield LayOff(card, index + 1, end if len(ends) > 1 else None)
        if jokers:
            for ident, place in joker_places(meld, state):
                yield LayOff(JOKER_AS + ident, index + 1, place)


def _swap_moves(state: HandState) -> Iterator[Swap]:
    if not state.rules.joker_swap or state.went_down:
        return
    hand = state.hands[state.to_move]
    for index, meld in enumerate(state.table):
        if meld.kind != RUN:
            continue
        seen = set()
        for code in meld.cards:
            if code >= JOKER_AS and code not in seen and handset.count(hand, code - JOKER_AS):
                seen.add(code)
                yield Swap(code - JOKER_AS, index + 1)


def _discard_moves(state: HandState) -> Iterator[Discard]:
    if state.dig_duty >= 0 or state.joker_duty:
        return
    hand = state.hands[state.to_move]
    if final_rule(state) != "none" and _is_down(state) and handset.size(hand) != 1:
        return
    for card in handset.distinct(hand):
        if card != state.taken:
            yield Discard(card)


def candidates(state: HandState) -> Iterator[Move]:
    """The play-step moves allowed by every rule but completability, in canonical order."""
    yield from _meld_moves(state)
    if _is_down(state) and final_rule(state) != "all_at_once_no_discard":
        yield from _lay_moves(state)
        yield from _swap_moves(state)
    yield from _discard_moves(state)


def play_moves(state: HandState) -> Iterator[Move]:
    """The legal play-step moves, lazily, in canonical order."""
    for move in candidates(state):
        if type(move) is Discard or _finishable_after(state, move):
            yield move


# -- completability (RULES.md §1.6) -----------------------------------------------------------

def _finishable_after(state: HandState, move: Move) -> bool:
    state.push(move)
    try:
        return state.result is not None or finishable(state)
    finally:
        state.pop()


def _can_discard_now(state: HandState) -> bool:
    return next(_discard_moves(state), None) is not None


def finishable(state: HandState) -> bool:
    """Can the player to move finish this turn by some sequence of legal actions?"""
    if _can_discard_now(state):
        return True
    quick = _dig_before_going_down(state)
    if quick is None:
        quick = _dig_when_down(state)
    if quick is not None:
        return quick
    return _search(state, {}, [0])


def _dig_when_down(state: HandState) -> bool | None:
    """Exact shortcut for a dig by a player who is down: the dug card must be laid off,
    after the cards that lead up to it on a run (None: search instead)."""
    rules = state.rules
    if state.dig_duty < 0 or state.joker_duty or not _is_down(state) or \
            rules.must_discard_to_go_out or rules.extra_melds_after_contract or \
            final_rule(state) != "none":
        return None
    dug = state.dig_duty
    if dug == JOKER:  # lay-offs never close an open place, so this is decided now
        return any(joker_identities(meld, state) for meld in state.table)
    if not state.went_down and any(JOKER_AS + dug in meld.cards for meld in state.table
                                   if meld.kind == RUN):
        return None  # a swap could place it too
    held = Counter(handset.cards(state.hands[state.to_move]))
    held[dug] -= 1
    return any(next(_chains(state, meld, dug, held), None) is not None
               for meld in state.table)


def _dig_before_going_down(state: HandState) -> bool | None:
    """Exact shortcuts for a dig by a player who is not down (None: search instead).

    The dug card must then reach the table through this turn's going-down melds (a lay-off
    on one's own new meld is the same as a bigger meld) or a lay-off on a meld placed
    before this turn.
    """
    if state.dig_duty < 0 or state.joker_duty or _is_down(state):
        return None
    hand = handset.cards(state.hands[state.to_move])
    sets, runs = contract_of(state)
    rules = state.rules
    rule = final_rule(state)
    if rule == "all_at_once_no_discard":
        return uses_every_card(hand, sets, runs, rules)
    if rule == "all_at_once_discard_ok":
        return _last_deal_dig(state, hand, sets, runs)
    if not can_make(hand, sets, runs, rules):
        return False
    # Under must_discard_to_go_out a card must be left to discard; a hand larger than the
    # least contract plus the longest lay-off chain always keeps one.
    roomy = not rules.must_discard_to_go_out or \
        len(hand) > 3 * sets + rules.run_min_length * runs + 14
    if state.dig_duty == JOKER:
        if not roomy or rules.run_min_length >= 13:
            return None
        # Some way to go down exists; shrink its sets to 3 cards and its runs to the least
        # length: the dug joker then fits a set's missing suit or a run's open end.
        return True
    if roomy:
        # go down with the dug card, or go down then lay it off on an earlier meld; then
        # discard, or be out
        return can_make_containing(hand, state.dig_duty, sets, runs, state.rules) or \
            _dig_laid_off(state, hand, sets, runs)
    if not any(_may_reach(state, meld, state.dig_duty) for meld in state.table):
        return False
    return None


def _last_deal_dig(state: HandState, hand: list[int], sets: int, runs: int) -> bool:
    """``all_at_once_discard_ok``: after a dig the player must go down and go out this turn:
    runs holding every card (lay-offs on one's own runs make them longer), or every card
    but one that is then discarded, the dug card in the runs."""
    rules = state.rules
    if not rules.must_discard_to_go_out and uses_every_card(hand, sets, runs, rules):
        return True
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        if state.dig_duty in rest and uses_every_card(rest, sets, runs, rules):
            return True
    return False


def _dig_laid_off(state: HandState, hand: list[int], sets: int, runs: int) -> bool:
    """Can the player go down without the dug card and then lay it off on a meld placed
    before this turn (after the cards that lead up to it on a run)?"""
    dug = state.dig_duty
    rest = Counter(hand)
    rest[dug] -= 1
    for meld in state.table:
        for chain in _chains(state, meld, dug, rest):
            left = rest.copy()
            left.subtract(chain)
            if can_make(list(left.elements()), sets, runs, state.rules):
                return True
    return False


def _chains(state: HandState, meld: TableMeld, card: int, held: Counter[int]
            ) -> Iterator[list[int]]:
    """The cards that could be laid off on ``meld`` before ``card`` fits it."""
    if meld.kind == SET:
        if _may_reach(state, meld, card):
            yield []
        return
    if card // NUM_RANKS != meld.suit:
        return
    rank = card % NUM_RANKS + 1
    for position in {rank, 14} if rank == 1 and state.rules.ace_high else {rank}:
        if meld.low <= position <= meld.high:
            continue
        gap = list(range(position + 1, meld.low) if position < meld.low
                   else range(meld.high + 1, position))
        naturals = [position_card(meld.suit, p) for p in gap]
        forced = [i for i, c in enumerate(naturals) if not held[c]]
        optional = [i for i, c in enumerate(naturals) if held[c]]
        spare = held[JOKER] - len(forced)
        if spare < 0:
            continue
        for k in range(min(spare, len(optional)) + 1):
            for jokered in itertools.combinations(optional, k):
                use = set(forced) | set(jokered)
                yield [JOKER if i in use else c for i, c in enumerate(naturals)]


def _may_reach(state: HandState, meld: TableMeld, card: int) -> bool:
    """Whether ``card`` could end up laid off on ``meld`` (a necessary condition)."""
    if meld.kind == SET:
        return card % NUM_RANKS + 1 == meld.rank and len(meld.cards) < 4 and \
            card // NUM_RANKS not in {identity(c) // NUM_RANKS for c in meld.cards}
    if card // NUM_RANKS != meld.suit:
        return False
    hand = state.hands[state.to_move]
    spare = handset.count(hand, JOKER)
    rank = card % NUM_RANKS + 1
    for position in {rank, 14} if rank == 1 and state.rules.ace_high else {rank}:
        gap = range(position + 1, meld.low) if position < meld.low else \
            range(meld.high + 1, position)
        if position in range(meld.low, meld.high + 1):
            continue
        missing = sum(1 for p in gap if not handset.count(hand, position_card(meld.suit, p)))
        if missing <= spare:
            return True
    return False


SEARCH_BUDGET = 5_000  # placements one completability search may try


def _search(state: HandState, memo: dict[tuple[object, ...], bool], spent: list[int]) -> bool:
    """Depth-first search over placements. Past ``SEARCH_BUDGET`` tries it answers False:
    the action is refused rather than risk a turn that cannot end (a known limit)."""
    seat = state.to_move
    key = (state.hands[seat], tuple(state.table), state.dig_duty, state.joker_duty,
           state.down, state.went_down)
    found = memo.get(key)
    if found is not None:
        return found
    memo[key] = False
    for move in candidates(state):
        if type(move) is Discard:
            memo[key] = True
            return True
        spent[0] += 1
        if spent[0] > SEARCH_BUDGET:
            return False
        state.push(move)
        try:
            done = state.result is not None or _can_discard_now(state) or \
                _search(state, memo, spent)
        finally:
            state.pop()
        if done:
            memo[key] = True
            return True
    return False


# -- checking one move -------------------------------------------------------------------------

def is_legal(state: HandState, move: Move) -> bool:
    """Agrees with the generator (:func:`play_moves`, :func:`digs`) for one canonical move."""
    from rummykit.engine import DRAW_PHASE, PLAY_PHASE

    if state.phase == DRAW_PHASE:
        return move in state.legal_moves()
    if state.phase != PLAY_PHASE:
        return False
    if isinstance(move, Meld) and not _is_down(state):
        sets, runs = contract_of(state)
        cards = handset.cards(state.hands[state.to_move])
        if not is_way_to_go_down(cards, move.groups, sets, runs, state.rules):
            return False
        used = sum(len(g) for g in move.groups)
        if final_rule(state) == "all_at_once_no_discard" and used != len(cards):
            return False
        if state.rules.must_discard_to_go_out and used == len(cards):
            return False
        canonical = _canonical_way(state, move)
        return canonical is not None and _finishable_after(state, canonical)
    if isinstance(move, Meld):
        return _extra_melds_legal(state, move)
    if isinstance(move, LayOff):
        kinds: Iterator[Move] = _lay_moves(state) if _is_down(state) and \
            final_rule(state) != "all_at_once_no_discard" else iter(())
    elif isinstance(move, Swap):
        kinds = _swap_moves(state) if _is_down(state) else iter(())
    elif isinstance(move, Discard):
        return move in list(_discard_moves(state))
    else:
        return False
    return move in list(kinds) and _finishable_after(state, move)


def _extra_melds_legal(state: HandState, move: Meld) -> bool:
    """Once down (``extra_melds_after_contract``), ``meld A / B`` is legal iff ``meld A``
    then ``meld B`` is (FORMATS.md §1)."""
    depth = 0
    try:
        for group in move.groups:
            single = Meld((group,))
            if state.result is not None or \
                    not any(_same_meld(m, single) for m in _meld_moves(state)) or \
                    not _finishable_after(state, single):
                return False
            state.push(single)
            depth += 1
        return True
    finally:
        for _ in range(depth):
            state.pop()


def _same_meld(a: Meld, b: Meld) -> bool:
    return sorted(a.groups) == sorted(b.groups)


def _canonical_way(state: HandState, move: Meld) -> Meld | None:
    """``move`` with each group in meld order (the engine places groups as given)."""
    from rummykit.melds import make_meld

    groups = []
    for group in move.groups:
        meld = make_meld(group, state.rules)
        if isinstance(meld, str):
            return None
        groups.append(meld.cards)
    return Meld(tuple(groups))
