"""End of a hand (every hand's cards, the points, the totals) and end of the match."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from rummykit.core import handset
from rummykit.core.cards import card_points
from rummykit.core.outcome import ABORTED, WIN, HandResult
from rummykit.core.views import PlayerView
from rummykit.display.terms import score_label, unit
from rummykit.display.wording import agree, drawn_words, plural
from rummykit.tui.cardart import inline
from rummykit.tui.widgets.panels import sheet_lines


def outcome_words(result: HandResult, names: tuple[str, ...], multiplier: int = 2) -> str:
    """How the hand ended, in words (``multiplier``: the going-rummy bonus)."""
    if result.result == WIN and result.winner is not None:
        text = f"{names[result.winner]} went out"
        if not result.rummy:
            return text
        bonus = {1: "", 2: ", points doubled"}.get(multiplier, f", points x{multiplier}")
        return f"{text} - going rummy{bonus}"
    if result.result == ABORTED:
        return "aborted (turn limit reached), no points"
    return drawn_words(result)


def hand_end_text(seen: PlayerView, names: tuple[str, ...]) -> Text:
    """Every hand's cards with their points, and the points this hand."""
    result = seen.result
    assert result is not None
    words = outcome_words(result, names, seen.rules.going_rummy_multiplier)
    text = Text(words + "\n\n", style="bold")
    values = seen.rules.ace_value, seen.rules.joker_points
    width = max(len(n) for n in names)
    for seat, hand in enumerate(seen.revealed):
        cards = handset.cards(hand)
        text.append(f"{names[seat]:<{width}}  ")
        if cards:
            text.append_text(inline(cards))
            points = sum(card_points(c, *values) for c in cards)
            text.append(f"  ({plural(points, 'point')})\n")
        else:
            text.append("no cards left\n", style="green")
    text.append(f"\n{score_label(seen.rules)} this {unit(seen.rules)}: ", style="bold")
    text.append(", ".join(f"{n} {p}" for n, p in zip(names, result.scores, strict=True)))
    return text


class HandEndScreen(ModalScreen[None]):
    """The hand's outcome and the score sheet; Enter deals on (or shows the match end)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,n,escape", "next", "Continue")]

    def __init__(self, seen: PlayerView, names: tuple[str, ...], sheet: list[Text],
                 match_over: bool) -> None:
        super().__init__()
        self.seen, self.names, self.sheet, self.match_over = seen, names, sheet, match_over

    def compose(self) -> ComposeResult:
        word = unit(self.seen.rules, capital=True)
        with Vertical(classes="dialog wide", id="hand-end"):
            yield Label(f"{word} {self.seen.deal_index + 1} is over", classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(hand_end_text(self.seen, self.names))
                yield Static(Text("\n").join(self.sheet), classes="sheet")
            label = "See the result (Enter)" if self.match_over else f"Next {word.lower()} (Enter)"
            yield Button(label, id="next", variant="primary", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_next(self) -> None:
        self.dismiss(None)


def winners_words(winners: tuple[int, ...], names: tuple[str, ...]) -> str:
    """``Ann wins``, ``Ann and Bob share the win`` or ``no winner``."""
    if not winners:
        return "No winner: a drawn hand ends the match."
    who = " and ".join(names[s] for s in winners)
    return agree(who, "wins" if len(winners) == 1 else "share the win") + "!"


class MatchEndScreen(ModalScreen[str]):
    """The winners and the score sheet; returns ``rematch``, ``new`` or ``quit``; Save
    (s) saves the record and stays."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('rematch')", "Rematch"), Binding("n", "choose('new')", "New game"),
        Binding("s", "save", "Save"), Binding("q", "choose('quit')", "Quit")]

    def __init__(self, winners: tuple[int, ...], names: tuple[str, ...],
                 sheet: list[Text]) -> None:
        super().__init__()
        self.winners, self.names, self.sheet = winners, names, sheet

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="match-end"):
            yield Label("The match is over", classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(Text(winners_words(self.winners, self.names), style="bold"))
                yield Static(Text("\n").join(self.sheet), classes="sheet")
            with Horizontal(classes="buttons"):
                yield Button("Rematch (r)", id="rematch", variant="primary", compact=True)
                yield Button("New game (n)", id="new", compact=True)
                yield Button("Save (s)", id="save", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            await self.action_save()
            return
        self.dismiss(event.button.id or "quit")

    async def action_save(self) -> None:
        """The app's save dialog, over this screen."""
        await self.app.run_action("app.save")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


__all__ = ["HandEndScreen", "MatchEndScreen", "hand_end_text", "outcome_words", "sheet_lines",
           "winners_words"]
