"""The OpenSpiel ``GameType`` of every rummykit game (:mod:`rummykit.rl.openspiel_game`,
:mod:`rummykit.rl.openspiel_own`): sequential, explicit chance, imperfect information,
terminal rewards, observations and information states as strings and tensors, and the
shared parameters."""

from __future__ import annotations

from typing import Any

import pyspiel

__all__ = ["DEFAULT_MAX_HANDS", "DEFAULT_MAX_TURNS", "game_type"]

DEFAULT_MAX_TURNS = 200
DEFAULT_MAX_HANDS = 50


def game_type(short_name: str, long_name: str, players: tuple[int, int],
              utility: Any = pyspiel.GameType.Utility.ZERO_SUM) -> pyspiel.GameType:
    """The game type of a rummykit game for ``players`` (fewest, most) seats."""
    low, high = players
    return pyspiel.GameType(
        short_name=short_name, long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": low, "dealer": 0, "max_turns": DEFAULT_MAX_TURNS,
                                 "options": "{}", "returns": "relative", "match": False,
                                 "max_hands": DEFAULT_MAX_HANDS})
