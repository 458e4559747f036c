"""The help pages: how each rule set is played, how cards are written, the keys.

The rules pages are each family's own account (``help_text`` of its variant), with the
numbers taken from the game's :class:`Rules`, so that options show as played.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from rummykit.core.rules import Rules, find_rules
from rummykit.variants.registry import rule_set_names, variant_of

CARDS = """\
How cards are written
  A card is its rank then its suit: 7♥ is the seven of hearts, 10♦ the ten of diamonds.
  Ranks: A (ace), 2-10, J (jack), Q (queen), K (king).  Suits: ♣ clubs, ♦ diamonds,
  ♥ hearts, ♠ spades.  JK is a joker; on the table JK=7♥ is a joker standing for 7♥.
  Typing a card you may use the symbols or the letters C D H S, either order, and 10 or T:
  10♦, ♦10, 10d, d10, DT and td are all the ten of diamonds.  Saved records and the
  engine's notation use the two-letter form (DT, H7, SA)."""

KEYS = """\
Keys (the mouse works too: click cards, melds, the pile and the buttons)
  ← →  space    move along your hand, select or unselect a card (or click it)
  esc           clear the selection (or leave the command box)
  d  t          draw from the stock, take the top discard
  m             meld the selected cards
  1 .. 9        lay off the selected card on that table meld (or click the meld)
  w             swap the selected card for the joker that stands for it (joker swaps)
  x             discard the selected card
  p             the whole discard pile (and dig from it, where the rules allow)
  s             sort your hand by suit or by rank
  :             the command box: type a move, like  meld 7♥ 8♥ 9♥  or  lay 6♥ on 2;
                it keeps the focus for the next move until you press esc
  h             a hint from the search bot
  ctrl+s ctrl+o save the match as a record, load a record
  n  ?  q       new game, this help, quit (a new game, a load and quitting ask first)
Marks on your cards: "new" is the card you just drew or took; "+2" means the card can
be laid off on table meld 2 ("+2…": on meld 2 and others; in the compact layout "*+2"
is a new card that fits meld 2). A key shown on a button is
left out when several buttons would share it: then click or tab to the button."""

def rules_page(rules: Rules) -> str:
    """The rules of ``rules``, as its family writes them (with this game's numbers)."""
    return variant_of(rules).help_text(rules)


def help_text(rules: Rules, players: int) -> str:
    """The whole help page: this game's rules, how cards are written, the keys."""
    return f"{rules_page(rules)}\n\n{CARDS}\n\n{KEYS}"


def page_keys(names: tuple[str, ...]) -> dict[str, str]:
    """A key for each rule set's page: its first letter that no other page or command
    takes (``b`` basic, ``t`` traditional, ``c`` contract)."""
    taken, keys = set("gkq"), {}
    for name in names:
        key = next((c for c in name.lower() if c.isalpha() and c not in taken), "")
        taken.add(key)
        keys[name] = key
    return keys


#: the page of each rule set and its key
PAGE_KEYS = page_keys(rule_set_names())


class HelpScreen(ModalScreen[None]):
    """The help: this game's rules first; a rule set's key (b, t, c ...) shows its rules,
    k the keys and cards; Escape closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close"),
        Binding("g", "page('game')", "This game"),
        *(Binding(key, f"page('{name}')", name.capitalize())
          for name, key in PAGE_KEYS.items() if key),
        Binding("k", "page('keys')", "Keys")]

    def __init__(self, rules: Rules, players: int) -> None:
        super().__init__()
        self.rules, self.players = rules, players

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="help"):
            yield Label("Help", classes="dialog-title", id="help-title")
            with VerticalScroll(classes="dialog-body", id="help-body"):
                yield Static(help_text(self.rules, self.players), id="help-text")
            with Grid(id="help-buttons"):
                pages = [("game", "This game (g)"),
                         *((name, f"{name.capitalize()}{f' ({key})' if key else ''}")
                           for name, key in PAGE_KEYS.items()), ("keys", "Keys (k)")]
                for page, text in pages:
                    yield Button(text, id=f"page-{page}", compact=True)
                yield Button("Close (esc)", id="close", variant="primary", compact=True)

    def page_text(self, page: str) -> str:
        """The text of a page: ``game``, a family's name, or ``keys``."""
        if page == "keys":
            return f"{CARDS}\n\n{KEYS}"
        if page == "game":
            return help_text(self.rules, self.players)
        return rules_page(find_rules(page))

    def action_page(self, page: str) -> None:
        self.query_one("#help-text", Static).update(self.page_text(page))
        self.query_one("#help-body", VerticalScroll).scroll_home(animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        name = event.button.id or "close"
        if name.startswith("page-"):
            self.action_page(name[5:])
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
