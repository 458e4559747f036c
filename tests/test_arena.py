"""``rummykit arena``: schedule, statistics, ratings, and the command in real processes and Ray."""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.arena.play import GameResult, play_game, seat_names
from rummykit.arena.ratings import rate, seat_ranks
from rummykit.arena.schedule import hand_deck, rounded_games, schedule, seat_bots
from rummykit.arena.stats import interval, percentile, summarize, tally, wilson
from rummykit.core import record
from rummykit.core.match import Match
from rummykit.core.rules import Rules

TIMEOUT = 600  # a fresh Ray install compiles its modules on first use
RULES = Rules.from_options("basic", {"max_turns_per_hand": 2000})


def rummykit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummykit.cli.main", *args], capture_output=True,
                          text=True, timeout=TIMEOUT, check=False)


def arena_json(*args: str) -> dict[str, Any]:
    run = rummykit("arena", "--json", "-", "--no-progress", *args)
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    return data


def without_timings(report: dict[str, Any]) -> dict[str, Any]:
    """The report less what may differ between runs: ``execution`` and decision times."""
    rest = {k: v for k, v in report.items() if k != "execution"}
    rest["bots"] = [{k: v for k, v in bot.items() if k != "decision_seconds"}
                    for bot in report["bots"]]
    return rest


def fake(index: int, deal_set: int, bots: tuple[str, ...], totals: tuple[int, ...],
         winners: tuple[int, ...]) -> GameResult:
    """A finished game of one hand whose score is the totals (for the maths tests)."""
    return GameResult(index, deal_set, index % len(bots), 7, bots, totals, winners, (totals,),
                      0, 0, tuple((0.001,) for _ in bots))


# -- schedule ---------------------------------------------------------------------------

