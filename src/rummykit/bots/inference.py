"""What the others' public play tells a seat about their hidden cards.

Players throw away what they do not collect, highest first: a card worth more than the
cheapest card an opponent has discarded, or related to a card it discarded (same rank, or
near it in the suit), is less likely to be in its hand. Cards taken from the discard pile
are already known (``PlayerView.known``).

>>> from rummykit.core.cards import parse_card
>>> weights = inference_weights_from((0, 1 << parse_card("S7")), seat=0, points=tuple(
...     min(r + 1, 10) for r in range(13)))
>>> weights(1, parse_card("H7")) < weights(1, parse_card("H4")) == 1.0
True
>>> weights(1, parse_card("HK")) < 1.0
True
"""

from __future__ import annotations

from rummykit.bots.judge import related
from rummykit.core.cards import NUM_RANKS, Card
from rummykit.core.melds import tables_for
from rummykit.core.views import PlayerView, Weigh

RELATED = 0.5  # the weight of a card related to one the seat discarded
HIGHER = 0.05  # the weight of a card worth more than every card the seat discarded


def inference_weights_from(discarded: tuple[int, ...], seat: int,
                           points: tuple[int, ...]) -> Weigh:
    """Weights for :func:`rummykit.core.views.resample` from the cards each seat discarded
    (a table made once: sampling looks weights up for every card of every world)."""
    table = []
    for other, bits in enumerate(discarded):
        thrown = [c for c in range(52) if bits >> c & 1]
        floor = min((points[c % NUM_RANKS] for c in thrown), default=99)
        row = [1.0] * 53
        if other != seat:
            for card in range(52):
                weight = HIGHER if points[card % NUM_RANKS] > floor else 1.0
                if any(related(card, gone) for gone in thrown):
                    weight *= RELATED
                row[card] = weight
        table.append(row)

    def weigh(other: int, card: Card) -> float:
        return table[other][card] if other < len(table) else 1.0

    return weigh


def inference_weights(view: PlayerView) -> Weigh | None:
    """The weights of a view's public discards, or ``None`` when nothing was discarded."""
    if not any(view.discarded):
        return None
    return inference_weights_from(view.discarded, view.seat, tables_for(view.rules).values)
