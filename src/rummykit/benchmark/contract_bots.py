"""Contract Rummy bot speed: playout moves per second and the expert's decision times.

``python -m rummykit.benchmark.contract_bots [--deals N] [--seed S]`` plays seeded
4-player deals 1-6 twice: once with the greedy bot on the engine's legal moves (what the
search's playouts used to run), once with the fast playout policy
(:mod:`rummykit.bots.contract_playout`), and reports moves per second of each. It then
plays seeded 4-player deals 1-7 with one ``expert`` seat against greedy ones and reports
the median, 95th percentile and worst of the expert's decision times (all decisions, and
the searched ones: those over 5 ms). One process, one core; times are the process's CPU
seconds (``time.process_time``), so a machine busy with other work does not inflate them.

``--table BOTS`` measures strength instead, far cheaper than whole matches: seeded single
deals (``--only 1,2,...``, default all seven) played once per seat rotation of the lineup
(``expert,greedy`` fills the other seats with the last name), and the mean penalty per
deal of each bot, the paired difference of the first two with its standard error, and the
deals each bot won, and that difference by deal number; ``--seeds 31,37`` pools the
deals of several seeds, and ``--jobs N`` plays the sets in N processes (the same figures
whatever N).

``--table BOTS --versus OTHER`` plays the same deals with a second lineup of as many names
(``--table medium,greedy --versus expert,greedy``) and pairs them deal by deal: how much
the second lineup's first bot holds against the first's, and how its gap to the last name
(the yardstick) changed; a change is negative when the second bot does better.

``--where BOTS --sets N`` shows where the points go: N seeded deals of each deal number
(1-7) of the lineup, and per deal number how often a seat went out, the turns, the turn of
the first going down, the digs, and the penalty of the seats that did not go out, split
into seats that never went down and seats that did, with their cards left.

``--ends BOTS --matches N`` plays N seeded whole matches (every deal of the schedule) of
the lineup and counts how the deals ended: by going out, by the blocked-deal rule
(RULES.md §4.8.1) or by the turn valve (§1.10), with the most turns a deal took; it prints
a line as each match ends, and ``--jobs N`` plays the matches in N processes (the same
matches and figures whatever N).
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import random
import statistics
import time
from collections import Counter, defaultdict

from rummykit.bots import make_bot
from rummykit.bots.contract_playout import fast_move
from rummykit.bots.greedy_contract import choose_contract
from rummykit.core import handset
from rummykit.core.cards import JOKER, NUM_RANKS
from rummykit.core.engine import HandState
from rummykit.core.match import Match
from rummykit.core.moves import Meld, Take
from rummykit.core.outcome import MAX_TURNS
from rummykit.core.views import view
from rummykit.variants import CONTRACT
from rummykit.variants.contract.view import seats_down

SEARCHED = 0.005  # seconds: a decision slower than this ran a search
PLAYOUT_TURNS = 300  # turns a measured playout runs at most


def playout_rate(deals: int, seed: int, fast: bool) -> float:
    """Moves per CPU second of 4-player deals 1-6 played by one policy."""
    moves = 0
    spent = 0.0
    for i in range(deals):
        state = HandState.deal(CONTRACT, 4, dealer=i % 4, rng=random.Random(seed + i),
                               deal_index=i % 6)
        started = time.process_time()
        while state.result is None and state.turn_count < PLAYOUT_TURNS:
            move = fast_move(state) if fast else choose_contract(view(state, state.to_move))
            state.push(move)
            moves += 1
        spent += time.process_time() - started
    return moves / spent


def expert_times(deals: int, seed: int) -> list[float]:
    """CPU seconds of every decision of one expert seat in 4-player deals 1-7 against greedy."""
    times = []
    expert, greedy = make_bot("expert"), make_bot("greedy")
    for i in range(deals):
        state = HandState.deal(CONTRACT, 4, dealer=i % 4, rng=random.Random(seed + i),
                               deal_index=i % 7)
        rng = random.Random(seed + i)
        while state.result is None:
            seat = state.to_move
            seen = view(state, seat)
            started = time.process_time()
            move = (expert if seat == 0 else greedy).choose(seen, rng)
            if seat == 0:
                times.append(time.process_time() - started)
            state.play(move)
    return times


def table(lineup: list[str], players: int, deals: list[int], sets: int,
          seed: int, jobs: int = 1) -> dict[str, list[float]]:
    """Per bot name, its mean penalty in every (deal, rotation) played; ``"wins:NAME"``
    holds 1.0 per deal it won. ``jobs`` processes play the sets (the same figures, in the
    same order, whatever ``jobs``)."""
    tasks = [(lineup, players, deals, seed, number) for number in range(sets)]
    found: dict[str, list[float]] = {}
    with multiprocessing.Pool(jobs) if jobs > 1 else contextlib.nullcontext() as pool:
        results = pool.imap(_table_set, tasks) if pool is not None else map(_table_set, tasks)
        for got in results:
            for name, values in got.items():
                found.setdefault(name, []).extend(values)
    return found


def _table_set(task: tuple[list[str], int, list[int], int, int]) -> dict[str, list[float]]:
    """:func:`table`'s figures of one set of deals (every deal, every rotation)."""
    lineup, players, deals, seed, number = task
    names = lineup + [lineup[-1]] * (players - len(lineup))
    found: dict[str, list[float]] = {}
    for deal in deals:
        for turn in range(players):
            seated = names[turn:] + names[:turn]
            bots = [make_bot(n) for n in seated]
            rng = random.Random(seed * 100_003 + number * 101 + deal)
            state = HandState.deal(CONTRACT, players, dealer=0, deal_index=deal,
                                   rng=random.Random(seed * 7919 + number * 31 + deal))
            while state.result is None:
                state.push(bots[state.to_move].choose(view(state, state.to_move), rng))
            scores = state.result.scores
            for name in dict.fromkeys(names):
                mine = [scores[i] for i, n in enumerate(seated) if n == name]
                found.setdefault(name, []).append(sum(mine) / len(mine))
                found.setdefault(f"wins:{name}", []).append(
                    float(state.result.winner is not None
                          and seated[state.result.winner] == name))
    return found


