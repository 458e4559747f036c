"""``python -m rummykit.benchmark.rl_envs`` runs every env the researcher's way and prints
each env's steps/s with its microseconds per step, the ratios and the wrappers' ceiling.
Figures are read from the command, not asserted."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def test_the_env_steps_command_prints_every_env_the_ratios_and_the_ceiling() -> None:
    pytest.importorskip("pettingzoo.classic")  # the anchors extra: gin_rummy_v4
    proc = subprocess.run(
        [sys.executable, "-m", "rummykit.benchmark.rl_envs", "--seconds", "0.05", "--floor",
         "--unwrapped", "--cpu"], capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-4000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    envs = [line for line in lines if "steps_per_s" in line]
    assert {(e["engine"], e.get("rules", e.get("game")), e["wrappers"] != "none")
            for e in envs if "wrappers" in e} >= {
        ("rummykit", "basic", True), ("rummykit", "gin", True), ("rummykit", "basic", False),
        ("rummykit", "gin", False), ("pettingzoo", "gin_rummy_v4", True),
        ("idle", "idle", True)}
    for env in envs:
        assert env["steps_per_s"] > 0 and env["clock"] == "cpu"
        assert env["us_per_step"] == pytest.approx(1e6 / env["steps_per_s"], rel=0.01)
    ratios = {line["ratio"] for line in lines if "ratio" in line}
    assert {"rummykit basic / pettingzoo", "rummykit gin / pettingzoo"} <= ratios
    assert sum("ceiling" in line for line in lines) == 2  # the idle env, both action spaces


def test_steps_takes_exactly_that_many_agent_actions_across_episodes() -> None:
    from rummykit.benchmark.rl_envs import AECRunner, idle_env

    runner = AECRunner(idle_env(), seed=1)
    assert runner.steps(250) == 250
    assert runner.env.unwrapped.count == 50  # two 100-step episodes, then 50 of the third
    assert runner.steps(0) == 0


def test_the_steps_command_runs_one_env_alone(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pettingzoo.classic")
    from rummykit.benchmark.rl_envs import main

    assert main(["--steps", "40", "--env", "gin"]) == 0
    assert json.loads(capsys.readouterr().out) == {"env": "gin", "steps": 40,
                                                   "seed": 20260101}
    with pytest.raises(SystemExit):
        main(["--steps", "-1"])
    with pytest.raises(SystemExit):
        main(["--steps", "5", "--env", "nope"])