def test_schedule_rotates_the_seats_within_each_deal_set() -> None:
    specs = schedule(["expert", "greedy"], 3, 7, seed=1)
    assert len(specs) == rounded_games(7, 3) == 9
    assert seat_bots(["expert", "greedy"], 3) == ["expert", "greedy", "greedy"]
    lineup = ["expert", "greedy", "greedy"]
    for number, spec in enumerate(specs):
        assert (spec.index, spec.deal_set, spec.rotation) == (number, number // 3, number % 3)
        assert spec.bots == tuple(lineup[(seat + spec.rotation) % 3] for seat in range(3))
    assert len({spec.seed for spec in specs}) == 3
    assert all(spec.seed == specs[3 * (spec.deal_set)].seed for spec in specs)
    assert schedule(["expert", "greedy"], 3, 7, seed=1) == specs
    assert schedule(["expert", "greedy"], 3, 7, seed=2)[0].seed != specs[0].seed


def test_every_rotation_of_a_set_deals_the_same_cards_to_the_same_seats() -> None:
    rules = Rules.from_options("basic", {"max_turns_per_hand": 2000})
    specs = schedule(["greedy", "random", "random"], 3, 3, seed=4)
    starts = []
    for spec in specs:
        match = Match(rules, seat_names(spec.bots), seed=spec.seed)
        state = match.start_hand(hand_deck(rules, 3, spec.seed, 0))
        starts.append((match.first_dealer, [state.hand_cards(s) for s in range(3)],
                       state.discard, state.stock))
    assert starts[0] == starts[1] == starts[2]
    # so the greedy bot holds seat 0's cards, then seat 2's, then seat 1's
    assert [spec.bots.index("greedy") for spec in specs] == [0, 2, 1]
    # whole games: every hand of every rotation starts from the same deck
    games = [record.loads(play_game(rules, spec, keep_record=True).record or "")
             for spec in specs]
    assert len({game.dealer for game in games}) == 1
    hands = min(len(game.hands) for game in games)
    for h in range(hands):
        assert len({game.hands[h].deck for game in games}) == 1
        assert games[0].hands[h].deck == tuple(hand_deck(rules, 3, specs[0].seed, h))
    assert hand_deck(rules, 3, specs[0].seed, 0) != hand_deck(rules, 3, specs[0].seed, 1)


# -- statistics and ratings -------------------------------------------------------------

def test_interval_maths_against_hand_computed_values() -> None:
    # rates 0.5 1 0.5 0: mean 0.5, sample sd sqrt(1/6) = 0.408248, half 1.959964 * sd / 2
    mean, low, high = interval([0.5, 1.0, 0.5, 0.0])
    assert mean == 0.5
    assert low == pytest.approx(0.5 - 0.400076, abs=1e-6)
    assert high == pytest.approx(0.5 + 0.400076, abs=1e-6)
    # clipped: rates 1 1 0.5 have mean 0.833333, sd 0.288675, half 0.326661
    assert interval([1.0, 1.0, 0.5]) == pytest.approx((5 / 6, 5 / 6 - 0.326661, 1.0), abs=1e-6)
    # Wilson, 3 of 4: centre (0.75 + z²/8) / (1 + z²/4), z = 1.959964
    assert wilson(3, 4) == pytest.approx((0.75, 0.300642, 0.954413), abs=1e-6)
    assert wilson(0, 5)[1] == 0.0 and wilson(5, 5)[2] == 1.0
    assert percentile([5.0, 1.0, 4.0, 2.0, 3.0], 0.95) == 5.0
    assert percentile([5.0, 1.0, 4.0, 2.0, 3.0], 0.5) == 3.0


def test_summary_uses_deal_sets_as_units_and_falls_back_to_wilson() -> None:
    bots = ("a", "b")
    won = [(1, 0), (1, 0), (1, 0), (0, 1), (0, 1), (0, 1), (1, 0), (0, 1)]  # a: 1, .5, 0, .5
    games = [fake(i, i // 2, bots, (150 * w[0], 150 * w[1]), (0,) if w[0] else (1,))
             for i, w in enumerate(won)]
    summary = summarize(tally(games)["a"])
    assert summary["interval_method"] == "deal sets" and summary["deal_sets"] == 4
    assert (summary["matches"], summary["wins"], summary["win_rate"]) == (8, 4, 0.5)
    assert summary["interval"] == pytest.approx([0.5 - 0.400076, 0.5 + 0.400076], abs=1e-6)
    assert summary["mean_points_per_hand"] == 75.0 and summary["decisions"] == 8
    one_set = summarize(tally(games[:2])["a"])
    assert one_set["interval_method"] == "wilson"
    assert one_set["interval"] == pytest.approx(list(wilson(2, 2)[1:]))


def test_ratings_rank_a_bot_that_always_wins_higher() -> None:
    assert seat_ranks((150, 20, 150, 40), (0, 2), penalty=False) == [1, 3, 1, 2]
    assert seat_ranks((12, 30, 7), (2,), penalty=True) == [2, 3, 1]
    games = [fake(s.index, s.deal_set, s.bots,
                  tuple(150 if b == "strong" else 10 * seat for seat, b in enumerate(s.bots)),
                  (s.bots.index("strong"),))
             for s in schedule(["strong", "weak"], 3, 12, seed=0)]
    ratings = rate(games, penalty=False)
    assert list(ratings) == ["strong", "weak"]
    assert ratings["strong"]["mu"] > 25 > ratings["weak"]["mu"]
    assert ratings["strong"]["ordinal"] > ratings["weak"]["ordinal"]
    assert ratings["strong"]["sigma"] < 25 / 3
    # a bot alone in its matches is not rated; the same games in penalty scoring reverse
    assert rate([fake(0, 0, ("x", "x"), (150, 0), (0,))], penalty=False)["x"]["mu"] == 25
    assert rate(games, penalty=True)["weak"]["mu"] < 25  # the winners still rank first


# -- the command --------------------------------------------------------------------------

def test_cli_writes_table_json_csv_records_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    folder = tmp_path / "records"
    run = rummykit("arena", "--rules", "basic", "--players", "2", "--bots", "greedy,random",
                   "--games", "5", "--seed", "3", "--json", str(out), "--csv",
                   str(tmp_path / "arena.csv"), "--records", str(folder), "--plot",
                   str(tmp_path / "arena.png"), "--no-progress")
    assert run.returncode == 0, run.stderr
    assert "--games 5 rounded up to 6" in run.stderr
    assert "greedy" in run.stdout and "6 games (5 asked" in run.stdout
    report = json.loads(out.read_text())
    assert report["arguments"] == {"rules": "basic", "options": {},
                                   "players": 2, "bots": ["greedy", "random"], "games": 5,
                                   "seed": 3}
    assert (report["games"], report["deal_sets"], report["rounded_up"]) == (6, 3, True)
    rows = report["per_game"]
    assert [(r["set"], r["rotation"]) for r in rows] == [(s, r) for s in range(3)
                                                         for r in range(2)]
    assert [r["bots"] for r in rows[:2]] == [["greedy", "random"], ["random", "greedy"]]
    greedy, rand = report["bots"]
    assert (greedy["bot"], rand["bot"]) == ("greedy", "random")
    assert greedy["matches"] == rand["matches"] == 6
    assert greedy["wins"] == sum(r["bots"][w] == "greedy" for r in rows for w in r["winners"])
    assert greedy["win_rate"] > rand["win_rate"]
    assert greedy["rating"]["mu"] > rand["rating"]["mu"]
    assert 0 <= greedy["interval"][0] <= greedy["win_rate"] <= greedy["interval"][1] <= 1
    assert greedy["decisions"] > 0 and greedy["decision_seconds"]["p95"] > 0
    assert report["hands"] == sum(r["hands"] for r in rows)
    with (tmp_path / "arena.csv").open(newline="") as file:
        table = list(csv.DictReader(file))
    assert len(table) == 12 and table[1]["bot"] == "random" and table[2]["seat"] == "0"
    assert sum(int(r["won"]) for r in table) == sum(len(r["winners"]) for r in rows)
    files = sorted(folder.iterdir())
    assert [f.name for f in files][:2] == ["set0000-rot0.rummy.json", "set0000-rot1.rummy.json"]
    assert len(files) == 6
    for file, row in zip(files, rows, strict=True):
        replayed = record.replay_file(file)
        assert replayed.check() is None
        assert replayed.match is not None and replayed.match.totals == row["totals"]
        assert list(replayed.match.players) == [f"{b}-{s}" for s, b in enumerate(row["bots"])]
    check = rummykit("replay", "--check", str(files[-1]))
    assert check.returncode == 0, check.stdout
    assert (tmp_path / "arena.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_aborted_hands_are_counted_and_the_option_is_kept() -> None:
    report = arena_json("--bots", "greedy,random", "--games", "4", "--seed", "3",
                        "--option", "max_turns_per_hand=30")
    assert report["arguments"]["options"] == {"max_turns_per_hand": 30}
    assert report["aborted_hands"] == sum(r["aborted_hands"] for r in report["per_game"]) > 0
    assert all(bot["aborted_hands"] == report["aborted_hands"] for bot in report["bots"])


def test_more_seats_than_bot_names_and_local_jobs_give_identical_results() -> None:
    args = ("--players", "3", "--bots", "random,greedy", "--games", "6", "--seed", "21")
    serial = arena_json(*args, "--jobs", "1")
    parallel = arena_json(*args, "--jobs", "2")
    assert serial["lineup"] == ["random", "greedy", "greedy"]
    assert [b["matches"] for b in serial["bots"]] == [6, 12]
    assert serial["execution"]["jobs"] == 1 and parallel["execution"]["jobs"] == 2
    assert without_timings(serial) == without_timings(parallel)


def test_ray_backend_on_a_local_instance_gives_identical_results() -> None:
    args = ("--bots", "greedy,random", "--games", "4", "--seed", "8")
    local = arena_json(*args)
    distributed = arena_json(*args, "--backend", "ray", "--jobs", "2")
    assert distributed["execution"]["backend"] == "ray"
    assert without_timings(local) == without_timings(distributed)


@pytest.mark.parametrize(("args", "quoted"), [
    (("--bots", "greedy,nobot"), "'greedy,nobot'"),
    (("--bots", "greedy,,random"), "'greedy,,random'"),
    (("--players", "9"), "9 players"),
    (("--players", "2", "--bots", "greedy,random,random"), "'greedy,random,random'"),
    (("--games", "0"), "--games 0"),
    (("--jobs", "0"), "--jobs 0"),
    (("--backend", "spark"), "'spark'"),
    (("--address", "localhost:6379"), "'localhost:6379'"),
    (("--json", "/no/such/folder/a.json"), "'/no/such/folder/a.json'"),
])
def test_bad_arguments_exit_2_with_a_clear_message(args: tuple[str, ...], quoted: str) -> None:
    run = rummykit("arena", "--no-progress", *args)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith("rummykit: error: ") and quoted in run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


def test_decision_time_percentile_is_within_the_measured_range() -> None:
    game = play_game(RULES, schedule(["greedy", "random"], 2, 2, seed=5)[0])
    times = [t for seat in game.seconds for t in seat]
    summary = summarize(tally([game])["greedy"])["decision_seconds"]
    assert min(times) <= summary["median"] <= summary["p95"] <= max(times)
    assert math.isclose(summary["mean"], sum(game.seconds[0]) / len(game.seconds[0]))
