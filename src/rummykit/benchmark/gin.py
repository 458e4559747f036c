"""Gin measures (``python -m rummykit.benchmark --only gin``): our gin against OpenSpiel's
``gin_rummy`` and RLCard's gin, the same game on both sides.

- Ours, in :mod:`.gin_hand`: ``gin_random_playout_hands`` / ``_moves`` (the ratios use
  ``rules = "openspiel profile"``, the same game as OpenSpiel's) and ``gin_min_deadwood``.
- OpenSpiel from Python, ``gin_os_random_playout_hands`` / ``_moves``: each hand starts from
  ``clone()`` of one initial state (a chance node before the deal, so a new deal), chance
  outcomes and player actions uniform from Python; moves are player actions. It clones
  because ``new_initial_state()`` costs about 7 ms in ``gin_rummy`` (its constructor builds
  the meld tables), more than a whole random hand; the older ``random playout gin_rummy``
  measure of :mod:`.anchors` pays it every hand. The all-C++ loop is
  ``gin_cpp_random_hands``: ``pyspiel.evaluate_bots`` with two ``make_uniform_random_bot``
  bots plays a whole game, chance included, in C++, on a clone of the initial state
  (``evaluate_bots`` plays the state it is given to the end). ``random_sim_test`` also runs
  in C++ but checks every state (about 8 hands/s), so it is not used.
- ``python -m rummykit.benchmark.gin`` runs our playouts and both OpenSpiel loops
  interleaved, on CPU time (:func:`cpu_rounds`), for figures a loaded machine does not move.
- ``gin_min_deadwood`` (10 cards) of OpenSpiel (``GinRummyUtils.min_deadwood`` on index
  lists) and RLCard (``get_best_meld_clusters``) on the hands of ours; ``gin_knock_test``
  (11 cards: OpenSpiel's ``MinDeadwood`` heuristic, RULES.md §6.14.2), ours
  (:func:`~rummykit.variants.gin.deadwood.os_min_deadwood` on bit sets) and OpenSpiel's, on
  the same hands.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rummykit.benchmark.anchors import os_random_game
from rummykit.benchmark.measures import playout_measures, time_solver
from rummykit.benchmark.report import OPENSPIEL, OURS, RLCARD, Measure
from rummykit.benchmark.timing import Config, random_hands, timed
from rummykit.variants.gin.rules import OPENSPIEL_GAME

Task = tuple[str, Callable[[], list[Measure]]]

#: seeds offset from the run's seed: the 10-card hands are those of :mod:`.gin_hand`'s and
#: :mod:`.anchors`' ``min_deadwood`` measures (the same lists, in the same order)
HANDS_SEED = 10
KNOCK_SEED = 31


def ours_tasks(cfg: Config) -> list[Task]:
    """Our gin measure not in :mod:`.gin_hand`: the 11-card knock test."""
    from rummykit.variants.gin import deadwood

    return [("gin knock test 11 cards", lambda: _solver(
        cfg, OURS, deadwood.os_min_deadwood, 11, _masks(cfg, 11, KNOCK_SEED),
        "variants.gin.deadwood.os_min_deadwood(mask)"))]


def _masks(cfg: Config, size: int, seed: int) -> list[int]:
    return [sum(1 << c for c in h) for h in random_hands(_count(cfg), size, cfg.seed + seed)]


def _count(cfg: Config) -> int:
    return cfg.hands


def _solver(cfg: Config, engine: str, solve: Callable[[Any], object], cards: int,
            hands: list[Any], function: str) -> list[Measure]:
    """A solver measure named ``gin_min_deadwood`` (10 cards) or ``gin_knock_test`` (11)."""
    seed = HANDS_SEED if cards == 10 else KNOCK_SEED
    name = "gin_min_deadwood" if cards == 10 else "gin_knock_test"
    found = time_solver(cfg, engine, solve, hands,
                        {"cards": cards, "function": function, "seed": cfg.seed + seed})
    return [Measure(name=name, engine=m.engine, unit=m.unit, value=m.value, params=m.params)
            for m in found]


def openspiel_tasks(cfg: Config) -> list[Task]:
    """OpenSpiel's gin measures; raises ImportError when open_spiel is not installed."""
    import pyspiel

    utils = getattr(pyspiel, OPENSPIEL_GAME).GinRummyUtils(13, 4, 10)
    return [
        ("gin random playout (OpenSpiel, Python loop)", lambda: _os_python_loop(cfg)),
        ("gin all-C++ random games (OpenSpiel evaluate_bots)", lambda: _os_cpp_loop(cfg)),
        ("gin min_deadwood 10 cards (OpenSpiel)", lambda: _solver(
            cfg, OPENSPIEL, utils.min_deadwood, 10, _lists(cfg, 10, HANDS_SEED),
            "GinRummyUtils(13, 4, 10).min_deadwood(hand)")),
        ("gin knock test 11 cards (OpenSpiel)", lambda: _solver(
            cfg, OPENSPIEL, utils.min_deadwood, 11, _lists(cfg, 11, KNOCK_SEED),
            "GinRummyUtils(13, 4, 10).min_deadwood(hand), 11 cards")),
    ]


