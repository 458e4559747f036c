"""``python -m rummykit.benchmark.gin_bots``: mirrored games to a target between two bots."""

from __future__ import annotations

import subprocess
import sys

from rummykit.benchmark.gin_bots import detail, game_rules, match, report


def test_mirrored_games_deal_the_same_hands_with_the_seats_swapped() -> None:
    rules = game_rules("openspiel", 60)
    tally = match(rules, ("greedy", "greedy"), 4, seed=3)
    # the same deterministic bot on both sides: each pair's two games are the same game
    assert tally.games == 4 and tally.unfinished == 0
    assert tally.won == 2
    half = len(tally.hand_scores) // 2
    assert sorted(tally.hand_scores) == sorted(-s for s in tally.hand_scores)
    assert half > 0


def test_the_report_gives_the_share_with_its_error_and_the_times() -> None:
    tally = match(game_rules("gin", 50), ("simple", "greedy"), 2, seed=1)
    lines = report(("simple", "greedy"), tally)
    assert lines[0].startswith(f"simple vs greedy: {tally.won} of 2 games won")
    assert "±" in lines[0] and "median" in lines[2]


def test_the_command_runs_and_refuses_a_bad_lineup() -> None:
    done = subprocess.run([sys.executable, "-m", "rummykit.benchmark.gin_bots", "--bots",
                           "greedy,simple", "--games", "2", "--target", "30"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "greedy vs simple:" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "rummykit.benchmark.gin_bots", "--bots",
                          "greedy"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "'greedy': expected two names" in bad.stderr


def test_the_detail_counts_every_hand_by_how_it_ended_for_the_first_bot() -> None:
    tally = match(game_rules("openspiel", 60), ("greedy", "greedy"), 4, seed=3)
    assert sum(tally.kinds.values()) == len(tally.hand_scores)
    # the same bot on both seats of mirrored deals: each knock won is a knock lost
    assert tally.kinds["knock won"] == tally.kinds["their knock"] > 0
    assert tally.kinds["gin"] == tally.kinds["their gin"]
    assert tally.kinds["undercut made"] == tally.kinds["undercut suffered"]
    assert sum(tally.kind_points.values()) == sum(tally.hand_scores) == 0
    lines = detail(("greedy", "greedy"), tally)
    assert lines[0].startswith(f"  how greedy's {len(tally.hand_scores)} hands ended")
    assert any(line.split()[:2] == ["knock", "won"] for line in lines)


def test_games_on_two_processes_give_the_same_figures_as_on_one() -> None:
    rules = game_rules("openspiel", 40)
    seen: list[int] = []
    alone = match(rules, ("simple", "greedy"), 4, seed=5, progress=lambda t: seen.append(t.games))
    shared = match(rules, ("simple", "greedy"), 4, seed=5, jobs=2)
    assert seen == [1, 2, 3, 4]
    assert (shared.games, shared.won, shared.unfinished) == (alone.games, alone.won,
                                                             alone.unfinished)
    assert shared.hand_scores == alone.hand_scores and shared.kinds == alone.kinds
    assert shared.turns == alone.turns and len(shared.times) == len(alone.times)
    resumed = match(rules, ("simple", "greedy"), 4, seed=5, start=2)
    assert resumed.games == 2 and resumed.turns == alone.turns[-len(resumed.turns):]
    assert resumed.hand_scores == alone.hand_scores[-len(resumed.hand_scores):]
