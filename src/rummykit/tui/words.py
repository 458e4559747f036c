"""Moves in words for the move log: "Bob took 7♠ from the discard pile".

Each sentence is made from the mover's views before and after the move, so it says only
what that seat may see. Cards are written as they are drawn (``10♦``, ``JK=7♥``).

>>> from rummykit.core.moves import LayOff
>>> from rummykit.core.cards import parse_card
>>> lay_words("Ann", LayOff(parse_card("H7"), 2))
'Ann laid off 7♥ on meld 2'
"""

from __future__ import annotations

from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take
from rummykit.core.views import PlayerView
from rummykit.display.faces import card_face, cards_face
from rummykit.display.terms import terms_of
from rummykit.display.wording import gained
from rummykit.variants.table_hooks import is_down


def lay_words(name: str, move: LayOff) -> str:
    """``Ann laid off 7♥ on meld 2``."""
    end = f" ({move.end} end)" if move.end else ""
    return f"{name} laid off {card_face(move.card)} on meld {move.target}{end}"


def describe(name: str, move: Move, before: PlayerView, after: PlayerView, *,
             own: bool) -> str:
    """The sentence for ``move`` by ``name`` from the mover's views; ``own`` shows the card
    drawn from the stock (only for the seat that drew it)."""
    text = _sentence(name, move, before, after, own)
    if after.result is not None and after.result.winner == before.seat:
        text += " and went out"
    return text


def _sentence(name: str, move: Move, before: PlayerView, after: PlayerView,
              own: bool) -> str:
    if isinstance(move, Draw):
        if own:
            new = gained(before.hand, after.hand)
            return f"{name} drew {cards_face(new)} from the stock"
        return f"{name} drew from the stock"
    if isinstance(move, Take):
        if move.count > 1:
            dug = before.discard[-move.count:]
            return (f"{name} dug {card_face(dug[0])} from depth {move.count} of the discard "
                    f"pile, taking {cards_face(dug)}")
        top = before.discard_top
        card = card_face(top) if top is not None else "a card"
        return f"{name} took {card} from the discard pile"
    if isinstance(move, Meld):
        first = len(before.table) + 1
        numbers = list(range(first, first + len(move.groups)))
        groups = " / ".join(" ".join(card_face(c) for c in g) for g in move.groups)
        where = (f"meld {numbers[0]}" if len(numbers) == 1
                 else "melds " + ", ".join(str(n) for n in numbers))
        down = terms_of(before.rules).down
        going_down = bool(down) and not is_down(before, before.seat)
        verb = f"went {down} with" if going_down else "melded"
        return f"{name} {verb} {groups} ({where})"
    if isinstance(move, LayOff):
        return lay_words(name, move)
    if isinstance(move, Swap):
        return (f"{name} swapped {card_face(move.card)} for the joker in meld "
                f"{move.target}")
    assert isinstance(move, Discard)
    return f"{name} discarded {card_face(move.card)}"