def where(lineup: list[str], players: int, sets: int, seed: int) -> list[str]:
    """Per deal number, the lines of :func:`main`'s ``--where`` table."""
    names = lineup + [lineup[-1]] * (players - len(lineup))
    lines = ["deal out% turns first-down digs | penalty a loser: all, never down (n), "
             "down (n); cards left, jokers, aces"]
    for deal in range(7):
        got = _where_deal(names, deal, sets, seed)

        def mean(key: str, got: dict[str, list[float]] = got) -> float:
            return statistics.mean(got[key]) if got[key] else 0.0

        lines.append(
            f"{deal + 1} {mean('out'):4.0%} {mean('turns'):5.1f} {mean('first'):5.1f} "
            f"{sum(got['digs']) / sets:4.2f} | {mean('penalty'):5.1f}, "
            f"{mean('up'):5.1f} ({len(got['up'])}), {mean('down'):5.1f} "
            f"({len(got['down'])}); {mean('cards'):4.1f}, {mean('jokers'):.2f}, "
            f"{mean('aces'):.2f}")
    return lines


def _where_deal(names: list[str], deal: int, sets: int, seed: int) -> dict[str, list[float]]:
    players = len(names)
    got: dict[str, list[float]] = defaultdict(list)
    for number in range(sets):
        bots = [make_bot(n) for n in names]
        rng = random.Random(seed * 1000 + number * 7 + deal)
        state = HandState.deal(CONTRACT, players, dealer=number % players, deal_index=deal,
                               rng=random.Random(seed * 7919 + number * 31 + deal))
        first = 0
        while state.result is None:
            move = bots[state.to_move].choose(view(state, state.to_move), rng)
            if isinstance(move, Take) and move.count > 1:
                got["digs"].append(1)
            if isinstance(move, Meld) and not first:
                first = state.turn_count
            state.push(move)
        result = state.result
        down = seats_down(view(state, 0))
        got["out"].append(float(result.winner is not None))
        got["turns"].append(state.turn_count)
        got["first"].append(first or state.turn_count)
        for s in range(players):
            if s == result.winner:
                continue
            cards = handset.cards(state.hands[s])
            got["penalty"].append(result.scores[s])
            got["down" if down >> s & 1 else "up"].append(result.scores[s])
            got["cards"].append(len(cards))
            got["jokers"].append(cards.count(JOKER))
            got["aces"].append(sum(1 for c in cards if c != JOKER and c % NUM_RANKS == 0))
    return got


