"""The whole discard pile, top first with depths; the legal takes and digs are buttons."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from rummykit.core.moves import Move, Take
from rummykit.core.views import PlayerView
from rummykit.tui.actions import label
from rummykit.tui.cardart import face


def pile_text(seen: PlayerView) -> Text:
    """The pile top first: ``1: Q♠  2: 7♥ ...``, ten to a line."""
    if not seen.discard:
        return Text("The discard pile is empty.")
    cards = list(reversed(seen.discard))
    text = Text("Top first; depth N is what 'take N' takes down to. A dug card (deeper "
                "than the top) must be placed on the table this turn.\n")
    for start in range(0, len(cards), 10):
        parts = [Text.assemble(f"{depth:>3}: ", face(card))
                 for depth, card in enumerate(cards[start:start + 10], start + 1)]
        text.append_text(Text(" ").join(parts))
        text.append("\n")
    return text


class PileScreen(ModalScreen[Move | None]):
    """Shows the pile; returns the take or dig chosen, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,p", "close", "Close")]

    def __init__(self, seen: PlayerView) -> None:
        super().__init__()
        self.seen = seen
        self.takes = [m for m in seen.legal if isinstance(m, Take)][:12]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(f"Discard pile ({len(self.seen.discard)} cards)",
                        classes="dialog-title")
            yield Static(pile_text(self.seen))
            with Horizontal(classes="buttons"):
                for index, move in enumerate(self.takes):
                    yield Button(label(move, self.seen, ""), id=f"take-{index}", compact=True)
                yield Button("Close", id="close", variant="primary", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        name = event.button.id or ""
        self.dismiss(self.takes[int(name[5:])] if name.startswith("take-") else None)

    def action_close(self) -> None:
        self.dismiss(None)
