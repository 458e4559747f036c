"""Your hand drawn as cards; a click (or the cursor and space) selects cards.

Every card is drawn: the hand wraps into as many rows as it needs (the widget's height
follows). A card just drawn is tagged ``new``; a card that fits a table meld is tagged with
the meld's number (``+2``). In the compact layout each card is one line of four cells with
its tags on the line below.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from rummykit.core.cards import Card
from rummykit.tui.cardart import BOX_WIDTH, FIT_STYLE, TAG_STYLE, card_box, card_chip

GAP = 1
CELL = BOX_WIDTH + GAP
ROW_LINES = 4  # three lines of card, one for the cursor mark
CHIP_WIDTH = 4
CHIP_CELL = CHIP_WIDTH + GAP
CHIP_LINES = 2  # the card, then its marks
NEW = "new"


class HandView(Widget, can_focus=True):
    """The cards in display order; ``selected``, ``cursor``, ``fresh`` (just drawn) and
    ``fits`` (position -> meld numbers it may be laid off on) are positions in it."""

    cards: reactive[tuple[Card, ...]] = reactive((), layout=True)
    selected: reactive[frozenset[int]] = reactive(frozenset())
    cursor: reactive[int] = reactive(0)
    fresh: reactive[frozenset[int]] = reactive(frozenset())
    fits: reactive[tuple[tuple[int, str], ...]] = reactive(())
    compact: reactive[bool] = reactive(False, layout=True)

    class CardClicked(Message):
        """The card at ``index`` (display order) was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def cell(self) -> int:
        """The width of one card and its gap."""
        return CHIP_CELL if self.compact else CELL

    def row_lines(self) -> int:
        """Lines per row of cards."""
        return CHIP_LINES if self.compact else ROW_LINES

    def per_row(self, width: int | None = None) -> int:
        """How many cards fit in one row of the widget."""
        room = self.size.width if width is None else width
        return max(1, (room + GAP) // self.cell())

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """As many rows as the cards need at this width (every card is drawn)."""
        if not self.cards:
            return 1
        rows = -(-len(self.cards) // self.per_row(width))
        return rows * self.row_lines()

    def render(self) -> RenderableType:
        if not self.cards:
            return Text("(no cards)", style="dim")
        fits = dict(self.fits)
        lines: list[Text] = []
        width = self.per_row()
        for start in range(0, len(self.cards), width):
            row = range(start, min(start + width, len(self.cards)))
            if self.compact:
                lines.append(Text(" " * GAP).join(
                    card_chip(self.cards[i], selected=i in self.selected) for i in row))
                lines.append(Text(" " * GAP).join(self.chip_marks(i, fits) for i in row))
                continue
            boxes = [card_box(self.cards[i], selected=i in self.selected,
                              top=NEW if i in self.fresh else "", bottom=fits.get(i, ""))
                     for i in row]
            for line in range(3):
                lines.append(Text(" " * GAP).join(box[line] for box in boxes))
            marks = [Text("  ▲  " if i == self.cursor and self.has_focus else " " * BOX_WIDTH,
                          style="bold cyan") for i in row]
            lines.append(Text(" " * GAP).join(marks))
        return Text("\n").join(lines)

    def chip_marks(self, index: int, fits: dict[int, str]) -> Text:
        """The compact line under a card: the cursor, then ``new``, the meld it fits (``+2``)
        or both (``*+2``)."""
        cursor = "▲" if index == self.cursor and self.has_focus else " "
        text = Text(cursor, style="bold cyan")
        fit = fits.get(index, "")
        if index in self.fresh:  # just drawn: "new", or "*+2" when it also fits meld 2
            text.append(f"*{fit}"[:3] if fit else NEW, style=TAG_STYLE)
        else:
            text.append(f"{fit:<3}"[:3], style=FIT_STYLE)
        return text

    def index_at(self, x: int, y: int) -> int | None:
        """The display position of the card drawn at ``(x, y)``, if any."""
        cell, lines = self.cell(), self.row_lines()
        column, inside = divmod(x, cell)
        if inside >= cell - GAP or column >= self.per_row() or y % lines == lines - 1:
            return None
        index = y // lines * self.per_row() + column
        return index if index < len(self.cards) else None

    def on_click(self, event: events.Click) -> None:
        index = self.index_at(event.x, event.y)
        if index is not None:
            self.post_message(self.CardClicked(index))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
