"""The Textual app of ``rummykit play``: the table screen plus its dialogs.

Each game keeps its own record file (``Game.record_path``): the ``--save`` file for the
first game, the file a ctrl+s saved to or a ctrl+o loaded from, and for a later new game
a fresh name beside the ``--save`` file (``game-2.rummy.json``), so that the autosave
never writes one match over another. Leaving, a new game and loading ask first while a
match is under way.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from rummykit.core.errors import RummyError
from rummykit.tui.game import Setup
from rummykit.tui.games import AnyGame, game_for, load_game
from rummykit.tui.gin_game import GinGame
from rummykit.tui.screens.dialogs import ConfirmScreen, PathScreen
from rummykit.tui.screens.gin_table import GinTableScreen
from rummykit.tui.screens.new_game import NewGameScreen
from rummykit.tui.screens.table import TableScreen

AnyTable = TableScreen | GinTableScreen


def fresh_path(path: str, taken: set[str]) -> str:
    """``path`` unless taken, else the first ``NAME-2.rummy.json``, ``-3`` ... that is
    neither taken nor an existing file."""
    if path not in taken:
        return path
    head, dot, tail = Path(path).name.partition(".")
    for number in range(2, 10_000):
        candidate = str(Path(path).with_name(f"{head}-{number}{dot}{tail}"))
        if candidate not in taken and not Path(candidate).exists():
            return candidate
    raise RummyError(f"no free file name beside {path!r}")  # pragma: no cover


class RummyApp(App[None]):
    """A match against bots in the terminal; without a setup it opens the new-game dialog."""

    CSS_PATH = "rummy.tcss"
    TITLE = "rummykit"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", "New"),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+o", "load", "Load"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, setup: Setup | None = None, *, bot_delay: float = 0.6,
                 save_path: str | None = None, hint_level: str = "expert",
                 load_path: str | None = None, autosave: bool = False) -> None:
        super().__init__()
        self.autosave = autosave and save_path is not None
        self.setup = setup
        self.bot_delay = bot_delay
        self.save_path = save_path
        self.hint_level = hint_level
        self.load_path = load_path
        self.table: AnyTable | None = None
        self.paths_used: set[str] = set()  # record files of this session's games

    def on_mount(self) -> None:
        if self.load_path is not None:
            self.load(self.load_path)
        elif self.setup is not None:
            self.open_table(game_for(self.setup))
        else:
            self.new_game()

    def open_table(self, game: AnyGame) -> None:
        """Play ``game`` on the table screen of its kind (with ``--save``: in its own record
        file)."""
        if game.record_path is None and self.save_path is not None:
            game.record_path = fresh_path(self.save_path, self.paths_used)
        if game.record_path is not None:
            self.paths_used.add(game.record_path)
        table = self.table
        if isinstance(table, TableScreen) and not isinstance(game, GinGame):
            table.new_game(game)  # (two branches: each narrows the table and the game)
        elif isinstance(table, GinTableScreen) and isinstance(game, GinGame):
            table.new_game(game)
        else:
            table = (GinTableScreen(game, bot_delay=self.bot_delay, hint_level=self.hint_level)
                     if isinstance(game, GinGame)
                     else TableScreen(game, bot_delay=self.bot_delay, hint_level=self.hint_level))
            if self.table is None:
                self.push_screen(table)
            else:
                self.switch_screen(table)
            self.table = table
        if self.autosave and game.record_path is not None:
            self.save_quietly()
            if table.message.plain.startswith("Could not save"):
                return
            table.say(f"This match is saved to {game.record_path} after every hand "
                           "and when you leave.")

    def under_way(self) -> bool:
        """True while a match is being played (leaving it needs a yes)."""
        return self.table is not None and not self.table.game.match.over

    def confirmed(self, question: str, detail: str, then: Callable[[], None]) -> None:
        """Run ``then()`` now if no match is under way, else after a yes to ``question``."""
        if not self.under_way():
            then()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.push_screen(ConfirmScreen(question, detail), answered)

    def saved_words(self) -> str:
        """What happens to the match's record when you leave it."""
        path = self.table.game.record_path if self.table is not None else None
        if self.autosave and path is not None:
            return f"The match so far is saved to {path}."
        return "The match is not saved (ctrl+s saves it)."

    def action_new_game(self) -> None:
        """Ask for a new game's setup and start it (Escape keeps the current game)."""
        self.confirmed("Leave this match for a new game?", self.saved_words(), self.new_game)

    def new_game(self) -> None:
        """The new-game dialog, then the game it sets up."""
        name = self.table.game.names[0] if self.table is not None else "You"
        self.save_quietly()

        def chosen(setup: Setup | None) -> None:
            if setup is not None:
                self.open_table(game_for(setup))
            elif self.table is None:
                self.exit()

        self.push_screen(NewGameScreen(name), chosen)

    def rematch(self) -> None:
        """The same players, rules and bots again, with a new deal (a new seed)."""
        if self.table is None:
            return
        setup = dataclasses.replace(self.table.game.setup,
                                    seed=random.SystemRandom().randrange(1, 10**9))
        self.open_table(game_for(setup))

    def action_rematch_now(self) -> None:
        self.rematch()

    def action_leave_now(self) -> None:
        self.leave()

    def on_table_screen_hand_ended(self) -> None:
        self.save_quietly()

    def on_gin_table_screen_hand_ended(self) -> None:
        self.save_quietly()

    def save_quietly(self) -> bool:
        """Save to the game's record file when autosaving; False if that failed (the
        reason is shown on the table)."""
        game = self.table.game if self.table is not None else None
        if not self.autosave or game is None or game.record_path is None:
            return True
        try:
            game.save(game.record_path, logged=False)
        except (OSError, RummyError) as error:
            assert self.table is not None
            self.table.say(f"Could not save to {game.record_path}: {error}", error=True)
            return False
        return True

    async def action_quit(self) -> None:
        """Save (with ``--save``) and leave, after a yes while a match is under way."""
        self.confirmed("Leave the game?", self.saved_words(), self.leave)

    def leave(self) -> None:
        """Save (with ``--save``) and exit; a failed save is reported in the terminal."""
        if self.save_quietly():
            self.exit()
            return
        assert self.table is not None
        self.exit(return_code=1, message=f"rummykit: {self.table.message.plain}")

    def action_save(self) -> None:
        """Save the match as a record (asks for the file name)."""
        if self.table is None:
            return
        table = self.table
        game = table.game
        default = game.record_path or f"rummykit-{game.setup.seed}.rummy.json"

        def chosen(path: str | None) -> None:
            if path is None:
                return
            try:
                game.save(path)
            except (OSError, RummyError) as error:
                table.say(f"Could not save to {path}: {error}", error=True)
                return
            game.record_path = path
            self.paths_used.add(path)
            table.say(f"Saved the match record to {path}.")

        self.push_screen(PathScreen("Save the match as a record", default), chosen)

    def action_load(self) -> None:
        """Load a match record and go on playing it (asks for the file name)."""
        def chosen(path: str | None) -> None:
            if path is not None:
                self.load(path)

        def ask() -> None:
            start = self.table.game.record_path if self.table is not None else None
            self.push_screen(PathScreen("Load a match record", start or ""), chosen)

        self.confirmed("Load a record in place of this match?", self.saved_words(), ask)

    def load(self, path: str) -> None:
        """Go on with the match of the record at ``path``."""
        bots = self.setup.bots[0] if self.setup and self.setup.bots else "medium"
        try:
            game = load_game(Path(path), bots)
        except (OSError, RummyError) as error:
            if self.table is None:
                self.exit(return_code=1, message=f"rummykit: {error}")
            else:
                self.table.say(str(error), error=True)
            return
        if self.table is not None:
            self.save_quietly()
        game.record_path = path
        self.open_table(game)
