"""``rummykit agent`` and the arena seating ``agent:COMMAND`` players, as real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.arena.play import play_game
from rummykit.arena.schedule import schedule
from rummykit.cli.arena import lineup
from rummykit.core import record
from rummykit.core.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
AGENT = f"{sys.executable} {ROOT / 'examples' / 'agents' / 'random_agent.py'}"


def rummykit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummykit.cli.main", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_the_agent_command_plays_a_match_and_saves_its_record(tmp_path: Path) -> None:
    saved = tmp_path / "m.rummy.json"
    done = rummykit("agent", "--rules", "traditional", "--players", "3", "--seat", "1",
                    "--bots", "greedy,random", "--seed", "9", "--save", str(saved), "--json",
                    "--", *AGENT.split())
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["players"] == ["greedy-0", "agent-1", "random-2"]
    assert summary["agent"] == {"failures": {}, "stopped": None}
    replayed = record.replay_file(saved).match
    assert replayed is not None and replayed.over and replayed.totals == summary["totals"]


def test_the_agent_command_reports_a_forfeit_with_status_1() -> None:
    done = rummykit("agent", "--seed", "1", "--retries", "0", "--fallback", "forfeit", "--",
                    sys.executable, "-c", "import sys; [print('{}' if '\"hello\"' in line "
                    "else '?', flush=True) for line in sys.stdin]")
    assert done.returncode == 1
    assert "agent at seat 0 forfeits: 1 bad answers" in done.stderr


@pytest.mark.parametrize(("args", "quoted"), [
    (("--seat", "2"), "--seat 2: expected 0..1"),
    (("--bots", "wizard"), "unknown bot 'wizard'"),
    (("--fallback", "nobody"), "unknown bot 'nobody'"),
    (("--timeout", "0"), "--timeout 0: expected a positive number"),
])
def test_bad_agent_arguments_exit_2(args: tuple[str, ...], quoted: str) -> None:
    done = rummykit("agent", *args, "--", "true")
    assert done.returncode == 2 and quoted in done.stderr


def test_the_arena_seats_an_agent_in_every_rotation() -> None:
    names = lineup(f"agent:{AGENT},Greedy", 2)
    assert names == (f"agent:{AGENT}", "greedy")
    rules = Rules.from_options("basic", {"max_turns_per_hand": 300})
    for spec in schedule(names, 2, 2, seed=4):
        result = play_game(rules, spec, keep_record=True)
        seat = spec.bots.index(names[0])
        assert result.winners and len(result.seconds[seat]) > 0
        assert result.record is not None and record.replay_text(result.record).ok


def test_the_arena_command_refuses_an_empty_agent_command() -> None:
    done = rummykit("arena", "--bots", "agent: ,greedy", "--games", "2")
    assert done.returncode == 2 and "expected agent:COMMAND" in done.stderr


def test_the_docs_show_the_example_agent_as_committed() -> None:
    docs = (ROOT / "docs" / "agents.md").read_text()
    shown = docs.split("```python\n", 1)[1].split("```", 1)[0]
    example = (ROOT / "examples" / "agents" / "random_agent.py").read_text()
    assert shown.strip() in example and shown.startswith("import json")


def test_a_missing_agent_command_fails_with_status_1_and_plays_no_stand_in() -> None:
    done = rummykit("agent", "--seed", "1", "--json", "--", "/nonexistent/agent-program")
    assert done.returncode == 1
    assert ("rummykit: error: agent at seat 0 failed: could not start "
            "'/nonexistent/agent-program'") in done.stderr
    assert "Traceback" not in done.stderr
    summary = json.loads(done.stdout)  # no match: the error and the agent's failures
    assert summary["agent"]["failures"] == {"start": 1} and "could not start" in summary["error"]


def test_a_mistyped_agent_script_fails_with_status_1() -> None:
    done = rummykit("agent", "--seed", "1", "--", sys.executable, "no_such_agent.py")
    assert done.returncode == 1
    assert "agent at seat 0 failed: the agent exited with status 2 before replying to " \
           "hello" in done.stderr


def test_a_stand_in_is_played_only_when_asked_and_the_status_stays_1(tmp_path: Path) -> None:
    saved = tmp_path / "m.rummy.json"
    done = rummykit("agent", "--seed", "3", "--stand-in", "greedy", "--json", "--save",
                    str(saved), "--", "/nonexistent/agent-program")
    assert done.returncode == 1
    summary = json.loads(done.stdout)
    assert summary["agent"]["failures"]["start"] == 1
    assert summary["agent"]["failures"]["stand_in_moves"] > 0
    assert "could not start" in summary["agent"]["stopped"]
    replayed = record.replay_file(saved).match
    assert replayed is not None and replayed.over


def test_the_agent_command_plays_several_matches(tmp_path: Path) -> None:
    saved = tmp_path / "m.rummy.json"
    done = rummykit("agent", "--games", "3", "--seed", "5", "--seat", "1", "--json",
                    "--save", str(saved), "--", *AGENT.split())
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 3 and summary["failed"] == 0
    assert [m["seed"] for m in summary["matches"]] == [5, 6, 7]
    assert summary["agent_wins"] == sum(1 in m["winners"] for m in summary["matches"])
    for number, match in enumerate(summary["matches"], 1):
        replayed = record.replay_file(tmp_path / f"m-{number}.rummy.json").match
        assert replayed is not None and replayed.totals == match["totals"]


def test_the_arena_reports_an_agent_that_cannot_start_as_failed_games(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = rummykit("arena", "--bots", "agent:/nonexistent/agent-program,greedy", "--games",
                    "2", "--seed", "1", "--json", str(report), "--no-progress")
    assert done.returncode == 1
    assert "2 of 2 games failed" in done.stderr and "could not start" in done.stderr
    assert "2 failed games" in done.stdout
    summary = json.loads(report.read_text())
    assert summary["failed_games"] == 2 and summary["per_game"] == []
    assert {f["game"] for f in summary["failures"]} == {0, 1}
    assert all("agent:/nonexistent/agent-program at seat" in f["error"]
               for f in summary["failures"])
