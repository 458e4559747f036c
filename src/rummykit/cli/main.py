"""The ``rummykit`` command: ``play`` against bots, ``simulate`` bot games, ``replay`` records.

Arguments are parsed here at the edge into typed values (rules, bot names, seeds); a bad
argument prints one clear line on stderr and exits with status 2, never a traceback.

>>> parse_options(["ace_mode=high_or_low", "max_melds_per_turn=1", "target_score=null"])
{'ace_mode': 'high_or_low', 'max_melds_per_turn': 1, 'target_score': None}
>>> bot_list("greedy, random", 2)
['greedy', 'random']
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from rummykit import __version__
from rummykit.bots import BOTS, FAMILY_BOTS, make_bot_for
from rummykit.cli.rule_sets import DEFAULT_RULES, RULES_HELP, SUPPORTED_RULES
from rummykit.core.errors import RummyError
from rummykit.display.seats import default_bot
from rummykit.extras import MissingExtraError
from rummykit.variants.base import RulesLike
from rummykit.variants.registry import knob_options, variant_for

app = typer.Typer(
    name="rummykit",
    help="Rummy in the terminal: play against bots, simulate bot games, replay records.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _show_version(value: bool) -> None:
    if value:
        print(f"rummykit {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_show_version,
        help="Print the version and exit.")] = False,
) -> None:
    """Rummy in the terminal: play against bots, simulate bot games, replay records."""


class ArgumentError(ValueError):
    """A command-line argument that cannot be used; the message says why."""


def fail(message: str) -> NoReturn:
    """Print ``message`` as a usage error on stderr and exit with status 2."""
    print(f"rummykit: error: {message}", file=sys.stderr)
    raise typer.Exit(2)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs as knob overrides; a value is JSON when it parses, else a string."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ArgumentError(f"bad --option {pair!r}: expected KEY=VALUE, like ace_mode=low")
        try:
            options[key] = json.loads(text)
        except json.JSONDecodeError:
            options[key] = text.strip()
    return options


def load_any_rules(name: str, options: dict[str, Any]) -> RulesLike:
    """The preset ``name`` of any registered family with ``options`` applied and validated
    by that family; a preset option names its choice (``deals=3``, :func:`knob_options`)."""
    if name not in SUPPORTED_RULES:
        raise ArgumentError(f"unknown rule set {name!r}: expected one of "
                            f"{', '.join(SUPPORTED_RULES)}")
    try:
        options = knob_options(name, options)
    except RummyError as error:
        raise ArgumentError(str(error)) from None
    except ValueError as error:
        raise ArgumentError(f"--option {error}") from None
    try:
        chosen: RulesLike = variant_for(name).rules_from_options(name, options)
    except RummyError as error:
        raise ArgumentError(str(error)) from None
    return chosen


def bot_list(spec: str | None, seats: int) -> list[str]:
    """One bot name per seat from a comma-separated list (one name serves every seat)."""
    if spec is None:
        return ["greedy"] * seats
    names = [n.strip().lower() for n in spec.split(",")]
    known = dict.fromkeys([*BOTS, *(name for table in FAMILY_BOTS.values() for name in table)])
    for name in names:
        if name not in known:
            raise ArgumentError(f"unknown bot {name!r}: expected one of {', '.join(known)}")
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise ArgumentError(f"--bots {spec!r} names {len(names)} bots for {seats} bot seats")
    return names


def check_players(rules: RulesLike, players: int) -> None:
    """Refuse a player count the rule set cannot seat."""
    try:
        rules.check_players(players)
    except RummyError as error:
        raise ArgumentError(f"--players: {error}") from None


RulesArg = Annotated[str, typer.Option("--rules", "-r", help=RULES_HELP)]
PlayersArg = Annotated[int, typer.Option("--players", "-p", help="Number of seats.")]
SeedArg = Annotated[
    int | None, typer.Option("--seed", "-s", help="Seed for the deals and the bots.")
]
OptionArg = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="KEY=VALUE",
                 help="Rule knob override (docs/rules/options.md), repeatable; VALUE is JSON or "
                 "text."),
]


def bot_any_rules(name: str, option: list[str] | None, players: int) -> RulesLike:
    """The rules of a bot-only run of any family (``simulate``, ``arena``): the options
    given; the rules' own ``max_turns_per_hand`` bounds a hand (RULES.md §1.10)."""
    chosen = load_any_rules(name, parse_options(option or []))
    check_players(chosen, players)
    return chosen


def bot_kinds(kinds: list[str], rules: RulesLike) -> None:
    """Refuse a bot that does not play ``rules`` (a family with bots of its own)."""
    for kind in kinds:
        try:
            make_bot_for(kind, rules)
        except RummyError as error:
            raise ArgumentError(f"--bots: {error}") from None


