"""The gin table: the pile and the stock, the knock and the show, your hand, the moves.

The screen owns the :class:`GinGame`; it redraws from your gin view after every change.
The card under the cursor (or the one selected card) is the card the discard, knock and
lay-off keys act on; ``k`` offers the arrangements a knock may declare.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Footer, Input, Static

from rummykit.core.cards import Card, cards_of, format_card, rank_of
from rummykit.core.errors import RummyError
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take
from rummykit.display.faces import faces_in, typed_move
from rummykit.tui.actions import SORTS
from rummykit.tui.gin_game import GinGame
from rummykit.tui.screens.dialogs import TextScreen
from rummykit.tui.screens.gin_dialogs import GinHandEndScreen, KnockScreen
from rummykit.tui.screens.help import CARDS
from rummykit.tui.screens.results import MatchEndScreen
from rummykit.tui.turns import FIRST_KEYS, LAST_KEYS, LAY_ON_KEYS, TableBase
from rummykit.tui.widgets import ActionBar, HandView, MoveLog
from rummykit.variants.gin import text
from rummykit.variants.gin.moves import BigGin, Done, Gin, GinMove, Knock, Pass
from rummykit.variants.gin.output import sheet_lines
from rummykit.variants.gin.view import GinView

MAX_MELDS = 4

COMMANDS = {"help": "help", "hint": "hint", "sort": "sort", "new": "app.new_game",
            "save": "app.save", "load": "app.load", "quit": "app.quit"}

KEYS = """\
Keys: left/right move the cursor, space selects a card; the card under the cursor (or the
one selected) is the card that x, k, g and l act on.
  d draw from the stock        t take the discard top (or the first upcard)
  p pass (the first upcard, the wall)
  x discard the card           k knock discarding it (choose the melds to show)
  g gin discarding it (or big gin)
  l lay it off at the show     1-9 lay it off on that meld    m meld the selected cards
  e done: end the show         h hint    s sort    : type a move    ? help
  n new game   ctrl+s save   ctrl+o load   q quit (a new game, a load and quitting ask
  first). Marks on your cards: "new" is the card you just drew or took; "+2" at the show
  means the card can be laid off on the knocker's meld 2."""


def move_label(move: GinMove, seen: GinView) -> str:
    """A move's button text (cards as faces) with its key."""
    key = {Draw: "d", Take: "t", Pass: "p", Discard: "x", Knock: "k", Gin: "g",
           BigGin: "g", Done: "e", LayOff: "l", Meld: "m"}.get(type(move), "")
    if isinstance(move, Take) and seen.discard_top is not None:
        shown = f"take {format_card(seen.discard_top)}"
    else:
        shown = text.move_name(move)
    shown = faces_in(shown)
    return f"{shown[:1].upper()}{shown[1:]} ({key})" if key else shown


