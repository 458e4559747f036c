"""One match with agents and bots seated: every move checked, agents told each result."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rummykit.agents.seating import close_players, notify_hand_over
from rummykit.bots import Bot
from rummykit.core.errors import RummyError
from rummykit.core.match import Match
from rummykit.core.rules import Rules
from rummykit.core.views import view

MAX_HANDS = 10_000


def play_match(rules: Rules, names: Sequence[str], players: Sequence[Bot], *, seed: int,
               after_hand: Callable[[Match], None] = lambda match: None) -> Match:
    """Play a whole match; agents are closed at the end (or on an error)."""
    match = Match(rules, names, seed=seed)
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
        close_players(players, match.totals if match.over else (), match.winners)
    return match
