"""The game and the table screen for a setup or a record, by the kind of table its rules
play on (:mod:`rummykit.variants.table_kinds`): the shared table, or gin's."""

from __future__ import annotations

from pathlib import Path

from rummykit.bots import make_bot_for
from rummykit.core.errors import RecordError, RummyError
from rummykit.core.record import load
from rummykit.display.seats import default_bot
from rummykit.tui.game import Game, Setup
from rummykit.tui.gin_game import GinGame
from rummykit.variants.registry import variant_for
from rummykit.variants.table_kinds import KNOCK, table_kind

AnyGame = Game | GinGame


def game_for(setup: Setup) -> AnyGame:
    """A new game of ``setup``."""
    return GinGame(setup) if table_kind(setup.rules) == KNOCK else Game(setup)


def load_game(path: str | Path, bots: str) -> AnyGame:
    """The match of the record at ``path``, ready to go on (the other seats ``bots``)."""
    record = load(path)
    try:
        rules = variant_for(record.rules).preset(record.rules)
    except RecordError as error:
        raise RecordError(f"cannot load {str(path)!r}: {error}") from None
    try:
        make_bot_for(bots, rules)
    except RummyError:
        bots = default_bot(rules)  # a level the family does not have: its default bot
    if table_kind(rules) == KNOCK:
        return GinGame.load(path, bots)
    return Game.load(path, bots)
