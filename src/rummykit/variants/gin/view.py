"""What one seat may see of a gin hand: the only gin code that hides information.

A seat sees its own hand, the face-up discard pile, the stock size, the cards each seat
took from the pile and still holds, and each seat's face-up discards. The knocker's
discard lies face down: only the knocker sees it until the hand is over. After a knock the
knocker's melds (with the lay-offs on them) and deadwood are public, and so are the
defender's melds; the opponent's whole hand is revealed only once the hand is over.

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> seen = gin_view(hand, 1)
>>> seen.hand_sizes, seen.stock_size, [str(m) for m in seen.legal], seen.revealed
((10, 10), 31, ['take', 'pass'], ())
>>> gin_view(hand, 0).legal
()
"""

from __future__ import annotations

import random
from typing import NamedTuple

from rummykit.core.cards import Card, cards_of
from rummykit.core.outcome import HandResult
from rummykit.variants.gin.deadwood import Arrangement, arrangement_mask, mask_value
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import GinMove
from rummykit.variants.gin.outcome import GinOutcome
from rummykit.variants.gin.phases import GIN_KNOCK, PLAIN_KNOCK
from rummykit.variants.gin.rules import GinRules


class GinView(NamedTuple):
    """A seat's view of a gin hand (``seat`` -1: a spectator, who holds no hand).

    ``known[s]``: the cards seat ``s`` took from the discard pile and still holds;
    ``discarded[s]``: the cards it discarded face up. ``face_down`` is the knocker's discard
    when this seat may see it (the knocker, or anyone once the hand is over), else -1; it
    is not in ``discard`` while hidden. ``table`` holds the knocker's melds as they now stand
    (lay-offs included), ``knock_groups`` them as declared; ``knocker_deadwood`` the
    knocker's loose cards. ``revealed`` holds both hands once the hand is over.
    """

    rules: GinRules
    seat: int
    dealer: int
    deal_index: int
    to_move: int
    phase: str
    hand: int
    hand_sizes: tuple[int, int]
    upcard: Card
    knock_limit: int
    multiplier: int
    discard: tuple[Card, ...]
    stock_size: int
    offer_step: int
    stock_only: bool
    taken: Card
    echo: bool
    known: tuple[int, int]
    discarded: tuple[int, int]
    take_count: int
    turn_count: int
    knocker: int | None
    kind: int
    face_down: Card
    knock_groups: Arrangement
    knocker_deadwood: int
    table: tuple[int, ...]
    laid: int
    defender_groups: Arrangement
    melded: bool
    result: HandResult | None
    outcome: GinOutcome | None
    legal: tuple[GinMove, ...]
    revealed: tuple[int, ...]

    @property
    def hand_cards(self) -> list[Card]:
        """The seat's cards in code order (suit, then rank)."""
        return cards_of(self.hand)

    @property
    def discard_top(self) -> Card | None:
        """The top face-up card of the discard pile, if any."""
        return self.discard[-1] if self.discard else None


def gin_view(hand: GinHand, seat: int) -> GinView:
    """What ``seat`` (0 or 1; -1 for a spectator) sees of ``hand``."""
    over = hand.result is not None
    pile = tuple(hand.discard)
    face_down = -1
    if hand.knock_card >= 0:
        if over or seat == hand.knocker:
            face_down = hand.knock_card
        if not over and pile and pile[-1] == hand.knock_card:
            pile = pile[:-1]
    loose = hand.knocker_loose
    own = hand.hands[seat] if seat in (0, 1) else 0
    to_move_now = seat == hand.to_move and not over
    return _new_view(GinView, (
        hand.rules, seat, hand.dealer, hand.deal_index, hand.to_move, hand.phase, own,
        (hand.hands[0].bit_count(), hand.hands[1].bit_count()), hand.upcard,
        hand.knock_limit, hand.multiplier, pile, len(hand.stock), hand.offer_step,
        hand.stock_only, hand.taken, hand.echo, hand.known, hand.discarded, hand.take_count,
        hand.turn_count, hand.knocker, hand.kind, face_down, hand.knock_groups, loose,
        hand.table, hand.laid, hand.defender_groups, hand.melded, hand.result, hand.outcome,
        tuple(hand.legal_moves()) if to_move_now else (),
        (hand.hands[0], hand.hands[1]) if over else (),
    ))


_new_view = tuple.__new__  # GinView's fields in order, without its __new__'s frame


def public_gin_view(hand: GinHand) -> GinView:
    """What a spectator sees: no hand, no legal moves; both hands once the hand is over."""
    return gin_view(hand, -1)


def resample(seen: GinView, rng: random.Random) -> GinHand:
    """A full hand consistent with ``seen``: the unseen cards dealt at random between the
    opponent's hand (beyond the cards known to be there) and the stock.

    Under a plain knock the knocker's hand is public at the show, so the result can be
    searched from any phase the seat may be asked to move in.
    """
    if seen.seat not in (0, 1):
        raise ValueError("resample needs a seat's view, not a spectator's")
    other = 1 - seen.seat
    if seen.revealed:
        hands = list(seen.revealed)
    else:
        hands = [0, 0]
        hands[seen.seat] = seen.hand
        hands[other] = seen.known[other]
        if seen.knocker == other:
            hands[other] = seen.knocker_deadwood | arrangement_mask(seen.knock_groups)
    visible = hands[0] | hands[1] | arrangement_mask(seen.knock_groups) | seen.laid
    visible |= arrangement_mask(seen.defender_groups)
    for card in seen.discard:
        visible |= 1 << card
    if seen.face_down >= 0:
        visible |= 1 << seen.face_down
    pool = [c for c in range(52) if not visible >> c & 1]
    rng.shuffle(pool)
    if not seen.revealed:
        missing = seen.hand_sizes[other] - hands[other].bit_count()
        for card in pool[:missing]:
            hands[other] |= 1 << card
        del pool[:missing]
    hidden_discard = seen.kind in (PLAIN_KNOCK, GIN_KNOCK) and seen.face_down < 0
    seen_pile = [*seen.discard, pool.pop()] if hidden_discard else list(seen.discard)
    stock = pool[:seen.stock_size]
    state = GinHand(seen.rules, seen.dealer, hands, seen.upcard, stock, seen.deal_index)
    state.discard = seen_pile
    state.to_move = seen.to_move
    state.phase = seen.phase
    state.offer_step = seen.offer_step
    state.stock_only = seen.stock_only
    state.taken = seen.taken
    state.known = seen.known
    state.discarded = seen.discarded
    state.take_count = seen.take_count
    state.turn_count = seen.turn_count
    state.knocker = seen.knocker
    state.kind = seen.kind
    state.knock_card = seen.face_down if seen.face_down >= 0 else (
        seen_pile[-1] if hidden_discard else -1)
    state.knock_groups = seen.knock_groups
    state.knocker_deadwood = mask_value(seen.knocker_deadwood)
    state.table = seen.table
    state.laid = seen.laid
    state.defender_groups = seen.defender_groups
    state.melded = seen.melded
    state.result = seen.result
    state.outcome = seen.outcome
    state.echo = seen.echo
    return state
