"""``rummykit play`` end to end: a real pseudo-terminal, typing as a user would (pexpect)."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from cli_helpers import PROMPT, TIMEOUT, command, legal_moves, shown_hand, spawn
from rummykit.bots import make_bot
from rummykit.cli.main import app
from rummykit.cli.play import PlaySession
from rummykit.core.cards import card_points, parse_card
from rummykit.core.rules import Rules
from rummykit.core.views import view


def first_prompt(child: pexpect.spawn) -> str:
    """Wait for our first turn; returns everything shown before it."""
    child.expect_exact(PROMPT)
    return str(child.before)


def choose(moves: list[str]) -> str:
    """A simple policy: meld, lay off, draw, else discard the highest card."""
    for keyword in ("meld", "lay", "draw", "take"):
        for move in moves:
            if move.startswith(keyword):
                return move
    discards = [m for m in moves if m.startswith("discard")]
    return max(discards, key=lambda m: card_points(parse_card(m.split()[1]), 1))


def test_whole_hand_is_played_to_its_end(tmp_path: Path) -> None:
    path = tmp_path / "hand.rummy.json"
    child = spawn("--seed", "7", "--bots", "greedy", "--name", "Ann",
                  "--option", "target_score=1000", "--save", str(path))
    seen = first_prompt(child)
    assert "=== Hand 1 - dealer: " in seen
    assert len(shown_hand(seen)) in (10, 11)
    for _ in range(1000):
        moves = legal_moves(child)
        assert moves
        child.sendline(choose(moves))
        which = child.expect_exact([PROMPT, "Press Enter for the next hand"])
        if which == 1:
            break
    else:  # pragma: no cover - a hand of basic rummy against greedy never lasts this long
        pytest.fail("the hand did not end")
    account = str(child.before)
    over = re.search(r"=== Hand 1 over: (.*) ===", account)
    assert over, account
    # every hand is revealed, with its points, then the hand's points and the totals
    assert re.search(r"\n  Ann: (no cards left|[A-Z0-9 ]+ \(\d+ points\))", account)
    assert re.search(r"\n  Bob: (no cards left|[A-Z0-9 ]+ \(\d+ points\))", account)
    assert re.search(r"Points this hand: Ann \d+, Bob \d+", account)
    assert re.search(r"Scores: Ann \d+, Bob \d+", account)
    assert f"Saved the match record to {path}" in account
    replayed = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "replay", str(path), "--json", "--check"],
        capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )
    assert replayed.returncode == 0, replayed.stdout
    hand = json.loads(replayed.stdout)["hands"][0]
    points = re.search(r"Points this hand: Ann (\d+), Bob (\d+)", account)
    assert points
    assert hand["scores"] == [int(points.group(1)), int(points.group(2))]
    assert hand["result"] != "unfinished"
    child.sendline("")  # deal the next hand
    child.expect("=== Hand 2 - dealer: ")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect("You left the game.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_mistyped_and_illegal_input_changes_nothing() -> None:
    child = spawn("--seed", "3")
    hand = shown_hand(first_prompt(child))
    assert command(child, "help").count("discard SK") == 1
    assert "bad move 'dicsard H3': unknown keyword 'dicsard'" in command(child, "dicsard H3")
    assert "bad card 'X1'" in command(child, "discard X1")
    assert "you must draw first" in command(child, f"discard {hand[0]}")
    assert shown_hand(command(child, "hand")) == hand
    # take the discard top, then try to discard it at once
    moves = legal_moves(child)
    assert moves == ["draw", "take"]
    taken = re.search(r"You took (\w\w) from the discard pile", command(child, "TAKE"))
    assert taken
    card = taken.group(1)
    after_take = shown_hand(command(child, "hand"))
    assert sorted(after_take) == sorted([*hand, card])
    refused = command(child, f"discard {card.lower()}")
    assert f"cannot discard {card}: it was taken from the discard pile this turn" in refused
    missing = next(c for c in ("C2", "D7", "HK", "SA", "H5") if c not in after_take)
    assert f"cannot discard {missing}: {missing} is not in your hand" in command(
        child, f"discard {missing}")
    assert "you have already drawn this turn" in command(child, "draw")
    assert "there is no meld 9" in command(child, f"lay {after_take[0]} on 9")
    assert shown_hand(command(child, "hand")) == after_take
    assert f"discard {card}" not in legal_moves(child)
    score = command(child, "score")
    assert re.search(r"Scores: You 0, Bob 0 +\(first to 150 wins; hands played: 0\)", score)
    table = command(child, "table")
    assert "Stock:" in table and "Bob:" in table
    # a legal discard ends the turn and the bot plays at once
    child.sendline(f"discard {next(c for c in after_take if c != card)}")
    child.expect(r"Bob: (draw|take \w\w)")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_quit_saves_a_record(tmp_path: Path) -> None:
    path = tmp_path / "game.rummy.json"
    child = spawn("--seed", "5", "--players", "3", "--bots", "greedy,random",
                  "--save", str(path), "--option", "ace_mode=high_or_low")
    assert "Basic Rummy, 3 players: You, Bob, Cy. Seed 5." in child.before
    first_prompt(child)
    command(child, "draw")
    child.sendline("quit")
    child.expect("Saved the match record to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "rummykit/1"
    assert data["players"] == ["You", "Bob", "Cy"]
    assert data["options"] == {"ace_mode": "high_or_low"}
    assert data["hands"][0]["moves"][-1] == "draw"


def test_end_of_input_exits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "eof.rummy.json"
    run = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "play", "--seed", "1", "--save", str(path)],
        input="draw\n", capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "End of input: leaving the game." in run.stdout
    assert "Traceback" not in run.stderr
    if "Saved the match record" in run.stdout:
        assert json.loads(path.read_text(encoding="utf-8"))["format"] == "rummykit/1"


def test_a_discard_that_meets_the_turn_limit_is_not_going_out() -> None:
    """The bot's discard ends the hand by the turn limit (aborted): the log must not say
    that the bot went out (it did once, because any ended hand was read as going out)."""
    run = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "play", "--players", "2", "--bots", "greedy",
         "--seed", "3", "--plain", "--option", "max_turns_per_hand=1"],
        input="quit\ny\nquit\ny\n", capture_output=True, text=True, timeout=TIMEOUT,
        check=False,
    )
    assert "aborted (turn limit reached)" in run.stdout, run.stdout
    discard = next(line for line in run.stdout.splitlines() if line.startswith("Bob: discard"))
    assert "goes out" not in discard


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "9 players: basic is for 2 to 6 players"),
        (["--rules", "poker"], "unknown rule set 'poker'"),
        (["--rules", "traditional", "--players", "5"], "traditional is for 2 to 4 players"),
        (["--option", "ace_mode"], "bad --option 'ace_mode': expected KEY=VALUE"),
        (["--option", "ace_mode=sideways"], "option 'ace_mode': expected one of"),
        (["--option", "colour=blue"], "unknown option 'colour'"),
        (["--bots", "greedy,smart"], "unknown bot 'smart'"),
        (["--players", "3", "--bots", "greedy,random,random"], "names 3 bots for 2 bot seats"),
        (["--save", "/no/such/folder/x.json"], "does not exist"),
    ],
)
def test_bad_arguments_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["play", *args], input="")
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_bad_arguments_in_a_real_process() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "play", "--option", "ace_mode=sideways"],
        input="", capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == ("rummykit: error: option 'ace_mode': expected one of 'low', "
                          "'high_or_low', got 'sideways'\n")


def test_session_never_shows_a_hidden_card() -> None:
    """In-process: no line printed during a hand names a card a bot holds unseen."""
    leaks: list[str] = []
    hands_seen: list[int] = []
    pending: list[str] = []
    greedy, rng = make_bot("greedy"), random.Random(0)

    def out(text: str) -> None:
        state = session.match.state
        if state is None or state.is_over:
            return
        hidden = 0
        for seat in range(1, state.num_players):
            hidden |= state.hands[seat] & ~state.known[seat]
        for token in re.findall(r"\b[CDHS][A2-9TJQK]\b", text):
            if hidden >> parse_card(token) & 1:
                leaks.append(text)

    def ask(prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            hands_seen.append(1)
            return "quit" if len(hands_seen) == 3 else ""
        if not pending:
            state = session.match.state
            assert state is not None
            pending.extend(["table", "moves", str(greedy.choose(view(state, 0), rng))])
        return pending.pop(0)

    rules = Rules.from_options("basic", {"target_score": 1000})
    session = PlaySession(rules, "Ann", ["greedy", "random"], seed=21, out=out, ask=ask)
    assert session.run() == 0
    assert len(hands_seen) == 3 or session.match.over
    assert leaks == []


def test_the_match_end_does_not_print_the_sheet_again() -> None:
    """The last hand's end prints the sheet; "Match over" follows it, not a second copy."""
    lines: list[str] = []
    greedy, rng = make_bot("greedy"), random.Random(0)

    def ask(prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            return ""
        state = session.match.state
        assert state is not None
        return str(greedy.choose(view(state, 0), rng))

    rules = Rules.from_options("basic", {"target_score": 1})  # one hand ends the match
    session = PlaySession(rules, "Ann", ["greedy", "greedy"], seed=4, out=lines.append, ask=ask)
    assert session.run() == 0 and session.match.over
    text = "\n".join(lines)
    end = text.index("=== Match over")
    assert text.count("Scores: ", text.index("=== Hand 1 over"), end) == 1
    assert "Scores: " not in text[end:]
