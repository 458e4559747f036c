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

import random
from collections.abc import Callable
from typing import Any, Protocol

from rummykit.bots.base import Bot
from rummykit.bots.careless import CarelessBot
from rummykit.bots.expert import ExpertBot
from rummykit.bots.gin_greedy import GinGreedyBot
from rummykit.bots.gin_search import GinSearchBot
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.random_bot import RandomBot
from rummykit.bots.simple_gin import SimpleGinBot
from rummykit.core.errors import RummyError
from rummykit.variants.base import RulesLike
from rummykit.variants.gin.variant import GIN_FAMILY
from rummykit.variants.registry import variant_of

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


class AnyBot(Protocol):
    """A bot of any family: chooses one of ``view.legal`` from its family's seat view."""

    name: str

    def choose(self, view: Any, rng: random.Random) -> Any:
        """The move to make; ``view`` is the family's view for the seat to move."""
        ...


#: the bots of a family whose hands are its own (not ``HandState``), by family name; the
#: random bot needs only ``view.legal``. Gin: ``easy`` is the greedy bot, the other levels
#: search (``bots.gin_search``); ``simple`` is the port of OpenSpiel's SimpleGinRummyBot.
FAMILY_BOTS: dict[str, dict[str, Callable[[], AnyBot]]] = {
    GIN_FAMILY.name: {
        "random": RandomBot, "greedy": GinGreedyBot, "simple": SimpleGinBot,
        "easy": GinGreedyBot,
        "medium": lambda: GinSearchBot.for_level("medium"),
        "hard": lambda: GinSearchBot.for_level("hard"),
        "expert": lambda: GinSearchBot.for_level("expert"),
    },
}


def make_bot_for(name: str, rules: RulesLike) -> AnyBot:
    """A new bot by name that plays ``rules``: :func:`make_bot`'s, or the family's own."""
    family = variant_of(rules).name
    if family not in FAMILY_BOTS:
        return make_bot(name)
    table = FAMILY_BOTS[family]
    try:
        return table[name]()
    except KeyError:
        raise RummyError(f"bot {name!r} does not play {rules.name}: expected one of "
                         f"{', '.join(table)}") from None


def make_bot(name: str) -> Bot:
    """A new bot by name: ``random``, ``greedy``, ``expert`` or a level of :data:`LEVELS`."""
    try:
        return BOTS[name]()
    except KeyError:
        raise RummyError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}") from None


__all__ = ["BOTS", "FAMILY_BOTS", "LEVELS", "AnyBot", "Bot", "CarelessBot", "ExpertBot",
           "GreedyBot", "RandomBot", "make_bot", "make_bot_for"]
