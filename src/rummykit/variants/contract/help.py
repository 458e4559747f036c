"""The rules of Contract Rummy for players, with a rule set's own contracts and options.

One text serves every face: ``rummykit play``'s ``help``, the terminal table's help
screen and the web app's rules page (paragraphs are separated by blank lines). The last
paragraph shows how the moves are written (FORMATS.md §1).

>>> from rummykit.variants.contract.presets import CONTRACT
>>> text = help_text(CONTRACT)
>>> text.splitlines()[0]
'Contract Rummy (a match of 7 deals, 3 to 8 players)'
>>> "  deal 3: 2 runs (of different suits), 10 cards each" in text
True
"""

from __future__ import annotations

from rummykit.core.rules import Rules
from rummykit.variants.contract.words import contract_words

PAGE = """\
Contract Rummy (a match of {deals}, {low} to {high} players)
Aim: lay down each deal's contract, then shed all your cards; the fewest penalty points \
over the whole match win.

Cards: {packs}. Sets are 3 or 4 cards of one rank, every suit different; runs are \
{run} or more cards of one suit in order (aces low or high, never round the corner).

Contracts (the melds you must put down first, all together in one move):
{contracts}

A turn: draw from the stock or take the top discard (or dig); meld or lay off as below; \
then discard one card.

Going down (once per deal): one meld move holding the whole contract. Once down you start \
no new melds, but you may lay off on any meld on the table, yours or another player's \
(the same turn too).

Jokers: {jokers}

Digging: {dig}

Last deal: {final}

Penalty points: when someone goes out, everyone else adds the cards still in hand: 2-10 \
as numbered, J Q K 10, ace {ace_points}, joker {joker_points}.{blocked} After the last \
deal the lowest total wins.

Moves as you type them:
  meld C8 D8 H8 / CK DK HK          going down: all the contract's melds in one move
  meld H5 JK=H6 H7 / ...            a joker names the card it stands for
  lay H9 on 2     lay JK=SQ on 3    lay off onto table meld 2 or 3, yours or another's
  swap H6 on 1                      give the card a joker in run 1 stands for, take it
  take 3    take H9                 dig: the 3rd card from the top, or down to the H9
  pile                              the whole discard pile with depths"""


def help_text(rules: Rules) -> str:
    """How ``rules`` (contract, or contract with options) is played."""
    low, high = rules.player_range
    sizes = rules.deal_hand_sizes
    contracts = "\n".join(
        f"  deal {n + 1}: {contract_words(rules, n)}"
        + (f", {sizes[n % len(sizes)]} cards each" if sizes else "")
        for n in range(rules.num_hands))
    return PAGE.format(
        deals=f"{rules.num_hands} deal{'' if rules.num_hands == 1 else 's'}", low=low,
        high=high, run=rules.run_min_length,
        packs=("two packs shuffled together, with jokers (three packs from five players)"
               if rules.deck_config == "bicycle" else rules.deck_config),
        contracts=contracts,
        jokers=("a joker stands for any card in a meld (write it JK=7♥). Once you have been "
                "down since an earlier turn you may give the real card a joker in a run "
                "stands for and take the joker, which you must put on the table again "
                "that turn." if rules.joker_swap else "a joker stands for any card in a meld."),
        dig=("you may take a deeper card of the discard pile together with every card "
             "above it; the card you dug for must go onto the table that same turn."
             if rules.discard_dig else "only the top discard may be taken."),
        final={"all_at_once_no_discard": "you must go out all at once, with no discard.",
               "all_at_once_discard_ok": "you must go out all at once (a final discard is "
                                         "allowed)."}.get(rules.final_deal_rule,
                                                         "played like the others."),
        blocked=(" If the table locks up (no card can be placed any more), everyone adds "
                 "the cards in hand and the next deal starts."
                 if rules.blocked_deal == "score_hands" else ""),
        ace_points=rules.ace_value, joker_points=rules.joker_points)
