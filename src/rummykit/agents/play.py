"""One match with agents and bots seated: every move checked, agents told each result."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from rummykit.agents.seating import close_players, notify_hand_over
from rummykit.bots import AnyBot
from rummykit.core.errors import RummyError
from rummykit.core.match import FamilyMatch, Match
from rummykit.core.rules import Rules
from rummykit.variants.base import RulesLike

MAX_HANDS = 10_000


def play_match(rules: RulesLike, names: Sequence[str], players: Sequence[AnyBot], *,
               seed: int, after_hand: Callable[[FamilyMatch[Any, Any]], None] = lambda match: None
               ) -> FamilyMatch[Any, Any]:
    """Play a whole match of any family; agents are closed at the end (or on an error)."""
    match: FamilyMatch[Any, Any] = (Match(rules, names, seed=seed) if isinstance(rules, Rules)
                                    else FamilyMatch(rules, names, seed=seed))
    view = match.variant.view
    rng = random.Random(seed)
    try:
        while not match.over:
            if len(match.hands) == MAX_HANDS:
                raise RummyError(f"no winner after {MAX_HANDS} hands")
            state = match.start_hand()
            while not state.is_over:
                seat = state.to_move
                move = players[seat].choose(view(state, seat), rng)
                try:
                    match.play(move)
                except RummyError as error:
                    raise RummyError(f"{names[seat]} at seat {seat} chose {move}: "
                                     f"{error}") from None
            notify_hand_over(players, state)
            after_hand(match)
    finally:
        close_players(players, match.scorer.settled_totals if match.over else (),
                      match.winners)
    return match
