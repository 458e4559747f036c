"""The benchmark command runs and reports in the documented JSON shape.

This only checks that it works; figures are read from ``make bench``, not asserted.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest

from rummykit.benchmark.report import Measure, goals_json, ratios_json
from rummykit.benchmark.timing import Config, random_hands, timed

OUR_MEASURES = {
    ("random_playout_hands", "hands/s"),
    ("random_playout_moves", "moves/s"),
    ("legal_moves", "generations/s"),
    ("push_pop", "pairs/s"),
    ("copy", "copies/s"),
    ("min_deadwood", "solves/s"),
    ("greedy_hands", "hands/s"),
    ("env_steps", "steps/s"),
    ("observation_build", "us/observation"),
    ("completability", "us/decision"),
    ("gin_random_playout_hands", "hands/s"),
    ("gin_random_playout_moves", "moves/s"),
    ("gin_min_deadwood", "solves/s"),
    ("gin_knock_test", "solves/s"),
}
PLAYOUTS = {
    ("basic", 2),
    ("basic", 3),
    ("basic", 4),
    ("basic", 6),
    ("traditional", 2),
    ("traditional", 3),
    ("traditional", 4),
    ("contract", 4),
    ("contract", 6),
}


def _is_positive_number(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value > 0
    )


@pytest.fixture(scope="module")
def quick_run() -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "rummykit.benchmark", "--quick", "--json", "--seconds", "0.2"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    result = json.loads(proc.stdout)
    assert isinstance(result, dict)
    return result


def test_json_top_level_shape(quick_run: dict[str, Any]) -> None:
    for key in ("config", "environment", "measures", "ratios", "goals", "skipped", "errors"):
        assert key in quick_run
    assert quick_run["config"]["quick"] is True
    assert quick_run["config"]["seconds"] == 0.2
    assert quick_run["errors"] == []


def test_every_measure_is_well_formed(quick_run: dict[str, Any]) -> None:
    assert quick_run["measures"]
    for m in quick_run["measures"]:
        assert set(m) == {"name", "engine", "unit", "value", "params"}
        assert isinstance(m["name"], str) and isinstance(m["unit"], str)
        assert m["engine"] in {"rummykit", "openspiel", "rlcard", "pettingzoo"}
        assert _is_positive_number(m["value"]), m
        assert isinstance(m["params"], dict)


def test_our_engine_is_measured(quick_run: dict[str, Any]) -> None:
    ours = [m for m in quick_run["measures"] if m["engine"] == "rummykit"]
    assert {(m["name"], m["unit"]) for m in ours} == OUR_MEASURES
    playouts = {
        (m["params"]["rules"], m["params"]["players"])
        for m in ours
        if m["name"] == "random_playout_moves"
    }
    assert playouts == PLAYOUTS
    sizes = {m["params"]["cards"] for m in ours if m["name"] == "min_deadwood"}
    assert sizes == {7, 10}


def test_ratios_and_goals(quick_run: dict[str, Any]) -> None:
    assert len(quick_run["ratios"]) == 6 + 7  # 7 gin ratios
    measured = {m["engine"] for m in quick_run["measures"]}
    for r in quick_run["ratios"]:
        assert _is_positive_number(r["target"])
        assert _is_positive_number(r["ours_value"])
        if r["theirs"]["engine"] in measured:
            assert _is_positive_number(r["value"])
            assert isinstance(r["met"], bool)
        else:
            assert r["value"] is None and r["met"] is None
    for g in quick_run["goals"]:
        assert _is_positive_number(g["value"]) and isinstance(g["met"], bool)


def test_missing_anchors_are_reported_not_fatal(quick_run: dict[str, Any]) -> None:
    measured = {m["engine"] for m in quick_run["measures"]}
    skipped = {s["engine"] for s in quick_run["skipped"]}
    assert measured | skipped >= {"rummykit", "openspiel", "rlcard", "pettingzoo"}
    assert not measured & skipped


# -- the pieces, without running the engine ---------------------------------------------


def test_ratio_arithmetic() -> None:
    measures = [
        Measure(name="copy", engine="rummykit", unit="copies/s", value=300.0),
        Measure(name="copy", engine="openspiel", unit="copies/s", value=10.0),
        Measure(name="greedy_hands", engine="rummykit", unit="hands/s", value=299.0),
    ]
    by_name = {r["name"]: r for r in ratios_json(measures)}
    copy = next(r for name, r in by_name.items() if name.startswith("copy"))
    assert copy["value"] == pytest.approx(30.0)
    assert copy["met"] is True
    assert all(r["value"] is None for name, r in by_name.items() if r is not copy)
    greedy, observation, median, worst = goals_json(measures)
    assert greedy["value"] == 299.0 and greedy["met"] is False
    assert observation["value"] is None and observation["at_most"] is True
    assert median["value"] is None and worst["value"] is None and worst["at_most"] is True
    fast = Measure(name="observation_build", engine="rummykit", unit="us/observation",
                   value=12.0, params={"rules": "basic", "players": 2})
    assert goals_json([fast])[1]["met"] is True


def test_timed_runs_at_least_once_and_respects_limit() -> None:
    t = timed(0.0, lambda: 5)
    assert (t.units, t.batches) == (5, 1)
    t = timed(60.0, lambda: 2, limit=3)
    assert (t.units, t.batches) == (6, 3)


def test_random_hands_are_distinct_and_seeded() -> None:
    hands = random_hands(500, 10, seed=7)
    assert len({tuple(h) for h in hands}) == 500
    assert all(len(set(h)) == 10 and all(0 <= c < 52 for c in h) for h in hands)
    assert random_hands(500, 10, seed=7) == hands


def test_config_rejects_a_non_positive_budget() -> None:
    with pytest.raises(ValueError):
        Config.make(quick=True, seconds=0)


def test_only_runs_the_measures_named() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rummykit.benchmark", "--quick", "--json", "--seconds", "0.1",
         "--no-anchors", "--only", "completability"],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    result = json.loads(proc.stdout)
    assert result["config"]["only"] == "completability"
    stats = {m["params"]["statistic"]: m for m in result["measures"]}
    assert {m["name"] for m in result["measures"]} == {"completability"}
    assert set(stats) == {"median", "worst"}
    assert 0 < stats["median"]["value"] <= stats["worst"]["value"]
    assert stats["median"]["params"]["decisions"] == 1000


# -- the workloads come from the families ---------------------------------------------


def test_the_families_declare_the_tables_measured() -> None:
    from rummykit.benchmark import ours, workloads
    from rummykit.variants.registry import all_rule_set_names

    assert {(t.rule_set, t.players) for t in workloads.playouts()} == PLAYOUTS
    assert workloads.reference().label == "basic 2p"
    tables = [*workloads.playouts(), *workloads.positions(),
              *(d.table for d in workloads.decisions())]
    assert {t.rule_set for t in tables} <= set(all_rule_set_names())
    titles = [title for title, _ in ours.tasks(Config.make(quick=True))]
    assert "random playout contract 6p" in titles
    assert "greedy vs greedy basic 2p" in titles
    assert "completability contract 4p" in titles
    goals = [g["name"] for g in goals_json([])]
    assert "completability after a dig or swap, contract 4p: worst (us per decision)" in goals


def test_a_new_family_folder_adds_its_workloads(tmp_path: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from rummykit.benchmark.workloads import workloads_of

    family = tmp_path / "benchfamily"
    family.mkdir()
    (family / "__init__.py").write_text("")
    (family / "variant.py").write_text("class Family:\n    name = 'newfam'\n")
    (family / "benchmarks.py").write_text(
        "from rummykit.variants.workloads import Table, Workloads\n"
        "WORKLOADS = Workloads(playouts=(Table('newfam', 3),))\n")
    bare = tmp_path / "barefamily"
    bare.mkdir()
    (bare / "__init__.py").write_text("")
    (bare / "variant.py").write_text("class Family:\n    name = 'bare'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    with_workloads = importlib.import_module("benchfamily.variant").Family()
    without = importlib.import_module("barefamily.variant").Family()
    found = workloads_of([with_workloads, without])
    assert [t.label for w in found for t in w.playouts] == ["newfam 3p"]
    (bare / "benchmarks.py").write_text("WORKLOADS = 3\n")
    with pytest.raises(TypeError, match=r"barefamily\.benchmarks\.WORKLOADS"):
        workloads_of([without])
