"""``rummykit simulate`` (and the ``replay`` wrapper) run as subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit.cli.main import app
from rummykit.core.cards import cards_of, format_card
from rummykit.core.match import Match
from rummykit.core.rules import Rules

TIMEOUT = 120


def rummykit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummykit.cli.main", *args], capture_output=True,
                          text=True, timeout=TIMEOUT, check=False)


def simulate_json(*args: str) -> dict[str, Any]:
    run = rummykit("simulate", "--json", "--no-progress", *args)
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    return data


def without_timings(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stats.items() if k not in ("elapsed_seconds", "moves_per_second")}


FOUR = ("--rules", "basic", "--players", "4", "--bots", "greedy,greedy,random,random")


def test_games_json_shape_and_sums() -> None:
    stats = simulate_json(*FOUR, "--games", "3", "--seed", "11")
    for key in ("hands", "matches", "moves", "elapsed_seconds", "turns", "mean_turns_per_hand",
                "draws", "aborted", "seats"):
        assert key in stats
    assert stats["matches"] == 3
    assert stats["players"] == 4 and stats["seed"] == 11 and stats["rules"] == "basic"
    assert stats["options"] == {}  # the rules' own turn limit (RULES.md §1.10)
    seats = stats["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    assert [s["bot"] for s in seats] == ["greedy", "greedy", "random", "random"]
    hands = stats["hands"]
    assert sum(s["hand_wins"] for s in seats) + stats["draws"] + stats["aborted"] == hands
    assert sum(s["match_wins"] for s in seats) >= stats["matches"] - stats["drawn_matches"]
    for seat in seats:
        assert seat["mean_points_per_hand"] == pytest.approx(seat["points"] / hands)
        assert seat["rummies"] <= seat["hand_wins"]
    # basic ends a match when a total reaches 150, and only winners score
    assert max(s["points"] for s in seats) >= 150
    assert stats["mean_turns_per_hand"] == pytest.approx(stats["turns"] / hands)
    assert stats["moves"] >= 2 * stats["turns"]
    assert stats["elapsed_seconds"] >= 0


def test_same_seed_same_games() -> None:
    args = ("--rules", "traditional", "--players", "3", "--hands", "12", "--seed", "4")
    first, second = simulate_json(*args), simulate_json(*args)
    assert without_timings(first) == without_timings(second)
    assert first["hands"] == 12
    other = simulate_json("--rules", "traditional", "--players", "3", "--hands", "12",
                          "--seed", "5")
    assert without_timings(other) != without_timings(first)


def test_options_and_turn_limit() -> None:
    stats = simulate_json("--bots", "random", "--hands", "3", "--seed", "2",
                          "--option", "max_turns_per_hand=4", "--option",
                          "ace_mode=high_or_low")
    assert stats["options"] == {"ace_mode": "high_or_low", "max_turns_per_hand": 4}
    assert stats["aborted"] == 3
    assert all(s["points"] == 0 for s in stats["seats"])


def test_table_output() -> None:
    run = rummykit("simulate", "--games", "1", "--seed", "1", "--no-progress")
    assert run.returncode == 0, run.stderr
    assert "match wins" in run.stdout and "points/hand" in run.stdout
    assert "1 matches" in run.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "9 players: basic is for 2 to 6 players"),
        (["--players", "1"], "1 player: basic is for 2 to 6 players"),
        (["--rules", "whist"], "unknown rule set 'whist'"),
        (["--rules", "contract", "--players", "2"], "contract is for 3 to 8 players"),
        (["--players", "4", "--bots", "greedy,random"], "names 2 bots for 4 bot seats"),
        (["--bots", "clever"], "unknown bot 'clever'"),
        (["--games", "0"], "--games 0: expected 1 or more"),
        (["--games", "2", "--hands", "2"], "give --games or --hands, not both"),
        (["--option", "=3"], "bad --option '=3'"),
        (["--option", "max_turns_per_hand=0"], "option 'max_turns_per_hand'"),
        (["--option", "joker_points=5"], "does not apply to the basic rule set"),
    ],
)
def test_bad_arguments_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["simulate", "--json", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_bad_arguments_in_a_real_process() -> None:
    run = rummykit("simulate", "--players", "9", "--json")
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == "rummykit: error: --players: 9 players: basic is for 2 to 6 players\n"
    run = rummykit("simulate", "--games", "many")
    assert run.returncode == 2
    assert "Invalid value for '--games'" in run.stderr
    assert "Traceback" not in run.stderr
    assert rummykit("juggle").returncode == 2


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    run = rummykit("replay", str(tmp_path / "missing.rummy.json"), "--json")
    assert run.returncode == 1
    assert json.loads(run.stdout)["error"]["type"] == "record"


def test_replay_prints_the_account(tmp_path: Path) -> None:
    from rummykit.core.record import dump, record_of

    match = Match(Rules.from_options("basic"), ["Ann", "Bob"], seed=3)
    state = match.start_hand()
    for text in ("draw", f"discard {format_card(cards_of(state.hands[state.to_move])[0])}"):
        match.play(text)
    path = tmp_path / "short.rummy.json"
    dump(record_of(match), path)
    run = rummykit("replay", str(path))
    assert run.returncode == 0, run.stdout
    assert "Ann" in run.stdout and "Bob" in run.stdout
    data = json.loads(rummykit("replay", str(path), "--json").stdout)
    assert data["hands"][0]["result"] == "unfinished"
    assert data["totals"] == [0, 0] and data["over"] is False
