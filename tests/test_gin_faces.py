"""Gin as a registered family in the faces: simulate and arena play it (random and greedy
bots through the family's bots), replay reads what they write, a bot gin lacks is refused
by name, and its knobs are in the documentation's reference."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.arena.play import play_game
from rummykit.arena.schedule import schedule
from rummykit.bots import make_bot_for
from rummykit.bots.gin_greedy import GinGreedyBot
from rummykit.core.errors import RummyError
from rummykit.core.record import loads, replay
from rummykit.variants.gin.knob_meanings import GIN_KNOB_NAMES, MEANINGS, knob_markdown
from rummykit.variants.gin.rules import GIN, GIN_PRESETS, OKLAHOMA, gin_rules_from_options
from rummykit.variants.gin.variant import GIN_FAMILY, GIN_KNOBS
from rummykit.variants.registry import families, variant_for

TIMEOUT = 120


def rummykit(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummykit.cli.main", *args],
                          capture_output=True, text=True, timeout=TIMEOUT, check=False, cwd=cwd)


def test_gin_is_a_registered_family_with_its_own_view_and_bots() -> None:
    assert variant_for("gin") is GIN_FAMILY and GIN_FAMILY in families()
    assert isinstance(make_bot_for("greedy", OKLAHOMA), GinGreedyBot)
    assert make_bot_for("random", GIN).name == "random"
    with pytest.raises(RummyError, match="bot 'careless' does not play gin: expected one of "
                                         "random, greedy, simple, easy, medium, hard, expert"):
        make_bot_for("careless", GIN)


@pytest.mark.parametrize("rule_set", ["gin", "oklahoma"])
def test_simulate_plays_gin_with_greedy_and_random_bots(rule_set: str) -> None:
    run = rummykit("simulate", "--json", "--no-progress", "--rules", rule_set, "--games", "4",
                   "--seed", "7", "--bots", "greedy,random")
    assert run.returncode == 0, run.stderr
    stats: dict[str, Any] = json.loads(run.stdout)
    assert stats["rules"] == rule_set and stats["matches"] == 4
    seats = stats["seats"]
    assert sum(s["match_wins"] for s in seats) + stats["drawn_matches"] == 4
    assert sum(s["hand_wins"] for s in seats) + stats["draws"] + stats["aborted"] \
        == stats["hands"]
    assert seats[0]["match_wins"] > seats[1]["match_wins"]  # greedy beats random at gin
    assert "went_down" not in seats[0]


def test_simulate_and_play_refuse_a_bot_gin_lacks_by_name() -> None:
    run = rummykit("simulate", "--rules", "gin", "--bots", "careless", "--games", "1")
    assert run.returncode == 2
    assert "--bots: bot 'careless' does not play gin" in run.stderr
    run = rummykit("play", "--plain", "--rules", "gin", "--bots", "careless")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "--bots: bot 'careless' does not play gin" in run.stderr


def test_an_arena_game_of_gin_writes_a_record_that_replays_to_its_result() -> None:
    spec = schedule(["greedy", "random"], 2, 2, seed=3)[0]
    result = play_game(GIN, spec, keep_record=True)
    assert result.hands >= 1 and len(result.winners) == 1
    assert result.record is not None and "restocks" not in result.record
    again = replay(loads(result.record))
    assert again.ok and again.check() is None
    final = again.to_json()["final"]
    assert final["totals"] == list(result.totals)  # the settled totals (bonuses added)


def test_the_arena_command_plays_oklahoma(tmp_path: Path) -> None:
    run = rummykit("arena", "--rules", "oklahoma", "--bots", "greedy,random", "--games", "4",
                   "--seed", "2", "--jobs", "1", "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "oklahoma" in run.stdout and "greedy" in run.stdout


def test_every_gin_knob_has_a_meaning_in_the_reference() -> None:
    assert set(MEANINGS) == set(GIN_KNOB_NAMES) == set(GIN_KNOBS)
    page = knob_markdown()
    assert page == GIN_FAMILY.knob_reference()
    for knob in GIN_KNOB_NAMES:
        assert f"{{#gin-{knob}}}" in page and MEANINGS[knob] in page


@pytest.mark.parametrize("rule_set", sorted(GIN_PRESETS))
def test_the_reference_values_are_the_presets(rule_set: str) -> None:
    rows = [line for line in knob_markdown().splitlines() if line.startswith("| [`")]
    column = sorted(GIN_PRESETS).index(rule_set)
    shown = {row.split("`")[1]: json.loads(row.split(" | ")[1 + column].strip("` |"))
             for row in rows}
    assert set(shown) == set(GIN_KNOB_NAMES)
    settable = {k: v for k, v in shown.items()
                if not (k in ("oklahoma_ace", "oklahoma_spade_double") and not shown["oklahoma"])
                and k != "shutout_bonus"}
    assert gin_rules_from_options(rule_set, settable) == GIN_PRESETS[rule_set]


def test_simulate_seats_a_bot_only_gin_has() -> None:
    run = rummykit("simulate", "--rules", "gin", "--bots", "simple,greedy", "--games", "1",
                   "--seed", "3")
    assert run.returncode == 0, run.stderr
    assert "simple" in run.stdout
    run = rummykit("simulate", "--rules", "basic", "--bots", "simple", "--games", "1")
    assert run.returncode == 2 and "unknown bot 'simple'" in run.stderr
