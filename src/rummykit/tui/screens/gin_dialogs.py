"""The gin table's dialogs: the knock's arrangements to choose from, and the hand's end
(both hands as arranged and counted, the show, the points, the score sheet)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from rummykit.display.faces import faces_in
from rummykit.variants.gin import text
from rummykit.variants.gin.moves import GinMove


class KnockScreen(ModalScreen[GinMove | None]):
    """The arrangements a knock may declare, one button each (keys 1-9); returns the
    chosen knock, or None (Escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        *(Binding(str(n), f"choose({n})", show=False) for n in range(1, 10)),
    ]

    def __init__(self, choices: list[GinMove], hand: int) -> None:
        super().__init__()
        self.choices, self.hand = choices, hand

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="knock-choices"):
            yield Label("Knock: choose the melds to show (the rest is deadwood)",
                        classes="dialog-title")
            for number, choice in enumerate(self.choices, 1):
                words = faces_in(text.choice_words(choice, self.hand))
                yield Button(f"{number}. {words}", id=f"choice-{number}", compact=True)
            yield Label("1-9 or click to choose, Escape to cancel.", classes="dim")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id and event.button.id.startswith("choice-"):
            self.action_choose(int(event.button.id[7:]))

    def action_choose(self, number: int) -> None:
        if 1 <= number <= len(self.choices):
            self.dismiss(self.choices[number - 1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class GinHandEndScreen(ModalScreen[None]):
    """The finished hand and the score sheet; Enter deals on (or shows the game's end)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,n,escape", "next", "Continue")]

    def __init__(self, number: int, lines: list[str], sheet: list[str],
                 match_over: bool) -> None:
        super().__init__()
        self.number, self.lines, self.sheet, self.match_over = number, lines, sheet, match_over

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="hand-end"):
            yield Label(f"Hand {self.number} is over", classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(Text(faces_in(self.lines[0]), style="bold"))
                yield Static(faces_in("\n".join(self.lines[1:])))
                yield Static("\n".join(self.sheet), classes="sheet")
            label = "See the result (Enter)" if self.match_over else "Next hand (Enter)"
            yield Button(label, id="next", variant="primary", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_next(self) -> None:
        self.dismiss(None)
