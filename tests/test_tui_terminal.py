"""``rummykit play`` in a real terminal (tmux: a pseudo-terminal and the screen it shows),
at 80x24 and 129x40: the whole hand, the buttons and the command box are on screen, the
command box keeps the keys it is typed, quitting asks first, and the record is saved."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# Skipped without tmux, except where RUMMYKIT_REQUIRE_TMUX is set (CI): there a missing
# tmux fails the tests.
pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None and not os.environ.get("RUMMYKIT_REQUIRE_TMUX"),
    reason="needs tmux (apt-get install tmux)")

TIMEOUT = 60.0


class Terminal:
    """A tmux session of a given size on a private server, running one command."""

    def __init__(self, name: str, size: tuple[int, int], command: list[str]) -> None:
        self.socket = name
        width, height = size
        self.tmux("new-session", "-d", "-s", "play", "-x", str(width), "-y", str(height),
                  " ".join(shlex.quote(part) for part in command))

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=TIMEOUT, check=False)
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play")

    def running(self) -> bool:
        return subprocess.run(["tmux", "-L", self.socket, "has-session", "-t", "play"],
                              capture_output=True, check=False).returncode == 0

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "play", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "play", "-l", text)

    def wait(self, text: str) -> str:
        """The screen, once it shows ``text``."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never showed; the screen:\n{self.screen()}")

    def wait_without(self, text: str) -> str:
        """The screen, once ``text`` has left it."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            shown = self.screen()
            if text not in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} stayed; the screen:\n{self.screen()}")

    def wait_gone(self) -> None:
        deadline = time.monotonic() + TIMEOUT
        while self.running() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not self.running(), self.screen()

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       check=False)
        folder = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}"
        (folder / self.socket).unlink(missing_ok=True)





Opener = Callable[..., Terminal]


@pytest.fixture
def terminal_for(tmp_path: Path) -> Iterator[Opener]:
    opened: list[Terminal] = []

    def open_one(size: tuple[int, int], *args: str) -> Terminal:
        name = f"rummykit-test-{os.getpid()}-{tmp_path.name}-{len(opened)}"
        command = ["env", "-u", "COLUMNS", "-u", "LINES", f"HOME={tmp_path}", "TERM=xterm-256color",
                   sys.executable, "-m",
                   "rummykit.cli.main", "play", *args]
        opened.append(Terminal(name, size, command))
        return opened[-1]

    yield open_one
    for terminal in opened:
        terminal.close()


def hand_part(screen: str) -> str:
    """The screen from the hand's title down."""
    return screen[screen.index("Your hand"):]


@pytest.mark.parametrize("size", [(80, 24), (129, 40)], ids=["80x24", "129x40"])
def test_a_turn_in_a_real_terminal(terminal_for: Opener, tmp_path: Path,
                                   size: tuple[int, int]) -> None:
    record = tmp_path / "game.rummy.json"
    term = terminal_for(size, "--seed", "3", "--bots", "greedy", "--name", "Ann",
                        "--save", str(record))
    term.wait("draw from the stock (d)")  # the bot has moved: your turn
    term.keys("d")
    shown = term.wait("Your hand: 11 cards")
    drawn = json.loads(record.read_text())  # saved from the start, before this draw
    assert drawn["players"] == ["Ann", "Bob"]
    hand = hand_part(shown)
    faces = [word for line in hand.splitlines()[1:9] for word in line.replace("│", " ").split()
             if word[-1] in "♣♦♥♠"]
    assert len(faces) >= 11, hand  # every card of the hand is on screen
    assert "new" in hand  # the card just drawn is marked
    assert ": a move" in shown and "? Help" in shown.splitlines()[-1]
    # the command box: a refused move, then keys typed into it stay there
    # ':' and the move in one write, as a fast typist or a paste sends them: the box has
    # the focus before the next key is handed out
    term.type(":draw")
    term.keys("Enter")
    shown = term.wait("already drawn")
    term.type("q:9")  # keys typed into the box stay there, a colon included
    shown = term.wait("q:9")
    assert term.running() and "Leave the game?" not in shown
    term.keys("BSpace", "BSpace", "BSpace", "Escape")
    time.sleep(0.5)
    term.keys("q")
    term.wait("Leave the game?")
    term.keys("n")
    term.wait_without("Leave the game?")
    assert term.running()
    term.keys("q")
    term.wait("Leave the game?")
    term.keys("y")
    term.wait_gone()
    moves = json.loads(record.read_text())["hands"][0]["moves"]
    assert moves[-1] == "draw"  # saved when leaving


def test_the_help_fits_80x24(terminal_for: Opener) -> None:
    term = terminal_for((80, 24), "--seed", "4", "--bots", "greedy",
                        "--rules", "contract", "--players", "3")
    term.wait("Your hand")
    term.keys("?")
    shown = term.wait("Contract Rummy (a match of 7 deals")
    assert "Close (esc)" in shown and "Keys (k)" in shown
    term.keys("k")
    shown = term.wait("How cards are written")
    term.keys("Escape")
    term.wait("Your hand")
