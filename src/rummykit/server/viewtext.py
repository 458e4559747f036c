"""A core view's JSON written directly: the bytes ``view_out(seen).model_dump_json()``
gives (but for ``seat`` and ``hand``, which each viewer adds), without building the
models, which was most of an event's cost.

The family's part of a view (who is down, the contract, the deal's facts) is taken from
:func:`~rummykit.server.render.view_out` itself, once per deal and family state, so that
whatever the family shows there is shown here too. Card lists are kept by value (a hand
is a bit set), and so are melds. :data:`WRITTEN_HERE` is False when the wire models have
fields this module does not know: the callers then use ``view_out``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from rummykit.core import handset
from rummykit.core.cards import JOKER, format_card
from rummykit.core.melds import TableMeld, format_placed
from rummykit.core.views import PlayerView
from rummykit.server.render import result_out, view_out
from rummykit.server.wire import MeldOut, ViewOut

#: ViewOut's fields in order up to ``revealed``, as written here; the fields after it (the
#: family's: the contract, the facts) are written by ``view_out`` (:func:`_family_parts`)
VIEW_FIELDS = ("rules", "seat", "hand_number", "dealer", "to_move", "phase", "hand",
               "hand_sizes", "table", "discard", "stock_size", "known", "discarded", "taken",
               "turn_count", "rebuilds", "down", "result", "revealed")
_OUT = tuple(ViewOut.model_fields)
_TAIL = set(_OUT[len(VIEW_FIELDS):])
WRITTEN_HERE = _OUT[:len(VIEW_FIELDS)] == VIEW_FIELDS and bool(_TAIL) and \
    tuple(MeldOut.model_fields) == ("number", "kind", "cards", "placed_by")
#: JSON as pydantic writes it: compact, non-ASCII characters as they are
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_FIELDS = PlayerView._fields
#: the view fields a family fills (``HandState.family_view``): between these two
_FAMILY = slice(_FIELDS.index("revealed") + 1, _FIELDS.index("discarded"))


#: each card (an int up to the joker's) in notation as a JSON string
_QUOTED = tuple(_dumps(format_card(c)) for c in range(JOKER + 1))


@lru_cache(maxsize=65536)
def cards_json(hand: int) -> str:
    """A hand (bit set) as the JSON list of its cards in notation, sorted."""
    return "[" + ",".join([_QUOTED[c] for c in handset.cards(hand)]) + "]"


def meld_json(number: int, meld: TableMeld) -> str:
    """Meld ``number`` (from 1) on the table as ``MeldOut`` JSON (as ``view_out`` has it),
    kept by the meld's identity (a meld stays the same object while nobody lays off on
    it; hashing it costs more than the rest)."""
    key = (id(meld), number)
    found = _MELDS.get(key)
    if found is None or found[0] is not meld:
        text = MeldOut.model_construct(number=number, kind=meld.kind,
                                       cards=[format_placed(c) for c in meld.cards],
                                       placed_by=list(meld.placed_by)).model_dump_json()
        if len(_MELDS) >= 16384:
            _MELDS.clear()
        found = _MELDS[key] = (meld, text)
    return found[1]


#: :func:`meld_json` by the meld's identity and number (with the meld, kept alive while
#: cached)
_MELDS: dict[tuple[int, int], tuple[TableMeld, str]] = {}


def _family_parts(seen: PlayerView) -> tuple[str, str]:
    """``down``, and ``contract`` with ``facts``, as ``view_out`` writes them: made once
    per rules, player count, deal and family fields (the rules by identity: hashing them
    costs more than the rest)."""
    key = (id(seen.rules), seen.num_players, seen.deal_index, seen[_FAMILY])
    found = _FAMILY_SEEN.get(key)
    if found is None or found[0] is not seen.rules:
        out = view_out(seen)
        found = (seen.rules, _dumps(out.down),
                 out.model_dump_json(include=_TAIL)[1:-1])
        if len(_FAMILY_SEEN) >= 4096:
            _FAMILY_SEEN.clear()
        _FAMILY_SEEN[key] = found
    return found[1], found[2]


#: :func:`_family_parts` by their key (with the rules, kept alive while cached)
_FAMILY_SEEN: dict[tuple[Any, ...], tuple[Any, str, str]] = {}


def shared_json(seen: PlayerView) -> str:
    """Every field of ``seen``'s JSON but ``seat`` and ``hand``, the braces left off:
    ``'"rules":...,"facts":[...]'`` (as ``view_out(seen).model_dump_json(exclude=...)``)."""
    down, tail = _family_parts(seen)
    result = seen.result
    melds = ",".join([meld_json(i + 1, m) for i, m in enumerate(seen.table)])
    discard = ",".join([_QUOTED[c] for c in seen.discard])
    known = ",".join([cards_json(k) for k in seen.known])
    discarded = ",".join([cards_json(d) for d in seen.discarded])
    revealed = "[" + ",".join([cards_json(h) for h in seen.revealed]) + "]" \
        if seen.revealed else "null"
    sizes = ",".join([str(n) for n in seen.hand_sizes])
    taken = "null" if seen.taken < 0 else _QUOTED[seen.taken]
    return (f'"rules":{_dumps(seen.rules.name)},"hand_number":{seen.deal_index},'
            f'"dealer":{seen.dealer},"to_move":{seen.to_move},"phase":{_dumps(seen.phase)},'
            f'"hand_sizes":[{sizes}],"table":[{melds}],"discard":[{discard}],'
            f'"stock_size":{seen.stock_size},"known":[{known}],"discarded":[{discarded}],'
            f'"taken":{taken},"turn_count":{seen.turn_count},"rebuilds":{seen.rebuilds},'
            f'"down":{down},"result":'
            f'{"null" if result is None else result_out(result).model_dump_json()},'
            f'"revealed":{revealed},{tail}')
