"""What the speed benchmark measures of contract (:mod:`..workloads`): random playouts
at 4 and 6 players, and how long one completability decision takes (RULES.md §1.6), the
engine's answer, after a dig or a joker swap, to "can this turn still be finished?".

The decision positions come from seeded random 4-player playouts at the default rules
(every deal; players prefer melds, lay-offs, swaps and digs, so many are down): each time
a swap is possible, the position right after it is kept, and at every draw step the
position after a dig at a random depth. Each decision,
:func:`rummykit.variants.contract.complete.finishable`, is timed once.
"""

from __future__ import annotations

import random

from rummykit.core.engine import HandState
from rummykit.core.moves import LayOff, Meld, Move, Swap, Take
from rummykit.core.rules import Rules
from rummykit.variants.contract import complete
from rummykit.variants.contract.hand import ContractHand
from rummykit.variants.contract.presets import CONTRACT
from rummykit.variants.workloads import DecisionWorkload, Table, Workloads

PLAYERS = 4
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


def finishable(state: object) -> bool:
    """The decision timed: can the contract hand's turn still be finished?"""
    assert isinstance(state, ContractHand)
    return complete.finishable(state)


COMPLETABILITY = DecisionWorkload(
    name="completability",
    about="completability after a dig or swap",
    table=Table(CONTRACT.name, PLAYERS),
    decisions=10_000,
    positions=decision_positions,
    decide=finishable,
    kinds=("dig", "swap"),
    yes="finishable",
    note="contract_complete.finishable() right after a dig or a swap, each position "
         "timed once in CPU time; lower is better",
    median_target_us=200.0,
    worst_target_us=20_000.0,
)

WORKLOADS = Workloads(
    playouts=(Table(CONTRACT.name, 4), Table(CONTRACT.name, 6)),
    decisions=(COMPLETABILITY,),
)
