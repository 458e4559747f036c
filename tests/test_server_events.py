"""Event messages are rendered lazily per viewer and spliced from a shared head: each
text must still be exactly an ``EventOut`` with that viewer's view."""

from __future__ import annotations

import json

from rummykit.core.views import public_view, view
from rummykit.server.render import legal_out, match_out, view_out
from rummykit.server.storage import SeatRow, TableRow
from rummykit.server.table import SPECTATOR, LiveTable, table_rules
from rummykit.server.wire import EventOut


def test_each_viewer_gets_its_own_valid_event() -> None:
    row = TableRow("t1", "basic", {}, "waiting", 0, 0, 4)
    seats = [SeatRow(i, "human", n, None, None, "human") for i, n in enumerate(["A", "B"])]
    table = LiveTable(row, seats, table_rules("basic", {}, 200), 8)
    change = table.start_match()
    table.adopt(change)
    assert table.match is not None and table.match.state is not None
    mover = table.match.state.to_move
    change = table.play(mover, "draw", table.version)
    assert table.version == 1  # nothing adopted yet: the live table did not move
    table.adopt(change)
    state = table.match.state
    assert state is not None
    event = change.events[-1]
    for recipient in (0, 1, SPECTATOR):
        text = event.text(recipient)
        parsed = EventOut.model_validate_json(text)
        seen = public_view(state) if recipient == SPECTATOR else view(state, recipient)
        assert parsed.version == 2 and parsed.kind == "move" and parsed.move == "draw"
        assert parsed.seat == mover
        assert json.loads(parsed.view.model_dump_json()) == json.loads(
            view_out(seen).model_dump_json())
        assert parsed.legal == legal_out(seen)
        assert parsed.match == match_out(table.match, 0)
        assert event.text(recipient) is text  # rendered once
    assert json.loads(event.text(0))["view"]["hand"] != json.loads(event.text(1))["view"]["hand"]
