"""Cards drawn as Rich text: rank and suit symbol, hearts and diamonds red, the rest black.

>>> from rummykit.cards import parse_card
>>> face(parse_card("HT")).plain, face(parse_card("S7")).plain, face(52).plain
('10♥', '7♠', 'JK')
>>> [line.plain for line in card_box(parse_card("D9"))]
['╭───╮', '│ 9♦│', '╰───╯']
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from rummykit.cards import JOKER, Card, rank_of, suit_of
from rummykit.melds import JOKER_AS, identity

SYMBOLS = "♣♦♥♠"
RANK_TEXT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RED = "bold red on white"
BLACK = "bold black on white"
JOKER_STYLE = "bold magenta on white"
SELECTED = "bold yellow"
BOX_WIDTH = 5


def is_red(card: Card) -> bool:
    """Hearts and diamonds."""
    return card != JOKER and suit_of(card) in (1, 2)


def style_of(card: Card) -> str:
    """The face style of a card."""
    if card == JOKER:
        return JOKER_STYLE
    return RED if is_red(card) else BLACK


def face(card: Card) -> Text:
    """``7♥``, ``10♠`` or ``JK`` in the card's colour."""
    if card == JOKER:
        return Text("JK", style=JOKER_STYLE)
    return Text(RANK_TEXT[rank_of(card)] + SYMBOLS[suit_of(card)], style=style_of(card))


def placed(code: int) -> Text:
    """A card on the table: a natural card, or a joker shown as ``JK=7♥``."""
    if code >= JOKER_AS:
        return Text.assemble(Text("JK=", style=JOKER_STYLE), face(identity(code)))
    return face(code)


def inline(cards: Iterable[int], *, table: bool = False) -> Text:
    """Cards in a row separated by spaces (table codes when ``table``)."""
    parts = [placed(c) if table else face(c) for c in cards]
    return Text(" ").join(parts)


def card_box(card: Card, *, selected: bool = False) -> list[Text]:
    """A card as three lines of five cells; a selected card has a bright frame."""
    border = SELECTED if selected else "white"
    body = face(card)
    body.pad_left(3 - body.cell_len)
    if selected:
        body.stylize("reverse")
    return [Text("╭───╮", style=border),
            Text.assemble(Text("│", style=border), body, Text("│", style=border)),
            Text("╰───╯", style=border)]
