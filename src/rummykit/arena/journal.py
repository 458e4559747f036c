"""The journal of an arena run (``--journal FILE.jsonl``): what lets a long run be resumed.

Line 1 is a header naming the run: ``journal`` (:data:`KIND`), ``version``
(:data:`VERSION`) and the report's ``arguments`` (rules, options, players, bots, games,
seed). Every other line is one finished game, a :class:`GameResult` less its record,
appended and synced to disk as soon as the runner yields it, in that order.

:func:`load` reads a journal back for a run: a header naming other arguments is refused,
quoting each difference; a torn last line (a crash mid-write) is dropped, and its game is
played and written again; any other bad line is an error. Every game read must be the
schedule's game of its index, once, so a line from another run cannot slip in.

>>> header_of({"seed": 3})
{'journal': 'rummykit arena journal', 'version': 1, 'seed': 3}
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rummykit.arena.play import GameResult
from rummykit.arena.schedule import GameSpec

KIND = "rummykit arena journal"
VERSION = 1
FIELDS = ("index", "deal_set", "rotation", "seed", "bots", "totals", "winners",
          "hand_scores", "aborted_hands", "drawn_hands", "seconds")

T = TypeVar("T")


class JournalError(ValueError):
    """A journal this run cannot use; the message quotes the file and says why."""


@dataclass(frozen=True, slots=True)
class Journal:
    """A journal opened for a run: the games it already holds and what to keep of it."""

    path: Path
    header: dict[str, Any]  # the run's header (the file's, when it has one)
    done: dict[int, GameResult]  # the finished games, by index
    keep: int  # bytes of the file to keep (its good lines); 0 writes it afresh
    torn: bool = False  # whether a torn last line was dropped


def header_of(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The header line of a run with these (report) ``arguments``, in JSON form."""
    return {"journal": KIND, "version": VERSION, **json.loads(json.dumps(arguments))}


def line_of(value: Mapping[str, Any]) -> bytes:
    """One journal line."""
    return json.dumps(value, separators=(",", ":")).encode() + b"\n"


def encode(game: GameResult) -> dict[str, Any]:
    """A game's journal entry: every field but the record."""
    return {name: getattr(game, name) for name in FIELDS}


def _int(value: Any, name: str) -> int:
    if type(value) is not int:
        raise ValueError(f"{name} {value!r}: expected an integer")
    return value


def _number(value: Any, name: str) -> float:
    if type(value) not in (int, float):
        raise ValueError(f"{name} {value!r}: expected a number")
    return float(value)


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{name} {value!r}: expected a string")
    return value


def _row(value: Any, name: str, item: Callable[[Any, str], T], size: int) -> tuple[T, ...]:
    """A list of ``size`` items (any length when ``size`` is -1)."""
    if not isinstance(value, list) or size not in (-1, len(value)):
        raise ValueError(f"{name} {value!r}: expected a list"
                         + ("" if size == -1 else f" of {size}"))
    return tuple(item(one, name) for one in value)


def decode(value: Any, specs: Sequence[GameSpec]) -> GameResult:
    """The game of a journal entry, checked against the schedule (ValueError says why)."""
    if not isinstance(value, dict) or set(value) != set(FIELDS):
        raise ValueError(f"expected a game with the keys {', '.join(FIELDS)}")
    index = _int(value["index"], "index")
    if not 0 <= index < len(specs):
        raise ValueError(f"index {index}: expected 0 to {len(specs) - 1} (the schedule's games)")
    spec = specs[index]
    seats = len(spec.bots)
    bots = _row(value["bots"], "bots", _text, seats)
    deal_set, rotation = _int(value["deal_set"], "deal_set"), _int(value["rotation"], "rotation")
    seed = _int(value["seed"], "seed")
    if (deal_set, rotation, seed, bots) != (spec.deal_set, spec.rotation, spec.seed, spec.bots):
        raise ValueError(f"game {index} (set {deal_set}, rotation {rotation}, seed {seed}, bots "
                         f"{list(bots)}) is not the schedule's game {index} (set "
                         f"{spec.deal_set}, rotation {spec.rotation}, seed {spec.seed}, bots "
                         f"{list(spec.bots)})")
    winners = _row(value["winners"], "winners", _int, -1)
    if not all(0 <= seat < seats for seat in winners):
        raise ValueError(f"winners {list(winners)}: expected seats 0 to {seats - 1}")
    return GameResult(
        index, deal_set, rotation, seed, bots, _row(value["totals"], "totals", _int, seats),
        winners,
        _row(value["hand_scores"], "hand_scores",
             lambda row, name: _row(row, name, _int, seats), -1),
        _int(value["aborted_hands"], "aborted_hands"), _int(value["drawn_hands"], "drawn_hands"),
        _row(value["seconds"], "seconds", lambda row, name: _row(row, name, _number, -1), seats))


