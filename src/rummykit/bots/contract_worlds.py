"""How the contract search deals the hidden cards: what the others' play tells.

A seat that is down lays off every card it can (every bot does, and a person nearly
always), so the cards it still holds are, with few exceptions, cards the table does not
take. :func:`weigh_for` makes such cards far likelier in a down seat's sampled hand than
the cards the table would take (a natural card a meld accepts, a joker while a meld has a
place for it); without it the sampled worlds hand a down seat cards it would have laid
off and the playouts see it go out far sooner than it does.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.core.views import view
>>> from rummykit.variants import CONTRACT
>>> state = HandState.deal(CONTRACT, 4, dealer=0, rng=random.Random(2))
>>> weigh_for(view(state, state.to_move)) is None  # nobody down: nothing to weigh
True
"""

from __future__ import annotations

from rummykit.core.cards import JOKER, Card
from rummykit.core.melds import RUN, TableMeld
from rummykit.core.views import PlayerView, Weigh
from rummykit.variants.contract.view import seats_down

LAYABLE_WEIGHT = 0.02  # a card the table takes, in a down seat's sampled hand (1 = any card)


def layable(card: Card, table: tuple[TableMeld, ...]) -> bool:
    """Whether a seat that is down could lay ``card`` off on ``table`` now."""
    if card == JOKER:
        return any(m.kind == RUN or len(m.cards) < 4 for m in table)
    return any(m.accepts >> card & 1 for m in table)


def weigh_for(view: PlayerView) -> Weigh | None:
    """The sampling weight of a card in another seat's hand, or ``None`` when no other
    seat is down (every card as likely)."""
    down = seats_down(view) & ~(1 << view.seat)
    if not down:
        return None
    table = view.table
    cache: dict[Card, float] = {}

    def weigh(seat: int, card: Card) -> float:
        if not down >> seat & 1:
            return 1.0
        found = cache.get(card)
        if found is None:
            found = cache[card] = LAYABLE_WEIGHT if layable(card, table) else 1.0
        return found

    return weigh


__all__ = ["LAYABLE_WEIGHT", "layable", "weigh_for"]
