"""Players that see only a :class:`~rummykit.views.PlayerView`.

>>> import random
>>> from rummykit.engine import HandState
>>> from rummykit.rules import BASIC
>>> from rummykit.views import view
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(3))
>>> bot = make_bot("greedy")
>>> move = bot.choose(view(state, state.to_move), random.Random(0))
>>> move in state.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Callable

from rummykit.bots.base import Bot
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.random_bot import RandomBot
from rummykit.errors import RummyError

BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str) -> Bot:
    """A new bot by name: ``random`` or ``greedy``."""
    try:
        return BOTS[name]()
    except KeyError:
        raise RummyError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}") from None


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot"]
