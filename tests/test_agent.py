"""The JSON agent protocol: real subprocess agents play whole matches; bad agents are
answered with errors, hit the retry limit or the timeout, and never corrupt the game; an
agent that cannot start or stops is a failure, never a silent stand-in."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.agents import AgentError, SubprocessAgent
from rummykit.agents.play import play_match
from rummykit.agents.protocol import PROTOCOL, hand_over_message, turn_message
from rummykit.bots import make_bot
from rummykit.core import record
from rummykit.core.engine import HandState
from rummykit.core.match import Match
from rummykit.core.rules import Rules
from rummykit.core.views import resample, view

ROOT = Path(__file__).resolve().parents[1]
RANDOM_AGENT = [sys.executable, str(ROOT / "examples" / "agents" / "random_agent.py")]
LINEUPS = {"basic": 2, "traditional": 3, "contract": 3}

# An agent that logs every message it gets and misbehaves as its first argument says.
SCRIPTED = r'''
import json, sys, time
mode, log = sys.argv[1], open(sys.argv[2], "a")
answered = 0
for line in sys.stdin:
    log.write(line); log.flush()
    message = json.loads(line)
    if message["type"] == "hello":
        if mode == "slow_start":
            time.sleep(2.0)
        if mode == "hello_move":  # a reply to hello that looks like a move: never played
            print(json.dumps({"move": "draw"}), flush=True)
        elif mode == "mute_hello":
            continue
        elif mode == "chatty":
            print("starting up", flush=True)
            print(json.dumps({"ready": True}), flush=True)
            print(json.dumps({"hello": "there"}), flush=True)
        else:
            print(json.dumps({"ready": True}), flush=True)
        continue
    if message["type"] == "turn":
        legal, wrong = message["legal"], 0
    elif message["type"] != "error" or message["retries_left"] < 0:
        continue
    if mode == "silent":
        time.sleep(30)
    elif mode == "late_once" and answered == 1:  # answers turn 2 late, without its id
        answered += 1
        time.sleep(1.5)
        print(json.dumps({"move": legal[0]}), flush=True)
    elif mode == "crash" or (mode == "crash_later" and answered == 3):
        sys.exit(3)
    elif mode == "malformed":
        print("discard SK", flush=True)
    elif mode == "illegal_once" and not wrong:
        wrong = 1
        print(json.dumps({"move": "meld SA S2 S3"}), flush=True)
    elif mode == "syntax_once" and not wrong:
        wrong = 1
        print(json.dumps({"move": "discard X9", "id": message["id"]}), flush=True)
    else:
        answered += 1
        print(json.dumps({"move": legal[-1], "id": message["id"]}), flush=True)
'''


def rules_for(name: str) -> Rules:
    return Rules.from_options(name, {"max_turns_per_hand": 300})


def scripted(tmp_path: Path, mode: str, **kwargs: Any) -> tuple[SubprocessAgent, Path]:
    script, log = tmp_path / "agent.py", tmp_path / f"{mode}.log"
    script.write_text(SCRIPTED)
    return SubprocessAgent([sys.executable, str(script), mode, str(log)], **kwargs), log


def messages(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def replays(match: Match) -> bool:
    again = record.replay(record.loads(record.dumps(record.record_of(match)))).match
    return again is not None and again.over and again.totals == match.totals


@pytest.mark.parametrize("name", sorted(LINEUPS))
def test_the_example_agent_plays_whole_matches(name: str) -> None:
    players = LINEUPS[name]
    agent = SubprocessAgent(RANDOM_AGENT)
    seats = [make_bot("greedy") for _ in range(players - 1)]
    match = play_match(rules_for(name), [f"p{s}" for s in range(players)],
                       [*seats[:1], agent, *seats[1:]], seed=5)
    assert match.over and not agent.failures and agent.stopped is None
    assert replays(match)
    assert agent._process is not None and agent._process.returncode == 0


def test_the_agent_gets_hello_turns_results_and_the_end(tmp_path: Path) -> None:
    agent, log = scripted(tmp_path, "good")
    match = play_match(rules_for("basic"), ["a", "b"], [agent, make_bot("greedy")], seed=2)
    got = messages(log)
    assert got[0] == {"type": "hello", "protocol": PROTOCOL, "seat": 0, "players": 2,
                      "rules": "basic", "options": {"max_turns_per_hand": 300},
                      "timeout": 10.0, "retries": 3, "startup_timeout": 30.0}
    turns = [m for m in got if m["type"] == "turn"]
    assert [m["id"] for m in turns] == list(range(1, len(turns) + 1))
    assert all(m["view"]["seat"] == 0 == m["view"]["to_move"] and m["legal"] for m in turns)
    overs = [m for m in got if m["type"] == "hand_over"]
    assert len(overs) == len(match.hands)
    assert all(m["view"]["result"] and m["view"]["revealed"] for m in overs)
    assert got[-1] == {"type": "end", "totals": match.totals, "winners": list(match.winners)}
    assert not agent.failures


@pytest.mark.parametrize(("mode", "kind", "quoted"), [
    ("illegal_once", "illegal", "meld SA S2 S3"), ("syntax_once", "syntax", "X9")])
def test_a_wrong_answer_gets_an_error_and_a_new_try(tmp_path: Path, mode: str, kind: str,
                                                    quoted: str) -> None:
    agent, log = scripted(tmp_path, mode)
    match = play_match(rules_for("basic"), ["a", "b"], [make_bot("greedy"), agent], seed=3)
    errors = [m for m in messages(log) if m["type"] == "error"]
    turns = [m for m in messages(log) if m["type"] == "turn"]
    assert len(errors) == len(turns) == agent.failures[kind] > 0
    assert all(e["kind"] == kind and quoted in e["message"] and e["retries_left"] == 2
               for e in errors)
    assert "fallback_moves" not in agent.failures and match.over and replays(match)


def test_malformed_answers_hit_the_retry_limit_and_the_fallback_plays(tmp_path: Path) -> None:
    agent, log = scripted(tmp_path, "malformed", retries=2)
    match = play_match(rules_for("basic"), ["a", "b"], [agent, make_bot("greedy")], seed=4)
    got = messages(log)
    turns = [m for m in got if m["type"] == "turn"]
    errors = [m for m in got if m["type"] == "error"]
    fallbacks = [m for m in got if m["type"] == "fallback"]
    assert [e["retries_left"] for e in errors[:3]] == [1, 0, -1]
    assert "not a JSON object: 'discard SK'" in errors[0]["message"]
    assert agent.failures == {"malformed": 3 * len(turns), "fallback_moves": len(turns)}
    assert [f["id"] for f in fallbacks] == [t["id"] for t in turns]
    assert all(f["reason"].startswith("3 bad answers") for f in fallbacks)
    assert match.over and replays(match) and agent.stopped is None


def first_move(agent: SubprocessAgent, log: Path, seed: int = 4) -> tuple[str, list[str]]:
    """The agent's answer to its first turn of a fresh deal, and that turn's legal moves."""
    state = HandState.deal(rules_for("basic"), num_players=2, dealer=0,
                           rng=random.Random(seed))
    try:
        move = agent.choose(view(state, state.to_move), random.Random(seed))
    finally:
        agent.close()
    turn = next(m for m in messages(log) if m["type"] == "turn")
    return str(move), turn["legal"]


def test_a_reply_to_hello_is_never_played(tmp_path: Path) -> None:
    agent, log = scripted(tmp_path, "hello_move")  # replies {"move": "draw"} to hello
    played, legal = first_move(agent, log)
    assert "draw" in legal and legal[-1] != "draw"
    assert played == legal[-1] and not agent.failures  # the answer to turn 1, not "draw"


def test_lines_around_the_hello_reply_are_dropped_not_played(tmp_path: Path) -> None:
    agent, log = scripted(tmp_path, "chatty")
    played, legal = first_move(agent, log)
    assert played == legal[-1]
    # "starting up" before the reply is not a JSON object (malformed); the extra line after
    # the reply is dropped if it came before turn 1 was sent, else rejected as its answer
    assert agent.failures["malformed"] >= 1
    assert agent.failures["malformed"] + agent.failures["unsolicited"] == 2


def test_start_up_has_its_own_timeout(tmp_path: Path) -> None:
    # two seconds to start, one per answer: the start-up does not eat the answer time
    agent, log = scripted(tmp_path, "slow_start", timeout=1.0, startup_timeout=10.0)
    played, legal = first_move(agent, log)
    assert played == legal[-1] and not agent.failures


def test_an_agent_that_never_replies_to_hello_is_a_failure(tmp_path: Path) -> None:
    agent, _ = scripted(tmp_path, "mute_hello", startup_timeout=0.5)
    with pytest.raises(AgentError, match=r"agent at seat 0 failed: no reply to hello within "
                                         r"0.5 s"):
        play_match(rules_for("basic"), ["a", "b"], [agent, make_bot("greedy")], seed=4)
    assert agent.failures == {"start": 1}
    assert agent._process is not None and agent._process.poll() is not None


def test_forfeit_ends_the_game_with_a_clear_error(tmp_path: Path) -> None:
    agent, _ = scripted(tmp_path, "malformed", retries=0, fallback="forfeit")
    with pytest.raises(AgentError, match=r"agent at seat 1 forfeits: 1 bad answers.*JSON"):
        play_match(rules_for("basic"), ["a", "b"], [make_bot("greedy"), agent], seed=4)
    assert agent._process is not None and agent._process.poll() is not None


def test_one_late_answer_costs_one_turn_and_is_dropped_when_it_comes(tmp_path: Path) -> None:
    agent, log = scripted(tmp_path, "late_once", timeout=1.0)
    match = play_match(rules_for("basic"), ["a", "b"], [agent, make_bot("greedy")], seed=6)
    got = messages(log)
    assert agent.failures == {"timeout": 1, "fallback_moves": 1, "late": 1}
    assert agent.stopped is None and match.over and replays(match)
    timeouts = [m for m in got if m["type"] == "error"]
    assert [(m["id"], m["kind"], m["retries_left"]) for m in timeouts] == [(2, "timeout", -1)]
    assert [m["id"] for m in got if m["type"] == "fallback"] == [2]
    # the agent kept its seat: it got turns after the late one and answered them itself
    assert sum(m["type"] == "turn" for m in got) > 3


def test_a_silent_agent_is_stopped_after_max_timeouts_in_a_row(tmp_path: Path) -> None:
    agent, log = scripted(tmp_path, "silent", timeout=0.2, max_timeouts=2)
    with pytest.raises(AgentError, match=r"agent at seat 0 failed: no answer in time for 2 "
                                         r"turns in a row"):
        play_match(rules_for("basic"), ["a", "b"], [agent, make_bot("greedy")], seed=6)
    assert agent.failures == {"timeout": 2, "fallback_moves": 1, "stopped": 1}
    assert agent._process is not None and agent._process.returncode is not None
    assert [m["type"] for m in messages(log)] == ["hello", "turn"]  # then it slept


def test_a_stand_in_plays_on_for_a_silent_agent_only_when_asked(tmp_path: Path) -> None:
    agent, _ = scripted(tmp_path, "silent", timeout=0.2, max_timeouts=1, stand_in="greedy")
    match = play_match(rules_for("basic"), ["a", "b"], [agent, make_bot("greedy")], seed=6)
    assert match.over and replays(match)
    assert agent.stopped == "no answer in time for 1 turns in a row"
    assert agent.failures["stand_in_moves"] > 1 and agent.failures["timeout"] == 1


@pytest.mark.parametrize("mode", ["crash", "crash_later"])
def test_a_crashed_agent_is_a_failure(tmp_path: Path, mode: str) -> None:
    agent, _ = scripted(tmp_path, mode)
    with pytest.raises(AgentError, match=r"agent at seat 0 failed: the agent exited with "
                                         r"status 3"):
        play_match(rules_for("basic"), ["a", "b"], [agent, make_bot("greedy")], seed=6)
    assert agent.failures["crash"] == 1 and agent.stopped == "the agent exited with status 3"


def test_a_crashed_agent_with_a_stand_in_finishes_the_match(tmp_path: Path) -> None:
    agent, _ = scripted(tmp_path, "crash_later", stand_in="random")
    match = play_match(rules_for("basic"), ["a", "b"], [agent, make_bot("greedy")], seed=6)
    assert agent.failures["crash"] == 1 and agent.failures["stand_in_moves"] > 0
    assert match.over and replays(match)


@pytest.mark.parametrize("command", [["/nonexistent/agent-program"],
                                     [sys.executable, "/nonexistent/agent.py"]])
def test_a_command_that_cannot_start_is_a_failure(command: list[str]) -> None:
    agent = SubprocessAgent(command)
    state = HandState.deal(rules_for("basic"), num_players=2, dealer=0, rng=random.Random(1))
    with pytest.raises(AgentError, match=r"agent at seat 1 failed: (could not start "
                                         r"'/nonexistent/agent-program'|the agent exited "
                                         r"with status 2 before replying to hello)"):
        agent.choose(view(state, state.to_move), random.Random(1))
    assert agent.failures == {"start": 1}


@pytest.mark.parametrize("name", sorted(LINEUPS))
def test_messages_do_not_change_when_the_hidden_cards_are_resampled(name: str) -> None:
    rules, players = rules_for(name), LINEUPS[name]
    rng, bot = random.Random(11), make_bot("greedy")
    checked = 0
    for game in range(2):
        state = HandState.deal(rules, num_players=players, dealer=game % players, rng=rng)
        while True:
            for seat in range(players):
                seen = view(state, seat)
                again = view(resample(seen, random.Random(checked)), seat)
                if state.is_over:
                    same = hand_over_message(seen) == hand_over_message(again)
                else:
                    same = json.dumps(turn_message(7, seen)) == json.dumps(turn_message(7, again))
                assert same, (name, seat, state.turn_count)
                checked += 1
            if state.is_over:
                break
            seen = view(state, state.to_move)
            state.play(bot.choose(seen, rng) if rng.random() < 0.7 else rng.choice(seen.legal))
    assert checked > 40
