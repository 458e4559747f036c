"""``rummykit agent``: an external program plays one seat of a match over JSON lines.

The protocol is in docs/agents.md. Arguments are checked before the program starts; a bad
one prints one line on stderr and exits with status 2. The agent's own output goes to the
protocol only; its stderr passes through to ours. This module is imported at start-up by
``rummykit.cli.main``, so the agent machinery is imported when the command runs.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rummykit.cli.rule_sets import DEFAULT_RULES, RULES_HELP
from rummykit.core.errors import RummyError

if TYPE_CHECKING:
    from rummykit.agents import SubprocessAgent
    from rummykit.core.match import FamilyMatch


def summary(match: FamilyMatch[Any, Any], seat: int, agent: SubprocessAgent) -> dict[str, Any]:
    """The JSON summary of the match from the agent's side."""
    hands = [log.result.to_json() for log in match.hands if log.result is not None]
    return {"players": match.players, "seat": seat, "hands": hands,
            "totals": match.scorer.settled_totals, "winners": list(match.winners),
            "agent": {"failures": dict(agent.failures), "stopped": agent.stopped}}


def save_path(save: Path, game: int, games: int) -> Path:
    """Where match ``game`` (0-based) of ``games`` is saved: ``save`` itself for one match,
    else the game number before the suffix.

    >>> str(save_path(Path("m.rummy.json"), 1, 3))
    'm-2.rummy.json'
    """
    if games == 1:
        return save
    stem, dot, suffix = save.name.partition(".")
    return save.with_name(f"{stem}-{game + 1}{dot}{suffix}")


def agent(
    command: Annotated[list[str], typer.Argument(
        help="The agent's command line, after '--' (e.g. -- python3 my_agent.py).")],
    rules: Annotated[str, typer.Option("--rules", "-r", help=RULES_HELP)]
        = DEFAULT_RULES,
    seat: Annotated[int, typer.Option(help="The agent's seat, 0-based.")] = 0,
    players: Annotated[int, typer.Option("--players", "-p", help="Number of seats.")] = 2,
    bots: Annotated[str | None, typer.Option(
        help="The other seats' bots in seat order, comma-separated (one name serves every "
             "seat); default greedy.")] = None,
    games: Annotated[int, typer.Option(
        help="Matches to play, each with a new process; match i has seed SEED+i.")] = 1,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the deals.")]
        = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="KEY=VALUE",
        help="Rule knob override (docs/rules/options.md), repeatable; VALUE is JSON or "
                 "text.")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds the agent has for each answer.")]
        = 10.0,
    startup_timeout: Annotated[float, typer.Option(
        help="Seconds the agent has to start and reply to hello.")] = 30.0,
    max_timeouts: Annotated[int, typer.Option(
        help="Turns in a row without an answer in time before the agent is stopped.")] = 3,
    retries: Annotated[int, typer.Option(
        help="New answers allowed after a rejected one, per turn.")] = 3,
    fallback: Annotated[str, typer.Option(
        help="Who plays a turn the agent fails (a bot name), or 'forfeit' to stop the "
             "match.")] = "random",
    stand_in: Annotated[str | None, typer.Option(
        help="A bot that plays on for an agent that cannot start or stops (the exit status "
             "is still 1); by default the match stops.")] = None,
    save: Annotated[Path | None, typer.Option(
        help="Write the match record (JSON) here (with --games, NAME-1.rummy.json, ...).")]
        = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
) -> None:
    """Run an external program as a player over stdin/stdout JSON lines (docs/agents.md)."""
    from rummykit.cli.main import ArgumentError, bot_any_rules, bot_kinds, bot_list, fail

    try:
        chosen = bot_any_rules(rules, option, players)
        if not 0 <= seat < players:
            raise ArgumentError(f"--seat {seat}: expected 0..{players - 1}")
        others = bot_list(bots, players - 1)
        bot_kinds(others, chosen)
        if games < 1:
            raise ArgumentError(f"--games {games}: expected 1 or more")
        for flag, value in (("--timeout", timeout), ("--startup-timeout", startup_timeout)):
            if not value > 0:
                raise ArgumentError(f"{flag} {value:g}: expected a positive number")
        if max_timeouts < 1:
            raise ArgumentError(f"--max-timeouts {max_timeouts}: expected 1 or more")
        if retries < 0:
            raise ArgumentError(f"--retries {retries}: expected 0 or more")
        if fallback != "forfeit":
            bot_kinds(bot_list(fallback, 1), chosen)
        if stand_in is not None:
            bot_kinds(bot_list(stand_in, 1), chosen)
        if save is not None and not save.parent.is_dir():
            raise ArgumentError(f"--save {str(save)!r}: the folder {str(save.parent)!r} "
                                "does not exist")
    except ArgumentError as error:
        fail(str(error))
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    limits = {"timeout": timeout, "startup_timeout": startup_timeout, "retries": retries,
              "fallback": fallback, "max_timeouts": max_timeouts, "stand_in": stand_in}
    raise typer.Exit(_run(chosen, command, seat, others, seed, games, limits, save, as_json))


