"""``rummykit hint``: advice for a position of a record (seeded positions, fast levels)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit.bots import make_bot
from rummykit.bots.hints import Shape, shape
from rummykit.cli.hint import locate, read
from rummykit.cli.main import app
from rummykit.core.cards import format_cards, parse_card, parse_cards
from rummykit.core.engine import HandState
from rummykit.core.match import Match
from rummykit.core.record import dump, dumps, record_of
from rummykit.core.rules import Rules, find_rules
from rummykit.core.views import view
from rummykit.variants import BASIC, CONTRACT

LEVEL = "medium"  # the fastest search level keeps these tests quick


def greedy_record(tmp_path: Path, rules: str, moves: int, *, seed: int = 3,
                  options: dict[str, Any] | None = None) -> Path:
    """A record of a match whose first hand stops after ``moves`` greedy moves (or ends)."""
    chosen = Rules.from_options(rules, options or {})
    match = Match(chosen, ["Ann", "Bob", "Cy"], seed=seed)
    state, bot, rng = match.start_hand(), make_bot("greedy"), random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        match.play(bot.choose(view(state, state.to_move), rng))
    path = tmp_path / f"{rules}-{moves}.rummy.json"
    dump(record_of(match), path)
    return path


def hint(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Run ``rummykit hint ARGS``: (exit status, stdout, stderr)."""
    result = CliRunner().invoke(app, ["hint", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def hint_json(*args: str) -> dict[str, Any]:
    status, out, err = hint(*args, "--level", LEVEL, "--json")
    assert status == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def position_of(path: Path, hand: int | None = None, move: int | None = None) -> HandState:
    return locate(read(str(path)), hand, move).state


@pytest.mark.parametrize(("rules", "moves"), [("basic", 7), ("contract", 9)])
def test_hint_names_a_legal_move(tmp_path: Path, rules: str, moves: int) -> None:
    path = greedy_record(tmp_path, rules, moves)
    data = hint_json(str(path), "--seed", "1", "--top", "3")
    state = position_of(path)
    legal = {str(m): m for m in state.legal_moves()}
    assert data["best"] in legal and state.is_legal(legal[data["best"]])
    assert data["seat"] == state.to_move and data["player"] == ["Ann", "Bob", "Cy"][state.to_move]
    assert (data["hand"], data["moves_played"], data["rules"]) == (1, moves, rules)
    candidates = data["candidates"]
    assert 1 <= len(candidates) <= 3 and candidates[0]["move"] == data["best"]
    assert all(c["move"] in legal for c in candidates)
    values = [c["value"] for c in candidates]
    assert values == sorted(values, reverse=True)
    assert all(0 <= c["win_rate"] <= 1 for c in candidates)
    if rules == "basic":  # a draw decision: take or draw, both searched
        assert len(candidates) == 2 and all(c["simulations"] >= 1 for c in candidates)
        assert data["simulations"] == sum(c["simulations"] for c in candidates)
    else:  # contract: the move and its alternatives, every one searched
        assert len(candidates) >= 2 and all(c["simulations"] >= 1 for c in candidates)
        assert len({c["value"] for c in candidates}) > 1
    seen = view(state, state.to_move)
    assert data["position"]["hand"] == format_cards(seen.hand_cards).split()
    assert data["position"]["table"] == [str(m) for m in seen.table]
    arrangement = data["arrangement"]
    assert set(arrangement) >= {"melds", "left"}
    points = "penalty" if rules == "contract" else "deadwood"
    assert isinstance(arrangement[points], int) and arrangement[points] >= 0
    used = sum(len(m.split()) for m in arrangement["melds"]) + len(arrangement["left"])
    assert used == len(seen.hand_cards)
    if rules == "contract":
        made, needed = arrangement["contract_melds"]
        assert made == len(arrangement["melds"]) <= needed == 2  # deal 1: two sets


def test_text_output_shows_position_advice_and_arrangement(tmp_path: Path) -> None:
    path = greedy_record(tmp_path, "basic", 7)
    status, out, err = hint(str(path), "--level", LEVEL, "--seed", "2")
    assert status == 0, err
    state = position_of(path)
    seen = view(state, state.to_move)
    name = ["Ann", "Bob", "Cy"][state.to_move]
    assert f"{name} (seat {state.to_move}) to move: basic rummy, hand 1, after 7 moves" in out
    assert f"Hand of {name}: {format_cards(seen.hand_cards)}" in out
    for number, meld in enumerate(seen.table, 1):
        assert f"  {number}. {meld}" in out
    recommended = next(line for line in out.splitlines() if line.startswith("Recommended: "))
    assert recommended.removeprefix("Recommended: ") in {str(m) for m in state.legal_moves()}
    assert "Best arrangement: " in out and "deadwood" in out
    assert "win  points/hand" in out and "Seed 2." in out


def test_the_same_seed_gives_the_same_advice(tmp_path: Path) -> None:
    path = greedy_record(tmp_path, "basic", 4)
    first, second = (hint_json(str(path), "--seed", "5") for _ in range(2))
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_an_earlier_position_and_stdin(tmp_path: Path) -> None:
    path = greedy_record(tmp_path, "basic", 7)
    data = hint_json(str(path), "--hand", "1", "--move", "0", "--seed", "1")
    state = position_of(path, 1, 0)
    assert data["moves_played"] == 0 and data["position"]["phase"] == "draw"
    assert data["best"] in {str(m) for m in state.legal_moves()}
    status, out, err = hint("-", "--level", LEVEL, "--seed", "1", "--json",
                            stdin=path.read_text())
    assert status == 0, err
    assert json.loads(out)["moves_played"] == 7


def test_seat_must_be_the_seat_to_move(tmp_path: Path) -> None:
    path = greedy_record(tmp_path, "basic", 7)
    to_move = position_of(path).to_move
    assert hint_json(str(path), "--seat", str(to_move), "--seed", "1")["seat"] == to_move
    other = (to_move + 1) % 3
    status, _, err = hint(str(path), "--seat", str(other), "--level", LEVEL)
    assert status == 2 and f"--seat {other}" in err and "is to move" in err


def test_a_hand_that_is_over_is_refused(tmp_path: Path) -> None:
    path = greedy_record(tmp_path, "basic", 1000, options={"target_score": 1000})
    replayed = position_of(path, 1, 0)  # the start of the hand is fine
    assert not replayed.is_over
    status, out, err = hint(str(path), "--level", LEVEL)
    assert status == 2 and out == ""
    assert "hand 1 is over after" in err and "choose an earlier position with --move" in err
    assert "Traceback" not in err


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(("args", "message"), [
    (["--move", "99"], "--move 99: hand 1 has 7 moves (--move 0..7"),
    (["--move", "-1"], "--move -1: hand 1 has 7 moves"),
    (["--hand", "2"], "--hand 2: the record has 1 hand (1..1)"),
    (["--level", "grandmaster"], "--level 'grandmaster': expected one of"),
    (["--top", "0"], "--top 0: expected 1 or more"),
    (["--seat", "5"], "--seat 5: expected a seat 0..2"),
])
def test_bad_options_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    path = greedy_record(tmp_path, "basic", 7)
    status, out, err = hint(str(path), *args)
    assert status == 2 and out == "", out
    assert message in err and err.startswith("rummykit: error: ")


def test_bad_files_exit_2_quoting_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.rummy.json"
    status, _, err = hint(str(missing))
    assert status == 2 and f"cannot read {str(missing)!r}" in err
    bad_json = write(tmp_path, "bad.rummy.json", "{not json")
    status, _, err = hint(str(bad_json))
    assert status == 2 and f"{str(bad_json)!r}: bad JSON" in err
    status, _, err = hint("-", stdin="[1, 2")
    assert status == 2 and "'<stdin>': bad JSON" in err
    good = json.loads(greedy_record(tmp_path, "basic", 7).read_text())
    good["hands"][0]["moves"][3] = "discard ZZ"
    illegal = write(tmp_path, "illegal.rummy.json", json.dumps(good))
    status, _, err = hint(str(illegal))
    assert status == 2 and f"{str(illegal)!r} is not a valid record (syntax error at hand " \
        "1, move 4, 'discard ZZ')" in err
    empty = write(tmp_path, "empty.rummy.json", dumps(record_of(
        Match(find_rules("basic"), ["Ann", "Bob"], seed=1))))
    status, _, err = hint(str(empty))
    assert status == 2 and "the record has no hands yet" in err
    assert "Traceback" not in err


def test_shape_of_a_hand() -> None:
    basic = HandState.from_deal(BASIC, dealer=1, hands=[
        parse_cards("C7 D7 H7 S7 S8 S9 DK"), parse_cards("C3 C4 C5 D6 D8 DT DA")],
        upcard=parse_card("H9"), stock_top_first=parse_cards("S2 S3 S4 S5"))
    best = shape(view(basic, 0))
    assert best == Shape(("C7 D7 H7", "S7 S8 S9"), (parse_card("DK"),), 10)
    assert str(best) == "C7 D7 H7, S7 S8 S9; deadwood DK = 10"
    deal = HandState.from_deal(CONTRACT, dealer=2, hands=[
        parse_cards("C8 D8 H8 CK DK JK C5 D6 H9 S2"),
        parse_cards("C3 C4 C5 D9 D9 H2 S7 S8 ST SQ"),
        parse_cards("HA HA SK SK D2 D3 D4 CJ CQ C7")],
        upcard=parse_card("S3"), stock_top_first=parse_cards("H4 H5 H6 H7"))
    down = shape(view(deal, 0))
    assert down.progress == (2, 2) and down.melds[0] == "C8 D8 H8"
    assert down.melds[1].startswith("CK DK JK=") and down.points == 5 + 6 + 9 + 2
    assert str(down).startswith("2 of the 2 contract melds: C8 D8 H8, CK DK JK=")
    assert str(down).endswith("; left C5 D6 H9 S2 = 22 penalty points")
    none = shape(view(deal, 2))  # two sets of deal 1 from HA HA SK SK ...: not yet
    assert none.progress is not None and none.progress[1] == 2
    assert len(none.left) + sum(len(m.split()) for m in none.melds) == 10


def test_contract_text_advice(tmp_path: Path) -> None:
    path = greedy_record(tmp_path, "contract", 9)
    status, out, err = hint(str(path), "--level", LEVEL, "--seed", "1")
    assert status == 0, err
    assert "contract rummy, deal 1 (2 sets), after 9 moves" in out
    assert "Down: " in out and "penalty points" in out
    recommended = next(line for line in out.splitlines() if line.startswith("Recommended: "))
    state = position_of(path)
    assert recommended.removeprefix("Recommended: ") in {str(m) for m in state.legal_moves()}
