"""Players that see only a :class:`~rummykit.core.views.PlayerView`.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.variants import BASIC
>>> from rummykit.core.views import view
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(3))
>>> bot = make_bot("greedy")
>>> move = bot.choose(view(state, state.to_move), random.Random(0))
>>> move in state.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Callable

from rummykit.bots.base import Bot
from rummykit.bots.careless import CarelessBot
from rummykit.bots.expert import ExpertBot
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.random_bot import RandomBot
from rummykit.core.errors import RummyError

#: the levels the games offer, weakest first: ``easy`` is the careless bot, the others search
LEVELS = ("easy", "medium", "hard", "expert")

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "careless": CarelessBot,
    "easy": CarelessBot,
    "medium": lambda: ExpertBot.for_level("medium"),
    "hard": lambda: ExpertBot.for_level("hard"),
    "expert": lambda: ExpertBot.for_level("expert"),
}


def make_bot(name: str) -> Bot:
    """A new bot by name: ``random``, ``greedy``, ``expert`` or a level of :data:`LEVELS`."""
    try:
        return BOTS[name]()
    except KeyError:
        raise RummyError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}") from None


__all__ = ["BOTS", "LEVELS", "Bot", "CarelessBot", "ExpertBot", "GreedyBot", "RandomBot",
           "make_bot"]
