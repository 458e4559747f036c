"""What a seat observes in the OpenSpiel games (:mod:`rummykit.rl.openspiel_game`): strings
and tensors, with or without the hand's history.

The **observation** is the seat's :class:`~rummykit.core.views.PlayerView` (tensor:
:class:`rummykit.rl.observation.Observation`, with the match totals in whole-match games,
plus a ``pending`` part in contract: the groups of a meld being chosen). The **information
state** adds the history of the hand: every player action so far, in order, and for the
seat's own draws from the stock the card it drew (the only private thing a seat learns
after the deal, besides its dealt cards, which its hand and history determine). Its tensor
part ``history`` has one row per action: ``action id + 1`` (0: no action yet) and, on the
seat's own stock draws, ``card + 1`` (else 0). Two histories that differ in any public move
or in the seat's own draws give different information states (perfect recall within a
hand); the other seats' draws never show. In a whole-match game the history is the current
hand's, the earlier hands showing through the totals and the deal number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from rummykit.core.cards import format_card, format_cards
from rummykit.core.handset import cards as hand_cards
from rummykit.core.melds import format_placed
from rummykit.core.views import PlayerView
from rummykit.display.terms import terms_of
from rummykit.variants.table_hooks import table_hooks

if TYPE_CHECKING:
    from rummykit.rl.openspiel_game import RummyGame, RummyState

__all__ = ["Action", "RummyObserver", "view_text"]


class Action(NamedTuple):
    """One player action of the hand's history."""

    seat: int
    action: int
    drawn: int  # the card drawn from the stock by a ``draw``, -1 otherwise or unknown


class RummyObserver:
    """Strings and tensors of a seat's view, with the hand's history when ``history``
    (OpenSpiel's PyObserver interface)."""

    def __init__(self, game: RummyGame, history: bool = False) -> None:
        self.game = game
        self.history = history
        layout = game.observation
        pending = len(game.space.groups) if terms_of(game.rules).down else 0
        rows = game.history_length if history else 0
        self.tensor = np.zeros(layout.size + pending + 2 * rows, np.float32)
        self.dict: dict[str, Any] = layout.as_dict(self.tensor[:layout.size])
        at = layout.size + pending
        if pending:
            self.dict["pending"] = self.tensor[layout.size:at]
        if history:
            self.dict["history"] = self.tensor[at:].reshape(rows, 2)

    def set_from(self, state: RummyState, player: int) -> None:
        """Fill ``tensor`` (and ``dict``, views of it) from ``player``'s view of ``state``."""
        seen = state.view_of(player)
        if seen is None:
            self.tensor.fill(0.0)
            return
        layout = self.game.observation
        layout.build(seen, state.position.totals, out=self.tensor[:layout.size])
        if "pending" in self.dict:
            pending = self.dict["pending"]
            pending.fill(0.0)
            base = self.game.space.group_base
            for action in state.position.prefix if seen.to_move == player else ():
                pending[action - base] += 1.0
        if self.history:
            rows = self.dict["history"]
            rows.fill(0.0)
            past = state.position.history
            if past:
                rows[:len(past)] = [(a.action + 1, a.drawn + 1 if a.seat == player else 0)
                                    for a in past]

    def string_from(self, state: RummyState, player: int) -> str:
        """``player``'s view of ``state`` as one line of text (and its history)."""
        seen = state.view_of(player)
        if seen is None:
            return _dealing_text(state, player)
        text = view_text(seen)
        if self.game.whole_match:
            text += f" | totals {' '.join(map(str, state.position.totals))}"
        prefix = state.position.prefix if seen.to_move == player else ()
        if prefix:
            space = self.game.space
            text += " | choosing " + " / ".join(space.describe(a) for a in prefix)
        if self.history:
            text += " | history " + " ".join(
                f"{a.action}={format_card(a.drawn)}" if a.seat == player and a.drawn >= 0
                else str(a.action) for a in state.position.history)
        return text


def _dealing_text(state: RummyState, player: int) -> str:
    """During the deal: the cards dealt to ``player`` so far (and the upcard once dealt)."""
    game = state.rummy
    position = state.position
    players = game.space.players
    size = game.rules.hand_size_for(players, position.deal_index)
    deck = position.deck
    mine = [c for i, c in enumerate(deck[:size * players])
            if (position.dealer + 1 + i) % players == player]
    upcard = format_card(deck[size * players]) if len(deck) > size * players else "-"
    text = f"seat {player} dealing {len(deck)} | hand {format_cards(sorted(mine))} | " \
           f"upcard {upcard}"
    if game.whole_match:
        text += f" | deal {position.deal_index} totals {' '.join(map(str, position.totals))}"
    return text


def _seat_cards(hands: Sequence[int]) -> str:
    return ", ".join(format_cards(hand_cards(h)) or "-" for h in hands)


def view_text(seen: PlayerView) -> str:
    """A seat's view as one line: everything in it, in a fixed order."""
    table = "; ".join(
        f"{n}: {' '.join(format_placed(c) for c in m.cards)} by "
        f"{''.join(str(p) for p in m.placed_by)}" for n, m in enumerate(seen.table, 1))
    discarded = ", ".join(format_cards(c for c in range(53) if d >> c & 1) or "-"
                          for d in seen.discarded)
    parts = [
        f"seat {seen.seat} deal {seen.deal_index} dealer {seen.dealer} to_move {seen.to_move} "
        f"{seen.phase} turn {seen.turn_count}",
        f"hand {format_cards(hand_cards(seen.hand))}",
        f"sizes {' '.join(map(str, seen.hand_sizes))} stock {seen.stock_size}",
        f"table {table or '-'}",
        f"discard {format_cards(seen.discard) or '-'}",
        f"known {_seat_cards(seen.known)}",
        f"discarded {discarded}",
        f"taken {format_card(seen.taken) if seen.taken >= 0 else '-'} melds "
        f"{seen.melds_this_turn} placed {int(seen.placed_this_turn)} ever {seen.ever_placed} "
        f"rebuilds {seen.rebuilds}",
    ]
    family = table_hooks(seen.rules).part_text(seen)  # the family's own part, if any
    if family:
        parts.append(family)
    if seen.result is not None:
        parts.append(f"result {seen.result.result} {seen.result.winner} "
                     f"{list(seen.result.scores)} revealed {_seat_cards(seen.revealed)}")
    return " | ".join(parts)
