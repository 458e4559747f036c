"""What the table offers: your hand in display order and the legal moves of a selection.

Only the engine's legal moves (``PlayerView.legal``) are offered; a selection of cards
picks the melds, lay-offs, swaps and discards that use exactly those cards.

>>> from rummykit.cards import parse_cards
>>> [str(m) for m in matching(tuple(parse_cards("H9")), [Discard(parse_cards("H9")[0])])]
['discard H9']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rummykit.cards import JOKER, Card, rank_of
from rummykit.engine import DRAW_PHASE, PLAY_PHASE
from rummykit.melds import hand_card
from rummykit.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take
from rummykit.views import PlayerView

SORTS = ("suit", "rank")
MAX_OFFERED = 8


def ordered(seen: PlayerView, by: str) -> list[Card]:
    """Your cards by suit then rank, or by rank then suit; jokers last either way."""
    cards = seen.hand_cards
    if by == "rank":
        return sorted(cards, key=lambda c: (c == JOKER, rank_of(c) if c != JOKER else 0, c))
    return cards


def cards_used(move: Move) -> Counter[Card]:
    """The cards of your hand that a move puts on the table or the pile."""
    if isinstance(move, Meld):
        return Counter(hand_card(c) for group in move.groups for c in group)
    if isinstance(move, LayOff):
        return Counter([hand_card(move.card)])
    if isinstance(move, (Swap, Discard)):
        return Counter([move.card])
    return Counter()


def matching(selection: Sequence[Card], legal: Iterable[Move]) -> list[Move]:
    """The legal moves that use exactly the selected cards."""
    if not selection:
        return []
    wanted = Counter(selection)
    return [m for m in legal if not isinstance(m, (Draw, Take)) and cards_used(m) == wanted]


def offered(seen: PlayerView, selection: Sequence[Card]) -> list[Move]:
    """The moves the action bar offers: draw and take, or the selection's moves."""
    if seen.result is not None or seen.to_move != seen.seat:
        return []
    if seen.phase == DRAW_PHASE:
        return [m for m in seen.legal if isinstance(m, Draw)
                or (isinstance(m, Take) and m.count == 1)]
    if seen.phase == PLAY_PHASE:
        return matching(selection, seen.legal)[:MAX_OFFERED]
    return []


def label(move: Move) -> str:
    """A button's words for a move, with its key."""
    if isinstance(move, Draw):
        return "Draw from stock (d)"
    if isinstance(move, Take):
        return "Take the discard (t)" if move.count == 1 else f"Dig {move.count} deep"
    key = {Meld: "m", Discard: "x", Swap: ""}.get(type(move), "")
    if isinstance(move, LayOff):
        key = str(move.target) if move.target < 10 else ""
    text = str(move)
    return text[:1].upper() + text[1:] + (f" ({key})" if key else "")


def guidance(seen: PlayerView, selection: Sequence[Card]) -> str:
    """One line telling you what you can do now."""
    if seen.result is not None:
        return "The hand is over."
    if seen.to_move != seen.seat:
        return "Waiting for the other players..."
    if seen.phase == DRAW_PHASE:
        return "Your turn: draw from the stock (d) or take the discard (t)."
    duties = []
    if seen.dig_duty >= 0:
        duties.append("place the card you dug")
    if seen.joker_duty:
        duties.append("place the joker you took")
    need = f" You must {' and '.join(duties)}." if duties else ""
    if not selection:
        return "Select cards (click, or arrows + space) to meld, lay off or discard." + need
    if not offered(seen, selection):
        return "No legal move uses exactly the selected cards." + need
    return "Choose an action: m meld, 1-9 lay off on that meld, x discard." + need
