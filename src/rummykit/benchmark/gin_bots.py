"""Gin bot strength: mirrored games to 100 between two bots, and decision times.

``python -m rummykit.benchmark.gin_bots --bots expert,simple --games 1000 [--seed S]
[--rules openspiel|gin|oklahoma] [--target 100] [--hands N]`` plays ``--games`` games, half
with each seating: game ``2k`` and game ``2k + 1`` use the same deals (hand ``h`` of pair
``k`` is dealt from ``Random(seed, k, h)``) with the bots' seats swapped, seat 0 dealing
first. It reports the first bot's share of games won with its standard error, its mean hand
score (points won minus lost a hand) with its error, and the median, 95th percentile and
worst of its decision times in CPU seconds (``time.process_time``, so other work on the
machine does not inflate them). The default rules are the OpenSpiel profile (RULES.md
§6.14.1) played to ``--target`` points, the game the SimpleGinRummyBot port (``simple``) was
written for. ``--hands N`` plays N deals twice each (seats swapped) as single hands instead,
a cheaper measure of the mean hand score with a paired error. ``--detail`` adds how the
first bot's hands ended (:func:`hand_kind`: its knocks, gins and undercuts suffered, the
opponent's, dead hands) with the points each kind brought and the first bot's deadwood at
the opponent's knock. ``--jobs N`` plays the games on N processes (the same figures
whatever N: every game has its own seeds and the games are added in order); ``--every K``
prints the running figures every K games (for a long run's log); ``--start K`` begins at
game K (resuming a long run: the same games a run from 0 plays there).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from rummykit.bots import AnyBot, make_bot_for
from rummykit.variants.gin.game import ScoreSheet
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.outcome import BIG_GIN, GIN, KNOCK, UNDERCUT
from rummykit.variants.gin.rules import (
    GIN_PRESETS,
    GIN_RULE_SETS,
    GinRules,
    openspiel_profile,
)
from rummykit.variants.gin.view import gin_view

OPENSPIEL = "openspiel"
#: hands a game may last before it is called unfinished (a game to 100 takes about 5)
MAX_HANDS = 60


def game_rules(name: str, target: int) -> GinRules:
    """The rules a game is played under: ``openspiel`` (the profile, to ``target``), or a
    gin preset's name (with the target score ``target``)."""
    if name == OPENSPIEL:
        base = openspiel_profile()
        return dataclasses.replace(base, game_end="target", target_score=target)
    return dataclasses.replace(GIN_PRESETS[name], target_score=target)


@dataclass
class Tally:
    """What the first bot of a pairing did over the games played."""

    games: int = 0
    won: int = 0
    unfinished: int = 0
    hand_scores: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    kind_points: Counter[str] = field(default_factory=Counter)
    defended: list[int] = field(default_factory=list)  # its deadwood at the other's knock
    knocked: list[int] = field(default_factory=list)  # its deadwood at its own knock
    turns: list[int] = field(default_factory=list)  # stock cards drawn before the end

    def record(self, hand: GinHand, watch: int) -> None:
        """Add the finished ``hand``'s facts for seat ``watch``."""
        assert hand.result is not None
        scores = hand.result.scores
        kind = hand_kind(hand, watch)
        self.kinds[kind] += 1
        self.kind_points[kind] += scores[watch] - scores[1 - watch]
        self.hand_scores.append(scores[watch] - scores[1 - watch])
        outcome = hand.outcome
        if outcome is not None and outcome.deadwood is not None and outcome.knocker is not None:
            mine = outcome.deadwood[watch]
            (self.knocked if outcome.knocker == watch else self.defended).append(mine)
        self.turns.append(31 - len(hand.stock))


def hand_kind(hand: GinHand, watch: int) -> str:
    """How a finished hand ended for seat ``watch``: ``gin``, ``knock won``, ``undercut
    suffered`` when it knocked; ``their gin``, ``their knock``, ``undercut made`` when the
    other seat did; else the reason (a dead hand, a tie)."""
    result, outcome = hand.result, hand.outcome
    assert result is not None
    knocker = None if outcome is None else outcome.knocker
    reason = result.reason or result.result
    if knocker is None or reason not in (KNOCK, GIN, BIG_GIN, UNDERCUT):
        return reason
    if knocker == watch:
        return {UNDERCUT: "undercut suffered", KNOCK: "knock won"}.get(reason, GIN)
    return {UNDERCUT: "undercut made", KNOCK: "their knock"}.get(reason, "their gin")


