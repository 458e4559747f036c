"""The ``event`` messages of one committed event, rendered once for all its viewers.

Every viewer of a state sees the same view but for three fields: ``seat``, ``hand`` (its
own cards) and ``legal`` (its moves, when it is to move). So the public view is rendered
once (as :func:`~rummykit.server.render.view_out` writes it, without those two fields), and each
viewer's message splices its own in front: the same JSON object as ``view_out`` of that
viewer's view gives (the test compares them), for a third of the work. The melds on the
table and the card lists, which most moves leave as they were, are rendered once each (by
value) and kept (:mod:`~rummykit.server.viewtext`).
"""

from __future__ import annotations

from rummykit.core.engine import HandState
from rummykit.core.moves import Move
from rummykit.core.views import public_view
from rummykit.server.jsontext import compact, strings_json
from rummykit.server.render import view_out
from rummykit.server.viewtext import WRITTEN_HERE, cards_json, shared_json

#: the view fields that differ between viewers (the rest is the public view's)
OWN_FIELDS = frozenset({"seat", "hand"})


def public_text(state: HandState) -> str:
    """The public view of ``state`` as JSON without its own fields, the leading ``{``
    dropped (``'"rules":...}'``); written by :mod:`~rummykit.server.viewtext` (the same
    bytes as ``view_out``'s)."""
    seen = public_view(state)
    if not WRITTEN_HERE:
        return view_out(seen).model_dump_json(exclude=set(OWN_FIELDS))[1:]
    return shared_json(seen) + "}"


class EventText:
    """One event's messages: the shared head and public view, each seat's cards, the
    legal moves of the seat to move. Messages are made on demand and kept."""

    __slots__ = ("_by_text", "_hands", "_head", "_legal", "_mover", "_public", "_texts",
                 "version")

    def __init__(self, version: int, head: str, state: HandState) -> None:
        self.version = version
        self._head = head
        self._public = public_text(state)
        self._hands = tuple(state.hands)
        over = state.result is not None
        self._mover = -1 if over else state.to_move
        self._legal: tuple[Move, ...] = () if over else tuple(state.legal_moves())
        self._texts: dict[int, str] = {}
        self._by_text: dict[str, Move] | None = None

    def text(self, recipient: int) -> str:
        """The ``event`` message for ``recipient`` (a seat, or -1: a spectator)."""
        found = self._texts.get(recipient)
        if found is None:
            if recipient < 0:
                own, legal = '"seat":null,"hand":[]', "[]"
            else:
                own = f'"seat":{recipient},"hand":{cards_json(self._hands[recipient])}'
                legal = self._legal_json() if recipient == self._mover else "[]"
            found = self._texts[recipient] = (
                f'{self._head},"view":{{{own},{self._public},"legal":{legal}}}')
        return found

    def _legal_json(self) -> str:
        texts = self._moves_by_text()
        if len(texts) != len(self._legal):  # two moves written alike
            return compact([str(m) for m in self._legal])
        return strings_json(list(texts))

    def _moves_by_text(self) -> dict[str, Move]:
        if self._by_text is None:
            self._by_text = {str(m): m for m in self._legal}
        return self._by_text

    def legal_move(self, seat: int, text: str) -> Move | None:
        """The legal move of ``seat`` that ``text`` writes in canonical notation (as the
        message lists it), if it is one: it needs no check to be made."""
        return self._moves_by_text().get(text) if seat == self._mover else None
