"""What every table screen does between your moves: the bots' turns, each thought out in
a thread so the screen stays responsive, and the end of each hand.

A table screen subclasses :class:`BotTurns`, keeps its game in ``game`` (with
:class:`TurnGame`), and provides ``show`` (redraw from your view) and ``end_hand``.
"""

from __future__ import annotations

from typing import Any, Protocol

from rich.text import Text
from textual import work
from textual.screen import Screen


class TurnGame(Protocol):
    """What the bots' turns need of a game."""

    @property
    def hand_over(self) -> bool: ...

    @property
    def bot_to_move(self) -> int | None: ...

    def mark(self) -> tuple[int, int]: ...

    def bot_choice(self) -> tuple[int, Any]: ...

    def bot_play(self, seat: int, move: Any) -> None: ...


class BotTurns(Screen[None]):
    """A table screen's bot turns (``bot_delay`` seconds before each move)."""

    game: TurnGame
    bot_delay: float
    busy: bool  # a bot or the hint search is thinking
    message: Text

    def show(self) -> None:
        """Set every widget from your view (the screen's own)."""
        raise NotImplementedError

    def end_hand(self) -> None:
        """The hand has ended: the screen shows it and deals on."""
        raise NotImplementedError

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
