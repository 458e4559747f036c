"""``rummykit simulate``: bots play each other; per-seat statistics, deterministic per seed.

A master generator seeded with ``seed`` gives each match its own seed and the bots one
shared generator, so the same arguments give the same games (only the timings differ).

>>> from rummykit.core.rules import Rules
>>> rules = Rules.from_options("basic", {"max_turns_per_hand": 2000})
>>> stats = Simulation(rules, ["greedy", "random"], seed=5).run(3, by_hands=True)
>>> stats["hands"], sum(s["hand_wins"] for s in stats["seats"]) + stats["draws"] \\
...     + stats["aborted"]
(3, 3)
"""

from __future__ import annotations

import random
import time
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from rummykit.bots import AnyBot, make_bot_for
from rummykit.core.match import FamilyMatch
from rummykit.core.moves import Draw, Take
from rummykit.core.outcome import ABORTED, WIN
from rummykit.core.views import public_view
from rummykit.display.terms import terms_of
from rummykit.variants.base import RulesLike
from rummykit.variants.registry import variant_for
from rummykit.variants.table_hooks import is_down


class Simulation:
    """Bot-only matches under one rule set (of any family), with running totals per seat."""

    def __init__(self, rules: RulesLike, bots: list[str], *, seed: int) -> None:
        self.rules = rules
        self.kinds = bots
        self.seed = seed
        self.names = [f"{kind}-{seat}" for seat, kind in enumerate(bots)]
        n = len(bots)
        self.hands = self.matches = self.moves = self.turns = 0
        self.draws = self.aborted = self.drawn_matches = 0
        self.hand_wins, self.match_wins = [0] * n, [0] * n
        self.rummies, self.points = [0] * n, [0] * n
        self.downs = [0] * n  # hands in which the seat laid its contract down

    def run(self, count: int, *, by_hands: bool, progress: bool = False) -> dict[str, Any]:
        """Play ``count`` matches (or hands, when ``by_hands``) and return the statistics."""
        master = random.Random(self.seed)
        bots = [make_bot_for(kind, self.rules) for kind in self.kinds]
        unit = "hands" if by_hands else "matches"
        columns = (TextColumn(f"simulating {unit}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn())
        started = time.perf_counter()
        console = Console(stderr=True)
        with Progress(*columns, console=console, transient=True,
                      disable=not (progress and console.is_terminal)) as bar:
            task = bar.add_task(unit, total=count)
            while (self.hands if by_hands else self.matches) < count:
                match: FamilyMatch[Any, Any] = FamilyMatch(self.rules, self.names,
                                                           seed=master.randrange(2**63))
                rng = random.Random(master.randrange(2**63))
                while not match.over and not (by_hands and self.hands >= count):
                    self._play_hand(match, bots, rng)
                    if by_hands:
                        bar.advance(task)
                if match.over:
                    self._count_match(match)
                    if not by_hands:
                        bar.advance(task)
        return self.stats(time.perf_counter() - started)

    def _play_hand(self, match: FamilyMatch[Any, Any], bots: list[AnyBot],
                   rng: random.Random) -> None:
        state = match.start_hand()
        while not state.is_over:
            seat = state.to_move
            move = bots[seat].choose(match.variant.view(state, seat), rng)
            if isinstance(move, (Draw, Take)):
                self.turns += 1
            match.push(move)
            self.moves += 1
        result = state.result
        assert result is not None
        self.hands += 1
        if terms_of(self.rules).down:  # the family's hands say who went down
            seen = public_view(state)
            for seat in range(len(self.downs)):
                self.downs[seat] += is_down(seen, seat)
        if result.result == WIN and result.winner is not None:
            self.hand_wins[result.winner] += 1
            self.rummies[result.winner] += int(result.rummy)
        elif result.result == ABORTED:
            self.aborted += 1
        else:
            self.draws += 1
        for seat, points in enumerate(result.scores):
            self.points[seat] += points

    def _count_match(self, match: FamilyMatch[Any, Any]) -> None:
        self.matches += 1
        if not match.winners:
            self.drawn_matches += 1
        for seat in match.winners:
            self.match_wins[seat] += 1

    def stats(self, elapsed: float) -> dict[str, Any]:
        """The statistics as a JSON-ready object."""
        hands = self.hands or 1
        seats = [
            {"seat": seat, "name": self.names[seat], "bot": kind,
             "match_wins": self.match_wins[seat], "hand_wins": self.hand_wins[seat],
             "rummies": self.rummies[seat], "points": self.points[seat],
             "mean_points_per_hand": self.points[seat] / hands}
            for seat, kind in enumerate(self.kinds)
        ]
        if terms_of(self.rules).down:
            for number, entry in enumerate(seats):
                entry["went_down"] = self.downs[number]
        return {
            "rules": self.rules.name, "options": self.rules.options,
            "players": len(self.kinds), "seed": self.seed,
            "hands": self.hands, "matches": self.matches, "moves": self.moves,
            "turns": self.turns, "mean_turns_per_hand": self.turns / hands,
            "draws": self.draws, "aborted": self.aborted,
            "drawn_matches": self.drawn_matches,
            "elapsed_seconds": round(elapsed, 6),
            "moves_per_second": round(self.moves / elapsed, 1) if elapsed > 0 else None,
            "seats": seats,
        }


def render(stats: dict[str, Any], console: Console | None = None) -> None:
    """Print the statistics as a table and a summary line."""
    console = console or Console()
    table = Table(title=f"{stats['rules']} rummy, {stats['players']} players, "
                        f"seed {stats['seed']}")
    terms = terms_of(variant_for(stats["rules"]).rules_from_options(stats["rules"],
                                                                    stats["options"]))
    contract = bool(terms.down)
    middle = f"went {terms.down}" if contract else "rummies"
    last = f"{'penalty' if terms.lowest_wins else 'points'}/{terms.hand}"
    for heading in ("seat", "bot", "match wins", "hand wins", middle, last):
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for seat in stats["seats"]:
        table.add_row(str(seat["seat"]), seat["bot"], str(seat["match_wins"]),
                      str(seat["hand_wins"]),
                      str(seat["went_down"] if contract else seat["rummies"]),
                      f"{seat['mean_points_per_hand']:.2f}")
    console.print(table)
    console.print(
        f"{stats['matches']} matches ({stats['drawn_matches']} without a winner), "
        f"{stats['hands']} hands ({stats['draws']} drawn, {stats['aborted']} aborted), "
        f"{stats['mean_turns_per_hand']:.1f} turns per hand, {stats['moves']} moves "
        f"in {stats['elapsed_seconds']:.2f} s"
    )
