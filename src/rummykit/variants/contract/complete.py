"""Completability of a contract turn (RULES.md §1.6), decided exactly.

:func:`finishable` answers: can the player to move still finish this turn by some
sequence of legal actions? Exact shortcuts settle the common cases (a dig before going
down, a dig by a player who is down when no swap can help); the rest is a depth-first
search over placements, memoised on what decides the answer: the hand, the duties, and
each table meld's open places (a run's suit, ends and jokers; a set's rank and missing
suits), as a sorted multiset, so the verdict never depends on the order of the melds on
the table. Its pruning is proved, never a budget:

- the search ends: a lay-off or meld adds a card to the table, a swap takes a joker off
  it, so no position repeats;
- a duty to place a card X is hopeless when no meld can ever take X (see
  :func:`_may_reach`, which over-counts the cards that could fill the gap) and no new meld
  or swap can hold it; a duty to place a joker is hopeless when no meld has an open place
  and no new meld may be started (places never open again once closed);
- while the only unmet duty is the dug card X of a player who is down (no new melds, no
  ``must_discard_to_go_out``, not the last deal's rule), only lay-offs on melds that could
  take X and swaps are tried: a finishing sequence stays one when every other lay-off is
  left out (it touches another meld only), and once X is placed the turn can end.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rummykit.core import handset
from rummykit.core.cards import JOKER, NUM_RANKS
from rummykit.core.melds import JOKER_AS, RUN, SET, TableMeld, identity, position_card
from rummykit.core.moves import Discard, LayOff, Meld, Move, Swap
from rummykit.variants.contract.melds import can_make, can_make_containing, uses_every_card
from rummykit.variants.contract.schedule import contract_of, final_rule

if TYPE_CHECKING:
    from rummykit.core.rules import Rules
    from rummykit.variants.contract.hand import ContractHand

Key = tuple[object, ...]


def finishable(state: ContractHand) -> bool:
    """Can the player to move finish this turn by some sequence of legal actions?"""
    if state.can_discard_now():
        return True
    quick = _dig_before_going_down(state)
    if quick is None:
        quick = _dig_when_down(state)
    if quick is not None:
        return quick
    return _Search(state).solve()


def _is_down(state: ContractHand) -> bool:
    return bool(state.down >> state.to_move & 1)


def _new_melds_allowed(state: ContractHand) -> bool:
    return state.rules.extra_melds_after_contract and final_rule(state) == "none"


def _swaps_allowed(state: ContractHand) -> bool:
    return state.rules.joker_swap and _is_down(state) and not state.went_down


def _swappable_jokers(state: ContractHand) -> int:
    """How many run jokers the player could take by a swap with a card held now."""
    if not _swaps_allowed(state):
        return 0
    hand = state.hands[state.to_move]
    found = 0
    for meld in state.table:
        if meld.kind == RUN:
            found += sum(1 for c in meld.cards
                         if c >= JOKER_AS and handset.count(hand, c - JOKER_AS))
    return found


# -- the canonical position ------------------------------------------------------------------

def meld_signature(meld: TableMeld) -> tuple[int, ...]:
    """What decides every future play on ``meld``: a set's rank and open suits; a run's
    suit, ends and the identities its jokers stand for."""
    if meld.kind == SET:
        return (0, meld.rank, meld.accepts)
    return (1, meld.suit, meld.low, meld.high,
            *sorted(c for c in meld.cards if c >= JOKER_AS))


def position_key(state: ContractHand) -> Key:
    """The player's position up to the order of the table melds."""
    seat = state.to_move
    return (state.hands[seat], state.dig_duty, state.joker_duty, state.down >> seat & 1,
            state.went_down, *sorted(meld_signature(m) for m in state.table))


# -- the search -------------------------------------------------------------------------------

