"""Contract Rummy in the CLI: ``play`` in a pseudo-terminal, ``simulate --json``, ``replay``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pexpect
import pytest

from cli_helpers import PROMPT, TIMEOUT, command, legal_moves, shown_hand, spawn
from rummykit.cli.play import PlaySession
from rummykit.core.cards import card_points, parse_card
from rummykit.core.rules import Rules
from rummykit.display.terms import facts_of, facts_words
from rummykit.variants import CONTRACT

NEXT = "Press Enter for the next deal"


def one_set(hand: list[str]) -> list[str] | None:
    """Three cards of one rank in different suits, if the hand holds them."""
    by_rank: dict[str, set[str]] = defaultdict(set)
    for card in hand:
        if card != "JK":
            by_rank[card[1]].add(card)
    for cards in by_rank.values():
        if len(cards) >= 3:
            return sorted(cards)[:3]
    return None


def choose(moves: list[str]) -> str:
    """Go down, lay off, dig, draw; else discard the costliest card."""
    for keyword in ("meld", "lay", "take ", "draw", "take"):
        for move in moves:
            if move.startswith(keyword):
                return move
    discards = [m for m in moves if m.startswith("discard")]
    return max(discards, key=lambda m: card_points(parse_card(m.split()[1]), 15))


def test_contract_words() -> None:
    words = [facts_words(facts_of(CONTRACT, 4, i)) for i in range(7)]  # as the faces ask
    assert words[:6] == ["2 sets", "1 set + 1 run", "2 runs (of different suits)", "3 sets",
                         "2 sets + 1 run", "1 set + 2 runs (of different suits)"]
    assert words[6].startswith("3 runs (of different suits), all cards at once")


def test_a_contract_deal_is_played_through(tmp_path: Path) -> None:
    path = tmp_path / "contract.rummy.json"
    child = spawn("--rules", "contract", "--players", "3", "--bots", "random,random",
                  "--seed", "10", "--option", "max_turns_per_hand=150", "--save", str(path))
    assert "Contract Rummy, 3 players: You, Bob, Cy. Seed 10." in child.before
    child.expect_exact(PROMPT)
    seen = str(child.before)
    assert "=== Deal 1 of 7: 2 sets, 10 cards each - dealer: " in seen
    assert "Deal 1: 2 sets. Down: nobody yet." in seen
    assert "Penalty sheet (lowest total wins after deal 7):" in seen
    assert "You are not down yet: your contract is 2 sets." in seen
    after_draw = command(child, "draw")
    assert "You cannot go down yet (your contract: 2 sets): discard." in after_draw \
        or "You can go down now (your contract: 2 sets; see 'moves'), or discard." in after_draw
    assert "or discard; you cannot" not in after_draw
    help_text = command(child, "help")
    for words in ("Going down", "lay off", "swap H6 on 1", "take 3", "pile"):
        assert words in help_text
    pile = command(child, "pile")
    assert re.search(r"Discard pile, top first \(1 card; .*\):\r?\n  1:\w\w", pile)

    tried_wrong_contract = went_down = dug = False
    duty_shown = False
    for _ in range(3000):
        moves = legal_moves(child)
        assert moves
        in_play = not any(m == "draw" or m.startswith("take") for m in moves)
        if in_play and not tried_wrong_contract and not went_down:
            found = one_set(shown_hand(command(child, "hand")))
            if found:  # a single set is not the deal-1 contract (2 sets)
                refused = command(child, "meld " + " ".join(found))
                assert "the contract of this deal is 2 sets and 0 runs" in refused, refused
                assert "nothing changed" in refused
                assert legal_moves(child) == moves
                tried_wrong_contract = True
        move = choose(moves)
        child.sendline(move)
        which = child.expect_exact([PROMPT, NEXT])
        output = str(child.before)
        if move.startswith("meld"):
            assert "goes down" in output
            went_down = True
        if re.fullmatch(r"take \d+", move):
            dug = True
            dug_card = re.search(r"You dug (\w\w) \(depth \d+\) and took", output)
            assert dug_card
            assert f"You must place {dug_card.group(1)} this turn" in output
            duty_shown = True
        if which == 1:
            break
    else:  # pragma: no cover
        pytest.fail("deal 1 did not end")
    assert tried_wrong_contract
    assert went_down and dug  # seed 10: we dig and go down in deal 1
    account = str(child.before)
    over = re.search(r"=== Deal 1 over: (.*) ===", account)
    assert over, account
    assert re.search(r"Penalty points this deal: You \d+, Bob \d+, Cy \d+", account)
    assert re.search(r"  1 +\d+ +\d+ +\d+\r?\n  total +\d+ +\d+ +\d+", account)
    assert dug == duty_shown
    child.sendline("")
    child.expect_exact("=== Deal 2 of 7: 1 set + 1 run, 10 cards each")
    child.expect_exact(PROMPT)
    table = command(child, "table")
    assert "Deal 2: 1 set + 1 run. Down: nobody yet." in table
    child.sendline("quit")
    child.expect("Saved the match record to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["rules"]) == ("rummykit/1", "contract")
    replayed = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "replay", str(path), "--json", "--check"],
        capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )
    assert replayed.returncode == 0, replayed.stdout
    body = json.loads(replayed.stdout)
    assert body["hands"][0]["result"] in ("win", "draw", "aborted")  # draw: blocked (§4.8.1)
    assert body["hands"][1]["result"] == "unfinished"
    readable = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "replay", str(path)],
        capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )
    assert readable.returncode == 0, readable.stdout
    assert "Deal 1: 2 sets, dealt by " in readable.stdout
    assert "Deal 2: 1 set + 1 run, dealt by " in readable.stdout
    assert "Penalty sheet (lowest total wins)" in readable.stdout
    if went_down:
        assert "(goes down)" in readable.stdout


@pytest.mark.parametrize("players", [3, 5])
def test_simulate_contract_json(players: int) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "simulate", "--rules", "contract",
         "--players", str(players), "--bots", "random", "--games", "1", "--seed", "4",
         "--option", "max_turns_per_hand=30", "--json", "--no-progress"],
        capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )
    assert run.returncode == 0, run.stderr
    stats = json.loads(run.stdout)
    assert stats["rules"] == "contract"
    assert stats["options"] == {"max_turns_per_hand": 30}
    assert stats["players"] == players
    assert (stats["matches"], stats["hands"]) == (1, 7)
    assert len(stats["seats"]) == players
    wins = sum(s["hand_wins"] for s in stats["seats"])
    assert wins + stats["draws"] + stats["aborted"] == 7
    assert stats["turns"] <= 7 * 30
    assert {s["bot"] for s in stats["seats"]} == {"random"}
    assert all(0 <= s["went_down"] <= 7 for s in stats["seats"])
    assert sum(s["match_wins"] for s in stats["seats"]) >= 1  # lowest total wins, ties share


def test_in_process_session_quits_cleanly() -> None:
    lines: list[str] = []
    answers = iter(["pile", "score", "draw", "quit"])
    rules = Rules.from_options("contract", {})
    session = PlaySession(rules, "Ann", ["random", "random", "random"], seed=2,
                          out=lines.append, ask=lambda prompt: next(answers))
    assert session.run() == 0
    text = "\n".join(lines)
    assert "Contract Rummy, 4 players: Ann, Bob, Cy, Dee. Seed 2." in text
    assert "=== Deal 1 of 7: 2 sets, 10 cards each" in text
    assert "You left the game." in text
