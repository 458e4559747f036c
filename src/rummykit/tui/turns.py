"""What every table screen shares: the bots' turns (each thought out in a thread so the
screen stays responsive), the layout for the terminal's size, the cursor and selection in
your hand, the command box, messages, hints and the match's end.

A table screen subclasses :class:`TableBase`, keeps its game in ``game`` (with
:class:`TurnGame`) and provides ``cards`` (your hand in display order), ``show`` (redraw
from your view), ``attempt`` (try your move) and ``end_hand``; its compose has a
:class:`HandView`, an :class:`ActionBar` and an ``Input`` with id ``command``.
"""

from __future__ import annotations

from typing import Any, Protocol

from rich.text import Text
from textual import work
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input

from rummykit.core.cards import Card
from rummykit.core.moves import Draw, Take
from rummykit.display.faces import faces_in
from rummykit.tui.actions import SORTS
from rummykit.tui.screens.dialogs import TextScreen
from rummykit.tui.widgets import ActionBar, HandView

#: below this width or height a table uses its compact layout (one-line cards); 80x24 is
#: fully playable in it
COMPACT_WIDTH = 110
COMPACT_HEIGHT = 34

#: the keys every table binds first: help, the cursor, selecting
FIRST_KEYS: list[BindingType] = [
    Binding("question_mark", "help", "Help"),
    Binding("left", "cursor(-1)", "Left", show=False),
    Binding("right", "cursor(1)", "Right", show=False),
    Binding("space", "select", "Select"),
    Binding("escape", "clear", "Clear", show=False),
]
#: the number keys: lay the selected cards on the table's meld N
LAY_ON_KEYS: list[BindingType] = [
    Binding(str(n), f"lay({n})", f"Lay on {n}", show=False) for n in range(1, 10)]
#: the keys every table binds last: the command box and the hint
LAST_KEYS: list[BindingType] = [
    # checked before the key reaches the focused widget, so the focus has moved before the
    # next key is handed out: ":draw" typed at once all lands in the box
    Binding("colon", "command", "Command", priority=True),
    Binding("h", "hint", "Hint"),
]


class TurnGame(Protocol):
    """What a table needs of its game besides what it draws."""

    @property
    def hand_over(self) -> bool: ...

    @property
    def bot_to_move(self) -> int | None: ...

    def mark(self) -> tuple[int, int]: ...

    def view(self) -> Any: ...

    def bot_choice(self) -> tuple[int, Any]: ...

    def bot_play(self, seat: int, move: Any) -> None: ...

    def hint_lines(self, level: str) -> list[str]: ...


