"""Whether a gin move is legal now, and its canonical form (RULES.md §6.4-§6.8, FORMATS.md
§4.1): the short forms ``knock X``, ``gin X``, ``gin`` and ``lay C`` resolve to the explicit
move; a knock ``knock X: A`` with no deadwood is ``gin X: A``; errors give the reason."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummykit.core.cards import Card, cards_of, format_card, format_cards
from rummykit.core.errors import AmbiguousMoveError, IllegalMoveError
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take
from rummykit.variants.gin.deadwood import (
    arrangement_error,
    arrangement_mask,
    implied_arrangement,
    is_meld,
    mask_value,
    os_min_deadwood,
)
from rummykit.variants.gin.moves import BigGin, Done, Gin, GinMove, Knock, Pass, move_text
from rummykit.variants.gin.phases import (
    DISCARD_STEP,
    DRAW_STEP,
    OFFER,
    OVER,
    PLAIN_KNOCK,
    SHOW,
    WALL,
    WALL_KNOCK,
)

if TYPE_CHECKING:
    from rummykit.variants.gin.hand import GinHand

_DRAW, _TAKE, _PASS, _DONE = Draw(), Take(), Pass(), Done()


def _cards_text(mask: int) -> str:
    return format_cards(cards_of(mask))


def _fail(move: GinMove, reason: str) -> IllegalMoveError:
    return IllegalMoveError(f"{move_text(move)!r}: {reason}")


def resolve(hand: GinHand, move: GinMove) -> GinMove:
    """The canonical form of ``move`` if it is legal in ``hand`` now, else an error saying
    why not (the hand is not changed)."""
    phase = hand.phase
    if phase == OVER:
        raise _fail(move, "the hand is over")
    if isinstance(move, Draw):
        return _check_draw(hand, move)
    if isinstance(move, Take):
        return _check_take(hand, move)
    if isinstance(move, Pass):
        if phase in (OFFER, WALL):
            return _PASS
        raise _fail(move, "pass exists only in the first-upcard offer and at the wall")
    if isinstance(move, Discard):
        return _check_discard(hand, move)
    if isinstance(move, (Knock, Gin, BigGin)):
        return _check_knock(hand, move)
    if isinstance(move, (LayOff, Meld, Done)):
        if phase != SHOW:
            raise _fail(move, "only the defender's show after a knock has lay-offs, "
                              "melds and done")
        if isinstance(move, Done):
            return _DONE
        if isinstance(move, LayOff):
            return _check_layoff(hand, move)
        return _check_meld(hand, move)
    raise _fail(move, "not a gin move")


def _check_draw(hand: GinHand, move: GinMove) -> GinMove:
    phase = hand.phase
    if phase == DRAW_STEP:
        return _DRAW
    if phase == OFFER:
        raise IllegalMoveError("cannot draw: the first upcard is on offer (take or pass)")
    if phase == WALL:
        raise IllegalMoveError("cannot draw at the wall: take the discard to knock, or pass")
    raise _fail(move, "the turn's card is already drawn" if phase in (
        DISCARD_STEP, WALL_KNOCK) else "it is the defender's show")


def _check_take(hand: GinHand, move: Take) -> GinMove:
    if move.count != 1 or move.card is not None:
        raise _fail(move, "there is no dig in gin: 'take' takes the discard top")
    phase = hand.phase
    if phase == OFFER:
        return _TAKE
    if phase == DRAW_STEP:
        if hand.stock_only:
            raise _fail(move, "both players passed the first upcard: draw from the "
                              "stock")
        return _TAKE
    if phase == WALL:
        if not hand.wall_take_ok():
            raise _fail(move, "at the wall the discard may be taken only to knock, "
                              "and no knock would be possible")
        return _TAKE
    raise _fail(move, "the turn's card is already drawn" if phase in (
        DISCARD_STEP, WALL_KNOCK) else "it is the defender's show")


def _check_discard(hand: GinHand, move: Discard) -> GinMove:
    phase = hand.phase
    if phase == WALL_KNOCK:
        raise _fail(move, "after taking at the wall you must knock")
    if phase != DISCARD_STEP:
        raise _fail(move, "draw first" if phase in (DRAW_STEP, OFFER, WALL)
                         else "it is the defender's show")
    _check_discardable(hand, move.card, move)
    return move


def _check_discardable(hand: GinHand, card: Card, move: GinMove) -> None:
    if not 0 <= card < 52 or not hand.hands[hand.to_move] >> card & 1:
        raise _fail(move, f"{format_card(card)} is not in your hand")
    if card == hand.taken and hand.rules.rediscard_ban:
        raise IllegalMoveError(
            f"cannot discard {format_card(card)}: it was taken from the discard pile "
            "this turn")


def _check_knock(hand: GinHand, move: Knock | Gin | BigGin) -> GinMove:
    phase = hand.phase
    if phase not in (DISCARD_STEP, WALL_KNOCK):
        raise _fail(move, "a knock comes after the draw" if phase != SHOW
                         else "the hand is already knocked")
    rules = hand.rules
    held = hand.hands[hand.to_move]
    limit = hand.knock_limit
    if isinstance(move, BigGin):
        if rules.big_gin_bonus is None:
            raise IllegalMoveError("big gin is not played: discard a card and go gin")
        rest = held
    else:
        _check_discardable(hand, move.card, move)
        rest = held & ~(1 << move.card)
    groups = implied_arrangement(rest) if move.groups is None else tuple(
        tuple(sorted(g)) for g in move.groups)
    problem = arrangement_error(rest, groups)
    if problem is not None:
        raise _fail(move, problem)
    loose = rest & ~arrangement_mask(groups)
    value = mask_value(loose)
    if isinstance(move, BigGin) and loose:
        raise IllegalMoveError(f"not big gin: deadwood {value} ({_cards_text(loose)})")
    if isinstance(move, Gin) and loose:
        raise IllegalMoveError(f"not gin: deadwood {value} ({_cards_text(loose)})")
    if value > limit:
        shown = f" ({_cards_text(loose)})" if loose else ""
        raise IllegalMoveError(
            f"cannot knock: deadwood {value}{shown} exceeds the knock limit {limit}")
    if rules.knock_test == "openspiel":
        test = os_min_deadwood(held)
        if test > limit:
            raise IllegalMoveError(
                f"cannot knock: OpenSpiel knock test gives {test} > {limit}")
    if isinstance(move, BigGin):
        return BigGin(groups)
    return Gin(move.card, groups) if not loose else Knock(move.card, groups)


def _check_layoff(hand: GinHand, move: LayOff) -> GinMove:
    if hand.kind != PLAIN_KNOCK:
        raise IllegalMoveError("cannot lay off after gin")
    if hand.melded:
        raise IllegalMoveError("cannot lay off after melding")
    card = move.card
    if move.end is not None:
        raise _fail(move, "no END in gin: each card has one place on a run")
    if not 0 <= card < 52 or not hand.hands[hand.to_move] >> card & 1:
        raise _fail(move, f"{format_card(card) if card < 52 else 'JK'} is not in "
                          "your hand")
    targets = hand.layoff_targets(card)
    count = len(hand.table)
    if move.target == 0:
        if not targets:
            raise _fail(move, f"{format_card(card)} fits none of the knocker's melds")
        if len(targets) > 1 and hand.rules.layoff_rule == "standard":
            raise AmbiguousMoveError(
                f"{move_text(move)!r} is ambiguous: "
                + " or ".join(f"lay {format_card(card)} on {t}" for t in targets))
        return LayOff(card, targets[0])
    if move.target > count + len(hand.defender_groups):
        raise _fail(move, f"there is no meld {move.target}")
    if move.target > count:
        raise _fail(move, "lay-offs go only onto the knocker's melds")
    if move.target not in targets:
        meld = hand.table[move.target - 1]
        raise _fail(move, f"{format_card(card)} does not extend meld {move.target} "
                          f"({_cards_text(meld)})")
    if hand.rules.layoff_rule == "openspiel":
        return LayOff(card, targets[0])
    return LayOff(card, move.target)


def _check_meld(hand: GinHand, move: Meld) -> GinMove:
    held = hand.hands[hand.to_move]
    used = 0
    groups = []
    for group in move.groups:
        if any(not 0 <= c < 52 for c in group):
            raise _fail(move, "gin is played without jokers")
        mask = sum(1 << c for c in set(group))
        if mask & ~held:
            raise _fail(move, f"{_cards_text(mask & ~held)} not in your hand")
        if len(set(group)) != len(group) or mask & used:
            raise _fail(move, "a card is in two melds")
        if not is_meld(mask):
            raise _fail(move, f"{_cards_text(mask)} is not a meld (a set of 3-4 of "
                              "a rank or a run of 3+ of a suit)")
        used |= mask
        groups.append(tuple(cards_of(mask)))
    return Meld(tuple(groups))