class _Search:
    """Exhaustive memoised search over the placements of one turn."""

    def __init__(self, state: ContractHand) -> None:
        self.state = state
        self.memo: dict[Key, bool] = {}

    def solve(self) -> bool:
        state = self.state
        if state.result is not None or state.can_discard_now():
            return True
        key = position_key(state)
        known = self.memo.get(key)
        if known is not None:
            return known
        found = False
        if not self._hopeless():
            tried: set[Key] = set()
            for move in self._moves():
                state.push(move)
                try:
                    after = position_key(state) if state.result is None else ()
                    if after in tried:
                        continue
                    tried.add(after)
                    found = self.solve()
                finally:
                    state.pop()
                if found:
                    break
        self.memo[key] = found
        return found

    def _hopeless(self) -> bool:
        state = self.state
        if not _is_down(state) or _new_melds_allowed(state):
            return False
        if (state.joker_duty or state.dig_duty == JOKER) and \
                not any(m.accepts for m in state.table):
            return True
        dug = state.dig_duty
        if dug < 0 or dug == JOKER:
            return False
        if _swaps_allowed(state) and any(JOKER_AS + dug in m.cards
                                         for m in state.table if m.kind == RUN):
            return False
        spare = _swappable_jokers(state)
        return not any(_may_reach(state, m, dug, spare) for m in state.table)

    def _moves(self) -> Iterator[Move]:
        state = self.state
        moves = [m for m in state.candidates() if type(m) is not Discard]
        if self._only_the_dug_card(state):
            spare = _swappable_jokers(state)
            useful = {i + 1 for i, m in enumerate(state.table)
                      if _may_reach(state, m, state.dig_duty, spare)}
            moves = [m for m in moves if type(m) is Swap or
                     (type(m) is LayOff and m.target in useful)]
        # placements that meet a duty first: only the order of the search depends on it
        moves.sort(key=lambda m: not self._meets_duty(m))
        return iter(moves)

    @staticmethod
    def _only_the_dug_card(state: ContractHand) -> bool:
        rules = state.rules
        return state.dig_duty >= 0 and state.dig_duty != JOKER and not state.joker_duty and \
            _is_down(state) and not rules.must_discard_to_go_out and \
            not rules.extra_melds_after_contract and final_rule(state) == "none"

    def _meets_duty(self, move: Move) -> bool:
        state = self.state
        if type(move) is LayOff:
            assert isinstance(move, LayOff)
            if move.card >= JOKER_AS:
                return bool(state.joker_duty) or state.dig_duty == JOKER
            return move.card == state.dig_duty
        if type(move) is Swap:
            assert isinstance(move, Swap)
            return move.card == state.dig_duty
        return type(move) is Meld


# -- exact shortcuts ------------------------------------------------------------------------

def _dig_when_down(state: ContractHand) -> bool | None:
    """Exact shortcut for a dig by a player who is down when no swap can help: the dug card
    must be laid off, after the cards that lead up to it on a run (None: search instead)."""
    rules = state.rules
    if state.dig_duty < 0 or state.joker_duty or not _is_down(state) or \
            rules.must_discard_to_go_out or rules.extra_melds_after_contract or \
            final_rule(state) != "none":
        return None
    dug = state.dig_duty
    if dug == JOKER:  # lay-offs never open a closed place, so this is decided now
        return any(m.accepts for m in state.table)
    if _swappable_jokers(state):
        return None  # a swap could place it, or give a joker for the gap
    held = Counter(handset.cards(state.hands[state.to_move]))
    held[dug] -= 1
    return any(next(_chains(state, meld, dug, held), None) is not None
               for meld in state.table)


def _dig_before_going_down(state: ContractHand) -> bool | None:
    """Exact shortcuts for a dig by a player who is not down (None: search instead)."""
    if state.dig_duty < 0 or state.joker_duty or _is_down(state):
        return None
    return dig_to_go_down(state, handset.cards(state.hands[state.to_move]), state.dig_duty)


