"""The match an environment runs, for any family: :class:`rummykit.rl.game.Game` for a
family on the engine's ``HandState``, :class:`rummykit.rl.own_game.OwnGame` for one that
encodes itself (the kind comes from the family, :mod:`rummykit.rl.encodings`)."""

from __future__ import annotations

from typing import Any

from rummykit.rl.encodings import kind_of
from rummykit.rl.game import Game
from rummykit.rl.own_game import OwnGame

__all__ = ["GAME_KINDS", "make_game"]

#: the match class of each encoding kind
GAME_KINDS: dict[str, type[Any]] = {"table": Game, "own": OwnGame}


def make_game(rules: Any, players: int = 2, **kwargs: Any) -> Any:
    """The match of ``rules`` (a rule-set name or a rules value) for ``players`` seats;
    keyword arguments: those of :class:`~rummykit.rl.game.Game`."""
    return GAME_KINDS[kind_of(rules if isinstance(rules, str) else rules.name)](
        rules, players, **kwargs)
