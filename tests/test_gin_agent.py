"""``rummykit agent --rules gin`` and ``rummykit hint`` on gin records, as real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rummykit.core import record

ROOT = Path(__file__).resolve().parents[1]

#: an agent that checks what it is shown, sends one bad answer, knocks in the short form
AGENT = r'''
import json, sys
seen_hidden = False
first = True
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        assert msg["players"] == 2 and msg["rules"] in ("gin", "oklahoma"), msg
        print(json.dumps({"ready": True}), flush=True)
    elif kind in ("turn", "error"):
        if kind == "turn":
            view, legal = msg["view"], msg["legal"]
            assert view["revealed"] == [] and view["result"] is None, view
            assert len(view["hand"]) == view["hand_sizes"][view["seat"]], view
            other = 1 - view["seat"]
            assert set(view["hand"]).isdisjoint(view["known"][other]), view
            assert not set(view["hand"]) & set(view["discard"]), view
        if first:
            first = False
            print(json.dumps({"move": "knock ZZ"}), flush=True)
            continue
        if kind == "error":
            sys.stderr.write("error " + msg["kind"] + "\n")
        knocks = [m for m in legal if m.startswith(("knock", "gin"))]
        move = knocks[0].split(":")[0] if knocks else legal[-1] if "done" in legal else legal[0]
        print(json.dumps({"move": move, "id": msg["id"]}), flush=True)
    elif kind == "hand_over":
        assert len(msg["view"]["revealed"]) == 2 and msg["view"]["result"], msg
        assert "knock_limit" in msg["view"]["result"]
    elif kind == "end":
        sys.stderr.write("end " + json.dumps(msg) + "\n")
'''


def rummykit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummykit.cli.main", *args],
                          capture_output=True, text=True, timeout=180, cwd=ROOT)


def test_a_gin_agent_plays_a_whole_game(tmp_path: Path) -> None:
    script = tmp_path / "agent.py"
    script.write_text(AGENT)
    saved = tmp_path / "g.rummy.json"
    done = rummykit("agent", "--rules", "gin", "--seed", "5", "--bots", "greedy", "--save",
                    str(saved), "--json", "--", sys.executable, str(script))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert "error syntax" in done.stderr  # the bad first answer was sent back
    assert summary["agent"]["failures"] == {"syntax": 1}
    replayed = record.replay_file(saved)
    assert replayed.match is not None and replayed.match.over
    assert replayed.match.scorer.settled_totals == summary["totals"]
    end = json.loads(done.stderr.split("end ", 1)[1].splitlines()[0])
    assert end["totals"] == summary["totals"] and end["winners"] == summary["winners"]


def test_the_agent_turn_cap_is_the_rules_valve(tmp_path: Path) -> None:
    script = tmp_path / "agent.py"
    script.write_text(AGENT)
    saved = tmp_path / "o.rummy.json"
    done = rummykit("agent", "--rules", "oklahoma", "--seed", "2", "--save", str(saved),
                    "--", sys.executable, str(script))
    assert done.returncode == 0, done.stderr
    options = json.loads(saved.read_text()).get("options", {})
    assert "max_turns_per_hand" not in options  # the rules' own valve (1000), not 2000


def test_agent_refuses_a_bot_that_does_not_play_gin() -> None:
    done = rummykit("agent", "--rules", "gin", "--bots", "careless", "--", "true")
    assert done.returncode == 2
    assert "careless" in done.stderr and "gin" in done.stderr


def test_hint_advises_on_a_gin_record_and_refuses_a_finished_hand(tmp_path: Path) -> None:
    saved = tmp_path / "h.rummy.json"
    played = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "play", "--plain", "--rules", "gin",
         "--seed", "5", "--bots", "greedy", "--save", str(saved)],
        input="pass\ndraw\nquit\n", capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert played.returncode == 0, played.stderr
    done = rummykit("hint", str(saved), "--seed", "2", "--json")
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["rules"] == "gin" and body["level"] == "expert"
    assert body["best"] == body["candidates"][0]["move"]
    assert body["best"].startswith(("discard", "knock", "gin"))  # after the draw
    assert len(body["position"]["hand"]) == 11
    shown = rummykit("hint", str(saved), "--move", "0", "--seed", "2")
    assert shown.returncode == 0 and "Recommended: " in shown.stdout
    assert "Knock limit 10" in shown.stdout
    bad = rummykit("hint", str(saved), "--move", "99")
    assert bad.returncode == 2 and "--move 99" in bad.stderr


def test_the_arena_seats_a_gin_agent(tmp_path: Path) -> None:
    agent = f"agent:{sys.executable} {ROOT / 'examples' / 'agents' / 'random_agent.py'}"
    done = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "arena", "--rules", "gin", "--bots",
         f"{agent},greedy", "--games", "2", "--seed", "1", "--jobs", "1", "--no-progress",
         "--json", "-"], capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 2 and report["failed_games"] == 0, report
