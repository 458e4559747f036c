"""``python -m rummykit.server.resumebench``: what loading a dead node's tables costs.

Stores ``--tables`` tables of ``--players`` seats (2), each ``--moves`` moves into its
match (played with the load benchmark's heuristic, straight through :class:`LiveTable`),
in a fresh SQLite file or ``--database-url``; then loads every one back as a node taking
them over does (``Storage.load``, then :meth:`LiveTable.restore`), with the checked
replay, with the trusted one (:mod:`rummykit.server.trusted`), and with the trusted one
after reading them in batches as an adopting node does (:mod:`rummykit.server.adoption`);
reports the CPU time (of this process: the figure does not depend on what else the
machine runs) per table and in all.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time

from rummykit.server.adoption import BATCH, load_many
from rummykit.server.benchkit import DEFAULT_RULES, choose
from rummykit.server.storage import EventRow, SeatRow, SqlStorage, TableRow
from rummykit.server.table import LiveTable, table_rules


def played(index: int, rules_name: str, moves: int,
           players: int = 2) -> tuple[LiveTable, list[EventRow]]:
    """A table of ``players`` human seats after ``moves`` moves (fewer if its match ends), and
    its events."""
    options: dict[str, object] = {}
    rules = table_rules(rules_name, options, 200)
    row = TableRow(f"resume{index:05d}", rules_name, options, "waiting", 0, 0, index)
    seats = [SeatRow(s, "human", f"P{s}", None, f"{index}-{s}", "human") for s in range(players)]
    table = LiveTable(row, seats, rules, 1)
    change = table.start_match()
    table.adopt(change)
    events = list(change.rows)
    for _ in range(moves):
        seat = table.to_move()
        if seat is None:
            break
        seen = json.loads(table.history[-1].text(seat))
        change = table.play(seat, choose(seen["legal"], seen["view"]), table.version)
        table.adopt(change)
        events += change.rows
    return table, events


def store(storage: SqlStorage, tables: int, rules: str, moves: int,
          players: int = 2) -> tuple[list[str], int]:
    """Store the tables; their ids and the moves stored in all."""
    ids, total = [], 0
    for index in range(tables):
        table, events = played(index, rules, moves, players)
        first = TableRow(table.id, rules, table.row.options, "waiting", 0, 0, table.row.seed)
        storage.create_table(first, table.seats)
        storage.commit(table.row, events, None)
        ids.append(table.id)
        total += sum(e.kind == "move" for e in events)
    return ids, total


def measure(storage: SqlStorage, ids: list[str], trusted: bool) -> float:
    """CPU seconds to load and restore every table."""
    started = time.process_time()
    for table_id in ids:
        stored = storage.load(table_id)
        assert stored is not None
        rules = table_rules(stored.table.rules, stored.table.options, 200)
        LiveTable.restore(stored, rules, 64, trusted)
    return time.process_time() - started


def measure_batched(storage: SqlStorage, ids: list[str]) -> float:
    """CPU seconds to read the tables in batches (as a node adopting them does:
    :func:`~rummykit.server.adoption.load_many`) and restore them by the trusted replay."""
    started = time.process_time()
    for first in range(0, len(ids), BATCH):
        for stored in load_many(storage, ids[first:first + BATCH]).values():
            rules = table_rules(stored.table.rules, stored.table.options, 200)
            LiveTable.restore(stored, rules, 64, True)
    return time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    """Store, load back both ways, print the figures (JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=150,
                        help="moves into each table's match")
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp(prefix='rummykit-resume-')}/r.db"
    storage = SqlStorage(url)
    try:
        ids, moves = store(storage, args.tables, args.rules, args.moves, args.players)
        checked = measure(storage, ids, trusted=False)
        trusted = measure(storage, ids, trusted=True)
        batched = measure_batched(storage, ids)
    finally:
        storage.close()
    print(json.dumps({
        "tables": len(ids), "rules": args.rules, "moves_stored": moves,
        "checked_cpu_seconds": round(checked, 3), "trusted_cpu_seconds": round(trusted, 3),
        "checked_ms_per_table": round(1000 * checked / max(len(ids), 1), 2),
        "trusted_ms_per_table": round(1000 * trusted / max(len(ids), 1), 2),
        "trusted_batched_ms_per_table": round(1000 * batched / max(len(ids), 1), 2),
        "speedup": round(checked / trusted, 1) if trusted else None}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
