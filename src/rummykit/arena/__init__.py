"""Tournaments between bots: mirrored deal sets, parallel or Ray runs, statistics, ratings.

``rummykit arena`` wires these together; each module has one job: ``schedule`` (deal sets,
rotations, seeds), ``play`` (one game to a plain result), ``runners`` (serial, processes,
Ray), ``journal`` (``--journal``: finished games on disk, to resume a run), ``stats`` (win
rates, intervals, means), ``ratings`` (OpenSkill), ``tournament`` (a whole run and its
report), ``report`` (table, JSON, CSV) and ``plot`` (PNG). Needs the ``arena`` extra.
"""

from rummykit.extras import require

require("arena", "openskill", what="rummykit.arena")

from rummykit.arena.tournament import ArenaConfig, run_arena  # noqa: E402

__all__ = ["ArenaConfig", "run_arena"]
