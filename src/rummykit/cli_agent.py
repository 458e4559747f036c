"""``rummykit agent``: an external program plays one seat of a match over JSON lines.

The protocol is in docs/agents.md. Arguments are checked before the program starts; a bad
one prints one line on stderr and exits with status 2. The agent's own output goes to the
protocol only; its stderr passes through to ours. This module is imported at start-up by
``rummykit.cli``, so the agent machinery is imported when the command runs.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rummykit.errors import RummyError

if TYPE_CHECKING:
    from rummykit.agents import SubprocessAgent
    from rummykit.match import Match


def summary(match: Match, seat: int, agent: SubprocessAgent) -> dict[str, Any]:
    """The JSON summary of the match from the agent's side."""
    hands = [log.result.to_json() for log in match.hands if log.result is not None]
    return {"players": match.players, "seat": seat, "hands": hands,
            "totals": match.totals, "winners": list(match.winners),
            "agent": {"failures": dict(agent.failures), "stopped": agent.stopped}}


def agent(
    command: Annotated[list[str], typer.Argument(
        help="The agent's command line, after '--' (e.g. -- python3 my_agent.py).")],
    rules: Annotated[str, typer.Option("--rules", "-r", help="basic, traditional or contract.")]
        = "basic",
    seat: Annotated[int, typer.Option(help="The agent's seat, 0-based.")] = 0,
    players: Annotated[int, typer.Option("--players", "-p", help="Number of seats.")] = 2,
    bots: Annotated[str | None, typer.Option(
        help="The other seats' bots in seat order, comma-separated (one name serves every "
             "seat); default greedy.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the deals.")]
        = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="KEY=VALUE",
        help="Rule knob override (RULES.md §5), repeatable; VALUE is JSON or text.")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds the agent has for each answer.")]
        = 10.0,
    retries: Annotated[int, typer.Option(
        help="New answers allowed after a rejected one, per turn.")] = 3,
    fallback: Annotated[str, typer.Option(
        help="Who plays a turn the agent fails (a bot name), or 'forfeit' to stop the "
             "match.")] = "random",
    save: Annotated[Path | None, typer.Option(help="Write the match record (JSON) here.")]
        = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
) -> None:
    """Run an external program as a player over stdin/stdout JSON lines (docs/agents.md)."""
    from rummykit.cli import ArgumentError, bot_list, bot_rules, fail

    try:
        chosen = bot_rules(rules, option, players)
        if not 0 <= seat < players:
            raise ArgumentError(f"--seat {seat}: expected 0..{players - 1}")
        others = bot_list(bots, players - 1)
        if timeout <= 0:
            raise ArgumentError(f"--timeout {timeout:g}: expected a positive number")
        if retries < 0:
            raise ArgumentError(f"--retries {retries}: expected 0 or more")
        if fallback != "forfeit":
            bot_list(fallback, 1)
        if save is not None and not save.parent.is_dir():
            raise ArgumentError(f"--save {str(save)!r}: the folder {str(save.parent)!r} "
                                "does not exist")
    except ArgumentError as error:
        fail(str(error))
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    raise typer.Exit(_run(chosen, command, seat, others, seed, timeout, retries, fallback,
                          save, as_json))


def _run(rules: Any, command: list[str], seat: int, others: list[str], seed: int,
         timeout: float, retries: int, fallback: str, save: Path | None,
         as_json: bool) -> int:
    from rummykit.agents import SubprocessAgent
    from rummykit.agents.play import play_match
    from rummykit.bots import Bot, make_bot
    from rummykit.record import dumps, record_of

    agent_player = SubprocessAgent(command, timeout=timeout, retries=retries,
                                   fallback=fallback)
    players: list[Bot] = [make_bot(name) for name in others]
    players.insert(seat, agent_player)
    kinds = [*others[:seat], "agent", *others[seat:]]
    names = [f"{kind}-{s}" for s, kind in enumerate(kinds)]

    def save_record(match: Match) -> None:
        if save is not None:
            save.write_text(dumps(record_of(match)), encoding="utf-8")

    try:
        match = play_match(rules, names, players, seed=seed, after_hand=save_record)
    except RummyError as error:
        print(f"rummykit: error: {error}", file=sys.stderr)
        return 1
    result = summary(match, seat, agent_player)
    if as_json:
        print(json.dumps(result))
    else:
        for number, hand in enumerate(result["hands"], 1):
            print(f"hand {number}: {hand['result']}, scores {hand['scores']}")
        print(f"totals {match.totals}; winners {[match.players[s] for s in match.winners]}")
        failures = ", ".join(f"{k} {v}" for k, v in sorted(agent_player.failures.items()))
        print(f"agent at seat {seat}: {failures or 'no failures'}"
              + (f"; stopped: {agent_player.stopped}" if agent_player.stopped else ""))
    return 0