def play_game(rules: GinRules, bots: tuple[AnyBot, AnyBot], seed: tuple[int, int],
              watch: int, tally: Tally) -> int | None:
    """One game; returns the winning seat (None if unfinished). Records seat ``watch``'s
    hand scores and decision times in ``tally``."""
    sheet = ScoreSheet(rules, dealer=0)
    rng = random.Random(f"moves {seed}")
    for number in range(MAX_HANDS):
        hand = GinHand.deal(rules, sheet.dealer, random.Random(f"deal {seed} {number}"),
                            deal_index=number)
        while hand.result is None:
            seat = hand.to_move
            seen = gin_view(hand, seat)
            started = time.process_time()
            move = bots[seat].choose(seen, rng)
            if seat == watch:
                tally.times.append(time.process_time() - started)
            hand.play(move)
        tally.record(hand, watch)
        sheet.add(hand.result)
        if sheet.over:
            return sheet.winners[0] if sheet.winners else None
    return None


def one_game(rules: GinRules, names: tuple[str, str], game: int, seed: int) -> Tally:
    """Game number ``game`` of a mirrored match (pair ``game // 2``, the seats swapped in
    the odd one) with fresh bots, as a one-game tally of the first bot."""
    tally = Tally()
    pair, swapped = divmod(game, 2)
    first, second = make_bot_for(names[0], rules), make_bot_for(names[1], rules)
    seats = (second, first) if swapped else (first, second)
    watch = 1 if swapped else 0
    winner = play_game(rules, seats, (seed, pair), watch, tally)
    tally.games = 1
    tally.unfinished = winner is None
    tally.won = winner == watch
    return tally


def merge(total: Tally, part: Tally) -> None:
    """Add ``part``'s games to ``total``."""
    total.games += part.games
    total.won += part.won
    total.unfinished += part.unfinished
    for name in ("hand_scores", "times", "defended", "knocked", "turns"):
        getattr(total, name).extend(getattr(part, name))
    total.kinds.update(part.kinds)
    total.kind_points.update(part.kind_points)


def _game_job(job: tuple[GinRules, tuple[str, str], int, int]) -> Tally:
    return one_game(*job)


def match(rules: GinRules, names: tuple[str, str], games: int, seed: int, jobs: int = 1,
          progress: Callable[[Tally], None] | None = None, start: int = 0) -> Tally:
    """``games`` mirrored games of ``names[0]`` against ``names[1]`` (games ``start`` to
    ``games - 1``: a later start resumes a long run), on ``jobs`` processes (each game is
    dealt and played from its own seeds, and the games are added in order, so the figures
    are the same whatever ``jobs``). ``progress`` is called with the tally so far after
    each game."""
    tally = Tally()
    work = [(rules, names, game, seed) for game in range(start, games)]
    if jobs <= 1:
        parts: Iterable[Tally] = map(_game_job, work)
        for part in parts:
            merge(tally, part)
            if progress is not None:
                progress(tally)
        return tally
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for part in pool.imap(_game_job, work):
            merge(tally, part)
            if progress is not None:
                progress(tally)
    return tally


def hand_pairs(rules: GinRules, names: tuple[str, str], pairs: int, seed: int) -> Tally:
    """Single hands instead of games, far cheaper: ``pairs`` deals each played twice with
    the seats swapped (the dealer alternating by deal); ``hand_scores`` holds the first
    bot's paired mean of each deal, ``won`` the hands it won."""
    tally = Tally()
    for pair in range(pairs):
        paired = 0.0
        for swapped in (False, True):
            first, second = make_bot_for(names[0], rules), make_bot_for(names[1], rules)
            seats = (second, first) if swapped else (first, second)
            watch = 1 if swapped else 0
            hand = GinHand.deal(rules, pair % 2, random.Random(f"deal {seed} {pair}"))
            rng = random.Random(f"moves {seed} {pair} {swapped}")
            while hand.result is None:
                seat = hand.to_move
                started = time.process_time()
                move = seats[seat].choose(gin_view(hand, seat), rng)
                if seat == watch:
                    tally.times.append(time.process_time() - started)
                hand.play(move)
            scores = hand.result.scores
            paired += (scores[watch] - scores[1 - watch]) / 2
            tally.games += 1
            tally.won += hand.result.winner == watch
            tally.record(hand, watch)
        del tally.hand_scores[-2:]
        tally.hand_scores.append(paired)
    return tally


