"""The help pages: how each rule family is played, how cards are written, the keys.

The rules pages are our own short account of each family, with the numbers taken from
the game's :class:`Rules` (hand sizes, aces, targets), so that options show as played.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from rummykit.core.rules import PRESETS, Rules
from rummykit.display.wording import contract_words

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
  w             swap the selected card for the joker that stands for it (contract)
  x             discard the selected card
  p             the whole discard pile (contract: dig from it)
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

BASIC = """\
{title}
Aim: be first to get rid of your cards, by putting them on the table in melds.
Melds: a set is 3 or 4 cards of one rank, every suit different (8♣ 8♦ 8♠); a run is 3 \
or more cards of one suit in order (4♥ 5♥ 6♥). Aces are {ace}.
Deal: {sizes}. The rest of the pack is the stock; its top card, turned up, starts the \
discard pile.
A turn: (1) draw the top card of the stock, or take the top card of the discard pile; \
(2) if you like, put new melds down and lay off cards on any meld on the table (yours or \
another player's); (3) discard one card, which may not be the card you took from the \
pile this turn.{melds_per_turn}
Going out: the hand ends when a player has no cards left, {going_out}
Points: the winner scores the cards left in the other hands: 2-10 as numbered, J Q K 10, \
ace {ace_points}. Going out in one turn without having melded before ("going rummy") \
scores {rummy}.
Stock used up: {stock}
Match: {goal}"""

CONTRACT = """\
Contract Rummy (a match of {deals} deals, {players} players)
Aim: lay down each deal's contract, then shed all your cards; the fewest penalty points \
over the whole match wins.
Cards: {packs}. Sets are 3 or 4 cards of one rank, every suit different; runs are 3 \
or more cards of one suit in order (aces low or high, never round the corner).
Contracts (the melds you must put down first, all together in one move):
{contracts}
A turn: draw from the stock or take the top discard; going down is one meld move holding \
the whole contract. Once down you start no new melds, but you may lay off on any meld on \
the table (the same turn too); then discard one card.
Jokers: {jokers}
Digging: {dig}
Last deal: {final}
Penalty points: when someone goes out, everyone else adds the cards still in hand: 2-10 \
as numbered, J Q K 10, ace {ace_points}, joker {joker_points}. Lowest total wins."""


def basic_page(rules: Rules, players: int) -> str:
    """How ``basic`` or ``traditional`` rummy is played, with this game's numbers."""
    low, high = rules.player_range
    sizes = "; ".join(f"{n} cards each for {p}" for p, n in rules.hand_size
                      if low <= p <= high) + " players"
    if rules.stock_rebuild == "shuffle_all":
        stock = ("the whole discard pile is shuffled into a new stock, once"
                 + (" per hand. The next time the stock runs out the hand is a draw"
                    if rules.max_rebuilds == 1 else ""))
    elif rules.stock_rebuild == "turn_over_all":
        stock = "the discard pile is turned over to make a new stock"
    else:
        stock = "the discard pile except its top card is shuffled into a new stock"
    if rules.deadlock_draw:
        stock += ("; a hand in which nobody can ever meld or lay off again is a draw "
                  "as well")
    stock += "."
    if rules.draw_ends_match:
        stock += (" A drawn hand scores nothing and ends the match with no winner"
                  + (": it counts as a loss for every player." if rules.draw_counts_as_loss
                     else "."))
    if rules.game_end == "target":
        goal = (f"hands are played until someone reaches {rules.target_for(players)} points "
                "(that player wins).")
    else:
        goal = f"{rules.num_hands} hands; the highest total wins."
    if isinstance(rules.target_score, tuple) and rules.game_end == "target":
        goal += " The target depends on the players: " + ", ".join(
            f"{t} for {p}" for p, t in rules.target_score) + "."
    multiplier = rules.going_rummy_multiplier
    return BASIC.format(
        title=f"Rummy, {rules.name} rules ({low} to {high} players)",
        ace="low (A 2 3) or high (Q K A), never both in one run"
        if rules.ace_mode == "high_or_low" else "low only: A 2 3 is a run, Q K A is not",
        sizes=sizes,
        melds_per_turn="" if rules.max_melds_per_turn is None
        else f" In this game you put down at most {rules.max_melds_per_turn} meld a turn.",
        going_out=("and the last card must be a discard." if rules.must_discard_to_go_out
                   else "whether the last card is melded, laid off or discarded."),
        ace_points=rules.ace_value,
        rummy={1: "no extra", 2: "double"}.get(multiplier, f"{multiplier} times as much"),
        stock=stock, goal=goal)


def contract_page(rules: Rules, players: int) -> str:
    """How contract rummy is played, with this game's contracts and options."""
    deals = rules.num_hands
    contracts = "\n".join(
        f"  deal {n + 1}: {contract_words(rules, n)}, "
        f"{rules.deal_hand_sizes[n % len(rules.deal_hand_sizes)]} cards each"
        for n in range(deals))
    return CONTRACT.format(
        deals=deals, players=players,
        packs=("two packs shuffled together, with jokers" if rules.deck_config == "bicycle"
               else rules.deck_config),
        contracts=contracts,
        jokers=("a joker stands for any card in a meld (write it JK=7♥). Once you have been "
                "down since an earlier turn you may give the real card a joker in a run "
                "stands for and take the joker (w), which you must put on the table again "
                "that turn." if rules.joker_swap else "a joker stands for any card in a meld."),
        dig=("you may take a deeper card of the discard pile (p shows it) together with "
             "every card above it; the deepest one must go on the table that same turn."
             if rules.discard_dig else "only the top discard may be taken."),
        final={"all_at_once_no_discard": "you must go out all at once, with no discard.",
               "all_at_once_discard_ok": "you must go out all at once (a final discard is "
                                         "allowed)."}.get(rules.final_deal_rule,
                                                         "played like the others."),
        ace_points=rules.ace_value, joker_points=rules.joker_points)


def rules_page(rules: Rules, players: int) -> str:
    """The rules page of ``rules``' family."""
    if rules.contract_schedule:
        return contract_page(rules, players)
    return basic_page(rules, players)


def rules_summary(rules: Rules, players: int) -> str:
    """A few lines on how this rule set is played (the rules page)."""
    return rules_page(rules, players)


def help_text(rules: Rules, players: int) -> str:
    """The whole help page: this game's rules, how cards are written, the keys."""
    return f"{rules_page(rules, players)}\n\n{CARDS}\n\n{KEYS}"


class HelpScreen(ModalScreen[None]):
    """The help: this game's rules first; b, t, c show another family's rules, k the keys
    and cards; Escape closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close"),
        Binding("g", "page('game')", "This game"), Binding("b", "page('basic')", "Basic"),
        Binding("t", "page('traditional')", "Traditional"),
        Binding("c", "page('contract')", "Contract"), Binding("k", "page('keys')", "Keys")]

    def __init__(self, rules: Rules, players: int) -> None:
        super().__init__()
        self.rules, self.players = rules, players

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="help"):
            yield Label("Help", classes="dialog-title", id="help-title")
            with VerticalScroll(classes="dialog-body", id="help-body"):
                yield Static(help_text(self.rules, self.players), id="help-text")
            with Grid(id="help-buttons"):
                for page, text in (("game", "This game (g)"), ("basic", "Basic (b)"),
                                   ("traditional", "Traditional (t)"),
                                   ("contract", "Contract (c)"), ("keys", "Keys (k)")):
                    yield Button(text, id=f"page-{page}", compact=True)
                yield Button("Close (esc)", id="close", variant="primary", compact=True)

    def page_text(self, page: str) -> str:
        """The text of a page: ``game``, a family's name, or ``keys``."""
        if page == "keys":
            return f"{CARDS}\n\n{KEYS}"
        if page == "game":
            return help_text(self.rules, self.players)
        rules = PRESETS[page]
        low, high = rules.player_range
        return rules_page(rules, min(max(self.players, low), high))

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
