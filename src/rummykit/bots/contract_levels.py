"""What each search level plays in Contract Rummy (RULES.md §4): its :class:`Level`.

Every level above ``easy`` plays the shared heuristics
(:func:`rummykit.bots.contract_policy.choose`, with deal 7's shape); the levels differ by
the search they add:

- ``medium``: the heuristics alone;
- ``hard``: also searches the draw of a seat not yet down (stock, discard top, the
  shallowest dig) in 8 sampled worlds (:mod:`rummykit.bots.contract_worlds`), keeping the
  heuristic's draw unless another measured :data:`DRAW_MARGIN` points better;
- ``expert``: the same search in 24 worlds, and deal 7 played as a race
  (:mod:`rummykit.bots.contract_race`: the move leaving the least expected loss).

Since a seat not down stopped digging deeper than three cards in the deals of sets only
(:func:`rummykit.bots.contract_policy.up_draw`), held-out seeds 31 and 37 (``python -m
rummykit.benchmark.contract_bots --table medium,greedy --sets 8 --seeds 31,37``, 448
mirrored deals 1-7, 4 players, against three ``greedy``): ``medium`` -6.65 +- 1.60 points a
deal, 25.6% below greedy (deal 1 -15.6 +- 1.5, deal 4 -13.7 +- 4.0); before it, 3.1-3.3%.
``expert`` on the same deals (``--table expert,greedy --sets 8 --seed 31``, then ``--seed
37``): -8.52 +- 2.19 (31.3% below) and -9.81 +- 2.21 (36.5%), 33.9% pooled: still short of
issue 21's 40% (its draw search already avoided most deep digs: 30.6% and 37.6% before;
32.4% and 36.8% with two cards at most). Every level plays deal 7 alike (no search), so
there the levels differ only by noise. A four-level table, seed 41 (``--table
easy,medium,hard,expert --sets 2 --seed 41``, 56 deals each): easy 31.09, medium 23.34, hard
19.34, expert 17.88 points a deal (too few deals to tell hard from expert).

Deal 7 as a race (``expert`` only, :mod:`rummykit.bots.contract_race`): on tuning seed 5
(400 deals 7, one seat against three fast greedy playout seats) the seat's own penalty
fell from 54.4 to 48.5 a deal (-5.9 +- 2.8), its penalty less the others' mean from -5.8
to -8.4 (-2.6 +- 3.6: it wins less often, 113 deals against 167, but holds 67.5 points
when it loses against 93.3); seed 7: own penalty -4.45 +- 2.69, less the others' mean
-0.83 +- 3.45 (noise). Held out, in one table (``--table expert,medium,greedy --only
7 --sets 30 --seeds 31,37``, 240 deals 7): ``expert`` -7.23 +- 4.35 points a deal against
``medium``'s deal 7 (the old one), 52.53 against greedy's 60.82. All seven deals, the same
448 deals as above (``--table expert,greedy --sets 8 --seeds 31,37 --jobs 2``): -8.00 +-
1.32 a deal, 30.9% below greedy (deal 7 -5.12 +- 5.75 on its 64 deals, ``medium``'s deal
7 -13.25 +- 8.14 on the same ones: noise either way); still short of 40%. Against
``hard`` (``--table expert,hard,greedy --sets 4 --seed 41 --jobs 2``, 112 deals):
+0.46 +- 3.87 a deal, not separated.

Deals 5 and 6 (issue 21: ``expert`` barely ahead of greedy there) are won by digging. In
all-greedy tables (tuning seed 5000, 160 mirrored deals of each) 86% and 76% of the seats
go down by a dig, 5.8 and 6.4 cards deep, in their fourth or fifth turn, and keep about
six cards; in deal 6, 15% of the losing seats never go down and hold 84 points, 42% of
greedy's penalty there. ``expert`` digs as deep, keeps as many cards and goes down 0.6 of
its turns later (48 deals of each; it takes the discard top three times as often). Each
change tried was measured paired with the unchanged expert on the same mirrored deals
(``table()`` of :mod:`rummykit.benchmark.contract_bots` on a patched copy each, seed
5000, deals 5-6, 192 deals, expert - greedy): never digging deeper than 3 cards, the
search neither, +10.25 +- 2.39 points a deal worse; no dig leaving more than 4 cards in
hand +12.03 +- 2.46; the searched draws without the discard top +2.26 +- 1.97; never
overriding the heuristic's dig +1.43 +- 0.85; no draw search +1.38 +- 1.98; a margin of 0
+0.90 +- 1.10; 48 worlds -0.72 +- 1.80; every dig a candidate -0.22 +- 0.30; playouts
that dig as greedy does +1.62 +- 1.96; the first three discards of a seat not down
searched too (24 worlds, the same margin) +1.03 +- 1.99 (deals 1-4, 192 deals: -0.82 +-
1.46); going down with the most cards rather than the most points changed no move. A deep
dig kept only when the search measures it :data:`DRAW_MARGIN` better than the shallower
draw gained -1.11 +- 0.49 on seed 5000 (-0.47 +- 0.41 in deals 2-3) but +0.25 +- 0.34 on
held-out seeds 31 and 37 (448 deals, every deal; deal 2 +2.36 +- 1.67): not kept.

The missing share is in deal 7. On the held-out deals 1-6 alone (seeds 31 and 37, 8 sets,
384 mirrored deals) the unchanged ``expert`` is -8.48 +- 1.21 points a deal against
greedy, **40.9% below** it: it holds 12.2 points a deal to greedy's 20.7. Deal 7 alone on
the same seeds (``--only 7 --sets 100``, 800 deals, 2 minutes): 47.60 against 57.29,
-9.69 +- 1.64, only 16.9% below. Each deal number weighed alike, that is 33.4% below over
all seven. Issue 21's 40% needs the expert at about 35.6 points in deal 7 with deals 1-6
as they are, or at about 10.2 a deal in deals 1-6 with deal 7 as it is. Deal 7 is cheap
to measure (about 0.13 s a deal). The race's :data:`~rummykit.bots.contract_race.CHANCE_SCALE`
against real greedy seats (tuning seed 5000, 400 deals 7, change against 1.0): 0.7 +8.47
+- 2.34, 0.9 +1.59 +- 1.55, 1.1 +1.45 +- 1.42, 1.3 +4.98 +- 2.16. So 1.0 stays. Its
:data:`~rummykit.bots.contract_race.BONUS_WEIGHT` (the same 400 deals, change against
0.5): 0 +1.60 +- 1.55, 1 +1.97 +- 1.46. So 0.5 stays.

Five more deal-7 changes, each paired with the unchanged race on the same mirrored deals
7 of tuning seed 5000 (change in the expert's penalty, points a deal; none kept):

- A determinized search over the race's move and a few others (the stock and the discard
  top to draw, the race's three best discards), each played out to the end of the deal in
  16 sampled worlds by the fast greedy playouts, margin 3 points: +8.46 +- 4.31 (100
  deals), at 0.12 s a decision. The playouts race like greedy, never shedding points, so
  they misjudge the race's own hand.
- One draw of lookahead for the discard: the race's three best discards, each scored by
  the mean over the unseen cards of the best discard's expected loss after drawing it
  (one round later): +6.39 +- 2.64 (200 deals); half that and half the plain expected
  loss: +3.91 +- 2.62.
- :data:`~rummykit.bots.contract_race.WEIGHTS` refitted to the expert seat's own deal-7
  draws against three greedy (it wins more often than greedy at equal features, so the
  fit races more): +7.21 +- 1.94 (400 deals).
- The win chance raised to the power 1.25 (races less when far): -0.61 +- 1.28 (400).
- Discard denial in deal 7 (3 points against a discard within two ranks of a card known in
  the next seat's hand, same suit): +1.07 +- 0.97 (400).

A hand one card from three runs now has its chance from its outs
(:func:`~rummykit.bots.contract_race.ready_chance`: its outs drawn at
:data:`~rummykit.bots.contract_race.OUT_ODDS` times the stock's rate, against the measured
rate at which the others go out), not from the logistic, which put such a hand with 8-11
outs after round 12 at 0.46 where such hands won 0.90 of the time (222 draws of the
expert seat in 1,500 deals). Against the race before it
(deals 7 of 4 players, one ``expert`` against three ``greedy``, 400 a seed, the expert's
penalty; in brackets, its penalty less the greedy seats' mean): tuning seed 5000 -0.61 +-
0.87 (-1.03 +- 1.16), held out 31 -0.81 +- 0.81 (-1.13 +- 1.07) and 37 -1.15 +- 1.07
(-1.48 +- 1.43); on 31 and 37 together 46.89 against greedy's 57.94, 19.1% below (16.9%
before). The same chain of draws for a hand two cards short (each later card at the rate of
2, 3, 4 or 6 outs) was worse on seed 5000: +3.90, +2.10, +1.12, +3.93.

Measured the same way on seed 5000 and not kept (the greedy seats' mean counts: the target
is the expert's penalty against theirs, and when the expert goes out every one of them
pays): throwing the highest card every turn (and taking a lower discard top) held less
(+1.65 +- 1.94) but never went out, +12.46 +- 2.43 against the greedy seats; ``medium``'s
deal 7 (wins 44% of the deals, holds 93 points when it loses) +7.91 own, +5.05 against
them; ``medium``'s move unless the race measures its own 2, 5 or 10 points better +6.99,
+6.80, +6.24 own; ``medium``'s moves for the first 4 or 8 rounds, then the race: +6.43,
+9.82; the chance scaled by 0.8 or 1.2 before round 6: +1.48, +2.23; the taken card's rest
counted in full: +0.61 +- 2.17; :data:`~rummykit.bots.contract_race.BONUS_WEIGHT` 1.5 and 0:
+3.78, +0.65; :data:`~rummykit.bots.contract_race.CHANCE_SCALE` 1.3 and 0.8: +5.19, +2.05.

Three ``expert`` seats once played a deal 7 to the 1,000-turn valve (``--ends expert
--players 3 --matches 50 --seed 43``, match 9). By round 30 each race held twelve low cards
and saw no chance, so it threw every card it drew, jokers too, and none of them raced
again. Since then the race's round counts from 0 again every
:data:`~rummykit.bots.contract_race.LONG_ROUNDS` (60) rounds, and that deal ends in 225
turns. Against greedy this changed 7 of the 400 deals of tuning seed 5000: +0.32 +- 0.25.
Every 40 rounds: +0.67 +- 0.26, 12 deals changed. Playing for going out alone from round
40: +0.88 +- 0.37; from round 60: +0.64 +- 0.35.

Two ideas for deals 1-6 were each measured paired with the unchanged expert, on the same mirrored
deals with a patched copy of ``table()``. Only deals 1-6 were played: deal 7 runs through
:mod:`rummykit.bots.contract_race`, which neither change touched. The figures are the
change in expert - greedy, in points a deal:

- **Discard denial**. Every discard joins the pile the next seats may dig. Count the
  cards a discard would pair with toward the deal's contract: same rank another suit
  (sets), same suit one or two ranks away (runs), on the discard pile or known in the
  hand of a seat not yet down. Then prefer the least exposed discard. As a tie-break among
  discards of one value (down or not): tuning seed 5000, 192 deals, -0.62 +- 0.78. Held
  out (seeds 31 and 37, 384 deals): -0.14 +- 0.58 (deal 5 -1.66 +- 1.03, deal 6 -1.94
  +- 1.60). The same tie-break in deals 5 and 6 only, on fresh seeds 41 and 43 (12 sets,
  192 deals): +0.73 +- 0.83. At 3 points an exposed card across values (seed 5000):
  +0.01 +- 1.15. Not kept.
- **Damage control**. A seat not down, another seat down with at most 2 (or 3) cards,
  and the hand two or more of its contract's melds short. The seat then sheds points
  (never feeding a seat that is down) instead of keeping its partial melds. Seed 5000,
  192 deals, on top of the denial tie-break: +0.48 +- 0.34 (3 cards: +0.46 +- 0.59),
  most of it in deal 4 (sets only): +2.67 +- 1.78 (+3.09 +- 1.81). Not kept.

The pairing takes and the race discards of :class:`~rummykit.bots.contract_expert.Skill`
are no level's: against ``medium`` (seed 22, 160 mirrored deals of each number) the race
discards were 3.9 +- 2.1 and 4.3 +- 2.1 points a deal worse in deals 1 and 4 (sets only:
they break the pairs a seat needs to go down) and level elsewhere; the pairing takes moved
no deal by more than its error.

``hard`` against ``expert`` (``--table expert,hard,greedy``: one seat of each and two
``greedy``, every rotation). Deal 7, seeds 61, 62 and 64 (1,600 deals): the expert about
4.0 +- 1.7 points a deal ahead. Deals 1-6, seeds 61 and 63 (864 deals): -1.3 +- 1.0; seed
65 (``--only 1,2,3,4,5,6 --sets 80 --seed 65 --jobs 2``, 1,920 deals, 12.6 min): -0.86 +-
0.64 (expert 14.21, hard 15.07, greedy 21.65). Pooled by inverse variance, deals 1-6 give
-0.99 +- 0.54 a deal, so over a match (six such deals and a deal 7) the expert is about
9.9 +- 3.7 points ahead of ``hard``.

Playouts in which the searching seat plays these heuristics (the others the fast greedy
policy) cost less than feared: 8.4 ms a whole deal against 4.2 ms for fast greedy alone
(0.2 ms a heuristic decision), so the expert's searches take about 3.4 times as long.
They did not search better (change in expert - greedy, paired on the same mirrored deals
with a patched copy of ``table()``): the draw search on tuning seed 5000, deals 2, 3, 5
and 6 (192 deals), -2.93 +- 1.73 a deal (margin 0: +0.15 +- 1.93), but on held-out seed
31, deals 1-6 (384 deals), +1.70 +- 1.25, and seed 37 +0.88 +- 1.32 (+1.29 +- 0.91 on
both); with the three best discards of a seat not down searched too (24 worlds, the same
margin), +0.34 +- 1.18 on seed 31. Not kept.

A seat that is down sheds its highest card. Keeping instead a card two past a run's end
(its discard worth its points less ``b`` points per unseen copy of the gap card) was
measured with ``medium`` against three ``greedy`` (tuning seed 5000, deals 2, 3, 5 and 6,
100 sets, 1,600 mirrored deals, change in medium - greedy, points a deal): ``b`` 1 -0.09
+- 0.16, 3 -0.31 +- 0.19, 6 -0.17 +- 0.20, 12 +0.04 +- 0.21. Far too small for the
missing share (about 3 points a deal); not kept. On those deals ``medium`` is only -0.37
points a deal ahead of greedy.

Where the points go (tuning seed 5000, one ``expert`` against three ``greedy``): in deals
2, 3, 5 and 6 (48 deals of each) nearly all of a loser's penalty is held after going down
(2-4% of the seats lose without going down); the expert holds 17.6, 15.7, 21.1 and 20.0
points when it loses down, greedy 24.7, 21.7, 22.1 and 17.8, and the expert wins 35, 21,
23 and 38% of those deals against greedy's 21, 26, 26 and 21% a seat. In deal 7 (400
deals) the race wins 35% and holds 67.3 when it loses, ``medium`` 44% and 93.1, greedy
21% and 74.7. Four more changes, each paired with the unchanged bot on the same mirrored
deals (none kept):

- The expert weighing going down against waiting a turn (24 worlds, margin 3) in deals 2,
  3, 5 and 6 (640 deals): -0.04 +- 0.08 a deal; it waited in 12 of them.
- ``medium``'s deal-7 discard with points before draws (400 deals 7): +7.61 +- 2.76 own
  penalty (it won 22% of the deals), +13.54 +- 3.50 against the greedy seats; draws
  counted in steps of 4 before points +1.93 +- 2.30 (+3.69 +- 2.89), steps of 8 +3.70 +-
  2.47; the improving draws expected over the next two draws instead of the next one
  +0.77 +- 1.59, at ten times the time. Racing, not shedding, is what ``medium`` gets right.
- The race taking the discard top only when it measures 3 points better than the stock:
  +0.60 +- 1.49 own (+0.85 +- 1.93); also when up to 3 points worse: +3.35 +- 1.62.
- A search whose own seat races in its playouts: a race decision takes 2.5 ms (median,
  3.0 mean), so three discards in 8 worlds would take about 2.6 s a decision, past the
  budget; not measured.

>>> from rummykit.bots.expert import LEVELS
>>> [level_for(LEVELS[name]).draw_worlds for name in ("medium", "hard", "expert")]
[0, 8, 24]
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING

from rummykit.bots import contract_policy, contract_race
from rummykit.bots.contract_expert import Skill
from rummykit.bots.greedy_contract import all_at_once
from rummykit.core.moves import Move
from rummykit.core.views import PlayerView

if TYPE_CHECKING:
    from rummykit.bots.expert import Budget

DRAW_MARGIN = 3.0  # points another draw must measure better than the heuristic's
HARD_WORLDS = 48  # budget worlds from which a level searches its draws
EXPERT_WORLDS = 128  # ... and from which it searches them in more worlds


@dataclasses.dataclass(frozen=True, slots=True)
class Level:
    """A level's contract play: the heuristics it knows and the worlds of its draw search
    (0: none)."""

    skill: Skill
    draw_worlds: int = 0
    race: bool = False  # deal 7 played as a race (:mod:`rummykit.bots.contract_race`)


HEURISTICS = Skill(seventh_draws=True, pair_takes=False, race_discards=False)


def level_for(budget: Budget) -> Level:
    """The level of the search bot with ``budget``."""
    if budget.worlds >= EXPERT_WORLDS:
        return Level(HEURISTICS, 24, race=True)
    if budget.worlds >= HARD_WORLDS:
        return Level(HEURISTICS, 8)
    return Level(HEURISTICS)


def choose(view: PlayerView, rng: random.Random, budget: Budget) -> Move:
    """The level's contract move: always one of ``view.legal``."""
    level = level_for(budget)
    if level.race and all_at_once(view):
        return contract_race.choose(view)
    if not level.draw_worlds:
        return contract_policy.choose(view, level.skill)
    return contract_policy.searched(view, rng, budget, level.draw_worlds, DRAW_MARGIN,
                                    level.skill, waits=False, draws=True)


__all__ = ["DRAW_MARGIN", "HEURISTICS", "Level", "choose", "level_for"]
