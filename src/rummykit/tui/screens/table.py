"""The table: your hand, the other players, the melds, the pile, the scores and the log.

The screen owns the :class:`Game` (which owns the engine's match); it sets the widgets'
attributes from your view after every change and turns their messages into moves.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Footer, Input, Static

from rummykit.core.cards import Card
from rummykit.core.errors import RummyError
from rummykit.core.melds import JOKER_AS
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take
from rummykit.display.faces import card_face, typed_move
from rummykit.display.terms import terms_of, unit
from rummykit.display.wording import gained, plural
from rummykit.tui.actions import (
    SORTS,
    fit_tag,
    fits,
    guidance,
    keyed,
    label,
    matching,
    offered,
    ordered,
    points_line,
)
from rummykit.tui.game import Game
from rummykit.tui.screens.help import HelpScreen
from rummykit.tui.screens.pile import PileScreen
from rummykit.tui.screens.results import HandEndScreen, MatchEndScreen
from rummykit.tui.turns import FIRST_KEYS, LAST_KEYS, LAY_ON_KEYS, TableBase
from rummykit.tui.widgets import (
    ActionBar,
    DealInfo,
    HandView,
    Melds,
    MoveLog,
    Opponents,
    PileView,
    ScoreSheet,
    Summary,
)
from rummykit.tui.widgets.panels import sheet_lines

#: words the command box takes besides moves, and the actions they run
COMMANDS = {"help": "help", "hint": "hint", "pile": "pile", "sort": "sort",
            "new": "app.new_game", "save": "app.save", "load": "app.load", "quit": "app.quit"}


class TableScreen(TableBase):
    """The game table for one match against bots."""

    class HandEnded(Message):
        """A hand has just ended (the app may save the match)."""

    game: Game
    AUTO_FOCUS = "#hand"
    BINDINGS: ClassVar[list[BindingType]] = [
        *FIRST_KEYS,
        Binding("d", "draw", "Draw"),
        Binding("t", "take", "Take"),
        Binding("m", "meld", "Meld"),
        Binding("x", "discard", "Discard"),
        Binding("w", "swap", "Swap", show=False),
        *LAY_ON_KEYS,
        Binding("p", "pile", "Pile"),
        Binding("s", "sort", "Sort"),
        *LAST_KEYS,
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield DealInfo(id="deal")
                yield Opponents(id="players")
                yield ScoreSheet(id="scores")
            with Vertical(id="centre"):
                yield Summary(id="summary")
                yield Melds(id="melds")
                yield PileView(id="pile")
                yield Static(id="hand-title")
                yield HandView(id="hand")
                yield ActionBar(id="actions")
                yield Static(id="message")
                yield Input(id="command", placeholder=": a move (draw, meld 7♥ 8♥ 9♥, lay 6♥ "
                            "on 2, discard K♠) or help, hint, pile, sort, save, quit")
            yield MoveLog(id="log")
        yield Footer()

    # -- attributes down --------------------------------------------------------------
    def cards(self) -> list[Card]:
        """Your cards in display order."""
        return ordered(self.game.view(), self.sort)

    def chosen(self) -> list[Card]:
        """The selected cards."""
        cards = self.cards()
        return [cards[i] for i in sorted(self.selected) if i < len(cards)]

    def show(self) -> None:
        """Set every widget's attributes from your view of the game."""
        game, seen = self.game, self.game.view()
        names = tuple(game.names)
        cards = ordered(seen, self.sort)
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        for widget in (self.query_one(DealInfo), self.query_one(Opponents),
                       self.query_one(Melds), self.query_one(PileView)):
            widget.names = names
            widget.seen = seen
        rules = game.match.rules
        self.query_one(DealInfo).hand_count = (
            f" of {rules.num_hands}" if rules.game_end == "fixed_hands" else "")
        sheet = self.query_one(ScoreSheet)
        sheet.names, sheet.rows, sheet.totals = names, tuple(game.sheet()), tuple(
            game.match.totals)
        sheet.goal = self.goal()
        summary = self.query_one(Summary)
        summary.names, summary.totals, summary.goal = names, tuple(game.match.totals), self.goal()
        summary.hand_count = self.query_one(DealInfo).hand_count
        summary.seen = seen
        hand = self.query_one(HandView)
        hand.cards, hand.selected, hand.cursor = tuple(cards), self.selected, self.cursor
        hand.fresh = frozenset(positions(cards, self.fresh))
        fitting = fits(seen)
        hand.fits = tuple((i, fit_tag(fitting[c])) for i, c in enumerate(cards) if c in fitting)
        other = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.query_one("#hand-title", Static).update(
            f"Your hand: {plural(len(cards), 'card')}, {points_line(seen)} (s: by {other})")
        chosen = self.chosen()
        moves = offered(seen, chosen)
        self.query_one(ActionBar).entries = tuple(
            (move, label(move, seen, key)) for move, key in zip(moves, keyed(moves), strict=True))
        self.query_one(MoveLog).lines = tuple(game.log)
        self.query_one("#status", Static).update(guidance(seen, chosen))
        self.query_one("#message", Static).update(self.message)

    def goal(self) -> str:
        """The match's goal in a few words."""
        rules, players = self.game.match.rules, self.game.match.num_players
        if rules.game_end == "target":
            return f"first to {rules.target_for(players)}"
        lowest = "lowest" if terms_of(rules).lowest_wins else "highest"
        return f"{rules.num_hands} {unit(rules, plural=rules.num_hands != 1)}, {lowest} wins"

    # -- messages up ------------------------------------------------------------------

    def on_melds_chosen(self, event: Melds.Chosen) -> None:
        self.action_lay(event.number)

    def on_pile_view_clicked(self, event: PileView.Clicked) -> None:
        self.action_pile()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip().lstrip(":").strip()  # ":" is the key that opens the box
        event.input.value = ""
        if not text:
            return
        command = COMMANDS.get(text.lower())
        if command is not None:
            await self.app.run_action(command, self)
        else:
            try:
                self.attempt(typed_move(text))
            except RummyError as error:
                self.say(str(error), error=True)
        # the focus stays in the command box (escape leaves it), so that typing the next
        # move never fires the table's keys

    # -- moves ------------------------------------------------------------------------
    def attempt(self, move: Move | str) -> bool:
        """Try your move with the engine: made, or its reason shown and nothing changed."""
        if self.busy:
            self.say("Please wait: thinking...", error=True)
            return False
        before = self.game.view()
        try:
            made = self.game.play(move)
        except RummyError as error:
            self.say(str(error), error=True)
            return False
        if isinstance(made, (Draw, Take)):
            self.fresh = gained(before.hand, self.game.view().hand)
        elif self.game.state.to_move != self.game.seat or self.game.hand_over:
            self.fresh = []
        self.selected = frozenset()
        self.say(self.game.log[-1] + ".")
        self.advance()
        return True

    def end_hand(self) -> None:
        """Show the end-of-hand screen, then deal on or show the match's end."""
        game = self.game
        self.post_message(self.HandEnded())
        seen, names = game.view(), tuple(game.names)
        sheet = sheet_lines(names, tuple(game.sheet()), tuple(game.match.totals), self.goal())

        def next_hand(_: None) -> None:
            if game is not self.game:
                return
            if game.match.over:
                self.app.push_screen(MatchEndScreen(game.match.winners, names, sheet),
                                     self.after_match)
                return
            game.start_hand()
            self.selected = frozenset()
            self.fresh = []
            self.show()
            self.advance()

        self.app.push_screen(HandEndScreen(seen, names, sheet, game.match.over), next_hand)

    def new_game(self, game: Game) -> None:
        """Play ``game`` at this table from now on."""
        self.game = game
        self.restart()

    # -- actions ----------------------------------------------------------------------
    def action_meld(self) -> None:
        chosen = self.chosen()
        found = [m for m in matching(chosen, self.game.view().legal) if isinstance(m, Meld)]
        if len(chosen) < 3 and not found:
            self.say("Select the cards of the meld first (3 or more).", error=True)
            return
        if len(found) > 1:
            self.say("These cards meld in several ways: choose one of the buttons.",
                     error=True)
            return
        self.attempt(found[0] if found else Meld((tuple(chosen),)))

    def action_lay(self, number: int) -> None:
        chosen = self.chosen()
        if len(chosen) != 1:
            self.say("Select one card to lay off, then choose the meld.", error=True)
            return
        legal = matching(chosen, self.game.view().legal)
        found = [m for m in legal if isinstance(m, LayOff) and m.target == number]
        if len(found) > 1:
            self.say(f"The card fits meld {number} at either end: choose one of the buttons.",
                     error=True)
            return
        if not found and Swap(chosen[0], number) in legal:
            self.say(f"{card_face(chosen[0])} takes the place of the joker in meld "
                     f"{number}: press w to swap it for the joker.", error=True)
            return
        self.attempt(found[0] if found else LayOff(chosen[0], number))

    def action_swap(self) -> None:
        chosen = self.chosen()
        if len(chosen) != 1:
            self.say("Select the one card that a joker on the table stands for, then press w.",
                     error=True)
            return
        found = [m for m in matching(chosen, self.game.view().legal) if isinstance(m, Swap)]
        if len(found) > 1:
            self.say("Several jokers stand for this card: choose one of the buttons.",
                     error=True)
            return
        if not found:
            self.say(self.swap_refusal(chosen[0]), error=True)
            return
        self.attempt(found[0])

    def swap_refusal(self, card: Card) -> str:
        """Why ``card`` cannot be swapped now: the engine's reason for the meld holding a
        joker that stands for it, or that no such meld exists."""
        seen = self.game.view()
        holding = [n for n, meld in enumerate(seen.table, 1) if JOKER_AS + card in meld.cards]
        if not holding:
            return f"No joker on the table stands for {card_face(card)}."
        try:
            self.game.state.copy().play(Swap(card, holding[0]))
        except RummyError as error:
            return str(error)
        return f"cannot swap {card_face(card)} now"  # pragma: no cover - a legal swap is offered

    def action_discard(self) -> None:
        chosen = self.chosen()
        if len(chosen) != 1:
            self.say("Select the one card to discard.", error=True)
            return
        self.attempt(Discard(chosen[0]))

    def action_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.selected = frozenset()
        self.say(f"Your hand is sorted by {self.sort}.")

    def action_pile(self) -> None:
        def chosen(move: Move | None) -> None:
            if move is not None:
                self.attempt(move)

        self.app.push_screen(PileScreen(self.game.view()), chosen)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.game.match.rules, self.game.match.num_players))





def positions(cards: list[Card], wanted: list[Card]) -> list[int]:
    """The display positions of ``wanted`` (a multiset) in ``cards``."""
    found: list[int] = []
    for card in wanted:
        index = next((i for i, c in enumerate(cards) if c == card and i not in found), None)
        if index is not None:
            found.append(index)
    return found
