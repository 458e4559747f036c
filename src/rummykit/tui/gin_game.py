"""The game behind the gin table: a gin match, its bot, the move log and the records.

No Textual here. Everything shown to you is the gin view of seat 0; the bot sees only its
own view. The interface is the one the app asks of :class:`~rummykit.tui.game.Game`
(setup, names, log, record path, save, mark, the bot's turn).

>>> from rummykit.tui.game import SeatedGame, Setup, resumable_seed
>>> from rummykit.variants.gin.rules import GIN
>>> game = GinGame(Setup(GIN, "Ann", ("greedy",), seed=3))
>>> game.names, game.hand_no, game.log[0].startswith("Hand 1: ")
(['Ann', 'Bob'], 1, True)
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from rummykit.bots import AnyBot, make_bot_for
from rummykit.core.cards import cards_of, format_cards
from rummykit.core.errors import IllegalMoveError
from rummykit.core.match import FamilyMatch
from rummykit.core.moves import Draw, Take
from rummykit.core.record import replay_file
from rummykit.display.wording import agree, bot_names
from rummykit.tui.game import SeatedGame, Setup, resumable_seed
from rummykit.variants.gin import text
from rummykit.variants.gin.game import ScoreSheet
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import GinMove
from rummykit.variants.gin.rules import GinRules
from rummykit.variants.gin.view import GinView, gin_view

SEAT = 0


class GinGame(SeatedGame):
    """One gin match against a bot, seen from seat 0."""

    def __init__(self, setup: Setup, match: FamilyMatch[GinRules, GinHand] | None = None
                 ) -> None:
        rules = setup.rules
        assert isinstance(rules, GinRules)
        self.setup = setup
        self.seat = SEAT
        self.match: FamilyMatch[GinRules, GinHand] = match or FamilyMatch(
            rules, [setup.name, *bot_names(setup.name, len(setup.bots))], seed=setup.seed)
        self.names = list(self.match.players)
        self.bots: dict[int, AnyBot] = {s + 1: make_bot_for(kind, setup.rules)
                                        for s, kind in enumerate(setup.bots)}
        self.bot_rng = random.Random(f"rummykit-bots-{setup.seed}")
        self.log: list[str] = []
        self.hints = 0
        self.record_path: str | None = None
        if match is None:
            self.start_hand()

    @classmethod
    def load(cls, path: str | Path, bots: str) -> GinGame:
        """The gin match of a record file, ready to go on; the bot seat is ``bots``."""
        replayed = replay_file(path)
        match: Any = replayed.match
        seed = resumable_seed(path, replayed, match, "no match")
        game = cls(Setup(match.rules, match.players[0], (bots,), seed), match)
        game.resume(path)
        return game

    # -- the state as you see it -------------------------------------------------------
    @property
    def state(self) -> GinHand:
        """The current hand."""
        state = self.match.state
        assert state is not None
        return state

    @property
    def sheet(self) -> ScoreSheet:
        """The match's score sheet."""
        sheet = self.match.scorer
        assert isinstance(sheet, ScoreSheet)
        return sheet

    def view(self, seat: int = SEAT) -> GinView:
        """A seat's view of the current hand (yours unless told)."""
        return gin_view(self.state, seat)

    # -- playing ----------------------------------------------------------------------
    def start_hand(self) -> None:
        """Deal the next hand."""
        state = self.match.start_hand()
        doubled = ", spade upcard: points doubled" if state.multiplier > 1 else ""
        self.log.append(f"Hand {self.hand_no}: {agree(self.names[state.dealer], 'deals')}; "
                        f"knock limit {state.knock_limit}{doubled}.")

    def play(self, move: GinMove | str) -> GinMove:
        """Your move, checked by the engine; raises its error (nothing changes) if illegal."""
        state = self.state
        if not state.is_over and state.to_move != self.seat:
            raise IllegalMoveError(f"it is {self.names[state.to_move]}'s turn, not yours")
        before = self.view()
        made: GinMove = self.match.play(move)
        after = self.view()
        if isinstance(made, (Draw, Take)):
            source = "the stock" if isinstance(made, Draw) else "the discard pile"
            self.log.append(f"You took {format_cards(cards_of(after.hand & ~before.hand))} "
                            f"from {source}")
        else:
            self.log.append(text.move_words("You", made, before, after))
        return made

    def bot_choice(self) -> tuple[int, GinMove]:
        """The bot to move and its choice (from its own view); safe to run in a thread."""
        seat = self.bot_to_move
        assert seat is not None
        move: GinMove = self.bots[seat].choose(self.view(seat), self.bot_rng)
        return seat, move

    def bot_play(self, seat: int, move: GinMove) -> None:
        """Make a bot's chosen move and log it as the others see it."""
        before = self.view()  # described as you see it: a knock's discard stays face down
        self.match.push(move)
        self.log.append(text.move_words(self.names[seat], move, before, self.view()))

    def hint_lines(self, level: str) -> list[str]:
        """The advice for your decision (the game does not change)."""
        from rummykit.cli.gin_hint import advice_lines

        self.hints += 1
        rng = random.Random(f"rummykit-hint-{self.setup.seed}-{self.hints}")
        return advice_lines(self.view(), level, rng)
