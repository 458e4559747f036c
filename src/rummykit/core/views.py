"""What one seat may see (ARCHITECTURE.md §3): the ONLY code that hides information.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.variants import BASIC
>>> state = HandState.deal(BASIC, num_players=3, dealer=0, rng=random.Random(4))
>>> seen = view(state, 1)
>>> seen.hand_sizes, seen.stock_size, len(seen.legal)
((7, 7, 7), 30, 2)
>>> view(resample(seen, random.Random(9)), 1) == seen
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable
from typing import NamedTuple

from rummykit.core import handset
from rummykit.core.cards import Card, standard_pack
from rummykit.core.engine import HandState
from rummykit.core.melds import TableMeld, hand_card
from rummykit.core.moves import Move
from rummykit.core.outcome import HandResult
from rummykit.core.rules import Rules


class PlayerView(NamedTuple):
    """A seat's view of a hand: its own cards and public knowledge, nothing else.

    ``known[s]`` holds the cards seat ``s`` took from the discard pile and still holds
    (public knowledge); ``discarded[s]`` the cards it discarded this hand (public too);
    ``passed[s]`` the cards that lay on the discard pile when it drew from the stock.
    ``legal`` lists the seat's legal moves when it is to move.
    ``revealed`` shows every hand once the hand is over (scoring shows them), else ``()``.
    ``family`` is the rule family's own public part (``HandState.family_view``: an
    immutable, hashable value the family defines, e.g. who is down in contract), or None
    for a family without one; faces ask the family about it (``variants.table_hooks``).
    """

    rules: Rules
    seat: int
    num_players: int
    dealer: int
    deal_index: int
    to_move: int
    phase: str
    hand: int
    hand_sizes: tuple[int, ...]
    table: tuple[TableMeld, ...]
    discard: tuple[Card, ...]
    stock_size: int
    known: tuple[int, ...]
    taken: int
    melds_this_turn: int
    placed_this_turn: bool
    ever_placed: int
    rebuilds: int
    turn_count: int
    result: HandResult | None
    legal: tuple[Move, ...]
    revealed: tuple[int, ...]
    family: Hashable | None = None  # the family's part (``HandState.family_view``)
    discarded: tuple[int, ...] = ()  # per seat: bit set of the cards it discarded this hand
    passed: tuple[int, ...] = ()  # per seat: bit set of the discard tops it drew instead of

    @property
    def hand_cards(self) -> list[Card]:
        """The seat's cards, sorted by suit then rank, jokers last."""
        return handset.cards(self.hand)

    @property
    def discard_top(self) -> Card | None:
        """The top card of the discard pile, if any."""
        return self.discard[-1] if self.discard else None


def view(state: HandState, seat: int) -> PlayerView:
    """What ``seat`` sees of ``state``."""
    return _seen(state, seat, state.hands[seat])


_new_view = tuple.__new__  # PlayerView's fields in order, without its __new__'s frame
_bit_count = int.bit_count


def _seen(state: HandState, seat: int, hand: int) -> PlayerView:
    hands = state.hands
    result = state.result
    to_move = state.to_move
    return _new_view(PlayerView, (
        state.rules, seat, state.num_players, state.dealer, state.deal_index, to_move,
        state.phase, hand,
        tuple([handset.size(h) for h in hands]) if state.multi
        else tuple(map(_bit_count, hands)),
        tuple(state.table), tuple(state.discard), len(state.stock), tuple(state.known),
        state.taken, state.melds_this_turn, state.placed_this_turn, state.ever_placed,
        state.rebuilds, state.turn_count, result,
        tuple(state.legal_moves()) if seat == to_move and result is None else (),
        tuple(hands) if result is not None else (),
        state.family_view(), tuple(state.discarded),
        tuple(state.passed),
    ))


def public_view(state: HandState) -> PlayerView:
    """What a spectator sees of ``state``: the view of no seat (``seat`` is -1, no hand,
    no legal moves); every hand once the hand is over, as scoring shows them.

    >>> import random
    >>> from rummykit.variants import BASIC
    >>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(4))
    >>> seen = public_view(state)
    >>> seen.seat, seen.hand_cards, seen.legal, seen.hand_sizes
    (-1, [], (), (10, 10))
    """
    return _seen(state, -1, 0)

Weigh = Callable[[int, Card], float]


def resample(seen: PlayerView, rng: random.Random, weigh: Weigh | None = None) -> HandState:
    """A full state consistent with ``seen``: hidden cards dealt at random.

    Other seats keep the cards known to be in their hands; the remaining unseen cards of the
    pack are shuffled among their hands and the stock. Future rebuilds shuffle with ``rng``.
    ``weigh(seat, card)`` (> 0) makes a card likelier in that seat's hand than in the stock
    (weighted sampling without replacement; a seat's inference from public play).
    """
    unseen = Counter(standard_pack(*seen.rules.pack_spec(seen.num_players)))
    unseen.subtract(seen.discard)
    unseen.subtract(hand_card(c) for meld in seen.table for c in meld.cards)
    hands = list(seen.revealed) or [
        seen.hand if s == seen.seat else seen.known[s] for s in range(seen.num_players)]
    for hand in hands:
        unseen.subtract(handset.cards(hand))
    pool = sorted(unseen.elements())
    rng.shuffle(pool)
    if not seen.revealed:
        for s in range(seen.num_players):
            missing = seen.hand_sizes[s] - handset.size(hands[s])
            if weigh is not None and 0 < missing < len(pool):
                keys = [rng.random() ** (1.0 / weigh(s, card)) for card in pool]
                order = sorted(range(len(pool)), key=keys.__getitem__, reverse=True)
                chosen = set(order[:missing])
                pool = [pool[i] for i in order[:missing]] + [
                    card for i, card in enumerate(pool) if i not in chosen]
            for card in pool[:missing]:
                hands[s] = handset.add(hands[s], card)
            del pool[:missing]
    stock = pool[:seen.stock_size]  # the rest is out of play (a partial-pack fixture)
    state = HandState.from_deal(seen.rules, seen.dealer, [handset.cards(h) for h in hands],
                                0, stock, rng=rng, deal_index=seen.deal_index,
                                automatic=False)
    state.discard = list(seen.discard)
    state.table = list(seen.table)
    state.known = list(seen.known)
    state.discarded = list(seen.discarded) or [0] * seen.num_players
    state.passed = list(seen.passed) or [0] * seen.num_players
    state.to_move = seen.to_move
    state.phase = seen.phase
    state.taken = seen.taken
    state.melds_this_turn = seen.melds_this_turn
    state.placed_this_turn = seen.placed_this_turn
    state.ever_placed = seen.ever_placed
    state.rebuilds = seen.rebuilds
    state.turn_count = seen.turn_count
    state.result = seen.result
    state.restore_family_view(seen.family)
    return state
