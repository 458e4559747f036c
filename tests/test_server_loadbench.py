"""The load benchmark (``make bench-server``) at a tiny size: real server process, real
WebSocket clients; every match it starts is finished and stored, with no error."""

from __future__ import annotations

import json
import subprocess
import sys


def test_a_small_load_run_finishes_and_stores_every_match() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "rummykit.server.loadbench", "--tables", "2", "--duration",
         "2", "--think", "0.05", "--target", "10", "--drain", "120", "--json"],
        capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["errors"] == 0, report["error_samples"]
    assert report["connections"] == 4
    assert report["moves"] > 0 and report["round_trip_ms"]["p99"] > 0
    assert report["matches_started"] >= 2
    assert report["matches_started"] == report["matches_completed"] == report["matches_stored"]