def report(names: tuple[str, str], tally: Tally, unit: str = "games") -> list[str]:
    """The lines of the result (``unit``: ``games``, or ``hands`` for :func:`hand_pairs`)."""
    share = tally.won / tally.games
    error = math.sqrt(share * (1 - share) / tally.games)
    scores = tally.hand_scores
    mean = statistics.fmean(scores)
    spread = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
    times = sorted(tally.times)
    over = "deal pairs (paired means)" if unit == "hands" else "hands"
    lines = [f"{names[0]} vs {names[1]}: {tally.won} of {tally.games} {unit} won "
             f"= {share:.1%} ± {error:.1%} (1 s.e.), {tally.unfinished} unfinished",
             f"  hand score of {names[0]}: {mean:+.2f} ± {spread:.2f} points a hand "
             f"over {len(scores)} {over}"]
    if times:
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        lines.append(f"  {names[0]}'s decisions: {len(times)}, median "
                     f"{statistics.median(times) * 1000:.1f} ms, 95th percentile "
                     f"{p95 * 1000:.1f} ms, worst {times[-1] * 1000:.1f} ms (CPU)")
    return lines


def detail(names: tuple[str, str], tally: Tally) -> list[str]:
    """How the first bot's hands ended: each kind's count, share and points (for it)."""
    hands = sum(tally.kinds.values())
    lines = [f"  how {names[0]}'s {hands} hands ended (count, share, its points a hand "
             f"of that kind, its points over all hands from it):"]
    for kind, count in sorted(tally.kinds.items(), key=lambda pair: -pair[1]):
        points = tally.kind_points[kind]
        lines.append(f"    {kind:<18} {count:>5} {count / hands:6.1%} {points / count:+7.1f} "
                     f"{points / hands:+6.2f}")
    if tally.defended:
        lines.append(f"  {names[0]}'s deadwood at {names[1]}'s knock: mean "
                     f"{statistics.fmean(tally.defended):.1f} over {len(tally.defended)}")
    if tally.knocked:
        lines.append(f"  {names[0]}'s deadwood at its own knock: mean "
                     f"{statistics.fmean(tally.knocked):.1f} over {len(tally.knocked)}")
    if tally.turns:
        lines.append(f"  stock cards drawn a hand: mean {statistics.fmean(tally.turns):.1f}")
    return lines


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m rummykit.benchmark.gin_bots",
                                     description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--bots", default="expert,simple",
                        help="two gin bot names, the measured one first")
    parser.add_argument("--games", type=int, default=1000, help="games (even: mirrored)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", choices=(OPENSPIEL, *GIN_RULE_SETS), default=OPENSPIEL)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--hands", type=int, default=0,
                        help="play this many deal pairs of single hands instead of games")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes to play the games on (the same figures whatever N)")
    parser.add_argument("--every", type=int, default=0,
                        help="print the running figures every this many games")
    parser.add_argument("--start", type=int, default=0,
                        help="begin at this game (resume a long run: the same games)")
    parser.add_argument("--detail", action="store_true",
                        help="also say how the first bot's hands ended, by kind")
    args = parser.parse_args(argv)
    names = tuple(args.bots.split(","))
    if len(names) != 2:
        parser.error(f"--bots {args.bots!r}: expected two names separated by a comma")
    rules = game_rules(args.rules, args.target)
    started = time.process_time()
    pair = (names[0], names[1])
    if args.hands:
        tally, unit = hand_pairs(rules, pair, args.hands, args.seed), "hands"
    else:
        def progress(sofar: Tally) -> None:
            done = args.start + sofar.games
            if args.every and done % args.every == 0 and done < args.games:
                print(f"[games {args.start} to {done - 1}, "
                      f"{time.process_time() - started:.0f} s CPU here]", flush=True)
                for line in report(pair, sofar):
                    print(line, flush=True)

        tally = match(rules, pair, args.games, args.seed, args.jobs, progress, args.start)
        unit = "games"
    for line in report(pair, tally, unit):
        print(line)
    if args.detail:
        for line in detail(pair, tally):
            print(line)
    spent = time.process_time() - started + sum(os.times()[2:4])  # with finished workers
    print(f"  {spent:.1f} s CPU")


if __name__ == "__main__":
    main()
