"""Contract Rummy bot speed: playout moves per second and the expert's decision times.

``python -m rummykit.benchmark.contract_bots [--deals N] [--seed S]`` plays seeded
4-player deals 1-6 twice: once with the greedy bot on the engine's legal moves (what the
search's playouts used to run), once with the fast playout policy
(:mod:`rummykit.bots.contract_playout`), and reports moves per second of each. It then
plays seeded 4-player deals 1-7 with one ``expert`` seat against greedy ones and reports
the median, 95th percentile and worst of the expert's decision times (all decisions, and
the searched ones: those over 5 ms). One process, one core; times are the process's CPU
seconds (``time.process_time``), so a machine busy with other work does not inflate them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rummykit.bots import make_bot
from rummykit.bots.contract_playout import fast_move
from rummykit.bots.greedy_contract import choose_contract
from rummykit.core.engine import HandState
from rummykit.core.views import view
from rummykit.variants import CONTRACT

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
    args = parser.parse_args(argv)
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
