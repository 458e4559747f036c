"""A port of OpenSpiel's ``SimpleGinRummyBot`` policy to our gin (the opponent for issue 18's
strength target).

OpenSpiel's bot (``open_spiel/bots/gin_rummy/simple_gin_rummy_bot.cc``) decides from its own
hand, the upcard, the stock size and the knock limit, with OpenSpiel's meld search
``BestMeldGroup`` (the first meld group, in OpenSpiel's search order, with the highest
melded value; :func:`best_meld_group`) and ``MinDeadwood`` (for 11 cards the heuristic of
RULES.md §6.14.2). Its choices, in our moves:

- upcard on offer, or the draw step: ``take`` if the 11-card ``MinDeadwood`` of the hand
  with the upcard is within the knock limit, or if the upcard is not left as deadwood by
  the best meld group of the hand with it; else ``pass`` (offer) or ``draw``;
- the wall: ``take`` when a knock is then possible, else ``pass``;
- after the draw: knock when the 11-card ``MinDeadwood`` is within the limit, else discard
  the highest deadwood card of the best meld group (by rank, then OpenSpiel's card index);
- the knock: that discard, and the best meld group of the 11 cards as the arrangement (with
  11 cards all melded: the first card, by OpenSpiel index, whose removal leaves gin, and the
  best group of the other 10);
- the defender never lays off; it melds the best meld group of its hand, then ``done``;
  after gin it says ``done`` at once (its first planned action, a pass meant to end the
  lay-offs, ends the show when there are none), so all its cards count.
- melds go down in the reverse of the group's order (the bot stacks its plan).

The bot reads only a :class:`~rummykit.variants.gin.view.GinView`. It is meant for the
OpenSpiel profile (the rules OpenSpiel plays), like the original; under other rules it plays
the same way and falls back to the first legal move where a choice other than a knock is
illegal.
"""

from __future__ import annotations

import random

from rummykit.core.cards import Card, cards_of
from rummykit.core.moves import Discard, Draw, Meld, Take
from rummykit.variants.gin.deadwood import _os_meld_list, mask_value, os_index, os_min_deadwood
from rummykit.variants.gin.hand import PLAIN_KNOCK
from rummykit.variants.gin.moves import Done, Gin, GinMove, Knock, Pass
from rummykit.variants.gin.view import GinView

__all__ = ["SimpleGinBot", "best_meld_group", "choose_simple"]

HAND_SIZE = 10


def best_meld_group(hand: int) -> list[int]:
    """OpenSpiel's ``BestMeldGroup`` of ``hand`` (meld bit sets, in its path order): of the
    groups its depth-first search emits, the first whose melded value beats every earlier one.

    >>> from rummykit.core.cards import mask_of, parse_cards
    >>> from rummykit.core.cards import format_cards
    >>> hand = mask_of(parse_cards("SA S2 S3 S4 C4 D4 H9 HT"))
    >>> [format_cards(cards_of(m)) for m in best_meld_group(hand)]
    ['C4 D4 S4', 'SA S2 S3']
    """
    melds = _os_meld_list(cards_of(hand))
    best: list[int] = []
    best_value = 0
    path: list[int] = []

    def visit(last: int, pool: list[int], value: int) -> None:
        nonlocal best, best_value
        children = [m for m in pool if not m & last]
        if not children:
            if value > best_value:
                best_value, best = value, list(path)
            return
        for child in children:
            path.append(child)
            visit(child, children, value + mask_value(child))
            path.pop()

    for meld in melds:
        path.append(meld)
        visit(meld, melds, mask_value(meld))
        path.pop()
    return best


def _rank_key(card: Card) -> tuple[int, int]:
    return (card % 13, os_index(card))


def _best_deadwood(hand: int) -> int:
    for meld in best_meld_group(hand):
        hand &= ~meld
    return hand


def _discard(hand: int) -> Card:
    """``GetDiscard``: the highest deadwood card; with no deadwood, the first card (by
    OpenSpiel index) whose removal leaves gin."""
    dead = _best_deadwood(hand)
    if dead:
        return max(cards_of(dead), key=_rank_key)
    for card in sorted(cards_of(hand), key=os_index):
        if os_min_deadwood(hand & ~(1 << card)) == 0:
            return card
    raise ValueError("an 11-card hand with no deadwood keeps gin after some discard")


def _melds(hand: int) -> list[int]:
    """``GetMelds``: the melds to lay, in the order laid (the bot stacks its planned
    actions and pops them from the back, so the best group's melds go last first)."""
    if hand.bit_count() == HAND_SIZE + 1 and os_min_deadwood(hand) == 0:
        hand &= ~(1 << _discard(hand))
    return best_meld_group(hand)[::-1]


def _knock(hand: int) -> GinMove:
    card = _discard(hand)
    melds = _melds(hand)
    groups = tuple(tuple(cards_of(m)) for m in melds)
    if sum(m.bit_count() for m in melds) == HAND_SIZE:
        return Gin(card, groups)
    return Knock(card, groups)


def _wants_upcard(hand: int, upcard: Card, limit: int) -> bool:
    with_it = hand | 1 << upcard
    return os_min_deadwood(with_it) <= limit or not _best_deadwood(with_it) >> upcard & 1


def _defender_move(seen: GinView) -> GinMove:
    if seen.kind != PLAIN_KNOCK:
        # After gin its first planned action, meant to end the lay-offs, ends the show.
        return Done()
    shown = 0
    for group in seen.defender_groups:
        for card in group:
            shown |= 1 << card
    for meld in _melds(seen.hand | shown):  # the plan made from the hand before the show
        if meld & seen.hand == meld:
            return Meld((tuple(cards_of(meld)),))
    return Done()


def choose_simple(seen: GinView) -> GinMove:
    """The bot's move in the position ``seen`` (the seat to move's view)."""
    phase = seen.phase
    hand = seen.hand
    limit = seen.knock_limit
    legal = seen.legal
    if phase == "show":
        move = _defender_move(seen)
    elif phase in ("discard", "wall_knock"):
        if phase == "wall_knock" or os_min_deadwood(hand) <= limit:
            move = _knock(hand)
        else:
            move = Discard(_discard(hand))
    elif phase == "wall":
        move = Take() if Take() in legal else Pass()
    else:  # offer, draw
        top = seen.discard_top
        if top is not None and _wants_upcard(hand, top, limit) and Take() in legal:
            move = Take()
        else:
            move = Pass() if phase == "offer" else Draw()
    # A knock's arrangement is its own (the legal list spells one per discard); anything
    # else the rules refuse falls back to the first legal move.
    if isinstance(move, (Knock, Gin)) or move in legal:
        return move
    return legal[0]


class SimpleGinBot:
    """The port as a bot object (``choose(view, rng)``)."""

    name = "simple-gin"

    def choose(self, seen: GinView, rng: random.Random) -> GinMove:
        return choose_simple(seen)
