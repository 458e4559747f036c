"""``rummykit arena``: whole matches between bots on mirrored deals, with sound statistics.

Arguments are checked before any game is played, a ``--journal`` file too; a bad one
prints one line quoting it on stderr and exits with status 2. Only light modules are
imported here (``rummykit.cli.main`` imports this module at start-up); the arena itself is
imported when the command runs.

>>> lineup("Greedy, random", 4)
('greedy', 'random')
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rummykit.agents.seating import check_player, is_agent
from rummykit.cli.rule_sets import DEFAULT_RULES, RULES_HELP
from rummykit.core.errors import RummyError
from rummykit.extras import require

if TYPE_CHECKING:
    from rummykit.arena import ArenaConfig
    from rummykit.arena.journal import Journal
    from rummykit.arena.play import GameResult

BACKENDS = ("local", "ray")


def lineup(spec: str, players: int) -> tuple[str, ...]:
    """The bot names (or ``agent:COMMAND``) of ``--bots``, checked (ValueError says why)."""
    names = tuple(name.strip() if is_agent(name) else name.strip().lower()
                  for name in spec.split(","))
    if not all(names):
        raise ValueError(f"--bots {spec!r}: expected comma-separated bot names")
    if len(names) > players:
        raise ValueError(f"--bots {spec!r} names {len(names)} bots for {players} seats")
    for name in names:
        try:
            check_player(name)
        except RummyError as error:
            raise ValueError(f"--bots {spec!r}: {error}") from None
    return names


def _writable(option: str, path: Path) -> None:
    """Refuse an output file whose folder does not exist (before any game is played)."""
    if not path.parent.is_dir():
        raise ValueError(f"{option} {str(path)!r}: the folder {str(path.parent)!r} does not "
                         "exist")


def arena(
    rules: Annotated[str, typer.Option("--rules", "-r", help=RULES_HELP)]
        = DEFAULT_RULES,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="KEY=VALUE",
        help="Rule knob override (docs/rules/options.md), repeatable; VALUE is JSON or "
                 "text.")] = None,
    players: Annotated[int, typer.Option("--players", "-p", help="Number of seats.")] = 2,
    bots: Annotated[str, typer.Option(
        help="One bot per seat, comma-separated (random, greedy, expert, ..., or "
             "agent:COMMAND for an external program, docs/agents.md); the last fills the "
             "remaining seats.")] = "greedy,random",
    games: Annotated[int, typer.Option(
        help="Matches to play, rounded up to whole deal sets (a multiple of --players).")]
        = 100,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.")] = 1,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", help="Seed of the deals and the bots (default: random).")] = None,
    backend: Annotated[str, typer.Option(help="local (processes) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(
        help="Ray cluster address (default: start a local Ray instance).")] = None,
    json_out: Annotated[str | None, typer.Option(
        "--json", metavar="PATH", help="Write the full report as JSON ('-' for stdout).")]
        = None,
    csv_out: Annotated[Path | None, typer.Option(
        "--csv", metavar="PATH", help="Write one CSV row per game and seat.")] = None,
    records: Annotated[Path | None, typer.Option(
        metavar="DIR", help="Write every game's .rummy.json record into this folder.")] = None,
    plot_out: Annotated[Path | None, typer.Option(
        "--plot", metavar="FILE.png", help="Draw win rates and points per hand.")] = None,
    journal: Annotated[Path | None, typer.Option(
        metavar="FILE.jsonl",
        help="Append every finished game to this file; when it exists, resume the run it "
             "holds: its games are not played again, the report is the same as one whole "
             "run's. The other arguments must match it (--seed defaults to its seed).")]
        = None,
    so_far: Annotated[bool, typer.Option(
        "--so-far", help="With --journal: report the whole deal sets it holds so far (a run "
                         "going on or stopped), playing nothing.")] = False,
    progress: Annotated[bool, typer.Option(help="Show a progress bar on stderr.")] = True,
) -> None:
    """Play whole matches between bots on mirrored deals; win rates, intervals, ratings."""
    from rummykit.cli.main import ArgumentError, bot_any_rules, bot_kinds, fail

    try:
        chosen = bot_any_rules(rules, option, players)  # RULES.md §1.10
        names = lineup(bots, players)
        bot_kinds([n for n in names if not is_agent(n)], chosen)
        if games < 1:
            raise ValueError(f"--games {games}: expected 1 or more")
        if jobs < 1:
            raise ValueError(f"--jobs {jobs}: expected 1 or more")
        if backend not in BACKENDS:
            raise ValueError(f"--backend {backend!r}: expected local or ray")
        if address is not None and backend != "ray":
            raise ValueError(f"--address {address!r}: only with --backend ray")
        for flag, path in (("--json", None if json_out in (None, "-") else Path(str(json_out))),
                           ("--csv", csv_out), ("--plot", plot_out)):
            if path is not None:
                _writable(flag, path)
        if journal is not None:
            _writable("--journal", journal)
            if journal.is_dir():
                raise ValueError(f"--journal {str(journal)!r} is a folder; expected a file")
        if so_far and (journal is None or not journal.is_file()):
            raise ValueError(f"--so-far: expected --journal with an existing file, got "
                             f"{None if journal is None else str(journal)!r}")
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)
    except (ArgumentError, ValueError) as error:
        fail(str(error))
    except OSError as error:
        fail(f"--records {str(records)!r}: {error.strerror or error}")
    require("arena", "openskill", what="rummykit arena")
    if plot_out is not None:
        require("arena", "matplotlib", what="rummykit arena --plot")
    if backend == "ray":
        require("arena", "ray", what="rummykit arena --backend ray")
    from rummykit.arena import ArenaConfig
    from rummykit.arena.journal import load, stored_seed

    if seed is None and journal is not None:
        seed = stored_seed(journal)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    config = ArenaConfig(chosen, players, names, games, seed, backend, jobs, address, records)
    try:
        opened = None if journal is None else load(journal, config.arguments(), config.specs())
    except ValueError as error:
        fail(str(error))
    if so_far and opened is not None:
        from rummykit.arena.tournament import so_far as report_so_far

        report, results = report_so_far(config, opened)
        print(f"rummykit: note: --so-far: {report['so_far']['games_reported']} of the "
              f"{len(opened.done)} games in the journal (whole deal sets)", file=sys.stderr)
        _write(report, results, json_out, csv_out, plot_out)
        return
    _run(config, opened, json_out, csv_out, plot_out, progress)


def _resuming(journal: Journal, total: int) -> None:
    """Say on stderr what a journal already holds."""
    name = f"--journal {str(journal.path)!r}"
    if journal.torn:
        print(f"rummykit: note: {name}: dropped a torn last line (a run stopped while "
              "writing it); it is written again", file=sys.stderr)
    if journal.keep:
        print(f"rummykit: note: {name}: resuming seed {journal.header['seed']}, "
              f"{len(journal.done)} of {total} games already played", file=sys.stderr)


def _run(config: ArenaConfig, journal: Journal | None, json_out: str | None,
         csv_out: Path | None, plot_out: Path | None, progress: bool) -> None:
    """Play the arena (the games not in ``journal``) and write what was asked for."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from rummykit.arena import run_arena
    from rummykit.arena.schedule import rounded_games

    games, players = config.games, config.players
    total = rounded_games(games, players)
    if total != games:
        print(f"rummykit: note: --games {games} rounded up to {total} (whole deal sets of "
              f"{players} seat rotations)", file=sys.stderr)
    if journal is not None:
        _resuming(journal, total)
    console = Console(stderr=True)
    columns = (TextColumn("arena"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    try:
        with Progress(*columns, console=console, transient=True,
                      disable=not (progress and console.is_terminal)) as bar:
            task = bar.add_task("games", total=total,
                                completed=0 if journal is None else len(journal.done))
            report, results = run_arena(config, lambda n: bar.advance(task, n), journal)
    except (RummyError, ConnectionError) as error:
        print(f"rummykit: error: {error}", file=sys.stderr)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        if journal is None:
            raise
        print(f"rummykit: interrupted; the finished games are in --journal "
              f"{str(journal.path)!r}: the same command resumes the run", file=sys.stderr)
        raise typer.Exit(130) from None
    _write(report, results, json_out, csv_out, plot_out)
    if report["failed_games"]:
        print(f"rummykit: error: {report['failed_games']} of {report['games']} games failed "
              "(an agent could not start or stopped): the first: "
              f"{report['failures'][0]['error']}", file=sys.stderr)
        raise typer.Exit(1)


def _write(report: dict[str, Any], results: list[GameResult], json_out: str | None,
           csv_out: Path | None, plot_out: Path | None) -> None:
    """Show the report and write the files asked for."""
    from rummykit.arena.report import dump_json, render, write_csv

    if json_out == "-":
        dump_json(report, sys.stdout)
    else:
        render(report)
        if json_out is not None:
            with Path(json_out).open("w", encoding="utf-8") as out:
                dump_json(report, out)
    if csv_out is not None:
        write_csv(results, csv_out)
    if plot_out is not None:
        from rummykit.arena.plot import plot

        plot(report, results, plot_out)
