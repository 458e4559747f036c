"""Checking a move for ``HandState.play``: canonical form, legality and the reason why not.

Legality itself is ``HandState.legal_moves()``: a move is legal iff its canonical form is
listed there. This module only canonicalizes input and words the reason for a refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.core.cards import JOKER, format_card
from rummykit.core.errors import AmbiguousMoveError, IllegalMoveError
from rummykit.core.melds import JOKER_AS, make_meld
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take
from rummykit.core.phases import DRAW_PHASE, OVER_PHASE

if TYPE_CHECKING:
    from rummykit.core.engine import HandState


def _illegal(move: Move, reason: str) -> IllegalMoveError:
    return IllegalMoveError(f"cannot {move}: {reason}")


def check_move(state: HandState, move: Move) -> Move:
    """The canonical form of a legal ``move``; raises with the reason otherwise."""
    if state.phase == OVER_PHASE:
        raise _illegal(move, "the hand is over")
    if state.phase == DRAW_PHASE:
        return _check_draw(state, move)
    if isinstance(move, (Draw, Take)):
        raise _illegal(move, "you have already drawn this turn")
    return state.check_play(move)


def check_plain_play(state: HandState, move: Move) -> Move:
    """A play-step move of a one-deck family (no jokers): canonical form or the reason."""
    if isinstance(move, Swap):
        raise _illegal(move, f"joker swaps are not part of {state.rules.name} rummy")
    if isinstance(move, Discard):
        return _check_discard(state, move)
    if isinstance(move, LayOff):
        return _check_lay(state, move)
    assert isinstance(move, Meld)
    return _check_meld(state, move)


def _check_draw(state: HandState, move: Move) -> Move:
    if not isinstance(move, (Draw, Take)):
        raise _illegal(move, "you must draw first (draw, or take the discard top)")
    legal = state.legal_moves()
    if isinstance(move, Take):
        wanted = move.card
        if wanted is not None:
            if state.discard and state.discard[-1] == wanted:
                move = Take()
            elif not state.rules.discard_dig:
                top = format_card(state.discard[-1]) if state.discard else "nothing"
                raise _illegal(move, f"only the top card of the discard pile ({top}) can be taken")
            elif wanted not in state.discard:
                raise _illegal(move, f"{format_card(wanted)} is not in the discard pile")
            else:
                depth = state.discard[::-1].index(wanted) + 1
                move = Take(depth) if depth > 1 else Take()
        if move.count > 1 and not state.rules.discard_dig:
            raise _illegal(move, "only the top card of the discard pile can be taken")
        if not state.discard:
            raise _illegal(move, "the discard pile is empty")
        if move.count > len(state.discard):
            raise _illegal(move, f"the discard pile holds {len(state.discard)} cards")
        if move not in legal:
            reason = state.refused_take(move)
            if reason is not None:
                raise _illegal(move, reason)
    if move not in legal:
        raise _illegal(move, "the stock is empty and is not rebuilt now: take the discard top")
    return move


def _check_discard(state: HandState, move: Discard) -> Move:
    card = move.card
    hand = state.hands[state.to_move]
    if card == JOKER or not hand >> card & 1:
        raise _illegal(move, f"{format_card(card)} is not in your hand")
    if card == state.taken:
        raise _illegal(move, "it was taken from the discard pile this turn")
    if move not in state.legal_moves():  # pragma: no cover - the rules above are complete
        raise _illegal(move, "not legal here")
    return move


def _check_lay(state: HandState, move: LayOff) -> Move:
    if move.card >= JOKER_AS or move.card == JOKER:
        raise _illegal(move, f"there are no jokers in {state.rules.name} rummy")
    count = len(state.table)
    if move.target > count:
        raise _illegal(move, f"there is no meld {move.target} (the table has {count} melds)")
    hand = state.hands[state.to_move]
    if not hand >> move.card & 1:
        raise _illegal(move, f"{format_card(move.card)} is not in your hand")
    canonical = natural_lay_off(state, move, move.card)
    if canonical not in state.legal_moves():
        raise _illegal(canonical, _stranded_reason(state, hand & ~(1 << move.card)))
    return canonical


def natural_lay_off(state: HandState, move: LayOff, card: int) -> LayOff:
    """The canonical lay-off of a natural ``card`` onto meld ``move.target`` (which exists),
    with ``END`` written only where the card fits both ends; raises if it fits nowhere."""
    meld = state.table[move.target - 1]
    ends = meld.ends_for(card, state.rules)
    if not ends:
        what = "set" if meld.kind == "set" else "run"
        raise _illegal(move, f"{format_card(card)} does not extend the {what} {meld}")
    if move.end is not None and meld.kind == "set":
        raise _illegal(move, f"a set has no ends: write 'lay {format_card(card)} on "
                             f"{move.target}'")
    if move.end is not None and move.end not in ends:
        raise _illegal(move, f"{format_card(card)} does not fit the {move.end} end of {meld}")
    if len(ends) > 1 and move.end is None:
        readings = " or ".join(f"'{move} {end}'" for end in ends)
        raise AmbiguousMoveError(f"ambiguous move '{move}': {readings}")
    return LayOff(card, move.target, move.end if len(ends) > 1 else None)


def _check_meld(state: HandState, move: Meld) -> Move:
    hand = state.hands[state.to_move]
    rules = state.rules
    used = 0
    groups = []
    for group in move.groups:
        for card in group:
            if card >= JOKER_AS or card == JOKER:
                raise _illegal(move, f"there are no jokers in {rules.name} rummy")
            if not hand >> card & 1:
                raise _illegal(move, f"{format_card(card)} is not in your hand")
            if used >> card & 1:
                raise _illegal(move, f"{format_card(card)} is used twice")
            used |= 1 << card
        meld = make_meld(group, rules, state.to_move)
        if isinstance(meld, str):
            raise _illegal(move, meld)
        groups.append(meld.cards)
    limit = rules.max_melds_per_turn
    if limit is not None and state.melds_this_turn + len(groups) > limit:
        raise _illegal(move, f"at most {limit} new meld{'s' if limit > 1 else ''} per turn")
    canonical = Meld(tuple(groups))
    trial = state.copy()
    for group in groups:
        single = Meld((group,))
        if trial.is_over or single not in trial.legal_moves():
            raise _illegal(canonical, _stranded_reason(trial, trial.hands[trial.to_move]
                                                       & ~sum(1 << c for c in group)))
        trial.push(single)
    return canonical


def _stranded_reason(state: HandState, rest: int) -> str:
    """Why a play that leaves ``rest`` in hand cannot be finished (RULES.md §1.6)."""
    if state.is_over:
        return "the hand is over"
    if not rest and state.rules.must_discard_to_go_out:
        return "you may go out only by discarding your last card (must_discard_to_go_out)"
    if state.taken >= 0 and rest == 1 << state.taken:
        taken = format_card(state.taken)
        left = f"it would leave only {taken}, which was taken from the discard pile this turn"
        if state.rules.must_discard_to_go_out:
            return (f"{left} and cannot be discarded, and laying it off would empty your hand, "
                    "which must_discard_to_go_out forbids")
        return f"{left} and can be neither discarded nor laid off"
    return "not legal here"
