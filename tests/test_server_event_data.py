"""An event's stored data, and the move in its message, are written as ``json.dumps``
writes them, whether written by hand (plain notation) or not: the same text for every
kind of data and move text."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rummykit.server.jsontext import string_json
from rummykit.server.storage import EventRow, SeatRow, SqlStorage, TableRow, data_json
from rummykit.server.table import event_head

ODD_TEXTS = ["draw", "discard S7", "meld H3 H4 H5 / JK=S9 S10 SJ", 'say "hi"', "back\\slash",
             "tab\there", "new\nline", "caf\u00e9", "\u2660 spade", "", " ", "\x7f", "\u0000"]


def cases() -> list[dict[str, Any]]:
    rng = random.Random(7)
    found: list[dict[str, Any]] = []
    for text in ODD_TEXTS + ["".join(rng.choice("ab \"\\\u00e9\x01") for _ in range(8))
                             for _ in range(200)]:
        found += [{"seat": 1, "move": text}, {"seat": 0, "move": text, "bot": True},
                  {"move": text, "seat": 1}, {"seat": 1, "move": text, "bot": False},
                  {"seat": True, "move": text}, {"seat": 1.5, "move": text},
                  {"seat": 1, "move": text, "restocks": [["S2", "H3"]]}]
    return [*found, {"deck": ["S2", "JK"], "dealer": 1}, {}, {"seat": 1, "move": 3}]


def test_event_data_is_written_as_json_dumps_writes_it() -> None:
    for data in cases():
        assert data_json(data) == json.dumps(data), data


def test_move_texts_in_event_messages_are_quoted_as_json_dumps_quotes_them() -> None:
    for data in cases():
        text = data.get("move")
        if isinstance(text, str):
            assert string_json(text) == json.dumps(text), text
            head = json.loads(event_head(3, "move", 1, text, "null") + "}")
            assert head["move"] == text and head["kind"] == "move"


def test_stored_moves_read_back_as_made(tmp_path: Path) -> None:
    storage = SqlStorage(f"sqlite:///{tmp_path / 'd.db'}")
    storage.create_table(TableRow("t", "basic", {}, "playing", 1, 0, None),
                         [SeatRow(0, "human", "A", None, None, "human")])
    made = [{"seat": 0, "move": text} for text in ODD_TEXTS]
    storage.commit_many([(TableRow("t", "basic", {}, "playing", 1, len(made), None),
                          [EventRow(n + 1, 1, "move", data) for n, data in enumerate(made)],
                          None)])
    stored = storage.load("t")
    assert stored is not None
    assert [e.data for e in stored.events] == made
    storage.close()
