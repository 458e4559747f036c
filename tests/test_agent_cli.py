"""``rummykit agent`` and the arena seating ``agent:COMMAND`` players, as real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit import record
from rummykit.arena.play import play_game
from rummykit.arena.schedule import schedule
from rummykit.cli_arena import lineup
from rummykit.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
AGENT = f"{sys.executable} {ROOT / 'examples' / 'agents' / 'random_agent.py'}"


def rummykit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummykit.cli", *args], capture_output=True,
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
                    sys.executable, "-c", "import sys; [print('?', flush=True) for _ in sys.stdin]")
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
