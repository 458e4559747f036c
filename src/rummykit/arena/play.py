"""Play one scheduled game to the end and keep what the statistics need, as plain values.

A :class:`GameResult` holds only tuples of numbers and strings, so it pickles cheaply
between processes and Ray workers. Each bot sees only its seat's view; every move goes
through the checked :meth:`Match.play`, so a bot's illegal move stops the arena with a
clear error instead of spoiling the results. An external agent that cannot start or stops
(:class:`~rummykit.agents.AgentError`) ends its game as a *failed* result: ``failure`` says
why, and the statistics leave it out.

>>> from rummykit.arena.schedule import schedule
>>> from rummykit.core.rules import Rules
>>> rules = Rules.from_options("basic", {"max_turns_per_hand": 2000})
>>> result = play_game(rules, schedule(["greedy", "random"], 2, 2, seed=3)[1])
>>> result.bots, len(result.hand_scores) == result.hands, len(result.winners) <= 2
(('random', 'greedy'), True, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.agents import AgentError, close_players, make_player, notify_hand_over
from rummykit.arena.schedule import GameSpec, bot_rng, hand_deck
from rummykit.core import record
from rummykit.core.errors import RummyError
from rummykit.core.match import FamilyMatch
from rummykit.core.outcome import ABORTED, DRAW
from rummykit.variants.base import RulesLike

MAX_HANDS = 10_000  # a match whose hands all abort would never end


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one game; ``seconds[s]`` lists seat ``s``'s times in ``choose``."""

    index: int
    deal_set: int
    rotation: int
    seed: int
    bots: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    hand_scores: tuple[tuple[int, ...], ...]  # per hand, per seat
    aborted_hands: int
    drawn_hands: int
    seconds: tuple[tuple[float, ...], ...]
    record: str | None = None  # the match record (JSON text) when asked for
    failure: str | None = None  # why an agent's failure stopped the game (not journaled)

    @property
    def hands(self) -> int:
        """The number of hands played."""
        return len(self.hand_scores)


def seat_names(bots: Sequence[str]) -> list[str]:
    """The players' names of a match: ``greedy-0``, ``random-1``..."""
    return [f"{bot}-{seat}" for seat, bot in enumerate(bots)]


def play_game(rules: RulesLike, spec: GameSpec, *, keep_record: bool = False) -> GameResult:
    """Play the game ``spec`` to the end of its match."""
    players = len(spec.bots)
    match: FamilyMatch[Any, Any] = FamilyMatch(rules, seat_names(spec.bots), seed=spec.seed)
    bots = [make_player(name, rules) for name in spec.bots]  # a bot, or agent:COMMAND
    rng = bot_rng(spec.seed, spec.rotation)
    seconds: list[list[float]] = [[] for _ in range(players)]
    failure = None
    try:
        while not match.over:
            if len(match.hands) == MAX_HANDS:
                raise RummyError(f"game {spec.index} (set {spec.deal_set}, rotation "
                                 f"{spec.rotation}): no winner after {MAX_HANDS} hands; is "
                                 "max_turns_per_hand so low that every hand is aborted?")
            state = match.start_hand(hand_deck(rules, players, spec.seed, len(match.hands)))
            while not state.is_over:
                seat = state.to_move
                seen = match.variant.view(state, seat)
                started = time.perf_counter()
                move = bots[seat].choose(seen, rng)
                seconds[seat].append(time.perf_counter() - started)
                try:
                    match.play(move)
                except RummyError as error:
                    raise RummyError(f"game {spec.index} (set {spec.deal_set}, rotation "
                                     f"{spec.rotation}): {spec.bots[seat]} at seat {seat} "
                                     f"chose {move}: {error}") from None
            notify_hand_over(bots, state)
    except AgentError as error:
        failure = f"game {spec.index} (set {spec.deal_set}, rotation {spec.rotation}): {error}"
    finally:
        close_players(bots, match.totals if match.over else (), match.winners)
    results = [log.result for log in match.hands if log.result is not None]
    return GameResult(
        spec.index, spec.deal_set, spec.rotation, spec.seed, spec.bots,
        tuple(match.scorer.settled_totals),  # a gin game's with its bonuses
        match.winners, tuple(r.scores for r in results),
        sum(r.result == ABORTED for r in results), sum(r.result == DRAW for r in results),
        tuple(tuple(s) for s in seconds),
        record.dumps(record.record_of(match)) if keep_record else None, failure)


def play_chunk(rules: RulesLike, specs: Sequence[GameSpec], keep_record: bool) -> list[GameResult]:
    """Play several games in order (the unit of work of the parallel runners)."""
    return [play_game(rules, spec, keep_record=keep_record) for spec in specs]
