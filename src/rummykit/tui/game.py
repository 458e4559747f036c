"""The game behind the table: a :class:`Match`, its bots, the move log and the records.

No Textual here. The match (the engine) holds the game state; this class only wires you
(seat 0) and the bots to it and words what happens. Everything shown to you is
``view(state, 0)``; each bot sees only its own view.

>>> from rummykit.variants import BASIC
>>> game = Game(Setup(BASIC, "Ann", ("greedy",), seed=3))
>>> game.names, game.hand_no
(['Ann', 'Bob'], 1)
>>> game.log[0]
'Hand 1: Ann deals, Bob plays first.'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummykit.bots import Bot, make_bot
from rummykit.core.engine import HandState
from rummykit.core.errors import IllegalMoveError, RecordError
from rummykit.core.match import Match
from rummykit.core.moves import Move
from rummykit.core.record import Replay, dump, record_of, replay_file
from rummykit.core.rules import Rules
from rummykit.core.views import PlayerView, view
from rummykit.display.terms import facts_clause, facts_of, unit
from rummykit.display.wording import agree, bot_names
from rummykit.tui.words import describe
from rummykit.variants.base import RulesLike

SEAT = 0


@dataclass(frozen=True, slots=True)
class Setup:
    """What a new game needs: the rules, your name, one bot name per other seat, a seed."""

    rules: RulesLike  # core Rules for :class:`Game`; a knock family's for GinGame
    name: str
    bots: tuple[str, ...]
    seed: int


def resumable_seed(path: str | Path, replayed: Replay, match: object, why_not: str) -> int:
    """The seed of the record ``path`` replayed as ``replayed`` to ``match``, when a game can
    go on from it; else :class:`RecordError` quoting the path and why (``why_not`` when the
    replay itself did not fail)."""
    if replayed.error is not None or match is None or replayed.record is None:
        message = replayed.error.message if replayed.error else why_not
        raise RecordError(f"cannot load {str(path)!r}: {message}")
    return replayed.record.seed if replayed.record.seed is not None else 0


class SeatedGame:
    """What a game against bots at the table is, whatever the family: its match (a core
    ``FamilyMatch``), your seat, the move log; the current hand (``state``) is its own."""

    match: Any
    seat: int
    log: list[str]

    @property
    def state(self) -> Any:
        """The current hand (the family's)."""
        raise NotImplementedError

    def save(self, path: str | Path, *, logged: bool = True) -> None:
        """Write the match record (FORMATS.md §2) to ``path`` (and say so in the log)."""
        dump(record_of(self.match), path)
        if logged:
            self.log.append(f"Saved the match record to {path}.")

    @property
    def hand_no(self) -> int:
        """The number of the current hand, from 1."""
        return len(self.match.hands)

    @property
    def hand_over(self) -> bool:
        """True when the current hand has ended."""
        return bool(self.state.is_over)

    @property
    def bot_to_move(self) -> int | None:
        """The bot seat to move, or None (your turn, or the hand is over)."""
        state = self.state
        if state.is_over or state.to_move == self.seat:
            return None
        seat: int = state.to_move
        return seat

    def start_hand(self) -> None:
        """Deal the next hand (the family's)."""
        raise NotImplementedError

    def resume(self, path: str | Path) -> None:
        """Log where the match loaded from ``path`` stands; deal its next hand if one is due."""
        match = self.match
        self.log.append(f"Loaded {path}: hand {self.hand_no}, "
                        f"{sum(len(h.moves) for h in match.hands)} moves so far.")
        if match.state is None or (match.state.is_over and not match.over):
            self.start_hand()

    def mark(self) -> tuple[int, int]:
        """Where the match is: (hands dealt, moves made in the current hand)."""
        return self.hand_no, len(self.match.hands[-1].moves) if self.match.hands else 0


class Game(SeatedGame):
    """One match against bots, seen from seat 0."""

    match: Match

    def __init__(self, setup: Setup, match: Match | None = None) -> None:
        assert isinstance(setup.rules, Rules)
        self.setup = setup
        self.seat = SEAT
        self.match = match or Match(setup.rules, [setup.name, *bot_names(setup.name,
                                                                          len(setup.bots))],
                                    seed=setup.seed)
        self.names = list(self.match.players)
        self.bots: dict[int, Bot] = {s + 1: make_bot(kind) for s, kind in enumerate(setup.bots)}
        self.bot_rng = random.Random(f"rummykit-bots-{setup.seed}")
        self.log: list[str] = []
        self.hints = 0
        self.record_path: str | None = None  # the file this match is saved to, if any
        if match is None:
            self.start_hand()

    # -- loading ----------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path, bots: str = "medium") -> Game:
        """The match of a record file, ready to go on; the other seats are ``bots``."""
        replayed = replay_file(path)
        match = replayed.engine_match
        seed = resumable_seed(path, replayed, match, "no match" if replayed.match is None
                              else f"the terminal game does not play "
                                   f"{replayed.match.rules.name} yet")
        assert match is not None
        game = cls(Setup(match.rules, match.players[0], (bots,) * (match.num_players - 1),
                         seed), match)
        game.resume(path)
        return game

    # -- the state as you see it -------------------------------------------------------
    @property
    def state(self) -> HandState:
        """The current hand."""
        state = self.match.state
        assert state is not None
        return state

    def view(self) -> PlayerView:
        """Your view of the current hand."""
        return view(self.state, self.seat)

    def sheet(self) -> list[tuple[int, ...]]:
        """The points of every finished hand, one row per hand."""
        return [log.result.scores for log in self.match.hands if log.result is not None]

    # -- playing ----------------------------------------------------------------------
    def start_hand(self) -> None:
        """Deal the next hand."""
        state = self.match.start_hand()
        rules = self.match.rules
        text = (f"{unit(rules, capital=True)} {self.hand_no}: "
                f"{agree(self.names[state.dealer], 'deals')}, "
                f"{agree(self.names[state.to_move], 'plays')} first.")
        facts = facts_of(rules, state.num_players, state.deal_index)
        if facts:
            text = text[:-1] + f"; {facts_clause(facts)}."
        self.log.append(text)

    def play(self, move: Move | str) -> Move:
        """Your move, checked by the engine; raises its error (nothing changes) if illegal."""
        state = self.state
        if not state.is_over and state.to_move != self.seat:
            raise IllegalMoveError(f"it is {self.names[state.to_move]}'s turn, not yours")
        before = self.view()
        made = self.match.play(move)
        self.log.append(describe(self.names[self.seat], made, before, self.view(), own=True))
        return made

    def bot_choice(self) -> tuple[int, Move]:
        """The bot to move and its choice (from its own view); safe to run in a thread."""
        seat = self.bot_to_move
        assert seat is not None
        return seat, self.bots[seat].choose(view(self.state, seat), self.bot_rng)

    def bot_play(self, seat: int, move: Move) -> None:
        """Make a bot's chosen move and log it as the others see it."""
        before = view(self.state, seat)
        self.match.push(move)
        self.log.append(describe(self.names[seat], move, before, view(self.state, seat),
                                 own=False))

    def hint_lines(self, level: str) -> list[str]:
        """The search bot's advice for your decision (the game does not change)."""
        from rummykit.bots.hints import advice_lines, hint

        self.hints += 1
        rng = random.Random(f"rummykit-hint-{self.setup.seed}-{self.hints}")
        return advice_lines(hint(self.view(), level, rng), 5)
