"""A trusted replay: a stored table's match rebuilt by applying its stored moves without the
engine's rule checks, faster than :func:`rummykit.core.record.replay` (warm, per move:
14 against 29 us on the basic golden record, 11 against 150 us on the contract one), so
that a node taking over a dead node's tables serves them sooner (``resumebench``).

The stored moves were checked when they were played, and the log they come from is
checked as it is read: the versions of the match's events follow one another up to the
table's version, each move is made by the seat its event names, and it parses. Anything
else (or an error while applying) leaves the decision to the checked replay. The checked
replay still runs for every table loaded this way, off the event loop
(:func:`check_record`, in the hub's replay worker), and a table whose record it refuses is
quarantined then.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from rummykit.core.match import Match
from rummykit.core.moves import Move, parse_move
from rummykit.core.record import Record, replay
from rummykit.core.rules import Rules
from rummykit.server.storage import EventRow


@functools.lru_cache(maxsize=8192)
def parsed(text: str) -> Move:
    """A stored move parsed (memoised: moves are immutable, and most texts recur from
    table to table, so that a node adopting many tables parses each text once)."""
    return parse_move(text)


def chained(events: Sequence[EventRow], version: int) -> bool:
    """Whether ``events`` (a match's, in order) are versions ``first, first + 1, ...,
    version`` with no gap or repeat."""
    if not events:
        return True
    first = events[0].version
    return all(e.version == first + i for i, e in enumerate(events)) and \
        events[-1].version == version


def trusted_match(record: Record, rules: Rules, events: Sequence[EventRow],
                  version: int) -> Match | None:
    """The match of ``record`` (built from ``events``) with its moves applied unchecked, or
    None when the log does not hold together (see the module's docstring)."""
    if not chained(events, version):
        return None
    seats = iter([e.data.get("seat") for e in events if e.kind == "move"])
    try:
        match = Match(rules, record.players, seed=record.seed, dealer=record.dealer)
        for hand in record.hands:
            if match.over or (match.state is not None and not match.state.is_over):
                return None
            state = match.start_hand(hand.deck, restocks=hand.restocks)
            for text in hand.moves:
                if state.is_over or next(seats) != state.to_move:
                    return None
                match.push(parsed(text))
    except Exception:  # a log that does not apply: the checked replay says why
        return None
    return match


def check_record(record: Record) -> str | None:
    """The checked replay's verdict on ``record``: None when it replays, else why not."""
    replayed = replay(record)
    return None if replayed.error is None else str(replayed.error)