class TableBase(Screen[None]):
    """A table screen's shared behaviour (see the module doc)."""

    game: TurnGame
    bot_delay: float
    hint_level: str
    busy: bool  # a bot or the hint search is thinking
    message: Text
    selected: frozenset[int]
    cursor: int
    fresh: list[Card]  # the cards you drew or took this turn
    sort: str  # the hand's order, one of SORTS

    def __init__(self, game: TurnGame, *, bot_delay: float = 0.6,
                 hint_level: str = "expert") -> None:
        super().__init__()
        self.game = game
        self.bot_delay = bot_delay
        self.hint_level = hint_level
        self.sort = SORTS[0]
        self.selected = frozenset()
        self.cursor = 0
        self.busy = False
        self.message = Text("")
        self.fresh = []

    def cards(self) -> list[Card]:
        """Your cards in display order (the screen's own)."""
        raise NotImplementedError

    def show(self) -> None:
        """Set every widget from your view (the screen's own)."""
        raise NotImplementedError

    def attempt(self, move: Any) -> bool:
        """Try your move (the screen's own)."""
        raise NotImplementedError

    def end_hand(self) -> None:
        """The hand has ended: the screen shows it and deals on."""
        raise NotImplementedError

    # -- layout and messages ----------------------------------------------------------
    def on_mount(self) -> None:
        self.fit_layout()
        self.show()
        self.advance()

    def on_resize(self) -> None:
        self.fit_layout()

    def fit_layout(self) -> None:
        """Use the compact layout on a small terminal (80x24 and up stay playable)."""
        width, height = self.app.size
        compact = width < COMPACT_WIDTH or height < COMPACT_HEIGHT
        self.set_class(compact, "-compact")
        self.app.set_class(compact, "-compact")
        self.query_one(HandView).compact = compact

    def say(self, text: str, *, error: bool = False) -> None:
        """Show a one-line message under your hand."""
        self.message = Text(faces_in(text), style="bold red" if error else "")
        if self.is_mounted:  # else on_mount shows it
            self.show()

    # -- your hand, the buttons, the command box -------------------------------------------
    def on_hand_view_card_clicked(self, event: HandView.CardClicked) -> None:
        self.cursor = event.index
        self.action_select()

    def on_action_bar_chosen(self, event: ActionBar.Chosen) -> None:
        self.attempt(event.move)

    def action_cursor(self, step: int) -> None:
        count = len(self.cards())
        if count:
            self.cursor = (self.cursor + step) % count
            self.show()

    def action_select(self) -> None:
        if not self.cards():
            return
        self.selected = self.selected ^ {self.cursor}
        self.show()

    def action_clear(self) -> None:
        if isinstance(self.focused, Input):
            self.set_focus(self.query_one(HandView))
            return
        self.selected = frozenset()
        self.message = Text("")
        self.show()

    def action_draw(self) -> None:
        self.attempt(Draw())

    def action_take(self) -> None:
        self.attempt(Take())

    def action_command(self) -> None:
        if isinstance(self.focused, Input):
            raise SkipAction()  # a colon typed in a box is text ("knock 5♣: …")
        self.set_focus(self.query_one("#command", Input))

    # -- the bots' turns ----------------------------------------------------------------
    def restart(self) -> None:
        """A new game at this table (``game`` already set): a clean hand, the bots go on."""
        self.busy = False
        self.selected = frozenset()
        self.fresh = []
        self.message = Text("")
        self.show()
        self.advance()

    def advance(self) -> None:
        """After a change: let the bots move, or end the hand."""
        game = self.game
        if game.hand_over:
            self.end_hand()
        elif game.bot_to_move is not None and not self.busy:
            self.busy = True
            if self.bot_delay > 0:
                self.set_timer(self.bot_delay, self.bot_turn)
            else:
                self.call_later(self.bot_turn)

    def bot_turn(self) -> None:
        """Start the bot to move thinking (in a thread, so the table stays responsive)."""
        self.think(self.game)

    @work(thread=True, group="bot")
    def think(self, game: TurnGame) -> None:
        """Find the bot's move away from the screen's thread, then make it there."""
        mark = game.mark()
        seat, move = game.bot_choice()
        self.app.call_from_thread(self.bot_moved, game, mark, seat, move)

    def bot_moved(self, game: TurnGame, mark: tuple[int, int], seat: int, move: Any) -> None:
        """Make the bot's move, unless the game moved on meanwhile (a new game, a load)."""
        if game is not self.game or game.mark() != mark:
            return
        self.busy = False
        if self.message.plain.startswith("Please wait"):
            self.message = Text("")
        game.bot_play(seat, move)
        self.show()
        self.advance()

    # -- hints and the match's end ------------------------------------------------------
    def action_hint(self) -> None:
        seen = self.game.view()
        if seen.result is not None or seen.to_move != seen.seat or self.busy:
            self.say("A hint is for your own turn.", error=True)
            return
        self.busy = True
        self.say(f"Thinking (level {self.hint_level})...")
        self.find_hint(self.game)

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(self, game: TurnGame) -> None:
        """Ask the search bot in a thread; show its advice when done."""
        lines = game.hint_lines(self.hint_level)
        self.app.call_from_thread(self.hint_found, game, lines)

    def hint_found(self, game: TurnGame, lines: list[str]) -> None:
        """Show the advice (unless a new game replaced this one), cards as faces."""
        if game is not self.game:
            return
        self.busy = False
        self.say("")
        self.app.push_screen(TextScreen("Hint", faces_in("\n".join(lines))))

    async def after_match(self, choice: str | None) -> None:
        """Rematch, new game or quit, as chosen on the match-end screen."""
        if choice == "rematch":
            await self.app.run_action("app.rematch_now")
        elif choice == "new":
            await self.app.run_action("app.new_game")
        else:
            await self.app.run_action("app.leave_now")