def _parse(line: bytes) -> Any:
    """The JSON value of a line, or ``None`` when it is not JSON."""
    try:
        return json.loads(line)
    except ValueError:
        return None


def _quote(line: bytes) -> str:
    text = line.decode("utf-8", "replace")
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _differences(stored: dict[str, Any], header: dict[str, Any]) -> list[str]:
    """What the journal's header says that this run's does not, as ``key A in ..., B here``."""
    def canon(value: Any) -> str:
        return json.dumps(value, sort_keys=True)
    return [f"{key} {stored.get(key)!r} in the journal, {header[key]!r} here"
            for key in header if canon(stored.get(key)) != canon(header[key])]


def stored_seed(path: Path) -> int | None:
    """The seed in the header of the journal at ``path``, if it has a readable one."""
    try:
        with path.open("rb") as file:
            first = file.readline()
    except OSError:
        return None
    header = _parse(first) if first.endswith(b"\n") else None
    if not isinstance(header, dict) or header.get("journal") != KIND:
        return None
    seed = header.get("seed")
    return seed if type(seed) is int else None


def load(path: Path, arguments: Mapping[str, Any], specs: Sequence[GameSpec]) -> Journal:
    """The journal at ``path`` for a run of ``arguments`` (new when there is no file yet)."""
    header = header_of(arguments)
    name = f"--journal {str(path)!r}"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Journal(path, header, {}, 0)
    except OSError as error:
        raise JournalError(f"{name}: {error.strerror or error}") from None
    lines = data.split(b"\n")
    torn = lines.pop()  # b"" when the file ends with a newline
    if not lines:  # empty, or a header torn as it was written (no game lost: rewrite it)
        marker = line_of({"journal": KIND})[:-2]
        if torn[:len(marker)] == marker[:len(torn)]:
            return Journal(path, header, {}, 0, torn=bool(torn))
        raise JournalError(f"{name}: not an arena journal (it holds only {_quote(torn)}); "
                           "expected a header line, or a file that does not exist yet")
    stored = _parse(lines[0])
    if not isinstance(stored, dict) or stored.get("journal") != KIND:
        raise JournalError(f"{name} line 1: {_quote(lines[0])} is not an arena journal "
                           f"header; expected {line_of(header)[:40].decode()!r}...")
    if stored.get("version") != VERSION:
        raise JournalError(f"{name}: journal format version {stored.get('version')!r}; "
                           f"expected {VERSION}")
    differ = _differences(stored, header)
    if differ:
        raise JournalError(f"{name} belongs to another run ({'; '.join(differ)}); expected "
                           "the same arguments to resume it, or another journal file")
    done: dict[int, GameResult] = {}
    where: dict[int, int] = {}
    keep = len(lines[0]) + 1
    for number, line in enumerate(lines[1:], start=2):
        value = _parse(line)
        if value is None and number == len(lines) and not torn:
            torn = line  # the last line, torn (or garbled) as it was written
            break
        if value is None:
            raise JournalError(f"{name} line {number}: {_quote(line)} is not JSON; expected "
                               "one finished game per line")
        try:
            game = decode(value, specs)
        except ValueError as error:
            raise JournalError(f"{name} line {number}: {error}") from None
        if game.index in done:
            raise JournalError(f"{name} line {number}: game {game.index} is already on line "
                               f"{where[game.index]}; expected each game once")
        done[game.index], where[game.index] = game, number
        keep += len(line) + 1
    return Journal(path, stored, done, keep, torn=bool(torn))


@contextmanager
def appending(journal: Journal | None) -> Iterator[Callable[[GameResult], None]]:
    """A function that appends a game to ``journal`` and syncs it (does nothing for None).

    The file is cut to its good lines first, or written afresh from the header.
    """
    if journal is None:
        yield lambda game: None
        return
    with journal.path.open("r+b" if journal.keep else "wb") as file:
        def write(line: bytes) -> None:
            file.write(line)
            file.flush()
            os.fsync(file.fileno())

        if journal.keep:
            file.truncate(journal.keep)
            file.seek(journal.keep)
        else:
            write(line_of(journal.header))
        yield lambda game: write(line_of(encode(game)))
