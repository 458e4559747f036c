"""The load benchmark (``make bench-server``) at a tiny size: real server process, real
WebSocket clients; every match it starts is finished and stored, with no error."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rummykit.variants.registry import rule_set_names


@pytest.mark.parametrize("rules", [None, "traditional"])
def test_a_small_load_run_finishes_and_stores_every_match(rules: str | None) -> None:
    chosen = [] if rules is None else ["--rules", rules]
    run = subprocess.run(
        [sys.executable, "-m", "rummykit.server.loadbench", "--tables", "2", "--duration",
         "2", "--think", "0.05", "--target", "10", "--drain", "120", "--json", *chosen],
        capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["errors"] == 0, report["error_samples"]
    assert report["connections"] == 4
    assert report["rules"] == (rules or rule_set_names()[0])  # the registry's first
    assert report["moves"] > 0 and report["round_trip_ms"]["p99"] > 0
    assert report["matches_started"] >= 2
    assert report["matches_started"] == report["matches_completed"] == report["matches_stored"]


def test_the_resume_benchmark_loads_tables_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    from rummykit.server import resumebench
    assert resumebench.main(["--tables", "3", "--moves", "30"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tables"] == 3 and report["moves_stored"] > 30
    assert report["checked_cpu_seconds"] > 0 and report["trusted_cpu_seconds"] > 0
    assert report["trusted_batched_ms_per_table"] > 0
