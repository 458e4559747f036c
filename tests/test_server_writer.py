"""The group writer's commit window: commits made within the window share one
transaction on a real SQLite file; without a window each goes on its own."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rummykit.server.storage import Commit, EventRow, SeatRow, SqlStorage, TableRow
from rummykit.server.writer import GroupWriter


class CountedStorage(SqlStorage):
    """SQLite storage that counts its transactions of commits."""

    batches: list[int]

    def commit_many(self, batch: list[Commit]) -> None:
        self.batches.append(len(batch))
        super().commit_many(batch)


def stored(tmp_path: Path, tables: int) -> tuple[CountedStorage, list[TableRow]]:
    storage = CountedStorage(f"sqlite:///{tmp_path / 'w.db'}")
    storage.batches = []
    rows = [TableRow(f"t{n}", "basic", {}, "playing", 0, 0, None) for n in range(tables)]
    for row in rows:
        storage.create_table(row, [SeatRow(0, "human", "A", None, None, "human")])
    return storage, rows


async def commit_apart(writer: GroupWriter, rows: list[TableRow], gap: float) -> None:
    """One move's commit per table, ``gap`` seconds apart, each waiting for its own."""
    async def one(row: TableRow, delay: float) -> None:
        await asyncio.sleep(delay)
        moved = TableRow(row.id, row.rules, row.options, row.status, 0, 1, None)
        await writer.commit((moved, [EventRow(1, 0, "move", {"seat": 0, "move": "draw"})],
                             None))
    await asyncio.gather(*(one(row, n * gap) for n, row in enumerate(rows)))


def test_commits_within_the_window_share_a_transaction(tmp_path: Path) -> None:
    storage, rows = stored(tmp_path, 3)
    writer = GroupWriter(storage, run=None, inline=True, window=0.2)  # type: ignore[arg-type]
    asyncio.run(commit_apart(writer, rows, 0.02))
    assert storage.batches == [3]
    assert all(storage.load(r.id).table.version == 1 for r in rows)  # type: ignore[union-attr]
    storage.close()


def test_without_a_window_commits_apart_go_apart(tmp_path: Path) -> None:
    storage, rows = stored(tmp_path, 3)
    writer = GroupWriter(storage, run=None, inline=True)  # type: ignore[arg-type]
    asyncio.run(commit_apart(writer, rows, 0.02))
    assert storage.batches == [1, 1, 1]
    storage.close()
