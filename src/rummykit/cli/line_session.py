"""What every line game shares: the match loop (hands until the match ends or you leave),
reading a line (``quit`` leaves), and writing the match record after each hand.

A line game subclasses :class:`LineSession` and provides ``title`` (the first line),
``_play_hand`` (one hand to its end) and ``_show_match_end``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummykit.core.errors import RummyError
from rummykit.core.record import dump, record_of


class Quit(Exception):
    """The player typed quit."""


class LineSession:
    """The loop, the input and the records of a line game (see the module doc)."""

    match: Any  # the family's match (core FamilyMatch)
    players: list[str]
    seed: int
    save_path: str | None
    out: Callable[[str], None]
    ask: Callable[[str], str]
    _saved: tuple[int, int] | None
    unit: str = "hand"  # what one deal of the family is called ("deal" in contract)

    def title(self) -> str:
        """The game's first line: its name, the players, the seed."""
        raise NotImplementedError

    def _play_hand(self) -> None:
        raise NotImplementedError

    def _show_match_end(self) -> None:
        raise NotImplementedError

    def run(self) -> int:
        """Play until the match ends or you leave; returns the exit status."""
        self.out(self.title())
        self.out("Type 'help' for the move notation and the commands.")
        status = 0
        try:
            while not self.match.over:
                self._play_hand()
                self.save()
                if not self.match.over:
                    self._read(f"Press Enter for the next {self.unit} (or type quit). ")
            self._show_match_end()
        except Quit:
            self.out("You left the game.")
        except EOFError:
            self.out("")
            self.out("End of input: leaving the game.")
        except KeyboardInterrupt:
            self.out("")
            self.out("Interrupted: leaving the game.")
            status = 130
        self.save()
        return status

    def _read(self, prompt: str) -> str:
        line = self.ask(prompt).strip()
        if line.lower() in ("quit", "exit"):
            raise Quit
        return line

    def save(self) -> None:
        """Write the match record to the --save file, if any and if anything changed."""
        if self.save_path is None:
            return
        mark = (len(self.match.hands), len(self.match.hands[-1].moves) if self.match.hands else 0)
        if mark == self._saved:
            return
        if self.write(self.save_path):
            self._saved = mark

    def write(self, path: str) -> bool:
        """Write the match record to ``path``; False (and why, said) when it failed."""
        try:
            dump(record_of(self.match), path)
        except (OSError, RummyError) as error:
            self.out(f"Could not save the match to {path}: {error}")
            return False
        self.out(f"Saved the match record to {path}.")
        return True