def dig_to_go_down(state: ContractHand, hand: list[int], dug: int,
                   makes_contract: bool | None = None) -> bool | None:
    """Can a player who is not down, holding ``hand`` after digging ``dug``, finish the
    turn? None: search instead. ``makes_contract``: whether ``hand`` makes the contract,
    when known.

    The dug card must reach the table through this turn's going-down melds (a lay-off on
    one's own new meld is the same as a bigger meld) or a lay-off on a meld placed before
    this turn; no swap is allowed in the turn of going down.
    """
    sets, runs = contract_of(state)
    rules = state.rules
    rule = final_rule(state)
    if rule == "all_at_once_no_discard":
        return uses_every_card(hand, sets, runs, rules)
    if rule == "all_at_once_discard_ok":
        return _last_deal_dig(rules, hand, dug, sets, runs)
    if makes_contract is None:
        makes_contract = can_make(hand, sets, runs, rules)
    if not makes_contract:
        return False
    if rules.extra_melds_after_contract or rules.must_discard_to_go_out:
        return None  # a new meld after going down may hold it; a card must be kept
    if dug == JOKER:
        if rules.run_min_length >= 13:
            return None
        # Some way to go down exists; shrink its sets to 3 cards and its runs to the least
        # length: the dug joker then fits a set's missing suit or a run's open end.
        return True
    # go down with the dug card, or go down then lay it off on an earlier meld; then
    # discard, or be out
    return can_make_containing(hand, dug, sets, runs, rules) or \
        _dig_laid_off(state, hand, dug, sets, runs)


def _last_deal_dig(rules: Rules, hand: list[int], dug: int, sets: int, runs: int) -> bool:
    """``all_at_once_discard_ok``: after a dig the player must go down and go out this turn:
    runs holding every card (lay-offs on one's own runs make them longer), or every card
    but one that is then discarded, the dug card in the runs."""
    if not rules.must_discard_to_go_out and uses_every_card(hand, sets, runs, rules):
        return True
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        if dug in rest and uses_every_card(rest, sets, runs, rules):
            return True
    return False


def _dig_laid_off(state: ContractHand, hand: list[int], dug: int, sets: int, runs: int) -> bool:
    """Can the player go down without the dug card and then lay it off on a meld placed
    before this turn (after the cards that lead up to it on a run)?"""
    rest = Counter(hand)
    rest[dug] -= 1
    for meld in state.table:
        for chain in _chains(state, meld, dug, rest):
            left = rest.copy()
            left.subtract(chain)
            if can_make(list(left.elements()), sets, runs, state.rules):
                return True
    return False


def _chains(state: ContractHand, meld: TableMeld, card: int, held: Counter[int]
            ) -> Iterator[list[int]]:
    """The cards that could be laid off on ``meld`` before ``card`` fits it."""
    if meld.kind == SET:
        if _may_reach(state, meld, card, 0):
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


def _may_reach(state: ContractHand, meld: TableMeld, card: int, extra_jokers: int) -> bool:
    """Whether ``card`` could end up laid off on ``meld`` (a necessary condition): the
    gap to it could be filled by the cards held and ``extra_jokers`` more jokers."""
    if meld.kind == SET:
        return card % NUM_RANKS + 1 == meld.rank and len(meld.cards) < 4 and \
            card // NUM_RANKS not in {identity(c) // NUM_RANKS for c in meld.cards}
    if card // NUM_RANKS != meld.suit:
        return False
    hand = state.hands[state.to_move]
    spare = handset.count(hand, JOKER) + extra_jokers
    rank = card % NUM_RANKS + 1
    top = 14 if state.rules.ace_high else 13
    for position in {rank, 14} if rank == 1 and state.rules.ace_high else {rank}:
        if meld.low <= position <= meld.high or position > top:
            continue
        gap = range(position + 1, meld.low) if position < meld.low else \
            range(meld.high + 1, position)
        missing = sum(1 for p in gap if not handset.count(hand, position_card(meld.suit, p)))
        if missing <= spare:
            return True
    return False
