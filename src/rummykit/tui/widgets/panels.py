"""Text panels beside the table: the score sheet, the move log and the action bar."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button


class ScoreSheet(Widget):
    """Points per finished hand, the totals and the goal."""

    names: reactive[tuple[str, ...]] = reactive((), layout=True)
    rows: reactive[tuple[tuple[int, ...], ...]] = reactive((), layout=True)
    totals: reactive[tuple[int, ...]] = reactive((), layout=True)
    goal: reactive[str] = reactive("", layout=True)

    def render(self) -> RenderableType:
        return Text("\n").join(sheet_lines(self.names, self.rows, self.totals, self.goal))


def sheet_lines(names: tuple[str, ...], rows: tuple[tuple[int, ...], ...],
                totals: tuple[int, ...], goal: str) -> list[Text]:
    """The score sheet as lines: a column per player, a row per hand, then the totals."""
    width = max([5, *(min(len(n), 8) for n in names)])
    head = Text("Scores", style="bold underline")
    if goal:
        head.append(f"  ({goal})", style="dim")
    lines = [head, Text("     " + " ".join(f"{n[:8]:>{width}}" for n in names), style="bold")]
    for number, row in enumerate(rows, 1):
        lines.append(Text(f"{number:>3}. " + " ".join(f"{p:>{width}}" for p in row)))
    lines.append(Text("sum: " + " ".join(f"{t:>{width}}" for t in totals), style="bold"))
    return lines


class MoveLog(Widget):
    """The newest lines of the move log that fit, oldest first."""

    lines: reactive[tuple[str, ...]] = reactive(())

    def render(self) -> RenderableType:
        text = Text("Moves", style="bold underline")
        room = max(1, self.size.height - 1)
        width = max(10, self.size.width)
        wrapped = [part for line in self.lines[-room:]
                   for part in textwrap.wrap(line, width, subsequent_indent="  ")]
        for line in wrapped[-room:]:
            text.append("\n" + line)
        return text


class ActionBar(Grid):
    """One button per move offered now (legal moves only), in rows of a few buttons."""

    entries: reactive[tuple[tuple[Any, str], ...]] = reactive((), recompose=True)  # a
    # family's moves: core Moves, or gin's

    class Chosen(Message):
        """The button of ``move`` was pressed."""

        def __init__(self, move: Any) -> None:
            self.move = move
            super().__init__()

    def compose(self) -> ComposeResult:
        for index, (_, text) in enumerate(self.entries):
            yield Button(text, id=f"action-{index}", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id and event.button.id.startswith("action-"):
            self.post_message(self.Chosen(self.entries[int(event.button.id[7:])][0]))
