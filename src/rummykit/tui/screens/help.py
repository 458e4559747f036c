"""The help page: the rules in brief, the keys and the move notation."""

from __future__ import annotations

from rummykit.rules import Rules
from rummykit.wording import CONTRACT_HELP

KEYS = """\
Keys (the mouse works too: click cards, melds, the pile and the buttons)
  ← →  space    move along your hand, select or unselect a card (or click it)
  esc           clear the selection (or leave the command box)
  d  t          draw from the stock, take the top discard
  m             meld the selected cards
  1 .. 9        lay off the selected card on that table meld (or click the meld)
  x             discard the selected card
  p             the whole discard pile (contract: dig from it)
  s             sort your hand by suit or by rank
  :             the command box: type a move, like  meld H7 H8 H9  or  lay H6 on 2
  h             a hint from the search bot
  ctrl+s ctrl+o save the match as a record, load a record
  n  ?  q       new game, this help, quit"""

BASIC = """\
Rummy ({name}): make melds - sets of 3 or 4 cards of one rank, or runs of 3+ cards of
one suit in order (ace {ace}). On your turn: draw from the stock or take the top
discard, then lay down melds or lay off cards on any table meld, then discard one card
(not the card you just took). The first player out of cards wins the hand and scores
the cards left in the other hands (face cards 10, ace {ace_points}); going out in one turn
without having melded before ("going rummy") scores double. {goal}"""


def rules_summary(rules: Rules, players: int) -> str:
    """A few lines on how this rule set is played."""
    if rules.contract_schedule:
        return CONTRACT_HELP
    if rules.game_end == "target":
        goal = f"First to {rules.target_for(players)} points wins the match."
    else:
        goal = f"The match has {rules.num_hands} hands."
    return BASIC.format(name=rules.name, ace="low or high" if rules.ace_high else "low",
                        ace_points=rules.ace_value, goal=goal)


def help_text(rules: Rules, players: int) -> str:
    """The whole help page."""
    return f"{rules_summary(rules, players)}\n\n{KEYS}"
