"""OpenSpiel's ``gin_rummy`` driven on a deal of ours (RULES.md §6.14): cards, melds, the deal.

OpenSpiel numbers a card ``13·s + r`` with the suits in the order S, C, D, H (§6.14.2); we
number it ``13·s + r`` with C, D, H, S (:mod:`rummykit.core.cards`). :func:`os_card` and
:func:`our_card` convert. A :class:`Deal` is the FORMATS §4.2 ``deal`` form (hands per seat,
upcard, stock top first) with seat 0 the non-dealer = OpenSpiel player 0 and seat 1 the
dealer (``dealer: 1``). :class:`OsHand` plays OpenSpiel's hand on that deal: the 21 first
chance outcomes deal it (10 cards to player 0, 10 to player 1, the upcard; cc:361-365) and
every later chance node (after a stock draw) is fed the next stock card.

>>> from rummykit.core.cards import parse_card
>>> os_card(parse_card("SA")), os_card(parse_card("CA")), os_card(parse_card("HK"))
(0, 13, 51)
>>> all(our_card(os_card(c)) == c for c in range(52))
True
>>> deal = Deal.shuffled(random.Random(7))
>>> hand = OsHand(False, deal)
>>> hand.phase, hand.player, hand.legal()
('FirstUpcard', 0, [52, 54])
>>> sorted(map(our_card, hand.state.hands()[0])) == sorted(deal.hands[0])
True
>>> hand.apply(54); hand.apply(54); hand.apply(53)   # pass, pass, draw
>>> hand.phase, our_card(hand.state.hands()[0][-1]) == deal.stock[0]
('Discard', True)
>>> again, actions = Deal.from_openspiel(hand.state)
>>> again.hands == deal.hands and again.stock[0] == deal.stock[0], actions
(True, [54, 54, 53])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from rummykit.extras import MissingExtraError

try:
    import pyspiel
except ImportError:
    raise MissingExtraError("rl", "open-spiel", "rummykit.rl.openspiel_gin") from None

from rummykit.core.cards import Card, format_cards
from rummykit.variants.gin.rules import OPENSPIEL_GAME, openspiel_parameters

__all__ = [
    "DRAW_STOCK", "KNOCK", "MELD_BASE", "PASS", "PHASES", "TAKE", "Deal", "OsHand", "game",
    "meld_cards", "new_state", "os_card", "our_card", "utils",
]

TAKE = 52  # draw the upcard
DRAW_STOCK = 53
PASS = 54
KNOCK = 55
MELD_BASE = 56
NUM_MELDS = 185
HAND_SIZE = 10

# OpenSpiel suit s (S, C, D, H) is our suit (s + 3) % 4 (C, D, H, S).
_OUR_SUIT = (3, 0, 1, 2)
_OS_SUIT = (1, 2, 3, 0)


def os_card(card: Card) -> int:
    """OpenSpiel's index of our card."""
    return 13 * _OS_SUIT[card // 13] + card % 13


def our_card(index: int) -> Card:
    """Our card of OpenSpiel's index."""
    return 13 * _OUR_SUIT[index // 13] + index % 13


@cache
def game(oklahoma: bool = False) -> Any:
    """OpenSpiel's ``gin_rummy`` under the profile of §6.14.1 (``knock_card`` 10, bonuses 25)."""
    return pyspiel.load_game(OPENSPIEL_GAME, openspiel_parameters(oklahoma))


@cache
def _initial(oklahoma: bool) -> Any:
    return game(oklahoma).new_initial_state()


def new_state(oklahoma: bool = False) -> Any:
    """A fresh initial state (a clone: ``new_initial_state()`` costs about 7 ms in gin_rummy)."""
    return _initial(oklahoma).clone()


@cache
def utils() -> Any:
    """OpenSpiel's ``GinRummyUtils`` for the standard deck."""
    return getattr(pyspiel, OPENSPIEL_GAME).GinRummyUtils(13, 4, HAND_SIZE)


@cache
def meld_cards(meld_id: int) -> tuple[Card, ...]:
    """Our cards of OpenSpiel meld ``meld_id`` (0..184), ascending by our card number."""
    return tuple(sorted(our_card(c) for c in utils().int_to_meld[meld_id]))


@cache
def meld_ids() -> dict[frozenset[Card], int]:
    """OpenSpiel's meld id of each meld of 3-5 cards (as a set of our cards)."""
    return {frozenset(meld_cards(i)): i for i in range(NUM_MELDS)}


@dataclass(frozen=True)
class Deal:
    """A deal in the FORMATS §4.2 ``deal`` form: seat 0 = non-dealer = OpenSpiel player 0."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    upcard: Card
    stock: tuple[Card, ...]  # top first

    @classmethod
    def shuffled(cls, rng: random.Random) -> Deal:
        """A uniformly random deal."""
        deck = list(range(52))
        rng.shuffle(deck)
        return cls((tuple(deck[:10]), tuple(deck[10:20])), deck[20], tuple(deck[21:]))

    def record(self) -> dict[str, Any]:
        """The record's ``deal`` object."""
        return {"hands": [format_cards(h).split() for h in self.hands],
                "upcard": format_cards([self.upcard]),
                "stock": format_cards(self.stock).split()}

    @classmethod
    def from_openspiel(cls, state: Any) -> tuple[Deal, list[int]]:
        """The deal of an OpenSpiel ``gin_rummy`` state played with its own chance, and its
        player actions: the 21 first chance outcomes give the hands and the upcard, the later
        ones (one per stock draw) the stock top first; the cards never drawn follow in
        index order. Replaying the actions on :class:`OsHand` of the deal gives the same game.
        """
        dealt: list[int] = []
        actions: list[int] = []
        for step in state.full_history():
            (dealt if step.player == pyspiel.PlayerId.CHANCE else actions).append(step.action)
        if len(dealt) < 21:
            raise ValueError(f"the state has dealt only {len(dealt)} of the first 21 cards")
        cards = [our_card(i) for i in dealt]
        rest = [c for c in range(52) if c not in set(cards)]
        return (cls((tuple(cards[:10]), tuple(cards[10:20])), cards[20],
                    tuple(cards[21:] + sorted(rest, key=os_card))), actions)

    def chance_outcomes(self) -> list[int]:
        """OpenSpiel's 21 dealing chance outcomes."""
        return [os_card(c) for c in (*self.hands[0], *self.hands[1], self.upcard)]


#: OpenSpiel's phases by number (``int(state.current_phase())``)
PHASES = ("Deal", "FirstUpcard", "Draw", "Discard", "Knock", "Layoff", "Wall", "GameOver")


class OsHand:
    """OpenSpiel's hand on ``deal``: chance nodes are fed from the deal, never sampled."""

    def __init__(self, oklahoma: bool, deal: Deal) -> None:
        self.deal = deal
        self.state = new_state(oklahoma)
        self._stock = [os_card(c) for c in deal.stock]
        self._drawn = 0
        for outcome in deal.chance_outcomes():
            self.state.apply_action(outcome)
        self._feed()

    def _feed(self) -> None:
        while self.state.is_chance_node():
            self.state.apply_action(self._stock[self._drawn])
            self._drawn += 1

    @property
    def phase(self) -> str:
        """The phase name without its ``k`` (``FirstUpcard``, ``Draw``, ``Discard``, ...)."""
        return PHASES[int(self.state.current_phase())]

    @property
    def player(self) -> int:
        """The player to move (-1: chance, -4: terminal)."""
        return int(self.state.current_player())

    @property
    def over(self) -> bool:
        """True once the game is terminal."""
        return bool(self.state.is_terminal())

    def legal(self) -> list[int]:
        """The legal actions, ascending."""
        return list(self.state.legal_actions())

    def apply(self, action: int) -> None:
        """Apply a player action (then any chance node it leads to)."""
        self.state.apply_action(action)
        self._feed()

    def hand(self, player: int) -> list[int]:
        """Player's cards, OpenSpiel indices."""
        return list(self.state.hands()[player])

    def returns(self) -> tuple[int, int]:
        """OpenSpiel's returns (players 0 and 1)."""
        r = self.state.returns()
        return int(r[0]), int(r[1])


def card_list(indices: Sequence[int]) -> str:
    """OpenSpiel indices written in our notation (for messages)."""
    return format_cards(sorted(our_card(i) for i in indices))