class GinTableScreen(TableBase):
    """The gin table for one game against a bot."""

    class HandEnded(Message):
        """A hand has just ended (the app may save the match)."""

    game: GinGame
    AUTO_FOCUS = "#hand"
    BINDINGS: ClassVar[list[BindingType]] = [
        *FIRST_KEYS,
        Binding("d", "draw", "Draw"),
        Binding("t", "take", "Take"),
        Binding("p", "pass_", "Pass"),
        Binding("x", "discard", "Discard"),
        Binding("k", "knock", "Knock"),
        Binding("g", "go_gin", "Gin"),
        Binding("l", "lay(0)", "Lay off", show=False),
        *LAY_ON_KEYS,
        Binding("m", "meld", "Meld", show=False),
        Binding("e", "done", "Done"),
        Binding("s", "sort", "Sort", show=False),
        *LAST_KEYS,
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="centre"):
                yield Static(id="gin-board")
                yield Static(id="hand-title")
                yield HandView(id="hand")
                yield ActionBar(id="actions")
                yield Static(id="message")
                yield Input(id="command", placeholder=": a move (draw, discard K♠, knock K♠, "
                            "lay 6♥ on 2, done) or help, hint, sort, save, quit")
            yield MoveLog(id="log")
        yield Footer()

    # -- attributes down --------------------------------------------------------------
    def cards(self) -> list[Card]:
        """Your cards in display order."""
        cards = self.game.view().hand_cards
        if self.sort == "rank":
            return sorted(cards, key=lambda c: (rank_of(c), c))
        return cards

    def target(self) -> Card | None:
        """The card the keys act on: the one selected card, else the card at the cursor."""
        cards = self.cards()
        if len(self.selected) == 1:
            index = next(iter(self.selected))
            return cards[index] if index < len(cards) else None
        return cards[self.cursor] if cards and self.cursor < len(cards) else None

    def offered(self, seen: GinView) -> list[GinMove]:
        """The moves the buttons offer now (legal moves only)."""
        card = self.target()
        if seen.phase in ("discard", "wall_knock"):
            return [m for m in seen.legal if isinstance(m, BigGin)
                    or getattr(m, "card", None) == card]
        if seen.phase == "show":
            chosen = {self.cards()[i] for i in self.selected if i < len(self.cards())}
            lays = [m for m in seen.legal if isinstance(m, LayOff) and m.card == card]
            melds = [m for m in seen.legal if isinstance(m, Meld)
                     and (not chosen or set(m.groups[0]) == chosen)][:MAX_MELDS]
            return [*lays, *melds, Done()]
        return list(seen.legal)

    def show(self) -> None:
        """Set every widget from your view of the game."""
        game, seen = self.game, self.game.view()
        names = game.names
        cards = self.cards()
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        board = [*text.table_lines(seen, names), text.progress_words(game.sheet, names)]
        self.query_one("#gin-board", Static).update(faces_in("\n".join(board)))
        self.query_one("#hand-title", Static).update(faces_in(
            f"Your hand, {len(cards)} cards: {text.arranged_words(seen.hand)}"))
        hand = self.query_one(HandView)
        hand.cards, hand.selected, hand.cursor = tuple(cards), self.selected, self.cursor
        hand.fresh = frozenset(i for i, c in enumerate(cards) if c in self.fresh)
        fits = {m.card: m.target for m in seen.legal if isinstance(m, LayOff)}
        hand.fits = tuple((i, f"+{fits[c]}") for i, c in enumerate(cards) if c in fits)
        moves = self.offered(seen)
        self.query_one(ActionBar).entries = tuple((m, move_label(m, seen)) for m in moves)
        self.query_one(MoveLog).lines = tuple(faces_in(line) for line in game.log)
        status = text.choices_words(seen) if seen.to_move == game.seat else \
            f"{names[seen.to_move]} is thinking..."
        self.query_one("#status", Static).update(faces_in(status))
        self.query_one("#message", Static).update(self.message)

    # -- messages up ------------------------------------------------------------------

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        words = event.value.strip().lstrip(":").strip()
        event.input.value = ""
        if not words:
            return
        command = COMMANDS.get(words.lower())
        if command is not None:
            await self.app.run_action(command, self)
            return
        try:
            move = self.game.match.variant.parse_move(typed_move(words.replace(":", " : ")))
        except RummyError as error:
            self.say(str(error), error=True)
            return
        self.attempt(move)

    # -- moves ------------------------------------------------------------------------
    def attempt(self, move: Any) -> bool:
        """Try your move with the engine: made, or its reason shown and nothing changed; a
        knock without its melds first asks which."""
        if self.busy:
            self.say("Please wait: thinking...", error=True)
            return False
        if isinstance(move, (Knock, Gin)) and move.groups is None:
            return self.choose_knock(move.card, move)
        return self.make_move(move)

    def make_move(self, move: Any) -> bool:
        """Your move to the engine: made, or its reason shown and nothing changed."""
        before = self.game.view()
        try:
            made = self.game.play(move)
        except RummyError as error:
            self.say(str(error), error=True)
            return False
        after = self.game.view()
        if isinstance(made, (Draw, Take)):
            self.fresh = cards_of(after.hand & ~before.hand)
        elif after.to_move != self.game.seat or self.game.hand_over:
            self.fresh = []
        self.selected = frozenset()
        self.say(self.game.log[-1] + ".")
        self.advance()
        return True

    def choose_knock(self, card: Card, fallback: GinMove) -> bool:
        """Knock discarding ``card``: the only arrangement at once, else the menu."""
        choices = text.knock_choices(self.game.view(), card)
        if len(choices) <= 1:  # the one arrangement, or the engine says why none
            return self.make_move(choices[0] if choices else fallback)

        def chosen(move: GinMove | None) -> None:
            if move is not None:
                self.attempt(move)

        self.app.push_screen(KnockScreen(choices, self.game.view().hand), chosen)
        return False

    def end_hand(self) -> None:
        """The end-of-hand screen, then the next hand or the game's end."""
        game = self.game
        self.post_message(self.HandEnded())
        seen, names = game.view(), game.names
        sheet = sheet_lines(game.match.states, game.sheet, names)

        def next_hand(_: None) -> None:
            if game is not self.game:
                return
            if game.match.over:
                lines = [Text(line) for line in sheet]
                self.app.push_screen(MatchEndScreen(game.match.winners, tuple(names), lines),
                                     self.after_match)
                return
            game.start_hand()
            self.selected = frozenset()
            self.fresh = []
            self.show()
            self.advance()

        if not game.match.over:
            sheet = [*sheet, text.progress_words(game.sheet, names)]
        self.app.push_screen(GinHandEndScreen(seen.deal_index + 1, text.result_lines(
            seen, names), sheet, game.match.over), next_hand)

    def new_game(self, game: GinGame) -> None:
        """Play ``game`` at this table from now on."""
        self.game = game
        self.restart()

    # -- actions ----------------------------------------------------------------------
    def action_pass_(self) -> None:
        self.attempt(Pass())

    def _card_or_say(self, what: str) -> Card | None:
        card = self.target()
        if card is None:
            self.say(f"Put the cursor on the card to {what}.", error=True)
        return card

    def action_discard(self) -> None:
        card = self._card_or_say("discard")
        if card is not None:
            self.attempt(Discard(card))

    def action_knock(self) -> None:
        card = self._card_or_say("discard face down as you knock")
        if card is not None:
            self.attempt(Knock(card))

    def action_go_gin(self) -> None:
        seen = self.game.view()
        card = self.target()
        if card is not None and any(isinstance(m, Gin) and m.card == card
                                    for m in seen.legal):
            self.attempt(Gin(card))
            return
        big = [m for m in seen.legal if isinstance(m, BigGin)]
        self.attempt(big[0] if big else Gin(card) if card is not None else BigGin())

    def action_lay(self, number: int) -> None:
        card = self._card_or_say("lay off")
        if card is None:
            return
        seen = self.game.view()
        targets = [m.target for m in seen.legal if isinstance(m, LayOff) and m.card == card]
        self.attempt(LayOff(card, number or (targets[0] if targets else 1)))

    def action_meld(self) -> None:
        cards = self.cards()
        chosen = tuple(sorted(cards[i] for i in self.selected if i < len(cards)))
        if len(chosen) < 3:
            self.say("Select the cards of the meld first (3 or more).", error=True)
            return
        self.attempt(Meld((chosen,)))

    def action_done(self) -> None:
        self.attempt(Done())

    def action_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.selected = frozenset()
        self.say(f"Your hand is sorted by {self.sort}.")

    def action_help(self) -> None:
        rules = self.game.match.rules
        body = f"{self.game.match.variant.help_text(rules)}\n\n{CARDS}\n\n{KEYS}"
        self.app.push_screen(TextScreen(f"Help: {text.title_words(rules)}", body))



