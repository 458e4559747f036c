"""Your hand drawn as cards; a click (or the cursor and space) selects cards."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from rummykit.cards import Card
from rummykit.tui.cardart import BOX_WIDTH, card_box

GAP = 1
CELL = BOX_WIDTH + GAP
ROW_LINES = 4  # three lines of card, one for the cursor mark


class HandView(Widget, can_focus=True):
    """The cards in display order; ``selected`` and ``cursor`` are positions in it."""

    cards: reactive[tuple[Card, ...]] = reactive(())
    selected: reactive[frozenset[int]] = reactive(frozenset())
    cursor: reactive[int] = reactive(0)

    class CardClicked(Message):
        """The card at ``index`` (display order) was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def per_row(self) -> int:
        """How many cards fit in one row of the widget."""
        return max(1, (self.size.width + GAP) // CELL)

    def render(self) -> RenderableType:
        if not self.cards:
            return Text("(no cards)", style="dim")
        lines: list[Text] = []
        width = self.per_row()
        for start in range(0, len(self.cards), width):
            row = range(start, min(start + width, len(self.cards)))
            boxes = [card_box(self.cards[i], selected=i in self.selected) for i in row]
            for line in range(3):
                lines.append(Text(" " * GAP).join(box[line] for box in boxes))
            marks = [Text("  ▲  " if i == self.cursor and self.has_focus else " " * BOX_WIDTH,
                          style="bold cyan") for i in row]
            lines.append(Text(" " * GAP).join(marks))
        return Text("\n").join(lines)

    def index_at(self, x: int, y: int) -> int | None:
        """The display position of the card drawn at ``(x, y)``, if any."""
        column, inside = divmod(x, CELL)
        if inside >= BOX_WIDTH or column >= self.per_row() or y % ROW_LINES == 3:
            return None
        index = y // ROW_LINES * self.per_row() + column
        return index if index < len(self.cards) else None

    def on_click(self, event: events.Click) -> None:
        index = self.index_at(event.x, event.y)
        if index is not None:
            self.post_message(self.CardClicked(index))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
