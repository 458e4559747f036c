"""What a contract seat would still hold once down: the cards no lay-off can take.

After going down (RULES.md §4.3) a seat lays off whatever the table takes, its own new
melds included, and a card laid off can open the next place of a run (``H8`` on ``H5 H6
H7`` lets ``H9`` follow). The race after going down is decided by the cards left over,
so the search levels' heuristics (:mod:`rummykit.bots.contract_expert`,
:mod:`rummykit.bots.contract_policy`) compare going-down ways, digs and discards by them:

- :func:`laid_in_chain`: the natural cards of a hand the table takes one after another;
- :func:`left_after`: the cards left once some melds are placed and every lay-off made.

>>> from rummykit.core.cards import format_cards, parse_cards
>>> from rummykit.core.melds import make_meld
>>> from rummykit.variants import CONTRACT
>>> run = make_meld(parse_cards("H5 H6 H7"), CONTRACT)
>>> format_cards(laid_in_chain(parse_cards("H9 H8 C2"), (run,), CONTRACT))
'H8 H9'
>>> format_cards(left_after(parse_cards("C4 D4 S4 H9 H8 C2"), [parse_cards("C4 D4 S4")],
...                         (run,), CONTRACT))
'C2'
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.core.cards import JOKER, Card
from rummykit.core.melds import TableMeld, hand_card, lay_off, make_meld
from rummykit.core.rules import Rules


def laid_in_chain(cards: Sequence[Card], table: Sequence[TableMeld], rules: Rules
                  ) -> list[Card]:
    """The natural cards of ``cards`` that ``table`` takes, each laid off in turn (a card
    laid off may open the place of the next); jokers are left out (a joker goes almost
    anywhere, and the bots place it by its own rule)."""
    melds = list(table)
    left = [c for c in cards if c != JOKER]
    laid: list[Card] = []
    found = True
    while found and left:
        found = False
        for card in list(left):
            for i, meld in enumerate(melds):
                ends = meld.ends_for(card, rules)
                if ends:
                    melds[i] = lay_off(meld, card, ends[0], 0, rules)
                    left.remove(card)
                    laid.append(card)
                    found = True
                    break
    return laid


def left_after(cards: Sequence[Card], groups: Sequence[Sequence[int]],
               table: Sequence[TableMeld], rules: Rules) -> list[Card]:
    """``cards`` less the new melds ``groups`` (placed codes: ``JK=..`` places a joker)
    and less every natural card then laid off on the table and on those melds."""
    left = list(cards)
    melds = list(table)
    for group in groups:
        for code in group:
            left.remove(hand_card(code))
        meld = make_meld(group, rules)
        if not isinstance(meld, str):
            melds.append(meld)
    for card in laid_in_chain(left, melds, rules):
        left.remove(card)
    return left


__all__ = ["laid_in_chain", "left_after"]
