"""Checking a contract play-step move: canonical form, joker identities inferred when
unique, and the reason for a refusal (RULES.md §4, FORMATS.md §1).

Legality itself is :func:`rummykit.variants.contract.play.is_legal`, which agrees with the move
generator; this module only reads the input and words the refusals.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from rummykit.core import handset
from rummykit.core.cards import JOKER, NUM_NATURALS, format_card
from rummykit.core.errors import AmbiguousMoveError, IllegalMoveError
from rummykit.core.legality import natural_lay_off
from rummykit.core.melds import JOKER_AS, RUN, SET, hand_card, identity, make_meld, position_card
from rummykit.core.moves import Discard, LayOff, Meld, Move, Swap
from rummykit.variants.contract.play import joker_places
from rummykit.variants.contract.schedule import contract_of, final_rule

if TYPE_CHECKING:
    from rummykit.variants.contract.hand import ContractHand


def _illegal(move: Move, reason: str) -> IllegalMoveError:
    return IllegalMoveError(f"cannot {move}: {reason}")


def _duty_reason(state: ContractHand) -> str | None:
    if state.dig_duty >= 0:
        return (f"you must first place {format_card(state.dig_duty)}, dug from the discard "
                "pile this turn")
    if state.joker_duty:
        return "you must first place the joker taken by your swap"
    return None


def _stranded(state: ContractHand) -> str:
    return ("no sequence of plays could then finish your turn (RULES.md §1.6: a duty to place "
            "a card, or only cards you may not discard, would be left)")


def check_contract_play(state: ContractHand, move: Move) -> Move:
    """The canonical form of a legal contract play-step move; raises with the reason."""
    seat = state.to_move
    down = bool(state.down >> seat & 1)
    if isinstance(move, Discard):
        return _check_discard(state, move)
    if isinstance(move, Meld):
        return _check_meld(state, move, down)
    if isinstance(move, LayOff):
        if not down:
            raise _illegal(move, "you may lay off only once you are down (meld the contract "
                                 "first)")
        return _check_lay(state, move)
    assert isinstance(move, Swap)
    return _check_swap(state, move, down)


def _check_discard(state: ContractHand, move: Discard) -> Move:
    hand = state.hands[state.to_move]
    if not handset.count(hand, move.card):
        raise _illegal(move, f"{format_card(move.card)} is not in your hand")
    duty = _duty_reason(state)
    if duty:
        raise _illegal(move, duty)
    if move.card == state.taken:
        raise _illegal(move, "it was taken from the discard pile this turn")
    if not state.is_legal(move):
        raise _illegal(move, "in the last deal a player who is down must empty the hand this "
                             "turn, discarding only the last card (final_deal_rule)")
    return move


def _holds(state: ContractHand, codes: list[int]) -> str | None:
    need = handset.of_cards(hand_card(c) for c in codes)
    hand = state.hands[state.to_move]
    for card in handset.distinct(need):
        if handset.count(need, card) > handset.count(hand, card):
            held = handset.count(hand, card)
            return f"you hold {held} {format_card(card)}" if held else \
                f"{format_card(card)} is not in your hand"
    return None


def _identity_choices(group: tuple[int, ...], rules: object) -> list[tuple[int, ...]]:
    """Every reading of a group whose bare jokers get identities that make it a meld."""
    bare = [i for i, c in enumerate(group) if c == JOKER]
    if not bare:
        meld = make_meld(group, rules)  # type: ignore[arg-type]
        return [] if isinstance(meld, str) else [meld.cards]
    found = []
    for idents in itertools.combinations_with_replacement(range(NUM_NATURALS), len(bare)):
        for order in set(itertools.permutations(idents)):
            trial = list(group)
            for i, ident in zip(bare, order, strict=True):
                trial[i] = JOKER_AS + ident
            meld = make_meld(trial, rules)  # type: ignore[arg-type]
            if not isinstance(meld, str) and meld.cards not in found:
                found.append(meld.cards)
    return found


def _check_meld(state: ContractHand, move: Meld, down: bool) -> Move:
    rules = state.rules
    if down and not (rules.extra_melds_after_contract and final_rule(state) == "none"):
        raise _illegal(move, "you are down: no new melds in this deal "
                             "(extra_melds_after_contract)")
    missing = _holds(state, [c for g in move.groups for c in g])
    if missing:
        raise _illegal(move, missing)
    readings: list[list[tuple[int, ...]]] = []
    for group in move.groups:
        choices = _identity_choices(group, rules)
        if not choices:
            if JOKER in group:
                shown = " ".join("JK" if c == JOKER else format_card(identity(c)) for c in group)
                raise _illegal(move, f"no identity of its jokers makes {shown} a meld")
            reason = make_meld(group, rules)
            raise _illegal(move, reason if isinstance(reason, str) else "not a meld")
        readings.append(choices)
    legal = []
    for groups in itertools.product(*readings):
        candidate = Meld(tuple(groups))
        if state.is_legal(candidate):
            legal.append(candidate)
    if len(legal) == 1:
        return legal[0]
    if len(legal) > 1:
        shown = " or ".join(f"'{m}'" for m in legal[:6])
        raise AmbiguousMoveError(f"ambiguous move '{move}': {shown}")
    first = Meld(tuple(r[0] for r in readings))
    if not down:
        sets, runs = contract_of(state)
        what = (f"{sets} set{'s' if sets != 1 else ''} and {runs} run{'s' if runs != 1 else ''}"
                + (" of different suits" if runs > 1 and rules.contract_runs_distinct_suits
                   else ""))
        kinds = [make_meld(g, rules) for g in first.groups]
        got_sets = sum(1 for m in kinds if not isinstance(m, str) and m.kind == SET)
        got_runs = sum(1 for m in kinds if not isinstance(m, str) and m.kind == RUN)
        if (got_sets, got_runs) != (sets, runs):
            raise _illegal(first, f"the contract of this deal is {what}, in one meld action")
        suits = [m.suit for m in kinds if not isinstance(m, str) and m.kind == RUN]
        if rules.contract_runs_distinct_suits and len(set(suits)) != len(suits):
            raise _illegal(first, "the runs of a contract must be of different suits")
        if final_rule(state) == "all_at_once_no_discard":
            raise _illegal(first, "in the last deal you go down only with every card of your "
                                  "hand (final_deal_rule)")
        if rules.must_discard_to_go_out and sum(len(g) for g in first.groups) == \
                handset.size(state.hands[state.to_move]):
            raise _illegal(first, "you may go out only by discarding your last card "
                                  "(must_discard_to_go_out)")
        if final_rule(state) == "all_at_once_discard_ok":
            raise _illegal(first, "in the last deal the rest of your hand must then go out this "
                                  "turn by lay-offs on your runs and one discard "
                                  "(final_deal_rule)")
        raise _illegal(first, _stranded(state))
    raise _illegal(first, _stranded(state))


def _check_lay(state: ContractHand, move: LayOff) -> Move:
    count = len(state.table)
    if move.target > count:
        raise _illegal(move, f"there is no meld {move.target} (the table has {count} melds)")
    meld = state.table[move.target - 1]
    if final_rule(state) == "all_at_once_no_discard":
        raise _illegal(move, "nobody lays off in the last deal (final_deal_rule)")
    card = hand_card(move.card) if move.card != JOKER else JOKER
    if not handset.count(state.hands[state.to_move], card):
        raise _illegal(move, f"{format_card(card)} is not in your hand")
    if card == JOKER:
        places = joker_places(meld, state)
        if move.card >= JOKER_AS:
            places = [p for p in places if p[0] == move.card - JOKER_AS]
        if move.end is not None and meld.kind == RUN:
            at = meld.low - 1 if move.end == "low" else meld.high + 1
            places = [(i, e) for i, e in places if position_card(meld.suit, at) == i]
            places = [(i, e if e is None else move.end) for i, e in places][:1]
        if not places:
            raise _illegal(move, f"a joker cannot stand there on {meld}")
        if len(places) > 1:
            shown = " or ".join(f"'{LayOff(JOKER_AS + i, move.target, e)}'" for i, e in places)
            raise AmbiguousMoveError(f"ambiguous move '{move}': {shown}")
        canonical = LayOff(JOKER_AS + places[0][0], move.target, places[0][1])
    else:
        if JOKER_AS + card in meld.cards and not meld.ends_for(card, state.rules):
            raise _illegal(move, f"a joker holds {format_card(card)} in {meld}: use 'swap "
                                 f"{format_card(card)} on {move.target}' instead")
        canonical = natural_lay_off(state, move, card)
    if not state.is_legal(canonical):
        if state.rules.must_discard_to_go_out and handset.size(state.hands[state.to_move]) == 1:
            raise _illegal(canonical, "you may go out only by discarding your last card "
                                      "(must_discard_to_go_out)")
        raise _illegal(canonical, _stranded(state))
    return canonical


def _check_swap(state: ContractHand, move: Swap, down: bool) -> Move:
    if not state.rules.joker_swap:
        raise _illegal(move, "joker swaps are off (joker_swap)")
    count = len(state.table)
    if move.target > count:
        raise _illegal(move, f"there is no meld {move.target} (the table has {count} melds)")
    if not down:
        raise _illegal(move, "only a player who went down on an earlier turn may swap")
    if state.went_down:
        raise _illegal(move, "you went down this turn: swaps start on your next turn")
    meld = state.table[move.target - 1]
    if meld.kind == SET:
        raise _illegal(move, "jokers in sets are dead: they are never swapped")
    if JOKER_AS + move.card not in meld.cards:
        raise _illegal(move, f"meld {move.target} ({meld}) has no joker standing for "
                             f"{format_card(move.card)}")
    if not handset.count(state.hands[state.to_move], move.card):
        raise _illegal(move, f"{format_card(move.card)} is not in your hand")
    if not state.is_legal(move):
        raise _illegal(move, "the joker could then not be placed again this turn, or "
                             + _stranded(state))
    return move
