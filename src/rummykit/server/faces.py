"""How the server shows one rule family's hands: views, legal moves, events and the log.

The draw-and-discard families (core ``Rules``, ``HandState``) are shown through
:mod:`rummykit.core.views` and :mod:`~rummykit.server.render` (:class:`EngineFace`). A
family with its own hand and view type supplies a wire module, ``variants/<family>/wire.py``
(standard library only), found by the family's package (:func:`face_for`); it renders the
family's own view, and the object it renders names its face by a ``kind`` key for the web
app. Every message a viewer receives is rendered from that viewer's view only.

A wire module has:

- ``view_json(seen, sheet) -> dict``: the view in wire form (``sheet``: the match's score
  sheet, public);
- ``legal_json(seen) -> list[str]``: the viewer's legal moves;
- ``move_for(move, mover, viewer, over) -> str``: a move as ``viewer`` may read it (a
  family where a move names a hidden card hides it here).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any, Protocol

from rummykit.core import handset
from rummykit.core.cards import format_card
from rummykit.core.match import FamilyMatch
from rummykit.core.rules import Rules
from rummykit.core.views import public_view, view
from rummykit.server.eventtext import EventText
from rummykit.server.jsontext import compact
from rummykit.server.render import legal_out, log_out, view_out
from rummykit.server.wire import LoggedMove, ViewOut
from rummykit.variants.base import RulesLike
from rummykit.variants.registry import AnyVariant, families, variant_of

#: a spectator's "seat"
SPECTATOR = -1
#: the part of an event message every viewer shares, given the move as the viewer reads it
HeadFor = Callable[[str | None], str]
#: a hand's moves: (version, seat, move in notation, made by the seat's bot)
HandLog = list[tuple[int, int, str, bool]]


class Event(Protocol):
    """One committed event's messages, per viewer."""

    version: int

    def text(self, recipient: int) -> str:
        """The ``event`` message for ``recipient`` (a seat, or -1: a spectator)."""
        ...


class TableFace(Protocol):
    """What the table and the hub ask of a family's hands."""

    def view(self, state: Any, recipient: int) -> Any:
        """What ``recipient`` sees of the hand ``state``."""
        ...

    def wire_view(self, match: FamilyMatch[Any, Any], seen: Any) -> ViewOut | dict[str, Any]:
        """A view in wire form."""
        ...

    def legal(self, seen: Any) -> list[str]:
        """The viewer's legal moves in notation."""
        ...

    def event(self, version: int, head_for: HeadFor, move: str | None, mover: int | None,
              match: FamilyMatch[Any, Any]) -> Event:
        """The messages of an event after which ``match`` stands as it is now."""
        ...

    def log(self, moves: HandLog, recipient: int, over: bool) -> list[LoggedMove]:
        """The current hand's moves as ``recipient`` may read them."""
        ...

    def hand_cards(self, state: Any, seat: int) -> list[str]:
        """Seat ``seat``'s cards in notation (for a replay of a finished record only)."""
        ...


class EngineFace:
    """The draw-and-discard families: core views, rendered by :mod:`render`."""

    def view(self, state: Any, recipient: int) -> Any:
        """A seat's view, or the public one."""
        return public_view(state) if recipient == SPECTATOR else view(state, recipient)

    def wire_view(self, match: FamilyMatch[Any, Any], seen: Any) -> ViewOut:
        """``ViewOut``."""
        return view_out(seen)

    def legal(self, seen: Any) -> list[str]:
        """The legal moves."""
        return legal_out(seen)

    def event(self, version: int, head_for: HeadFor, move: str | None, mover: int | None,
              match: FamilyMatch[Any, Any]) -> Event:
        """:class:`EventText` (the public view rendered once for all viewers)."""
        state = match.state
        assert state is not None
        return EventText(version, head_for(move), state)

    def log(self, moves: HandLog, recipient: int, over: bool) -> list[LoggedMove]:
        """Notation is public in these families: every viewer reads the same."""
        return log_out(moves)

    def hand_cards(self, state: Any, seat: int) -> list[str]:
        """The seat's cards."""
        return [format_card(c) for c in handset.cards(state.hands[seat])]


class WireFace:
    """A family with its own view type, shown by its wire module."""

    def __init__(self, variant: AnyVariant, wire: ModuleType) -> None:
        self.variant = variant
        self.wire = wire

    def view(self, state: Any, recipient: int) -> Any:
        """The family's view (``variant.view``: the only way its hidden cards leave)."""
        return self.variant.view(state, recipient)

    def wire_view(self, match: FamilyMatch[Any, Any], seen: Any) -> dict[str, Any]:
        """The wire module's object, with the match's score sheet."""
        out: dict[str, Any] = self.wire.view_json(seen, match.scorer)
        return out

    def legal(self, seen: Any) -> list[str]:
        """The wire module's legal moves."""
        out: list[str] = self.wire.legal_json(seen)
        return out

    def event(self, version: int, head_for: HeadFor, move: str | None, mover: int | None,
              match: FamilyMatch[Any, Any]) -> Event:
        """Each viewer's message, rendered from its own view when first asked for."""
        return WireEvent(self, version, head_for, move, mover, match)

    def log(self, moves: HandLog, recipient: int, over: bool) -> list[LoggedMove]:
        """The moves through the wire module's ``move_for``."""
        return [LoggedMove.model_construct(version=v, seat=s, bot=b,
                                           move=self.wire.move_for(m, s, recipient, over))
                for v, s, m, b in moves]

    def hand_cards(self, state: Any, seat: int) -> list[str]:
        """The seat's cards, as its own view shows them."""
        cards: list[str] = self.wire.view_json(self.view(state, seat), None)["hand"]
        return cards


class WireEvent:
    """An event of a :class:`WireFace` family: the seats' and a spectator's messages are
    rendered at once (the match moves on after this event)."""

    __slots__ = ("_texts", "version")

    def __init__(self, face: WireFace, version: int, head_for: HeadFor, move: str | None,
                 mover: int | None, match: FamilyMatch[Any, Any]) -> None:
        self.version = version
        state = match.state
        over = state is None or state.is_over
        self._texts: dict[int, str] = {}
        for recipient in (*range(match.num_players), SPECTATOR):
            shown = move if move is None or mover is None else \
                face.wire.move_for(move, mover, recipient, over)
            seen = face.view(state, recipient)
            self._texts[recipient] = (
                f'{head_for(shown)},"view":{compact(face.wire_view(match, seen))},'
                f'"legal":{compact(face.legal(seen))}}}')

    def text(self, recipient: int) -> str:
        """The ``event`` message for ``recipient`` (a seat, or -1: a spectator)."""
        return self._texts[recipient if recipient >= 0 else SPECTATOR]


ENGINE_FACE = EngineFace()


@cache
def _family_face(family: str) -> TableFace:
    variant = next(v for v in families() if v.name == family)
    package = type(variant).__module__.rpartition(".")[0]
    return WireFace(variant, importlib.import_module(f"{package}.wire"))


def face_for(rules: RulesLike) -> TableFace:
    """The face of ``rules``' family."""
    if isinstance(rules, Rules):
        return ENGINE_FACE
    return _family_face(variant_of(rules).name)