def ends(lineup: list[str], players: int, matches: int, seed: int, jobs: int = 1,
         progress: bool = False) -> Counter[str]:
    """How the deals of ``matches`` seeded whole matches ended: ``out``, ``blocked``,
    ``valve`` or another reason, and ``longest`` (the most turns a deal took); ``jobs``
    processes play them (the same matches whatever ``jobs``), and ``progress`` prints a
    line as each match ends."""
    names = lineup + [lineup[-1]] * (players - len(lineup))
    found: Counter[str] = Counter()
    tasks = [(names, seed, number) for number in range(matches)]
    started = time.perf_counter()
    with multiprocessing.Pool(jobs) if jobs > 1 else contextlib.nullcontext() as pool:
        results = pool.imap(_match_ends, tasks) if pool is not None \
            else map(_match_ends, tasks)
        for done, got in enumerate(results, 1):
            longest = max(found["longest"], got.pop("longest", 0))
            found.update(got)
            found["longest"] = longest
            if progress:
                print(f"match {done}/{matches}: " + ", ".join(
                    f"{k} {v}" for k, v in sorted(got.items()))
                    + f" (so far {_ends_line(found)}; {time.perf_counter() - started:.0f} s)",
                    flush=True)
    return found


def _match_ends(task: tuple[list[str], int, int]) -> Counter[str]:
    """How the deals of one seeded whole match ended (see :func:`ends`)."""
    names, seed, number = task
    found: Counter[str] = Counter()
    match = Match(CONTRACT, [f"{n}{i}" for i, n in enumerate(names)],
                  seed=seed * 1009 + number)
    bots = [make_bot(n) for n in names]
    rng = random.Random(seed * 7 + number)
    while not match.over:
        state = match.start_hand()
        while state.result is None:
            match.play(bots[state.to_move].choose(view(state, state.to_move), rng))
        result = state.result
        reason = "out" if result.winner is not None else \
            "valve" if result.reason == MAX_TURNS else str(result.reason)
        found[reason] += 1
        found["longest"] = max(found["longest"], state.turn_count)
    return found


def _ends_line(found: Counter[str]) -> str:
    """The deals of ``found`` by how they ended, and the longest deal."""
    return (", ".join(f"{k} {v}" for k, v in sorted(found.items()) if k != "longest")
            + f"; longest deal {found['longest']} turns")


def versus(first: dict[str, list[float]], second: dict[str, list[float]],
           lineup: list[str], other: list[str]) -> dict[str, list[float]]:
    """Per deal of two :func:`table` runs of ``lineup`` and ``other`` on the same deals:
    ``"own"``, the second first bot's penalty less the first's, and ``"gap"``, the change
    of the first bot's penalty less the yardstick's (each lineup's last name)."""
    _check_versus(lineup, other)
    a, b = first[lineup[0]], second[other[0]]
    ya, yb = first[lineup[-1]], second[other[-1]]
    return {"own": [y - x for x, y in zip(a, b, strict=True)],
            "gap": [(y - yy) - (x - xx) for x, xx, y, yy in zip(a, ya, b, yb, strict=True)]}


def _check_versus(lineup: list[str], other: list[str]) -> None:
    """Refuse (ValueError, quoting both) a ``--versus`` lineup of another length."""
    if len(lineup) != len(other):
        raise ValueError(f"--versus {','.join(other)!r} must name as many bots as "
                         f"--table {','.join(lineup)!r} ({len(lineup)})")


