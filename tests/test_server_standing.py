"""A move's commit on SQLite writes the table's version alone while its status and match
stay (the status index is left as it was: fewer pages in the write-ahead log), and the
whole standing when either changes, in the same batch or apart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from rummykit.server.storage import EventRow, SeatRow, SqlStorage, TableRow


def storage_with(tmp_path: Path, ids: list[str]) -> SqlStorage:
    storage = SqlStorage(f"sqlite:///{tmp_path / 's.db'}")
    assert storage.checkpointer is not None
    storage.checkpointer.stop()  # the log's frames are counted here
    for table_id in ids:
        storage.create_table(TableRow(table_id, "basic", {}, "playing", 1, 0, None),
                             [SeatRow(0, "human", "A", None, None, "human")])
    return storage


def move(table_id: str, version: int, status: str = "playing", match_no: int = 1
         ) -> tuple[TableRow, list[EventRow], None]:
    row = TableRow(table_id, "basic", {}, status, match_no, version, None)
    return row, [EventRow(version, match_no, "move", {"seat": 0, "move": "draw"})], None


def standing(storage: SqlStorage, table_id: str) -> tuple[str, int, int]:
    stored = storage.load(table_id)
    assert stored is not None
    return stored.table.status, stored.table.match_no, stored.table.version


def test_a_batch_mixing_kept_and_changed_standings_stores_each(tmp_path: Path) -> None:
    storage = storage_with(tmp_path, ["a", "b", "c"])
    storage.commit_many([move("a", 1), move("b", 1, "over"), move("c", 1, match_no=2)])
    assert standing(storage, "a") == ("playing", 1, 1)
    assert standing(storage, "b") == ("over", 1, 1)
    assert standing(storage, "c") == ("playing", 2, 1)
    storage.commit_many([move("a", 2), move("c", 2, match_no=2)])
    assert standing(storage, "a") == ("playing", 1, 2)
    assert standing(storage, "c") == ("playing", 2, 2)
    # the lobby reads the status index: the ended table has left it, the others are in
    assert sorted(row.id for row, _ in storage.lobby(10)) == ["a", "c"]
    storage.close()


def test_a_kept_standing_writes_fewer_log_pages(tmp_path: Path) -> None:
    storage = storage_with(tmp_path, ["a", "b"])
    log = sqlite3.connect(tmp_path / "s.db")

    def frames_of(commit: tuple[TableRow, list[EventRow], None]) -> int:
        log.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        storage.commit_many([commit])
        frames: int = log.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
        return frames

    kept = frames_of(move("a", 1))
    changed = frames_of(move("b", 1, "over"))
    assert 0 < kept < changed
    assert standing(storage, "a") == ("playing", 1, 1)
    assert standing(storage, "b") == ("over", 1, 1)
    log.close()
    storage.close()
