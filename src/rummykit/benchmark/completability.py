"""How long one completability decision takes (RULES.md §1.6): the engine's answer, after
a dig or a joker swap, to "can this turn still be finished?".

The positions come from seeded random 4-player contract playouts at the default rules
(every deal; players prefer melds, lay-offs, swaps and digs, so many are down): each time
a swap is possible, the position right after it is kept, and at every draw step the
position after a dig at a random depth. Each decision,
:func:`rummykit.variants.contract.complete.finishable` on a fresh copy, is timed once; the figures
are the median and the worst time.
"""

from __future__ import annotations

import random
import statistics
import time

from rummykit.benchmark.report import OURS, Measure
from rummykit.benchmark.timing import Config
from rummykit.core.engine import HandState
from rummykit.core.moves import LayOff, Meld, Move, Swap, Take
from rummykit.core.rules import Rules
from rummykit.variants import CONTRACT
from rummykit.variants.contract import complete as contract_complete
from rummykit.variants.contract.hand import ContractHand

PLAYERS = 4
#: decisions timed in a full run (the quick run times fewer)
DECISIONS = 10_000
#: the share of draw steps that give a dig position
DIG_SHARE = 1.0


def _prefer_plays(state: HandState, rng: random.Random) -> Move:
    legal = state.legal_moves()
    wanted = [m for m in legal if isinstance(m, (Meld, LayOff, Swap))
              or (isinstance(m, Take) and m.count > 1)]
    return rng.choice(wanted) if wanted and rng.random() < 0.7 else rng.choice(legal)


def decision_positions(count: int, seed: int, rules: Rules = CONTRACT
                       ) -> tuple[list[tuple[str, HandState]], int]:
    """``count`` (kind, position) pairs right after a dig or a swap, and the hands played."""
    rng = random.Random(seed)
    found: list[tuple[str, HandState]] = []
    hand = 0
    while len(found) < count:
        state = HandState.deal(rules, PLAYERS, hand % PLAYERS, random.Random(seed + hand),
                               deal_index=hand % len(rules.contract_schedule))
        hand += 1
        while not state.is_over and len(found) < count:
            if state.phase == "draw" and rules.discard_dig and len(state.discard) > 1 and \
                    rng.random() < DIG_SHARE:
                state.push(Take(rng.randint(2, len(state.discard))))
                found.append(("dig", state.copy()))
                state.pop()
            elif state.phase == "play":
                for move in state.legal_moves():
                    if isinstance(move, Swap):
                        state.push(move)
                        found.append(("swap", state.copy()))
                        state.pop()
            state.push(_prefer_plays(state, rng))
    return found[:count], hand


def measure(cfg: Config) -> list[Measure]:
    """The median and the worst decision time, in microseconds of CPU time (the wall
    clock's figures, which a busy machine inflates, are in the params)."""
    count = DECISIONS if not cfg.quick else DECISIONS // 10
    positions, hands = decision_positions(count, cfg.seed)
    for _, state in positions[:20]:  # builds the rules' meld tables once, untimed
        assert isinstance(state, ContractHand)
        contract_complete.finishable(state.copy())
    cpu: list[float] = []
    wall: list[float] = []
    legal = 0
    for _, state in positions:
        assert isinstance(state, ContractHand)
        start, start_cpu = time.perf_counter_ns(), time.process_time_ns()
        verdict = contract_complete.finishable(state)
        cpu.append((time.process_time_ns() - start_cpu) / 1000)
        wall.append((time.perf_counter_ns() - start) / 1000)
        legal += verdict
    median, worst = statistics.median(cpu), max(cpu)
    params = {
        "rules": "contract", "players": PLAYERS, "decisions": len(cpu), "hands": hands,
        "kinds": {k: sum(1 for kind, _ in positions if kind == k) for k in ("dig", "swap")},
        "finishable": legal,
        "median_us": round(median, 2),
        "p99_us": round(statistics.quantiles(cpu, n=100)[98], 2),
        "worst_us": round(worst, 2),
        "wall_median_us": round(statistics.median(wall), 2),
        "wall_worst_us": round(max(wall), 2),
        "seed": cfg.seed,
        "note": "contract_complete.finishable() right after a dig or a swap, each position "
                "timed once in CPU time; lower is better",
    }
    return [
        Measure(name="completability", engine=OURS, unit="us/decision", value=median,
                params={**params, "statistic": "median"}),
        Measure(name="completability", engine=OURS, unit="us/decision", value=worst,
                params={**params, "statistic": "worst"}),
    ]
