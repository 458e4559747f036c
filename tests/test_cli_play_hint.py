"""``hint`` in ``rummykit play`` and bots chosen by level (pexpect, fast search levels)."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from cli_helpers import PROMPT, command, legal_moves, shown_hand, spawn
from rummykit.bots.hints import HINT_LEVELS
from rummykit.cli.main import app
from rummykit.cli.play import PlaySession
from rummykit.variants import BASIC


def test_hint_advises_and_the_game_goes_on() -> None:
    child = spawn("--seed", "7", "--bots", "greedy", "--name", "Ann")
    child.expect_exact(PROMPT)
    before = command(child, "hand")
    moves = legal_moves(child)
    advice = command(child, "hint medium")
    assert "Thinking (level medium)..." in advice
    found = re.search(r"Recommended: (.+?)\r?\n", advice)
    assert found, advice
    best = found.group(1).strip()
    assert best in moves
    assert "Best arrangement: " in advice and "win  points/hand" in advice
    assert command(child, "hand") == before  # a hint changes nothing
    assert legal_moves(child) == moves
    child.sendline(best)
    child.expect_exact(PROMPT)
    after = str(child.before)
    assert "nothing changed" not in after, after
    assert re.search(r"You (took|:)", after), after
    child.sendline("quit")
    child.expect("You left the game.")


def test_help_lists_hint_and_a_bad_level_is_explained() -> None:
    child = spawn("--seed", "3", "--bots", "greedy")
    child.expect_exact(PROMPT)
    assert "hint    the search bot's advice" in command(child, "help")
    answer = command(child, "hint grandmaster")
    assert "Type 'hint' or 'hint LEVEL' with a level of " + ", ".join(HINT_LEVELS) in answer
    hand = shown_hand(command(child, "hand"))
    assert hand
    child.sendline("quit")
    child.expect("You left the game.")


def test_bots_by_level() -> None:
    lines: list[str] = []
    answers = iter(["quit"])
    session = PlaySession(BASIC, "Ann", ["easy", "greedy"], seed=5, out=lines.append,
                          ask=lambda prompt: next(answers))
    assert session.run() == 0
    assert lines[0] == "Basic Rummy, 3 players: Ann, Bob, Cy. Seed 5."
    result = CliRunner().invoke(app, ["play", "--bots", "easy,random", "--players", "3",
                                      "--seed", "1"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "You left the game." in result.output
    bad = CliRunner().invoke(app, ["play", "--bots", "grandmaster"], input="")
    assert bad.exit_code == 2 and "unknown bot 'grandmaster'" in bad.stderr