@app.command()
def play(
    rules: RulesArg = DEFAULT_RULES,
    players: PlayersArg = 2,
    bots: Annotated[str | None, typer.Option(
        help="Bots for seats 1.. as a comma list of levels (easy, medium, hard, expert) or "
            "bots (greedy, careless, random); one name serves every seat; default medium.")] = None,
    name: Annotated[str, typer.Option(help="Your name (you sit at seat 0).")] = "You",
    seed: SeedArg = None,
    option: OptionArg = None,
    save: Annotated[Path | None, typer.Option(
        help="Write the match record (JSON) here after each hand and on leaving.")] = None,
    plain: Annotated[bool, typer.Option(
        "--plain", help="Line mode even in a terminal (the full-screen table is the default "
        "when standard input and output are a terminal).")] = False,
) -> None:
    """Play a match in the terminal against bots: a full-screen table, or one line per move."""
    try:
        chosen = load_any_rules(rules, parse_options(option or []))
        check_players(chosen, players)
        kinds = bot_list(default_bot(chosen) if bots is None else bots, players - 1)
        bot_kinds(kinds, chosen)
    except ArgumentError as error:
        fail(str(error))
    name = name.strip()
    if not name or not name.isprintable():
        fail(f"--name {name!r}: expected a printable, non-empty name")
    if save is not None and not save.parent.is_dir():
        fail(f"--save {str(save)!r}: the folder {str(save.parent)!r} does not exist")
    if save is not None and save.is_dir():
        fail(f"--save {str(save)!r}: that is a folder, not a file name")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    if not plain and sys.stdin.isatty() and sys.stdout.isatty():
        from rummykit.cli.play import full_screen

        status = full_screen(chosen, name, kinds, seed=seed,
                             save=None if save is None else str(save))
        if status is not None:
            raise typer.Exit(status)
    raise typer.Exit(line_session(chosen, name, kinds, seed=seed,
                                  save=None if save is None else str(save)).run())


def line_session(rules: Any, name: str, kinds: list[str], *, seed: int,
                 save: str | None) -> Any:
    """The line game for the kind of table ``rules`` play on."""
    from rummykit.variants.table_kinds import KNOCK, table_kind

    if table_kind(rules) == KNOCK:
        from rummykit.cli.gin_play import GinPlaySession

        return GinPlaySession(rules, name, kinds, seed=seed, save=save)
    from rummykit.cli.play import PlaySession

    return PlaySession(rules, name, kinds, seed=seed, save=save)


@app.command()
def simulate(
    rules: RulesArg = DEFAULT_RULES,
    players: PlayersArg = 2,
    bots: Annotated[str | None, typer.Option(
        help="One bot per seat as a comma list of greedy or random (one name serves "
            "every seat); default greedy.")] = None,
    games: Annotated[int | None, typer.Option(help="Whole matches to play (default 10).")] = None,
    hands: Annotated[int | None, typer.Option(
        help="Play this many hands instead of whole matches.")] = None,
    seed: SeedArg = None,
    option: OptionArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    progress: Annotated[bool, typer.Option(help="Show a progress bar on stderr.")] = True,
) -> None:
    """Play bots against each other and print per-seat statistics."""
    from rummykit.cli.simulate import Simulation, render

    try:
        chosen = bot_any_rules(rules, option, players)
        kinds = bot_list(bots, players)
        bot_kinds(kinds, chosen)
    except ArgumentError as error:
        fail(str(error))
    if games is not None and hands is not None:
        fail("give --games or --hands, not both")
    count = hands if hands is not None else games if games is not None else 10
    if count < 1:
        fail(f"--{'hands' if hands is not None else 'games'} {count}: expected 1 or more")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    sim = Simulation(chosen, kinds, seed=seed)
    stats = sim.run(count, by_hands=hands is not None, progress=progress)
    if as_json:
        print(json.dumps(stats, indent=2))
    else:
        render(stats)


@app.command()
def replay(
    file: Annotated[str, typer.Argument(help="A .rummy.json match record.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON replay output.")] = False,
    check: Annotated[bool, typer.Option(help="Verify the record's stored results.")] = False,
) -> None:
    """Replay a match record and print its account (or JSON with --json)."""
    from rummykit.cli.replay import run

    status, output = run(file, as_json, check)
    if output:
        sys.stdout.write(output if output.endswith("\n") else output + "\n")
    raise typer.Exit(status)


app.command("arena")(__import__("rummykit.cli.arena", fromlist=["arena"]).arena)
app.command("hint")(__import__("rummykit.cli.hint", fromlist=["hint"]).hint)
app.command("agent")(__import__("rummykit.cli.agent", fromlist=["agent"]).agent)
app.command("serve")(__import__("rummykit.server.serve", fromlist=["serve"]).serve)


def main() -> None:
    """Run the ``rummykit`` command; a part whose extra is missing says which to install."""
    try:
        app(prog_name="rummykit")
    except MissingExtraError as error:
        print(f"rummykit: error: {error}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
