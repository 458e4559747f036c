"""Building gin hands for tests from cards written in notation."""

from __future__ import annotations

from rummykit.core.cards import format_card, parse_cards
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.rules import GIN, GinRules


def dealt(non_dealer: str, dealer_hand: str, upcard: str, stock: str = "", *,
          rules: GinRules = GIN, dealer: int = 0) -> GinHand:
    """A hand with both 10-card hands, the upcard and the first stock cards (top first)
    given; the rest of the stock follows in card-code order."""
    hands: list[list[int]] = [[], []]
    hands[1 - dealer] = parse_cards(non_dealer)
    hands[dealer] = parse_cards(dealer_hand)
    up = parse_cards(upcard)[0]
    top = parse_cards(stock)
    used = {*hands[0], *hands[1], up, *top}
    assert len(used) == 21 + len(top), "a card is written twice"
    rest = [c for c in range(52) if c not in used]
    return GinHand.from_deal(rules, dealer, hands, up, top + rest)


def play(hand: GinHand, *moves: str) -> list[str]:
    """Play moves (checked); their canonical texts."""
    return [str(hand.play(m)) for m in moves]


def cycle_to_wall(hand: GinHand) -> None:
    """From the offer: both pass, then every turn draws from the stock and discards the
    drawn card, until the wall turn (the 29th stock card is the last one discarded)."""
    play(hand, "pass", "pass")
    while hand.phase == "draw":
        top = hand.stock[-1]
        play(hand, "draw", f"discard {format_card(top)}")


def stock_for_wall(last: str, fill: str = "") -> str:
    """Stock text whose 29th card (the one drawn down to the wall) is ``last``."""
    cards = fill.split()
    assert len(cards) == 28, len(cards)
    return " ".join([*cards, last])
