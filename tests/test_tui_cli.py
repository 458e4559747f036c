"""``rummykit play`` in a real terminal opens the full-screen table; q leaves it (pexpect)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pexpect

TIMEOUT = 60


def test_play_in_a_terminal_opens_the_table_and_saves_on_quit(tmp_path: Path) -> None:
    path = tmp_path / "quit.rummy.json"
    child = pexpect.spawn(sys.executable, ["-m", "rummykit.cli.main", "play", "--seed", "3",
                                           "--bots", "greedy", "--name", "Ann",
                                           "--save", str(path)],
                          encoding="utf-8", timeout=TIMEOUT, dimensions=(36, 120))
    child.expect("Table melds")
    child.expect("Your hand")
    child.send("q")
    child.expect("Leave the game")
    child.send("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = json.loads(path.read_text())
    assert record["players"] == ["Ann", "Bob"]
    assert record["seed"] == 3