def _versus_report(first: dict[str, list[float]], second: dict[str, list[float]],
                   lineup: list[str], other: list[str], deals: list[int],
                   players: int) -> None:
    paired = versus(first, second, lineup, other)
    for names, found in ((lineup, first), (other, second)):
        bot, yardstick = found[names[0]], found[names[-1]]
        print(f"{','.join(names)}: {names[0]} {statistics.mean(bot):.2f} a deal, "
              f"{names[-1]} {statistics.mean(yardstick):.2f}; {names[0]} "
              f"{_below(bot, yardstick)} {names[-1]}")
    print(f"{other[0]} against {lineup[0]} in the same seats, {len(paired['own'])} deals: "
          f"own {_paired(paired['own'])}, gap to {other[-1]} {_paired(paired['gap'])}")
    for key in ("own", "gap"):
        by_deal: dict[int, list[float]] = defaultdict(list)
        for i, diff in enumerate(paired[key]):
            by_deal[deals[i // players % len(deals)]].append(diff)
        print(f"  {key} by deal: " + "; ".join(f"{d + 1} {_paired(by_deal[d])}"
                                             for d in sorted(by_deal)))


def _table_report(found: dict[str, list[float]], deals: list[int], players: int) -> None:
    names = [n for n in found if not n.startswith("wins:")]
    for name in names:
        print(f"{name}: mean penalty {statistics.mean(found[name]):.2f} a deal over "
              f"{len(found[name])} deals, won {sum(found['wins:' + name]):.0f}")
    if len(names) >= 2:
        a, b = names[0], names[1]
        diffs = [x - y for x, y in zip(found[a], found[b], strict=True)]
        print(f"{a} - {b}: {_paired(diffs)} a deal; "
              f"{a} {_below(found[a], found[b])} {b}")
        by_deal: dict[int, list[float]] = defaultdict(list)
        for i, diff in enumerate(diffs):  # table() plays rotations within deals within sets
            by_deal[deals[i // players % len(deals)]].append(diff)
        print("  by deal: " + "; ".join(f"{d + 1} {_paired(by_deal[d])}"
                                        for d in sorted(by_deal)))


def _pooled(lineup: list[str], players: int, deals: list[int], sets: int,
            seeds: list[int], jobs: int) -> dict[str, list[float]]:
    """:func:`table` of every seed, pooled in seed order."""
    pooled: dict[str, list[float]] = {}
    for seed in seeds:
        for name, values in table(lineup, players, deals, sets, seed, jobs).items():
            pooled.setdefault(name, []).extend(values)
    return pooled


def _below(bot: list[float], yardstick: list[float]) -> str:
    """How far ``bot``'s mean penalty is below (or above) ``yardstick``'s, in percent."""
    share = 1 - statistics.mean(bot) / statistics.mean(yardstick)
    return f"{share:.1%} below" if share >= 0 else f"{-share:.1%} above"


def _paired(diffs: list[float]) -> str:
    """The mean of ``diffs`` and its standard error."""
    error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
    return f"{statistics.mean(diffs):+.2f} +- {error:.2f}"


def _summary(times: list[float]) -> str:
    if not times:
        return "none"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"{len(times)} decisions, median {statistics.median(ordered):.4f} s, "
            f"p95 {p95:.4f} s, worst {ordered[-1]:.4f} s")


def main(argv: list[str] | None = None) -> None:
    """Print the figures (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=24, help="deals per measure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", help="--table: several seeds (31,37), pooled")
    parser.add_argument("--table", metavar="BOTS",
                        help="strength instead: mirrored single deals of this lineup")
    parser.add_argument("--versus", metavar="BOTS",
                        help="--table: the same deals with this lineup too, paired")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--only", default="1,2,3,4,5,6,7", help="the deals (1-7) played")
    parser.add_argument("--sets", type=int, default=10, help="deal sets per deal")
    parser.add_argument("--ends", metavar="BOTS",
                        help="how the deals of whole matches of this lineup end")
    parser.add_argument("--matches", type=int, default=10, help="matches for --ends")
    parser.add_argument("--jobs", type=int, default=1, help="processes for --ends and --table")
    parser.add_argument("--where", metavar="BOTS", help="where the points go (--sets deals "
                        "of each deal number)")
    args = parser.parse_args(argv)
    if args.where:
        print("\n".join(where(args.where.split(","), args.players, args.sets, args.seed)))
        return
    if args.ends:
        found = ends(args.ends.split(","), args.players, args.matches, args.seed,
                     args.jobs, progress=True)
        played = sum(v for k, v in found.items() if k != "longest")
        print(f"{args.matches} matches, {played} deals: {_ends_line(found)}")
        return
    if args.table:
        deals = [int(d) - 1 for d in args.only.split(",")]
        seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else [args.seed]
        lineups = [args.table.split(",")]
        if args.versus:
            lineups.append(args.versus.split(","))
            try:  # before any deal is played
                _check_versus(*lineups)
            except ValueError as error:
                parser.error(str(error))
        runs = [_pooled(lineup, args.players, deals, args.sets, seeds, args.jobs)
                for lineup in lineups]
        if args.versus:
            _versus_report(runs[0], runs[1], lineups[0], lineups[1], deals, args.players)
        else:
            _table_report(runs[0], deals, args.players)
        return
    slow = playout_rate(args.deals, args.seed, fast=False)
    fast = playout_rate(args.deals, args.seed, fast=True)
    print(f"contract 4p playouts: greedy bot on legal moves {slow:,.0f} moves/s; "
          f"fast playout policy {fast:,.0f} moves/s ({fast / slow:.1f}x)")
    times = expert_times(args.deals, args.seed)
    print(f"expert decisions (4p, one expert against greedy): all: {_summary(times)}")
    print(f"  searched (> {SEARCHED * 1000:.0f} ms): "
          f"{_summary([t for t in times if t > SEARCHED])}")


if __name__ == "__main__":
    main()
