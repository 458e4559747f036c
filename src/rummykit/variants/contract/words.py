"""Contract Rummy in words: a deal's contract and the rules summary for players.

>>> from rummykit.variants.contract.presets import CONTRACT
>>> contract_words(CONTRACT, 1), contract_words(CONTRACT, 2)
('1 set + 1 run', '2 runs (of different suits)')
>>> contract_words(CONTRACT, 6)
'3 runs (of different suits), all cards at once with no discard'
"""

from __future__ import annotations

from rummykit.core.rules import Rules

HELP = """\
Contract Rummy: 7 deals, each with a contract (the melds you must lay down first):
  deal 1: 2 sets   2: 1 set + 1 run   3: 2 runs   4: 3 sets   (10 cards each)
  deal 5: 2 sets + 1 run   6: 1 set + 2 runs   7: 3 runs, all cards at once   (12 cards)
  Sets: 3-4 cards of one rank, all suits different. Runs: 3+ cards of one suit in a row,
  ace low or high, no wrap; the runs of one contract must be of different suits.
Going down (once per deal, all the contract's melds in one move):
  meld C8 D8 H8 / CK DK HK          a joker is JK=card: meld H5 JK=H6 H7 / ...
Once you are down (the same turn too) you may not start new melds, but you may lay off
onto any meld on the table, yours or another player's:
  lay H9 on 2        lay JK=SQ on 3        (a joker always names the card it stands for)
Joker swap (down since an earlier turn): give the natural card a joker in a run stands
for and take the joker; you must place that joker on the table again this turn:
  swap H6 on 1       then e.g. lay JK=SQ on 3
Digging: take a deeper card of the discard pile with every card above it; the dug card
must be placed on the table this turn (the others may be discarded):
  take 3             the 3rd card from the top (see 'pile' for depths)
  take H9            down to the topmost H9
  pile    the whole discard pile with depths
Penalty scoring: when someone goes out, the others add the cards left in hand
(2-10 face value, J Q K 10, A 15, joker 15). Lowest total after deal 7 wins."""


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def contract_words(rules: Rules, deal_index: int) -> str:
    """A deal's contract in words: ``2 runs (of different suits)``."""
    schedule = rules.contract_schedule
    sets, runs = schedule[deal_index % len(schedule)]
    parts = [_plural(n, noun) for n, noun in ((sets, "set"), (runs, "run")) if n]
    text = " + ".join(parts)
    if runs > 1 and rules.contract_runs_distinct_suits:
        text += " (of different suits)"
    if deal_index % len(schedule) == len(schedule) - 1:
        final = rules.final_deal_rule
        if final == "all_at_once_no_discard":
            text += ", all cards at once with no discard"
        elif final == "all_at_once_discard_ok":
            text += ", all cards at once (lay-offs and one discard allowed)"
    return text
