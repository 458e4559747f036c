"""Measures of rummykit itself (the engine this package ships).

The tables measured (random playouts, mid-hand positions, the reference table compared
with the anchors) and the families' own decisions are those the families declare
(:mod:`.workloads`); the gin hand's measures are :mod:`.gin_hand`'s.

Everything is seeded: the deals of hand ``i`` come from ``random.Random(seed + i)`` and the
random players from one ``random.Random(seed)``, so two runs play the same hands in the
same order and differ only in how many they get through in the time budget.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from rummykit.benchmark import decisions, gin_hand, workloads
from rummykit.benchmark.measures import playout_measures, time_solver
from rummykit.benchmark.report import OURS, Measure
from rummykit.benchmark.timing import Config, random_hands, timed
from rummykit.core.cards import mask_of
from rummykit.core.engine import HandState
from rummykit.core.melds import min_deadwood, tables_for
from rummykit.core.rules import Rules, find_rules
from rummykit.variants.workloads import DecisionWorkload, Table

Task = tuple[str, Callable[[], list[Measure]]]

MAX_TURNS = 2000
#: a mid-hand position is a random hand stopped after a number of completed turns drawn
#: from this range, then one of these numbers of moves more (0: in the draw phase; 1: the
#: player to move has drawn and is in the play phase), so about 2/3 are play phases
STOP_TURNS = (2, 40)
EXTRA_MOVES = (0, 1, 1)
#: the state copied by the copy() measure: the reference table after this many turns
#: (about as far into the hand as OpenSpiel's clone() state, which is 40 player moves in)
COPY_TURNS = 20


def capped(preset: str) -> Rules:
    """The preset with the ``max_turns_per_hand`` safety valve the benchmark uses."""
    return dataclasses.replace(find_rules(preset), max_turns_per_hand=MAX_TURNS)


def deal(rules: Rules, players: int, index: int, seed: int) -> HandState:
    """Hand ``index`` of a seeded series: dealer rotates, deck from ``seed + index``."""
    return HandState.deal(
        rules, num_players=players, dealer=index % players, rng=random.Random(seed + index)
    )


def random_position(
    rules: Rules, players: int, seed: int, stop: int, extra: int = 0
) -> HandState | None:
    """Play a seeded hand at random until ``stop`` turns are done, then ``extra`` more
    moves (1 = the next player has drawn and is in the play phase); None if it ended."""
    rng = random.Random(seed)
    s = HandState.deal(rules, num_players=players, dealer=seed % players, rng=rng)
    while not s.is_over and s.turn_count < stop:
        s.push(rng.choice(s.legal_moves()))
    for _ in range(extra):
        if s.is_over:
            break
        s.push(rng.choice(s.legal_moves()))
    return None if s.is_over else s


def positions(cfg: Config) -> list[tuple[str, int, HandState]]:
    """``cfg.positions`` seeded mid-hand positions for each table of
    :func:`.workloads.positions`, about a third in the draw phase and the rest in the play
    phase."""
    out: list[tuple[str, int, HandState]] = []
    picker = random.Random(cfg.seed)
    for table in workloads.positions():
        preset, players = table.rule_set, table.players
        rules = capped(preset)
        found = tries = 0
        while found < cfg.positions:
            tries += 1
            if tries > 20 * cfg.positions:
                raise RuntimeError(f"{preset} {players}p: hands keep ending before mid-hand")
            stop, extra = picker.randint(*STOP_TURNS), picker.choice(EXTRA_MOVES)
            s = random_position(rules, players, cfg.seed + tries, stop, extra)
            if s is not None:
                out.append((preset, players, s))
                found += 1
    return out


def tasks(cfg: Config) -> list[Task]:
    """The measures, in the order they run (each is timed for ``cfg.seconds``)."""
    reference = workloads.reference()
    out: list[Task] = [
        (f"random playout {t.label}", _playout(cfg, t.rule_set, t.players))
        for t in workloads.playouts()
    ]
    out += [
        ("legal move generation", lambda: _legal_moves(cfg)),
        ("push+pop", lambda: _push_pop(cfg)),
        ("copy", lambda: _copy(cfg, reference)),
        ("min_deadwood 7 cards", lambda: _min_deadwood(cfg, 7, reference)),
        ("min_deadwood 10 cards", lambda: _min_deadwood(cfg, 10, reference)),
        (f"greedy vs greedy {reference.label}", lambda: _greedy(cfg, reference)),
    ]
    out += [(f"{work.name} {work.table.label}", _decision(cfg, work))
            for work in workloads.decisions()]
    out += gin_hand.tasks(cfg)
    return out


def _decision(cfg: Config, work: DecisionWorkload) -> Callable[[], list[Measure]]:
    return lambda: decisions.measure(cfg, work)


def _playout(cfg: Config, preset: str, players: int) -> Callable[[], list[Measure]]:
    def run() -> list[Measure]:
        rules = capped(preset)
        rng = random.Random(cfg.seed)
        choice = rng.choice
        hand = 0

        def one_hand() -> int:
            nonlocal hand
            s = deal(rules, players, hand, cfg.seed)
            hand += 1
            moves = 0
            while not s.is_over:
                s.push(choice(s.legal_moves()))
                moves += 1
            return moves

        t = timed(cfg.seconds, one_hand)
        params = {
            "rules": preset,
            "players": players,
            "max_turns_per_hand": MAX_TURNS,
            "hands": t.batches,
            "moves": t.units,
            "seconds": round(t.elapsed, 3),
            "seed": cfg.seed,
        }
        return playout_measures(OURS, t, params)

    return run


def _legal_moves(cfg: Config) -> list[Measure]:
    states = [s for _, _, s in positions(cfg)]
    sizes = [len(s.legal_moves()) for s in states]
    phases = sorted({s.phase for s in states})

    def sweep() -> int:
        for s in states:
            s.legal_moves()
        return len(states)

    t = timed(cfg.seconds, sweep)
    return [
        Measure(
            name="legal_moves",
            engine=OURS,
            unit="generations/s",
            value=t.rate,
            params={
                "positions": len(states),
                "from": [t.label for t in workloads.positions()],
                "mean_moves": round(sum(sizes) / len(sizes), 2),
                "phases": {p: sum(s.phase == p for s in states) for p in phases},
                "generations": t.units,
                "seconds": round(t.elapsed, 3),
                "seed": cfg.seed,
            },
        )
    ]


def _push_pop(cfg: Config) -> list[Measure]:
    pairs = [(s, s.legal_moves()) for _, _, s in positions(cfg)]
    per_sweep = sum(len(ms) for _, ms in pairs)
    phases = sorted({s.phase for s, _ in pairs})

    def sweep() -> int:
        for s, ms in pairs:
            push, pop = s.push, s.pop
            for m in ms:
                push(m)
                pop()
        return per_sweep

    t = timed(cfg.seconds, sweep)
    return [
        Measure(
            name="push_pop",
            engine=OURS,
            unit="pairs/s",
            value=t.rate,
            params={
                "positions": len(pairs),
                "from": [t.label for t in workloads.positions()],
                "moves": "every legal move of each position",
                "phases": {p: sum(s.phase == p for s, _ in pairs) for p in phases},
                "pairs": t.units,
                "seconds": round(t.elapsed, 3),
                "seed": cfg.seed,
            },
        )
    ]


def copy_state(cfg: Config, table: Table) -> HandState:
    """The seeded state of ``table``, :data:`COPY_TURNS` turns in, that copy() is timed
    on."""
    rules = capped(table.rule_set)
    for k in range(1000):
        s = random_position(rules, table.players, cfg.seed + k, COPY_TURNS)
        if s is not None:
            return s
    raise RuntimeError(f"no {table.label} hand lasted {COPY_TURNS} turns")


def _copy(cfg: Config, table: Table) -> list[Measure]:
    s = copy_state(cfg, table)
    copy = s.copy

    def batch() -> int:
        for _ in range(1000):
            copy()
        return 1000

    t = timed(cfg.seconds, batch)
    return [
        Measure(
            name="copy",
            engine=OURS,
            unit="copies/s",
            value=t.rate,
            params={
                "rules": table.rule_set,
                "players": table.players,
                "turns_done": s.turn_count,
                "copies": t.units,
                "seconds": round(t.elapsed, 3),
                "seed": cfg.seed,
            },
        )
    ]


def _min_deadwood(cfg: Config, size: int, table: Table) -> list[Measure]:
    rules = find_rules(table.rule_set)
    masks = [mask_of(h) for h in random_hands(cfg.hands, size, cfg.seed + size)]
    solve = tables_for(rules).min_deadwood  # bound once, as the anchors' solvers are
    return time_solver(cfg, OURS, solve, masks,
                       {"cards": size, "rules": table.rule_set, "seed": cfg.seed + size})


def _greedy(cfg: Config, table: Table) -> list[Measure]:
    from rummykit.bots import make_bot
    from rummykit.core.views import view

    rules = capped(table.rule_set)
    rng = random.Random(cfg.seed)
    hand = 0

    def one_hand() -> int:
        nonlocal hand
        s = deal(rules, table.players, hand, cfg.seed)
        hand += 1
        bots = [make_bot("greedy") for _ in range(table.players)]
        moves = 0
        while not s.is_over:
            seat = s.to_move
            s.push(bots[seat].choose(view(s, seat), rng))
            moves += 1
        return moves

    t = timed(cfg.seconds, one_hand)
    return [
        Measure(
            name="greedy_hands",
            engine=OURS,
            unit="hands/s",
            value=t.batch_rate,
            params={
                "rules": table.rule_set,
                "players": table.players,
                "max_turns_per_hand": MAX_TURNS,
                "hands": t.batches,
                "moves": t.units,
                "seconds": round(t.elapsed, 3),
                "seed": cfg.seed,
            },
        )
    ]


def min_deadwood_of(hands: list[list[int]]) -> list[int]:
    """Our min deadwood of some hands under the reference table's rules (for cross-checks
    with the anchors)."""
    rules = find_rules(workloads.reference().rule_set)
    return [min_deadwood(mask_of(h), rules) for h in hands]
