"""A PNG of an arena: each bot's win rate with its 95% interval, and its points per hand.

Drawn with matplotlib's object API on the Agg canvas (no pyplot, no display needed).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from rummykit.arena.play import GameResult
from rummykit.arena.stats import tally


def plot(report: dict[str, Any], results: Sequence[GameResult], path: Path) -> None:
    """Write the two panels to ``path`` as a PNG."""
    bots = report["bots"]
    names = [bot["bot"] for bot in bots]
    figure = Figure(figsize=(11, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    rates, spread = figure.add_subplot(1, 2, 1), figure.add_subplot(1, 2, 2)
    means = [bot["win_rate"] for bot in bots]
    below = [bot["win_rate"] - bot["interval"][0] for bot in bots]
    above = [bot["interval"][1] - bot["win_rate"] for bot in bots]
    rates.bar(names, means, yerr=[below, above], capsize=6, color="tab:blue", alpha=0.8)
    rates.axhline(1 / report["arguments"]["players"], color="grey", linestyle="--",
                  label="an equal share")
    rates.set_ylim(0, 1)
    rates.set_ylabel("match win rate (95% interval)")
    rates.set_title(f"{report['games']} games, {report['deal_sets']} mirrored deal sets")
    rates.legend(loc="upper right")
    points = tally([game for game in results if game.failure is None])
    spread.hist([points[name].hand_points for name in names], bins=30, label=names,
                   histtype="step", linewidth=1.5)
    spread.set_yscale("log")
    spread.set_xlabel("points per hand")
    spread.set_ylabel("hands (log scale)")
    spread.set_title("points per hand")
    spread.legend(loc="upper right")
    figure.suptitle(f"{report['arguments']['rules']} rummy arena, seed "
                    f"{report['arguments']['seed']}")
    figure.savefig(path, format="png", dpi=100)
