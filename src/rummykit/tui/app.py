"""The Textual app of ``rummykit play``: the table screen plus its dialogs."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from rummykit.errors import RummyError
from rummykit.tui.game import Game, Setup
from rummykit.tui.screens.dialogs import PathScreen
from rummykit.tui.screens.new_game import NewGameScreen
from rummykit.tui.screens.table import TableScreen


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
        self.table: TableScreen | None = None

    def on_mount(self) -> None:
        if self.load_path is not None:
            self.load(self.load_path)
        elif self.setup is not None:
            self.open_table(Game(self.setup))
        else:
            self.action_new_game()

    def open_table(self, game: Game) -> None:
        """Play ``game`` on the table screen."""
        if self.table is None:
            self.table = TableScreen(game, bot_delay=self.bot_delay, hint_level=self.hint_level)
            self.push_screen(self.table)
        else:
            self.table.new_game(game)

    def action_new_game(self) -> None:
        """Ask for a new game's setup and start it (Escape keeps the current game)."""
        name = self.table.game.names[0] if self.table is not None else "You"

        def chosen(setup: Setup | None) -> None:
            if setup is not None:
                self.open_table(Game(setup))
            elif self.table is None:
                self.exit()

        self.push_screen(NewGameScreen(name), chosen)

    def on_table_screen_hand_ended(self) -> None:
        self.save_quietly()

    def save_quietly(self) -> None:
        """Save to the ``--save`` file, when one was given."""
        if self.autosave and self.table is not None and self.save_path is not None:
            try:
                self.table.game.save(self.save_path)
            except (OSError, RummyError) as error:
                self.table.say(f"Could not save to {self.save_path}: {error}", error=True)

    async def action_quit(self) -> None:
        """Save (with ``--save``) and leave."""
        self.save_quietly()
        self.exit()

    def action_save(self) -> None:
        """Save the match as a record (asks for the file name)."""
        if self.table is None:
            return
        table = self.table
        default = self.save_path or f"rummykit-{table.game.setup.seed}.rummy.json"

        def chosen(path: str | None) -> None:
            if path is None:
                return
            try:
                table.game.save(path)
            except (OSError, RummyError) as error:
                table.say(f"Could not save to {path}: {error}", error=True)
                return
            self.save_path = path
            table.say(f"Saved the match record to {path}.")

        self.push_screen(PathScreen("Save the match as a record", default), chosen)

    def action_load(self) -> None:
        """Load a match record and go on playing it (asks for the file name)."""
        def chosen(path: str | None) -> None:
            if path is not None:
                self.load(path)

        self.push_screen(PathScreen("Load a match record", self.save_path or ""), chosen)

    def load(self, path: str) -> None:
        """Go on with the match of the record at ``path``."""
        bots = self.setup.bots[0] if self.setup and self.setup.bots else "medium"
        try:
            game = Game.load(Path(path), bots)
        except (OSError, RummyError) as error:
            if self.table is None:
                self.exit(message=f"rummykit: {error}")
            else:
                self.table.say(str(error), error=True)
            return
        self.save_path = path
        self.open_table(game)
