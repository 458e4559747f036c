"""Seating players by name: a bot name, or ``agent:COMMAND`` for an external program.

``COMMAND`` is split like a shell line (:func:`shlex.split`), so quote paths with spaces;
it cannot hold a comma where names come as a comma-separated list (``--bots``).

>>> agent_command("agent: python3 examples/agents/random_agent.py")
['python3', 'examples/agents/random_agent.py']
>>> check_player("greedy"), is_agent("greedy")
(None, False)
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from rummykit.agents.subprocess_agent import SubprocessAgent
from rummykit.bots import AnyBot, make_bot, make_bot_for
from rummykit.core.errors import RummyError
from rummykit.variants.base import RulesLike
from rummykit.variants.registry import variant_of

AGENT_PREFIX = "agent:"


def is_agent(spec: str) -> bool:
    """Whether ``spec`` names an external agent."""
    return spec.strip().lower().startswith(AGENT_PREFIX)


def agent_command(spec: str) -> list[str]:
    """The command line of ``agent:COMMAND``; RummyError when it is empty or unquoted."""
    text = spec.strip()[len(AGENT_PREFIX):]
    try:
        command = shlex.split(text)
    except ValueError as error:
        raise RummyError(f"bad agent command {text!r}: {error}") from None
    if not command:
        raise RummyError(f"{spec!r}: expected agent:COMMAND, like agent:python3 my_agent.py")
    return command


def check_player(spec: str) -> None:
    """Refuse an unknown bot or an empty agent command, without starting anything."""
    if is_agent(spec):
        agent_command(spec)
    else:
        make_bot(spec)


def make_player(spec: str, rules: RulesLike | None = None) -> AnyBot:
    """A new player: the bot ``spec`` names (one that plays ``rules`` when given), or a
    :class:`SubprocessAgent` for ``agent:`` (the JSON agent protocol covers every
    family: the view is the family's own)."""
    if is_agent(spec):
        return SubprocessAgent(agent_command(spec), name=spec.strip())
    return make_bot(spec) if rules is None else make_bot_for(spec, rules)


def notify_hand_over(players: Sequence[AnyBot], state: Any) -> None:
    """Show each player that listens (an agent) the finished hand from its seat (the
    family's view of it)."""
    view = variant_of(state.rules).view
    for seat, player in enumerate(players):
        if isinstance(player, SubprocessAgent):
            player.hand_over(view(state, seat))


def close_players(players: Sequence[AnyBot], totals: Sequence[int] = (),
                  winners: Sequence[int] = ()) -> None:
    """End every agent's process (telling it the match result when given)."""
    for player in players:
        if isinstance(player, SubprocessAgent):
            player.close(totals, winners)
