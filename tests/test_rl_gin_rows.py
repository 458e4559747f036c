"""Gin's observation rows (variants/gin/encoding.py ``rows``, read by the envs every step)
against a plain reading of the view, part by part, in every phase: the draw and discard
steps, a knock being chosen meld by meld, the show with lay-offs, and the hand over."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from rummykit.bots.gin_greedy import GinGreedyBot
from rummykit.rl.own_game import OwnGame
from rummykit.variants.gin.encoding import PHASES, Choice
from rummykit.variants.gin.view import GinView


def _cards(bits: int) -> list[float]:
    return [float(bits >> c & 1) for c in range(52)]


def _one(card: int) -> list[float]:
    return _cards(1 << card if card >= 0 else 0)


def _hot(index: int | None, width: int) -> list[float]:
    return [float(index == i) for i in range(width)]


def _expected(seen: GinView, choice: Choice | None, totals: list[int]) -> dict[str, Any]:
    """Every part of the observation, read from the view as the encoding documents it."""
    me, other = seen.seat, 1 - seen.seat
    pile = 0
    for card in seen.discard:
        pile |= 1 << card
    defender = 0
    for group in seen.defender_groups:
        for card in group:
            defender |= 1 << card
    table = [*seen.table, 0, 0, 0][:3]
    knocking = choice is not None and choice.step != ""
    melds = 0
    for meld in choice.chosen if knocking and choice is not None else ():
        melds |= meld
    return {
        "hand": _cards(seen.hand), "known": _cards(seen.known[other]),
        "discarded": [_cards(seen.discarded[me]), _cards(seen.discarded[other])],
        "discard_top": _one(seen.discard[-1] if seen.discard else -1),
        "discard_pile": _cards(pile), "taken": _one(seen.taken),
        "upcard": _one(seen.upcard), "face_down": _one(seen.face_down),
        "table": [_cards(t) for t in table], "laid": _cards(seen.laid),
        "knocker_deadwood": _cards(seen.knocker_deadwood), "defender_melds": _cards(defender),
        "revealed": _cards(seen.revealed[other] if seen.revealed else 0),
        "pending_discard": _one(choice.discard if knocking and choice is not None else -1),
        "pending_melds": _cards(melds),
        "hand_sizes": [seen.hand_sizes[me], seen.hand_sizes[other]],
        "stock_size": [seen.stock_size], "knock_limit": [seen.knock_limit],
        "multiplier": [seen.multiplier], "phase": _hot(PHASES.index(seen.phase), len(PHASES)),
        "offer": [seen.offer_step, seen.stock_only, seen.echo],
        "counts": [seen.take_count, seen.turn_count],
        "knocker": [0, 0] if seen.knocker is None else _hot(seen.knocker ^ me, 2),
        "kind": _hot(seen.kind, 4), "melded": [seen.melded],
        "pending": list(choice.pending) if knocking and choice is not None else [0, 0, 0],
        "scores": [totals[me], totals[other]], "dealer": _hot(seen.dealer ^ me, 2),
        "to_move": [0, 0] if seen.result is not None else _hot(seen.to_move ^ me, 2),
        "deal": [seen.deal_index],
    }


def _check(layout: Any, seen: GinView, choice: Choice | None, totals: list[int]) -> str:
    """Assert the built observation of ``seen`` is the expected one; its phase."""
    parts = layout.as_dict(layout.build(seen, totals, choice))
    for name, want in _expected(seen, choice, totals).items():
        assert parts[name].tolist() == np.array(want, np.float32).tolist(), name
    return seen.phase


@pytest.mark.parametrize("rules", ["gin", "oklahoma"])
def test_every_part_is_the_views_in_every_phase(rules: str) -> None:
    game = OwnGame(rules, reward="match")
    layout = game.observation
    rng = random.Random(12)
    phases: Counter[str] = Counter()
    knocking = 0
    bot = GinGreedyBot()
    plan: list[int] = []  # the greedy bot's move, id by id (a knock takes several)
    game.reset(seed=4)
    for _ in range(900):
        if game.done:
            game.reset()
        seat = game.to_move
        choice = game.choice()
        if not plan:
            plan = game.encoding.actions(bot.choose(game.seen(seat), rng), game.seen(seat))
        for watcher in (seat, 1 - seat):
            seen = game.seen(watcher)
            mine = choice if watcher == seat else None
            phases[_check(layout, seen, mine, game.totals)] += 1
        knocking += choice.step != ""
        game.act(plan.pop(0))
        if game.rewards is not game.no_rewards:  # a hand ended: as both seats see it over
            ended = game.match.states[-1 if game.done else -2]
            for watcher in (0, 1):
                phases[_check(layout, game.variant.view(ended, watcher), None, game.totals)] += 1
    assert knocking > 20  # knocks were chosen meld by meld
    assert {"draw", "discard", "show", "over"} <= set(phases)  # the show, a hand over
