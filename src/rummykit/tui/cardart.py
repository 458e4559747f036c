"""Cards drawn as Rich text: rank and suit symbol, hearts and diamonds red, the rest black.

>>> from rummykit.core.cards import parse_card
>>> face(parse_card("HT")).plain, face(parse_card("S7")).plain, face(52).plain
('10♥', '7♠', 'JK')
>>> [line.plain for line in card_box(parse_card("D9"))]
['╭───╮', '│ 9♦│', '╰───╯']
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from rummykit.core.cards import JOKER, Card, suit_of
from rummykit.core.melds import JOKER_AS, identity
from rummykit.display.faces import card_face

RED = "bold red on white"
BLACK = "bold black on white"
JOKER_STYLE = "bold magenta on white"
SELECTED = "bold yellow"
TAG_STYLE = "bold cyan"
FIT_STYLE = "bold green"
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
    return Text(card_face(card), style=style_of(card))


def placed(code: int) -> Text:
    """A card on the table: a natural card, or a joker shown as ``JK=7♥``."""
    if code >= JOKER_AS:
        return Text.assemble(Text("JK=", style=JOKER_STYLE), face(identity(code)))
    return face(code)


def inline(cards: Iterable[int], *, table: bool = False) -> Text:
    """Cards in a row separated by spaces (table codes when ``table``)."""
    parts = [placed(c) if table else face(c) for c in cards]
    return Text(" ").join(parts)


def card_box(card: Card, *, selected: bool = False, top: str = "",
             bottom: str = "") -> list[Text]:
    """A card as three lines of five cells; a selected card has a bright frame. ``top`` and
    ``bottom`` (up to 3 cells) are written into the frame: ``╭new╮``, ``╰+2─╯``."""
    border = SELECTED if selected else "white"
    body = face(card)
    body.pad_left(3 - body.cell_len)
    if selected:
        body.stylize("reverse")
    return [Text.assemble(Text("╭", style=border), Text(f"{top[:3]:─<3}", style=TAG_STYLE
                          if top else border), Text("╮", style=border)),
            Text.assemble(Text("│", style=border), body, Text("│", style=border)),
            Text.assemble(Text("╰", style=border), Text(f"{bottom[:3]:─<3}", style=FIT_STYLE
                          if bottom else border), Text("╯", style=border))]


def card_chip(card: Card, *, selected: bool = False) -> Text:
    """A card in one line of four cells (the compact hand): `` 7♣ `` or ``10♦ ``."""
    body = face(card)
    body.pad_left(3 - body.cell_len)
    body.append(" ")
    if selected:
        body.stylize("on yellow")
    return body
