"""An arena run from start to finish: schedule, play (on a backend), collect, summarize.

Records are written as results arrive and not kept; with a journal each result is appended
to it as it arrives, and games already in the journal are not played again. The results
are then put in game order, so a resumed run reports exactly what one run would have.
:func:`report` builds the JSON-ready report: ``arguments``, the schedule's sizes, one
summary per bot (statistics, interval, rating), one row per game, and an ``execution``
block (backend, jobs, elapsed time) which, with each bot's ``decision_seconds``, is the only
part that may differ between runs of the same arguments.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummykit.arena import runners
from rummykit.arena.journal import Journal, appending
from rummykit.arena.play import GameResult
from rummykit.arena.ratings import rate
from rummykit.arena.schedule import GameSpec, rounded_games, schedule, seat_bots
from rummykit.arena.stats import summarize, tally
from rummykit.display.terms import terms_of
from rummykit.variants.base import RulesLike


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """Everything an arena run needs, already validated."""

    rules: RulesLike
    players: int
    bots: tuple[str, ...]  # as given: one per seat, the last one filling the rest
    games: int  # as asked; played rounded up to whole deal sets
    seed: int
    backend: str = "local"
    jobs: int = 1
    address: str | None = None
    records: Path | None = None

    def specs(self) -> list[GameSpec]:
        """The games to play, in order."""
        return schedule(self.bots, self.players, self.games, seed=self.seed)

    def arguments(self) -> dict[str, Any]:
        """What names the run: the report's ``arguments`` and a journal's header."""
        return {"rules": self.rules.name, "options": self.rules.options,
                "players": self.players, "bots": list(self.bots), "games": self.games,
                "seed": self.seed}


def record_path(folder: Path, game: GameResult) -> Path:
    """Where the record of ``game`` goes: ``set0003-rot1.rummy.json``."""
    return folder / f"set{game.deal_set:04d}-rot{game.rotation}.rummy.json"


def play_all(config: ArenaConfig, advance: Callable[[int], None],
             journal: Journal | None = None) -> list[GameResult]:
    """Every game's result in game order: those in ``journal``, and the others played
    (``advance`` counts these), their records written to ``config.records``."""
    specs = config.specs()
    done = dict(journal.done) if journal is not None else {}
    todo = [spec for spec in specs if spec.index not in done]
    keep = config.records is not None
    with appending(journal) as append:
        if todo:
            for game in runners.run(config.rules, todo, advance, backend=config.backend,
                                    jobs=config.jobs, address=config.address,
                                    keep_records=keep):
                if config.records is not None and game.record is not None:
                    record_path(config.records, game).write_text(game.record,
                                                                 encoding="utf-8")
                    game = dataclasses.replace(game, record=None)
                if game.failure is None:  # a failed game is played again on resuming
                    append(game)
                done[game.index] = game
    return [done[spec.index] for spec in specs]


def game_row(game: GameResult) -> dict[str, Any]:
    """One game of the report."""
    return {"game": game.index, "set": game.deal_set, "rotation": game.rotation,
            "seed": game.seed, "bots": list(game.bots), "totals": list(game.totals),
            "winners": list(game.winners), "hands": game.hands,
            "aborted_hands": game.aborted_hands, "drawn_hands": game.drawn_hands}


def report(config: ArenaConfig, results: list[GameResult], elapsed: float) -> dict[str, Any]:
    """The whole report as a JSON-ready object; failed games (an agent that could not start
    or stopped) are listed under ``failures`` and left out of everything else."""
    failed = [g for g in results if g.failure is not None]
    results = [g for g in results if g.failure is None]
    ratings = rate(results, penalty=terms_of(config.rules).lowest_wins)
    bots = [{"bot": name, **summarize(one), "rating": ratings[name]}
            for name, one in tally(results).items()]
    total = rounded_games(config.games, config.players)
    return {
        "arguments": config.arguments(),
        "games": len(results) + len(failed), "rounded_up": total != config.games,
        "deal_sets": len(results) // config.players,
        "lineup": seat_bots(config.bots, config.players),
        "hands": sum(g.hands for g in results),
        "aborted_hands": sum(g.aborted_hands for g in results),
        "drawn_hands": sum(g.drawn_hands for g in results),
        "drawn_matches": sum(not g.winners for g in results),
        "bots": bots,
        "per_game": [game_row(g) for g in results],
        "failed_games": len(failed),
        "failures": [{"game": g.index, "set": g.deal_set, "rotation": g.rotation,
                      "seed": g.seed, "bots": list(g.bots), "error": g.failure}
                     for g in failed],
        "execution": {"backend": config.backend, "jobs": config.jobs,
                      "address": config.address, "elapsed_seconds": round(elapsed, 6)},
    }


def run_arena(config: ArenaConfig, advance: Callable[[int], None] = lambda n: None,
              journal: Journal | None = None) -> tuple[dict[str, Any], list[GameResult]]:
    """Play the arena (the games not in ``journal``); its report and the games' results."""
    started = time.perf_counter()
    results = play_all(config, advance, journal)
    return report(config, results, time.perf_counter() - started), results


def so_far(config: ArenaConfig, journal: Journal) -> tuple[dict[str, Any], list[GameResult]]:
    """The report of the whole deal sets a journal holds so far (a run still going or
    stopped), playing nothing; ``so_far`` in it counts the games left out."""
    by_set: dict[int, list[GameResult]] = {}
    for game in journal.done.values():
        by_set.setdefault(game.deal_set, []).append(game)
    whole = [game for spec in config.specs() for game in [journal.done.get(spec.index)]
             if game is not None and len(by_set[game.deal_set]) == config.players]
    summary = report(config, whole, 0.0)
    summary["so_far"] = {"games_in_journal": len(journal.done), "games_reported": len(whole),
                         "deal_sets": len(whole) // config.players}
    return summary, whole
