"""``examples/train_basic.py`` runs end to end (a very short smoke run: a few hands)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_basic.py"


def test_train_basic_smoke(capsys) -> None:
    spec = importlib.util.spec_from_file_location("train_basic", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(["--episodes", "3", "--eval", "2", "--seed", "1"])
    assert result["hands"] == 3
    assert 0.0 <= result["win_rate_after"] <= 1.0
    assert "trained policy: wins" in capsys.readouterr().out
