"""External programs as players over the JSON-lines protocol of docs/agents.md.

``protocol`` holds the wire messages (the view serialised from a PlayerView only),
``subprocess_agent`` the Bot that runs a program, ``seating`` the ``agent:COMMAND`` names the
arena and ``rummykit agent`` seat.
"""

from rummykit.agents.protocol import PROTOCOL, view_json
from rummykit.agents.seating import (
    check_player,
    close_players,
    is_agent,
    make_player,
    notify_hand_over,
)
from rummykit.agents.subprocess_agent import AgentError, SubprocessAgent

__all__ = ["PROTOCOL", "AgentError", "SubprocessAgent", "check_player", "close_players",
           "is_agent", "make_player", "notify_hand_over", "view_json"]