def _lists(cfg: Config, size: int, seed: int) -> list[list[int]]:
    """The same hands as :func:`_masks`, as OpenSpiel index lists (suits S, C, D, H)."""
    return [[13 * ((c // 13 + 1) % 4) + c % 13 for c in h]
            for h in random_hands(_count(cfg), size, cfg.seed + seed)]


def _os_python_loop(cfg: Config) -> list[Measure]:
    import pyspiel

    initial = pyspiel.load_game("gin_rummy").new_initial_state()
    one_game = os_random_game(initial, random.Random(cfg.seed).choice)

    t = timed(cfg.seconds, one_game)
    params = {"game": "gin_rummy", "players": 2, "hands": t.batches, "moves": t.units,
              "mean_moves": round(t.units / max(t.batches, 1), 1),
              "note": "clone() of the initial state per hand; moves = player actions",
              "seconds": round(t.elapsed, 3), "seed": cfg.seed}
    return [Measure(name="gin_os_" + m.name, engine=m.engine, unit=m.unit, value=m.value,
                    params=m.params) for m in playout_measures(OPENSPIEL, t, params)]


def _os_cpp_loop(cfg: Config) -> list[Measure]:
    import pyspiel

    initial = pyspiel.load_game("gin_rummy").new_initial_state()
    bots = [pyspiel.make_uniform_random_bot(p, cfg.seed + p) for p in (0, 1)]
    games = 0

    def one_game() -> int:
        nonlocal games
        pyspiel.evaluate_bots(initial.clone(), bots, cfg.seed + games)
        games += 1
        return 1

    t = timed(cfg.seconds, one_game)
    return [Measure(name="gin_cpp_random_hands", engine=OPENSPIEL, unit="hands/s",
                    value=t.rate, params={
                        "game": "gin_rummy", "players": 2, "hands": t.units,
                        "function": "pyspiel.evaluate_bots(state, [uniform random bots], "
                                    "seed): one whole game in C++ per call",
                        "seconds": round(t.elapsed, 3), "seed": cfg.seed})]


def rlcard_tasks(cfg: Config) -> list[Task]:
    """RLCard's gin measures; raises ImportError when rlcard is not installed."""
    from rlcard.games.gin_rummy.utils import melding, utils

    def solve(hand: list[Any]) -> object:
        return melding.get_best_meld_clusters(hand)

    def hands() -> list[list[Any]]:
        return [[utils.get_card(c) for c in h]
                for h in random_hands(_count(cfg), 10, cfg.seed + HANDS_SEED)]

    return [("gin min_deadwood 10 cards (RLCard)", lambda: _solver(
        cfg, RLCARD, solve, 10, hands(), "melding.get_best_meld_clusters(hand)"))]


# ------------------------------------------------------- interleaved CPU-time comparison


def _our_random_hand(rng: random.Random) -> Callable[[], int]:
    from rummykit.variants.gin.hand import GinHand
    from rummykit.variants.gin.rules import openspiel_profile

    rules = openspiel_profile()

    def one_hand() -> int:
        hand = GinHand.deal(rules, 1, rng)
        moves = 0
        while hand.result is None:
            hand.push(rng.choice(hand.legal_moves()))
            moves += 1
        return moves

    return one_hand


def _cpu_rate(one: Callable[[], int], seconds: float) -> tuple[float, float]:
    """(hands, moves) per CPU second of this process over ``seconds`` of CPU time."""
    start = time.process_time()
    hands = moves = 0
    while True:
        moves += one()
        hands += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return hands / spent, moves / spent


def _cpu_solves(seed: int, count: int = 20_000) -> tuple[float, float]:
    """10-card minimum deadwood solves per CPU second, ours and OpenSpiel's, on ``count``
    fresh distinct hands (new ones each round: our solver memoises hands)."""
    import pyspiel

    from rummykit.variants.gin.deadwood import min_deadwood

    hands = random_hands(count, 10, seed)
    masks = [sum(1 << c for c in h) for h in hands]
    lists = [[13 * ((c // 13 + 1) % 4) + c % 13 for c in h] for h in hands]
    solve = getattr(pyspiel, OPENSPIEL_GAME).GinRummyUtils(13, 4, 10).min_deadwood
    start = time.process_time()
    for mask in masks:
        min_deadwood(mask)
    ours = time.process_time() - start
    start = time.process_time()
    for cards in lists:
        solve(cards)
    theirs = time.process_time() - start
    return count / ours, count / theirs


def cpu_rounds(rounds: int, seconds: float, seed: int) -> list[dict[str, float]]:
    """Our random playouts (OpenSpiel profile), OpenSpiel's Python loop and its all-C++
    loop, and 10-card minimum deadwood on both sides, interleaved ``rounds`` times, each
    loop timed on ``seconds`` of CPU time: rates that other processes on a loaded machine
    move far less than the wall-clock measures."""
    import pyspiel

    initial = pyspiel.load_game("gin_rummy").new_initial_state()
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in (0, 1)]
    ours = _our_random_hand(random.Random(seed))
    theirs = os_random_game(initial, random.Random(seed).choice)
    games = 0

    def cpp() -> int:
        nonlocal games
        pyspiel.evaluate_bots(initial.clone(), bots, seed + games)
        games += 1
        return 0

    out = []
    for k in range(rounds):
        our_hands, our_moves = _cpu_rate(ours, seconds)
        os_hands, os_moves = _cpu_rate(theirs, seconds)
        cpp_hands, _ = _cpu_rate(cpp, seconds)
        our_solves, os_solves = _cpu_solves(seed + 100 + k)
        out.append({"ours min_deadwood solves/s": our_solves,
                    "OpenSpiel min_deadwood solves/s": os_solves,
                    "min_deadwood ours / OpenSpiel": our_solves / os_solves,
                    "ours hands/s": our_hands, "ours moves/s": our_moves,
                    "OpenSpiel Python hands/s": os_hands, "OpenSpiel Python moves/s": os_moves,
                    "OpenSpiel C++ hands/s": cpp_hands,
                    "moves/s ours / OpenSpiel Python": our_moves / os_moves,
                    "hands/s ours / OpenSpiel C++": our_hands / cpp_hands})
    return out


def main(argv: list[str] | None = None) -> None:
    """``python -m rummykit.benchmark.gin [--rounds N] [--seconds S]``: print
    :func:`cpu_rounds` and the median of each figure."""
    parser = argparse.ArgumentParser(description=cpu_rounds.__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per loop")
    parser.add_argument("--seed", type=int, default=20260101)
    args = parser.parse_args(argv)
    found = cpu_rounds(args.rounds, args.seconds, args.seed)
    for key in found[0]:
        values = [r[key] for r in found]
        print(f"{key}: median {statistics.median(values):,.2f} "
              f"(rounds: {', '.join(f'{v:,.2f}' for v in values)})")


if __name__ == "__main__":
    main()
