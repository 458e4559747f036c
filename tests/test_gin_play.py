"""The gin line game (``rummykit play --rules gin``): driven through its input function,
and in a real pseudo-terminal to the end of a seeded game."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from rummykit.bots.gin_greedy import greedy_gin_move
from rummykit.cli.gin_play import GinPlaySession
from rummykit.core.cards import format_card, parse_card
from rummykit.core.match import FamilyMatch
from rummykit.display.faces import card_face
from rummykit.variants.gin.deadwood import arrangement_mask, mask_value
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import Gin, Knock
from rummykit.variants.gin.rules import GIN, OKLAHOMA, gin_rules_from_options
from rummykit.variants.gin.text import knock_choices
from rummykit.variants.gin.view import gin_view

TIMEOUT = 60


def scripted(rules: object, seed: int, extra: list[str] | None = None,
             **kwargs: object) -> tuple[GinPlaySession, list[str]]:
    """A session whose player types the greedy gin move (after any ``extra`` lines)."""
    lines: list[str] = []
    queue = list(extra or [])
    session: GinPlaySession

    def ask(prompt: str) -> str:
        lines.append(prompt)
        if queue:
            return queue.pop(0)
        if prompt.startswith(("Press", "Choose")):
            return ""
        return str(greedy_gin_move(session._view()))

    session = GinPlaySession(rules, "Ann", ["greedy"], seed=seed,  # type: ignore[arg-type]
                             out=lines.append, ask=ask, **kwargs)  # type: ignore[arg-type]
    return session, lines


@pytest.mark.parametrize("rules", [GIN, OKLAHOMA, gin_rules_from_options(
    "gin", {"hollywood": True, "target_score": 50})], ids=["gin", "oklahoma", "hollywood"])
def test_a_whole_game_is_played_to_its_end(rules: object) -> None:
    session, lines = scripted(rules, 11)
    assert session.run() == 0
    text = "\n".join(lines)
    assert session.match.over
    assert "=== Match over: " in text
    assert "Score sheet" in text and re.search(r"=== Hand \d+ over ===", text)
    winners = session.match.winners
    assert f"=== Match over: {session.players[winners[0]]} wins ===" in text
    if rules.hollywood:
        assert "Hollywood game 3: " in text
        assert "Hollywood, three games to 50:\n  game 1 (playing): Ann 0 (0 boxes)" in text
    else:
        assert re.search(r"boxes Ann \d+ \(\d+\), Bob \d+ \(\d+\)", text)


def test_the_status_shows_the_offer_and_what_may_be_done() -> None:
    for seed in range(20):
        session, lines = scripted(GIN, seed, ["quit"])
        session.run()
        state = session.match.state
        assert state is not None
        if state.phase == "offer" and state.to_move == 0:
            break
    text = "\n".join(lines)
    assert f"The first upcard is {format_card(state.upcard)}: take it (take) or pass (pass)." \
        in text
    assert "Knock limit 10" in text and "Bob: 10 cards" in text
    assert "Game to 100: Ann 0 (0 boxes), Bob 0 (0 boxes)." in text
    assert re.search(r"Your hand: ([CDHS][A2-9TJQK] ){9}[CDHS][A2-9TJQK]\n  \(10 cards; ", text)


def test_bad_input_says_why_and_changes_nothing() -> None:
    inputs = ["knock", "discard ZZ", "lay 10♥ on 9", "99", "meld", "done", "foo bar"]
    session, lines = scripted(GIN, 3)
    queue = [*inputs, "quit"]
    marks: list[tuple[str, list[str]]] = []

    def ask(prompt: str) -> str:
        marks.append((repr(session.match.state), list(session.match.hands[-1].moves)))
        return queue.pop(0)

    session.ask = ask
    session.run()
    text = "\n".join(lines)
    assert len(marks) == len(inputs) + 1 and all(m == marks[0] for m in marks)
    assert "bad move 'knock'" in text
    assert "'ZZ'" in text
    assert "expected a move number 1.." in text
    assert "unknown keyword 'foo'" in text
    assert "(nothing changed" in text


@pytest.mark.parametrize("style", ["face", "ten", "code"])
def test_cards_are_typed_with_10_t_and_symbols(style: str) -> None:
    session, _ = scripted(GIN, 8)
    session.match.start_hand()
    state = session.match.state
    assert state is not None
    while state.phase != "discard" or state.to_move != 0:
        if state.to_move == 0:
            session.match.play("draw" if state.phase == "draw" else "pass")
        else:
            session._bot_move(1)
    card = gin_view(state, 0).hand_cards[-1]
    typed = {"face": card_face(card), "code": format_card(card).lower(),
             "ten": card_face(card)[:-1] + "CDHS"[card // 13].lower()}[style]
    session.ask = lambda prompt: f"discard {typed}"
    assert session._human_action(False)
    assert session.match.hands[-1].moves[-1] == f"discard {format_card(card)}"


MINE = [parse_card(c) for c in ["H6", "H7", "H8", "H9", "C7", "D7", "S7", "SA", "CA", "HA"]]
OTHERS = [c for c in range(52) if c not in MINE and c != parse_card("S2")]
KNOCK_DEAL = ([MINE, OTHERS[:10]], OTHERS[10], [parse_card("S2"), *OTHERS[11:41]])


def knockable() -> tuple[GinHand, int]:
    """Seat 0 to discard S2 with a choice of knocks: gin (H6-H9, the sevens, the aces),
    or H6 loose (H7-H9) or H9 loose (H6-H8)."""
    hand = GinHand.from_deal(GIN, 1, *KNOCK_DEAL)
    for text in ("pass", "pass", "draw"):
        hand.play(text)
    return hand, parse_card("S2")


def test_the_knock_menu_lists_legal_distinct_arrangements() -> None:
    hand, card = knockable()
    seen = gin_view(hand, 0)
    choices = knock_choices(seen, card)
    assert choices[0] in seen.legal  # the implied arrangement first
    masks = set()
    for choice in choices:
        assert isinstance(choice, (Knock, Gin)) and choice.groups is not None
        assert hand.is_legal(choice), choice
        rest = seen.hand & ~(1 << card)
        loose = rest & ~arrangement_mask(choice.groups)
        assert mask_value(loose) <= seen.knock_limit
        masks.add(frozenset(choice.groups))
    assert len(masks) == len(choices) == 3
    assert [isinstance(c, Gin) for c in choices] == [True, False, False]


def test_knock_x_offers_the_menu_and_plays_the_chosen_arrangement() -> None:
    hand, card = knockable()
    seen = gin_view(hand, 0)
    second = knock_choices(seen, card)[1]
    session, lines = scripted(GIN, 1)
    answers = iter([f"knock {format_card(card)}", "2"])
    session.ask = lambda prompt: next(answers)
    session.match = FamilyMatch(GIN, session.players, seed=1, dealer=1)
    session.match.start_hand(deal=KNOCK_DEAL)
    for text in ("pass", "pass", "draw"):
        session.match.play(text)
    assert session._human_action(False)
    hand = session.match.state
    text = "\n".join(lines)
    assert "Arrangements for this knock" in text and "  2. melds " in text
    assert hand.knock_groups == second.groups


def test_save_and_load_resume_the_match(tmp_path: Path) -> None:
    path = tmp_path / "gin.rummy.json"
    session, lines = scripted(GIN, 4, ["draw", "pass", f"save {path}", "quit"])
    session.run()
    assert f"Saved the match record to {path}." in "\n".join(lines)
    record = json.loads(path.read_text())
    assert record["rules"] == "gin"
    moves = list(session.match.hands[-1].moves)
    again, lines2 = scripted(GIN, 99, [f"load {path}", "quit"])
    again.run()
    assert "Loaded " in "\n".join(lines2)
    assert list(again.match.hands[-1].moves) == moves
    assert again.players == session.players
    missing, lines3 = scripted(GIN, 1, [f"load {tmp_path / 'nope.json'}", "quit"])
    missing.run()
    assert "cannot load" in "\n".join(lines3) or "nope.json" in "\n".join(lines3)


def test_hint_advises_a_legal_move_and_changes_nothing() -> None:
    session, lines = scripted(GIN, 5, ["hint medium", "hint wizard", "quit"])
    session.run()
    text = "\n".join(lines)
    state = session.match.state
    assert state is not None
    found = re.search(r"Recommended: (.+)", text)
    assert found, text
    legal = {str(m) for m in gin_view(state, 0).legal}
    assert found.group(1) in legal
    assert "Candidates (level medium" in text
    assert "'hint LEVEL' with a level of easy, medium, hard, expert" in text


def test_the_session_never_shows_the_bots_hidden_cards() -> None:
    session, _lines = scripted(GIN, 6)
    out: list[str] = []
    knocks: list[str] = []

    def watch(line: str) -> None:
        out.append(line)
        state = session.match.state
        if state is None or state.is_over or line.startswith(("=== Hand", "Score sheet")):
            return
        hidden = state.hands[1] & ~state.known[1]
        if state.knocker == 1:  # the knocker's hand is public at the show, not its discard
            hidden = 1 << state.knock_card if state.knock_card >= 0 else 0
            knocks.append(line)
        for code in re.findall(r"\b[CDHS][A2-9TJQK]\b", line):
            assert not hidden >> parse_card(code) & 1, (line, code)

    session.out = watch
    session.run()
    assert session.match.over
    assert knocks  # the bot knocked at least once: its face-down discard was checked


def spawn_gin(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "rummykit.cli.main", "play", "--plain",
                                           "--rules", "gin", *args],
                          encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 200))
    child.delaybeforesend = None
    child.expect("Type 'help'")
    return child


def test_a_seeded_gin_game_in_a_real_terminal_to_its_end(tmp_path: Path) -> None:
    """Typed as a person would: the numbered moves, the knock menu, Enter between hands."""
    path = tmp_path / "game.rummy.json"
    child = spawn_gin("--seed", "21", "--bots", "greedy", "--name", "Ann",
                      "--option", "target_score=60", "--save", str(path))
    started = time.monotonic()
    prompts = ["Your move> ", "Press Enter for the next hand", "Choose 1-",
               "=== Match over: "]
    rng = random.Random(21)
    for _ in range(3000):
        which = child.expect_exact(prompts)
        if which == 3:
            break
        if which in (1, 2):
            child.sendline("")
            continue
        child.sendline("moves")
        child.expect_exact("Your move> ")
        listed = re.findall(r"^\s+(\d+)\. (.+?)\r?$", child.before, re.MULTILINE)
        assert listed, child.before
        texts = [t for _, t in listed]
        knocks = [t for t in texts if t.startswith(("knock", "gin"))]
        if knocks:  # knock by hand: the short form, then the menu
            child.sendline(knocks[0].split(":")[0])
        elif "done" in texts and rng.random() < 0.5:
            child.sendline("done")
        else:
            child.sendline(listed[rng.randrange(len(listed))][0])
    else:  # pragma: no cover
        pytest.fail("the game did not end")
    child.expect(pexpect.EOF)
    account = str(child.before)
    child.close()
    assert child.exitstatus == 0
    assert "The game is over: " in account
    print(f"seeded gin game in a pty: {time.monotonic() - started:.1f} s")
    replayed = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "replay", str(path), "--json", "--check"],
        capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert replayed.returncode == 0, replayed.stdout
    assert json.loads(replayed.stdout)["over"] is True


def test_load_refuses_a_finished_game_and_a_record_of_another_family(tmp_path: Path) -> None:
    done = tmp_path / "done.rummy.json"
    finished, _ = scripted(gin_rules_from_options("gin", {"target_score": 30}), 3,
                           save=str(done))
    finished.run()
    assert finished.match.over and done.exists()
    basic = tmp_path / "basic.rummy.json"
    subprocess.run([sys.executable, "-m", "rummykit.cli.main", "play", "--plain", "--seed",
                    "2", "--save", str(basic)], input="quit\n", capture_output=True,
                   text=True, timeout=TIMEOUT, check=True)
    session, lines = scripted(GIN, 1, [f"load {done}", f"load {basic}", "quit"])
    session.run()
    text = "\n".join(lines)
    assert "that match is over" in text and "not a gin match record" in text
    assert "Loaded " not in text