def _run(rules: Any, command: list[str], seat: int, others: list[str], seed: int,
         games: int, limits: dict[str, Any], save: Path | None, as_json: bool) -> int:
    """Play the matches; status 1 when the agent failed (could not start, stopped,
    forfeited) in any of them."""
    from rummykit.agents import SubprocessAgent
    from rummykit.agents.play import play_match
    from rummykit.bots import AnyBot, make_bot_for
    from rummykit.core.record import dumps, record_of

    kinds = [*others[:seat], "agent", *others[seat:]]
    names = [f"{kind}-{s}" for s, kind in enumerate(kinds)]
    summaries: list[dict[str, Any]] = []
    failed = 0
    for game in range(games):
        agent_player = SubprocessAgent(command, **limits)
        players: list[AnyBot] = [make_bot_for(name, rules) for name in others]
        players.insert(seat, agent_player)

        def save_record(match: FamilyMatch[Any, Any], game: int = game) -> None:
            if save is not None:
                save_path(save, game, games).write_text(dumps(record_of(match)),
                                                        encoding="utf-8")

        try:
            match = play_match(rules, names, players, seed=seed + game, after_hand=save_record)
        except RummyError as error:
            print(f"rummykit: error: match {game + 1}: {error}" if games > 1
                  else f"rummykit: error: {error}", file=sys.stderr)
            failed += 1
            summaries.append({"seed": seed + game, "error": str(error),
                              "agent": {"failures": dict(agent_player.failures),
                                        "stopped": agent_player.stopped}})
            continue
        result = summary(match, seat, agent_player)
        failed += agent_player.stopped is not None
        summaries.append({"seed": seed + game, **result} if games > 1 else result)
        if not as_json:
            _show(result, match, seat, game if games > 1 else None)
    if as_json:
        if games == 1:
            print(json.dumps(summaries[0]))
        else:
            played = [s for s in summaries if "error" not in s]
            print(json.dumps({"games": games, "seat": seat, "failed": failed,
                              "agent_wins": sum(seat in s["winners"] for s in played),
                              "matches": summaries}))
    elif games > 1:
        wins = sum(seat in s.get("winners", ()) for s in summaries)
        print(f"agent at seat {seat}: {wins} of {games} matches won, {failed} failed")
    return 1 if failed else 0


def _show(result: dict[str, Any], match: FamilyMatch[Any, Any], seat: int,
          game: int | None) -> None:
    """The readable summary of one match."""
    if game is not None:
        print(f"match {game + 1} (seed {match.seed}):")
    for number, hand in enumerate(result["hands"], 1):
        print(f"hand {number}: {hand['result']}, scores {hand['scores']}")
    winners = [match.players[s] for s in match.winners]
    print(f"totals {match.scorer.settled_totals}; winners {winners}")
    failures = ", ".join(f"{k} {v}" for k, v in sorted(result["agent"]["failures"].items()))
    stopped = result["agent"]["stopped"]
    print(f"agent at seat {seat}: {failures or 'no failures'}"
          + (f"; stopped: {stopped}" if stopped else ""))
