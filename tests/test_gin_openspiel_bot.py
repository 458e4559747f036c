"""The port of OpenSpiel's SimpleGinRummyBot (rummykit.bots.simple_gin) against the C++ bot.

OpenSpiel's own bot plays both seats of seeded gin_rummy hands; our engine follows in
lockstep (rummykit.rl.openspiel_gin_diff, so the differential checks run too), and before
each of our moves the port chooses from the seat's view: it must choose exactly the move
the C++ bot's actions make.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel
import pytest

from rummykit.bots.simple_gin import best_meld_group, choose_simple
from rummykit.core.cards import cards_of
from rummykit.rl.openspiel_gin import Deal, OsHand, game, os_card, utils
from rummykit.rl.openspiel_gin_diff import Lockstep
from rummykit.variants.gin.view import gin_view

HANDS = 80


class _CppBot:
    """OpenSpiel's SimpleGinRummyBot for one player."""

    def __init__(self, oklahoma: bool, player: int) -> None:
        self.bot = pyspiel.make_simple_gin_rummy_bot(game(oklahoma).get_parameters(), player)

    def choose(self, hand: OsHand) -> int:
        return int(self.bot.step(hand.state))


def _play(deal: Deal, oklahoma: bool) -> tuple[int, list[str]]:
    """Moves compared, and every mismatch (with the deal) of one hand."""
    step = Lockstep(deal, oklahoma)
    bots = [_CppBot(oklahoma, p) for p in (0, 1)]
    wrong: list[str] = []
    compared = 0
    expected: str | None = None
    played = 0
    while not step.os.over and not step.report.disagreements:
        if expected is None:
            seat = step.ours.to_move
            expected = str(choose_simple(gin_view(step.ours, seat)))
        step.check_state()
        step.compare_legal()
        step.apply(bots[step.os.player].choose(step.os))
        if len(step.report.moves) > played:
            played = len(step.report.moves)
            compared += 1
            if step.report.moves[-1] != expected:
                wrong.append(f"port {expected!r}, OpenSpiel's bot {step.report.moves[-1]!r} "
                             f"after {step.report.moves[:-1]}; deal {deal.record()}")
                break
            expected = None
    if not step.report.disagreements and not wrong:
        step.finish()
    return compared, wrong + step.report.disagreements


@pytest.mark.parametrize("oklahoma", [False, True], ids=["gin", "oklahoma"])
def test_the_port_chooses_what_openspiels_bot_plays(oklahoma: bool) -> None:
    rng = random.Random(f"simple bot {oklahoma}")
    compared = 0
    failures: list[str] = []
    for _ in range(HANDS):
        n, wrong = _play(Deal.shuffled(rng), oklahoma)
        compared += n
        failures += wrong
    assert failures == [], "\n".join(failures[:5])
    assert compared > 20 * HANDS


def test_best_meld_group_is_openspiels() -> None:
    rng = random.Random(5)
    u: Any = utils()
    for size in (10, 11) * 300:
        cards = rng.sample(range(52), size)
        ours = best_meld_group(sum(1 << c for c in cards))
        theirs = u.best_meld_group([os_card(c) for c in cards])
        assert [sorted(os_card(c) for c in cards_of(m)) for m in ours] == \
            [sorted(m) for m in theirs]
