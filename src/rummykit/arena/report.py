"""Show an arena report: a Rich table, the JSON text, and a CSV with one row per game and seat."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rich import box
from rich.console import Console
from rich.table import Table

from rummykit.arena.play import GameResult

CSV_COLUMNS = ("game", "set", "rotation", "seed", "seat", "bot", "total", "won", "hands",
               "aborted_hands", "drawn_hands", "decisions", "decision_seconds")


def render(report: dict[str, Any], console: Console | None = None) -> None:
    """Print the per-bot table and a summary line."""
    console = console or Console()
    args = report["arguments"]
    table = Table(title=f"{args['rules']} rummy arena, {args['players']} players, "
                        f"seed {args['seed']}", box=box.SIMPLE_HEAD, pad_edge=False,
                  collapse_padding=True)
    for heading in ("bot", "games", "wins", "win %", "95% CI", "pts/hand", "rating",
                    "ms/move", "p95 ms"):
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for bot in report["bots"]:
        low, high = bot["interval"]
        rating, seconds = bot["rating"], bot["decision_seconds"]
        mark = "*" if bot["interval_method"] == "wilson" else ""
        table.add_row(
            bot["bot"], str(bot["matches"]), str(bot["wins"]), f"{bot['win_rate']:.1%}",
            f"{low * 100:.1f}-{high * 100:.1f}{mark}", f"{bot['mean_points_per_hand']:.2f}",
            f"{rating['mu']:.1f}±{rating['sigma']:.1f}", f"{seconds['mean'] * 1000:.2f}",
            f"{seconds['p95'] * 1000:.2f}")
    console.print(table)
    rounded = (f" ({args['games']} asked, rounded up to whole deal sets of "
               f"{args['players']})" if report["rounded_up"] else "")
    console.print(
        f"{report['games']} games{rounded} in {report['deal_sets']} mirrored deal "
        f"set{'' if report['deal_sets'] == 1 else 's'}; "
        f"{report['hands']} hands ({report['aborted_hands']} aborted, "
        f"{report['drawn_hands']} drawn); {report['drawn_matches']} matches without a "
        f"winner; {report['execution']['elapsed_seconds']:.2f} s. games: seats played; "
        "rating: OpenSkill mu±sigma")
    console.print("points per game (mean match total): " + ", ".join(
        f"{bot['bot']} {bot['mean_match_total']:.1f}" for bot in report["bots"]))
    failures = report.get("failures", [])
    if failures:
        console.print(f"[bold red]{len(failures)} failed game"
                      f"{'' if len(failures) == 1 else 's'}[/] (left out of the table):",
                      highlight=False)
        for failure in failures[:5]:
            console.print(f"  {failure['error']}", markup=False, highlight=False)
        if len(failures) > 5:
            console.print(f"  ... and {len(failures) - 5} more (--json lists them all)")
    if any(bot["interval_method"] == "wilson" for bot in report["bots"]):
        console.print("* Wilson interval over matches (one deal set, or no spread between "
                      "sets)")


def dump_json(report: dict[str, Any], out: TextIO) -> None:
    """Write the report as indented JSON."""
    json.dump(report, out, indent=2)
    out.write("\n")


def write_csv(results: Sequence[GameResult], path: Path) -> None:
    """One row per game and seat."""
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for game in results:
            if game.failure is not None:
                continue
            for seat, bot in enumerate(game.bots):
                writer.writerow([
                    game.index, game.deal_set, game.rotation, game.seed, seat, bot,
                    game.totals[seat], int(seat in game.winners), game.hands,
                    game.aborted_hands, game.drawn_hands, len(game.seconds[seat]),
                    f"{sum(game.seconds[seat]):.6f}"])
