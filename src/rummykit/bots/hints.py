"""Advice for the seat to move: the search bot's candidate moves and the hand's best shape.

Shared by ``rummykit hint`` (a position of a record) and the ``hint`` command of
``rummykit play``. The advice comes from the seat's :class:`PlayerView` only, so a hint
never uses a card the seat cannot see.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from rummykit.bots.analysis import Analysis, analysis_lines
from rummykit.bots.expert import LEVELS, ExpertBot
from rummykit.bots.greedy_contract import contract, progress
from rummykit.core.cards import Card, card_points, format_card, format_cards
from rummykit.core.melds import best_arrangement, format_placed, hand_card
from rummykit.core.views import PlayerView
from rummykit.display.terms import terms_of
from rummykit.variants.table_hooks import is_down

__all__ = ["HINT_LEVELS", "Hint", "Shape", "advice_lines", "analyse", "hint", "position_lines",
           "shape", "to_json"]

#: the search levels a hint can use (``easy`` is the careless bot, which does not search)
HINT_LEVELS = tuple(LEVELS)


@dataclass(frozen=True, slots=True)
class Shape:
    """The hand's best arrangement: melds in notation, the cards left over and their points.

    ``points`` is the deadwood, or the penalty left in hand where melds come only with a
    contract laid down; ``progress`` is then (melds of the contract made, melds the
    contract asks for), else None.
    """

    melds: tuple[str, ...]
    left: tuple[Card, ...]
    points: int
    progress: tuple[int, int] | None = None

    def __str__(self) -> str:
        melds = ", ".join(self.melds) or "no melds"
        left = format_cards(self.left) or "nothing"
        if self.progress is None:
            return f"{melds}; deadwood {left} = {self.points}"
        made, needed = self.progress
        return (f"{made} of the {needed} contract melds: {melds}; left {left} = "
                f"{self.points} penalty points")


@dataclass(frozen=True, slots=True)
class Hint:
    """The advice for one decision: the view it is for, the search level and its findings."""

    view: PlayerView
    level: str
    analysis: Analysis
    shape: Shape


def shape(seen: PlayerView) -> Shape:
    """The best arrangement of the seat's hand (where a contract is laid down: the best
    partial contract)."""
    rules = seen.rules
    if not terms_of(rules).down:
        best = best_arrangement(seen.hand, rules)
        return Shape(tuple(format_cards(m) for m in best.melds), best.deadwood_cards,
                     best.deadwood)
    cards = seen.hand_cards
    made, minus_penalty, way = progress(cards, seen)
    left = Counter(cards)
    left.subtract(hand_card(code) for group in way for code in group)
    melds = tuple(" ".join(format_placed(code) for code in group) for group in way)
    if not way:  # no contract meld: the whole hand is left
        values = rules.ace_value, rules.joker_points
        return Shape((), tuple(cards), sum(card_points(c, *values) for c in cards),
                     (0, sum(contract(seen))))
    return Shape(melds, tuple(sorted(left.elements())), -minus_penalty,
                 (made, sum(contract(seen))))


def analyse(seen: PlayerView, level: str, rng: random.Random) -> Analysis:
    """The search bot's analysis of the decision at ``level`` (one of :data:`HINT_LEVELS`)."""
    return ExpertBot.for_level(level).analyse(seen, rng)


def hint(seen: PlayerView, level: str, rng: random.Random) -> Hint:
    """The advice for the seat to move in ``seen`` (a view of a hand in progress)."""
    if seen.result is not None or seen.seat != seen.to_move:
        raise ValueError("a hint is for the seat to move in a hand in progress")
    return Hint(seen, level, analyse(seen, level, rng), shape(seen))


def position_lines(seen: PlayerView, names: list[str]) -> list[str]:
    """The position as the seat sees it: its hand, the discard pile, the table melds."""
    lines = [f"Hand of {names[seen.seat]}: {format_cards(seen.hand_cards)}"]
    top = format_card(seen.discard_top) if seen.discard_top is not None else "empty"
    lines.append(f"Discard: {top} ({len(seen.discard)} cards)   Stock: {seen.stock_size} "
                 "cards")
    if not seen.table:
        lines.append("Table: no melds yet")
    else:
        lines.append("Table:")
        lines += [f"  {number}. {meld}" for number, meld in enumerate(seen.table, 1)]
    word = terms_of(seen.rules).down
    if word:
        down = [names[s] for s in range(seen.num_players) if is_down(seen, s)]
        lines.append(f"{word.capitalize()}: {', '.join(down) or 'nobody yet'}")
    others = [f"{names[s]} {size}" for s, size in enumerate(seen.hand_sizes) if s != seen.seat]
    lines.append(f"Cards in the other hands: {', '.join(others)}")
    return lines


def advice_lines(advice: Hint, top: int) -> list[str]:
    """The recommended move, the ``top`` candidates, the search effort and the best shape."""
    return analysis_lines(advice.analysis, advice.level, advice.shape, top)


def to_json(advice: Hint, top: int) -> dict[str, Any]:
    """The advice as a JSON value (moves in notation, win rates in 0..1)."""
    seen, found, best = advice.view, advice.analysis, advice.shape
    arrangement: dict[str, Any] = {"melds": list(best.melds),
                                   "left": [format_card(c) for c in best.left]}
    if best.progress is None:
        arrangement["deadwood"] = best.points
    else:
        arrangement["penalty"] = best.points
        arrangement["contract_melds"] = list(best.progress)
    return {
        "seat": seen.seat,
        "level": advice.level,
        "position": {
            "phase": seen.phase,
            "turn": seen.turn_count + 1,
            "hand": [format_card(c) for c in seen.hand_cards],
            "discard_top": None if seen.discard_top is None else format_card(seen.discard_top),
            "discard_size": len(seen.discard),
            "stock_size": seen.stock_size,
            "table": [str(meld) for meld in seen.table],
            "hand_sizes": list(seen.hand_sizes),
        },
        "best": str(found.best),
        "candidates": [{"move": str(c.move), "value": round(c.value, 4),
                        "win_rate": round(c.win_rate, 4), "simulations": c.simulations}
                       for c in found.candidates[:top]],
        "simulations": found.simulations,
        "seconds": round(found.seconds, 3),
        "arrangement": arrangement,
    }
