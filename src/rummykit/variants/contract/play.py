"""Contract Rummy turns (RULES.md §4): going down, lay-offs once down, joker swaps, digs,
the turn duties and the completability rule (§1.6), and the seventh-deal rule (§4.7).

These are the contract family's hooks, called by
:class:`~rummykit.variants.contract.hand.ContractHand`. Moves are generated lazily in a fixed order:
going down (or, once down, new melds where allowed), lay-offs, swaps, discards.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rummykit.core import handset
from rummykit.core.cards import ALL_NATURALS, JOKER, NUM_RANKS, SUIT_MASK
from rummykit.core.melds import JOKER_AS, RUN, SET, TableMeld, identity, make_meld, position_card
from rummykit.core.moves import Discard, LayOff, Meld, Move, Swap, Take
from rummykit.core.phases import DRAW_PHASE, PLAY_PHASE
from rummykit.variants.contract import complete as contract_complete
from rummykit.variants.contract.melds import (
    can_make_held,
    is_way_to_go_down,
    uses_every_card,
    ways_to_go_down,
)
from rummykit.variants.contract.schedule import contract_of, final_rule

if TYPE_CHECKING:
    from rummykit.variants.contract.hand import ContractHand


#: the discard move of every card, made once
DISCARDS = tuple(Discard(card) for card in range(JOKER + 1))


# -- draw step ------------------------------------------------------------------------------

def digs(state: ContractHand) -> Iterator[Take]:
    """Every dig (``take N``, N ≥ 2) whose dug card can be placed this turn."""
    if not state.rules.discard_dig:
        return
    pile = state.discard
    quick = _DugCard(state) if _is_down(state) else None
    first = 2 if quick is not None else _least_dig_to_go_down(state)
    hand = handset.cards(state.hands[state.to_move]) if quick is None else []
    for count in range(first, len(pile) + 1):
        dug = pile[-count]
        if quick is not None:
            if quick.legal >> dug & 1:
                yield Take(count)
                continue
            if quick.refused >> dug & 1:
                continue
            verdict = None
        else:
            verdict = contract_complete.dig_to_go_down(state, hand + pile[-count:], dug,
                                                       True)
        if verdict is not None:
            if verdict:
                yield Take(count)
            continue
        move = Take(count)
        if _finishable_after(state, move):
            yield move


def _least_dig_to_go_down(state: ContractHand) -> int:
    """The least N ≥ 2 such that the hand and the top N discards can make the contract
    (one more than the pile's size if none): a player who is not down places a dug card
    only by going down this turn. More cards never hurt, so a binary search finds it."""
    sets, runs = contract_of(state)
    rules = state.rules
    pile = state.discard
    held = [state.hands[state.to_move]]  # held[n]: the hand with the top n discards
    for card in reversed(pile):
        held.append(handset.add(held[-1], card))
    low, high = 2, len(pile) + 1
    if low >= high or not can_make_held(held[-1], sets, runs, rules):
        return high
    high -= 1
    while low < high:
        middle = (low + high) // 2
        if can_make_held(held[middle], sets, runs, rules):
            high = middle
        else:
            low = middle + 1
    return low


class _DugCard:
    """Exact verdicts on most digs by a player who is down, without making the dig, as bit
    sets of the identities (bit 52: the joker) whose dig is ``legal`` or ``refused``; any
    other dig is made and searched.

    A dug card that fits a meld now is laid off at once, leaving two cards or more, one of
    them to discard; a joker needs an open place, which lay-offs never create; a natural
    card that fits no set now never will (sets only fill up), and without a run of its
    suit or a run joker standing for it no play can place it. With new melds allowed or
    the last deal's rule in force, the search decides every dig.
    """

    __slots__ = ("legal", "refused")

    def __init__(self, state: ContractHand) -> None:
        self.legal = self.refused = 0
        if state.rules.extra_melds_after_contract or final_rule(state) != "none":
            return
        accepts = run_suits = swappable = 0
        for meld in state.table:
            accepts |= meld.accepts
            if meld.kind == RUN:
                run_suits |= SUIT_MASK << (meld.suit * NUM_RANKS)
                for code in meld.cards:
                    if code >= JOKER_AS:
                        swappable |= 1 << (code - JOKER_AS)
        self.legal = accepts | (1 << JOKER if accepts else 0)
        self.refused = ALL_NATURALS & ~(accepts | run_suits | swappable) | \
            (0 if accepts else 1 << JOKER)


def take_ok(state: ContractHand) -> bool:
    """Whether taking the discard top leaves a turn that can be finished."""
    top = state.discard[-1]
    hand = state.hands[state.to_move]
    if not (_is_down(state) and final_rule(state) != "none") and \
            handset.size(hand) > handset.count(hand, top):
        return True  # a card held before, of another identity, can be discarded
    return _finishable_after(state, Take())


# -- play step ------------------------------------------------------------------------------

def _is_down(state: ContractHand) -> bool:
    return bool(state.down >> state.to_move & 1)


def _empties(state: ContractHand, cards: int) -> bool:
    return handset.size(state.hands[state.to_move]) == cards


def joker_identities(meld: TableMeld, state: ContractHand) -> list[int]:
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


def joker_places(meld: TableMeld, state: ContractHand) -> list[tuple[int, str | None]]:
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


def _meld_moves(state: ContractHand) -> Iterator[Meld]:
    hand = state.hands[state.to_move]
    rules = state.rules
    strict = rules.must_discard_to_go_out
    if not _is_down(state):
        sets, runs = contract_of(state)
        if not can_make_held(hand, sets, runs, rules):
            return
        cards = handset.cards(hand)
        everything = final_rule(state) == "all_at_once_no_discard"
        if everything and (strict or not uses_every_card(cards, sets, runs, rules)):
            return  # no way places every card (or going out with none is refused)
        for way in ways_to_go_down(cards, sets, runs, rules):
            used = sum(len(g) for g in way)
            if everything and used != len(cards):
                continue
            if strict and used == len(cards):
                continue
            yield Meld(way)
    elif rules.extra_melds_after_contract and final_rule(state) == "none":
        cards = handset.cards(hand)
        for sets, runs in ((1, 0), (0, 1)):
            for way in ways_to_go_down(cards, sets, runs, rules):
                if not (strict and len(way[0]) == len(cards)):
                    yield Meld(way)


def _lay_moves(state: ContractHand) -> Iterator[LayOff]:
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


def _swap_moves(state: ContractHand) -> Iterator[Swap]:
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


def _discard_moves(state: ContractHand) -> Iterator[Discard]:
    if state.dig_duty >= 0 or state.joker_duty:
        return
    hand = state.hands[state.to_move]
    if final_rule(state) != "none" and _is_down(state) and handset.size(hand) != 1:
        return
    taken = state.taken
    naturals = hand & ALL_NATURALS
    if 0 <= taken < JOKER:
        naturals &= ~(1 << taken)
    while naturals:
        low = naturals & -naturals
        naturals ^= low
        yield DISCARDS[low.bit_length() - 1]
    if hand >> handset.JOKER_SHIFT and taken != JOKER:
        yield DISCARDS[JOKER]


def candidates(state: ContractHand) -> Iterator[Move]:
    """The play-step moves allowed by every rule but completability, in canonical order."""
    yield from _meld_moves(state)
    if _is_down(state) and final_rule(state) != "all_at_once_no_discard":
        yield from _lay_moves(state)
        yield from _swap_moves(state)
    yield from _discard_moves(state)


def play_moves(state: ContractHand) -> Iterator[Move]:
    """The legal play-step moves, lazily, in canonical order."""
    free = state.dig_duty < 0 and not state.joker_duty and final_rule(state) == "none"
    for move in candidates(state):
        kind = type(move)
        if kind is Discard or (free and kind is not Swap and _leaves_a_discard(state, move)) \
                or _finishable_after(state, move):
            yield move


def play_move_list(state: ContractHand) -> list[Move]:
    """:func:`play_moves` as a list (the same moves in the same order, built faster)."""
    free = state.dig_duty < 0 and not state.joker_duty and final_rule(state) == "none"
    moves: list[Move] = []
    placements: list[Move] = list(_meld_moves(state))
    if _is_down(state) and final_rule(state) != "all_at_once_no_discard":
        placements += _lay_moves(state)
        placements += _swap_moves(state)
    for move in placements:
        if (free and type(move) is not Swap and _leaves_a_discard(state, move)) or \
                _finishable_after(state, move):
            moves.append(move)
    moves += _discard_moves(state)
    return moves


def _leaves_a_discard(state: ContractHand, move: Move) -> bool:
    """With no duty to meet, a lay-off or meld that leaves a card other than the one taken
    from the discard pile, or no card (the player is out), can finish the turn."""
    hand = state.hands[state.to_move]
    if type(move) is LayOff:
        assert isinstance(move, LayOff)
        placed = [JOKER if move.card >= JOKER_AS else move.card]
    else:
        assert isinstance(move, Meld)
        placed = [JOKER if c >= JOKER_AS else c for g in move.groups for c in g]
    if handset.size(hand) == len(placed):
        return not state.rules.must_discard_to_go_out
    if state.taken < 0:
        return True
    rest = hand
    for card in placed:
        rest = handset.remove(rest, card)
    return handset.size(rest) > handset.count(rest, state.taken)


# -- completability (RULES.md §1.6) -----------------------------------------------------------

def _finishable_after(state: ContractHand, move: Move) -> bool:
    state.push(move)
    try:
        return state.result is not None or contract_complete.finishable(state)
    finally:
        state.pop()


def can_discard_now(state: ContractHand) -> bool:
    """Whether some discard is allowed now (no unmet duty, a card that may be thrown):
    :func:`_discard_moves` would give one."""
    if state.dig_duty >= 0 or state.joker_duty:
        return False
    hand = state.hands[state.to_move]
    if final_rule(state) != "none" and _is_down(state) and handset.size(hand) != 1:
        return False
    if state.taken < 0:
        return hand != 0
    return handset.size(hand) > handset.count(hand, state.taken)


# -- checking one move -------------------------------------------------------------------------

def is_legal(state: ContractHand, move: Move) -> bool:
    """Agrees with the generator (:func:`play_moves`, :func:`digs`) for one canonical move."""
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


def _extra_melds_legal(state: ContractHand, move: Meld) -> bool:
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


def _canonical_way(state: ContractHand, move: Meld) -> Meld | None:
    """``move`` with each group in meld order (the engine places groups as given)."""

    groups = []
    for group in move.groups:
        meld = make_meld(group, state.rules)
        if isinstance(meld, str):
            return None
        groups.append(meld.cards)
    return Meld(tuple(groups))
