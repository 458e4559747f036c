"""Observations built from one seat's :class:`~rummykit.core.views.PlayerView` (and the public
match totals), as one flat ``float32`` array and as a dict of named parts.

Seats are relative: row 0 of a per-seat part is the observing seat, row ``i`` the seat
``i`` places to its left. ``C`` is the number of card kinds (52, or 53 when the pack has
jokers: column 52 is the joker), ``n`` the players, ``M`` the most melds the table can hold
(pack size // 3). Card columns follow :mod:`rummykit.core.cards` (``suit * 13 + rank - 1``).
Parts, in this order (those marked *contract* are a family's own parts, from its encoding,
:mod:`rummykit.rl.encodings`: they exist only when the rule set needs them):

=================  ========  ===========================================================
part               shape     content
=================  ========  ===========================================================
``hand``           (C,)      copies of each card in the seat's hand
``known``          (n-1, C)  cards each other seat took from the discard pile and holds
``discarded``      (n, C)    1 where the seat discarded that card this hand
``discard_top``    (C,)      one-hot top of the discard pile
``discard_pile``   (C,)      copies of each card in the discard pile
``taken``          (C,)      one-hot card taken as the discard top this turn (not to be
                             discarded again this turn)
``table``          (M, C)    row ``t``: the cards of table meld ``t + 1`` (placement order,
                             as in the actions' meld numbers), by identity
``table_jokers``   (M, C)    *jokers*: the identities jokers stand for in meld ``t + 1``
``dig_duty``       (C,)      *contract*: one-hot dug card still to be placed this turn
``discard_depth``  (C,)      *digs*: depth of each card's topmost copy (1 = top), 0 if absent
``hand_sizes``     (n,)      cards held by each seat
``stock_size``     (1,)      cards in the stock
``scores``         (n,)      match totals of the hands finished so far
``dealer``         (n,)      one-hot dealer
``to_move``        (n,)      one-hot seat to move (all 0 once the hand is over)
``phase``          (2,)      one-hot draw / play step
``turn``           (4,)      melds this turn, placed this turn (0/1), turns done this hand,
                             stock rebuilds this hand
``placed``         (n,)      1 where the seat placed cards on an earlier turn this hand
``deal``           (1,)      hands already played in the match
``contract``       (2,)      *contract*: sets and runs of this deal's contract
``down``           (n,)      *contract*: 1 where the seat has gone down
``joker_duty``     (1,)      *contract*: jokers taken by swaps still to be placed this turn
=================  ========  ===========================================================

The card parts come first, so ``flat[:k * C].reshape(k, C)`` is every card plane. Every
entry is at least 0; :attr:`Observation.high` holds each entry's true upper bound, derived
from the rules (:mod:`rummykit.rl.bounds`), and :meth:`Observation.normalize` scales an
observation into [0, 1].

:meth:`Observation.build` returns a new array each time (the caller may keep it). With one
deck and no contract parts (``basic``, ``traditional``) it is incremental: each seat's last
observation is kept, and only the entries of card rows that changed since (compared with
what was written, so any order of views is right) and the scalars are rewritten before the
copy; an :class:`Observation` is therefore not for sharing between threads.

>>> import random
>>> from rummykit import BASIC, HandState, view
>>> obs = Observation(BASIC, 2)
>>> obs.size, obs.shapes["table"], obs.shapes["scores"]
(1266, (17, 52), (2,))
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(1))
>>> parts = obs.as_dict(obs.build(view(state, 1), totals=[30, 12]))
>>> int(parts["hand"].sum()), parts["stock_size"].tolist(), parts["scores"].tolist()
(10, [31.0], [12.0, 30.0])
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import itemgetter, ne
from typing import Any

import numpy as np

from rummykit.core import handset
from rummykit.core.cards import JOKER, NUM_NATURALS
from rummykit.core.melds import JOKER_AS, TableMeld
from rummykit.core.rules import Rules
from rummykit.core.views import PlayerView
from rummykit.rl.bounds import fill_high
from rummykit.rl.encodings import table_encoding
from rummykit.rl.layout import Array, Layout

__all__ = ["Array", "Observation"]

_NATURALS = (1 << NUM_NATURALS) - 1
#: the one-hot and 0/1 parts are floats, which ``struct`` packs quicker than ints
_PHASES = {"draw": (1.0, 0.0), "play": (0.0, 1.0)}


class Observation(Layout):
    """The observation layout of one rule set and player count, and its builder."""

    def __init__(self, rules: Rules, players: int) -> None:
        rules.check_players(players)
        decks, jokers = rules.pack_spec(players)
        n = players
        self.rules = rules
        self.players = n
        self.multi = (decks, jokers) != (1, 0)
        self.num_cards = c = NUM_NATURALS + (1 if jokers else 0)
        self.max_melds = m = (decks * NUM_NATURALS + jokers) // 3
        #: the family's own parts (:mod:`rummykit.rl.encodings`; e.g. a contract's dig and
        #: joker duties, the deal's contract, who is down), or None
        self.extra = extra = table_encoding(rules)
        self.extra_cards: tuple[str, ...] = extra.card_parts(rules) if extra else ()
        self.extra_scalars: tuple[tuple[str, int], ...] = \
            extra.scalar_parts(rules, n) if extra else ()
        contract = bool(self.extra_cards or self.extra_scalars)
        self.digs = rules.discard_dig
        single = 0  # rows of a plane that is one card vector, of shape (C,)
        planes: list[tuple[str, int]] = [
            ("hand", single), ("known", n - 1), ("discarded", n), ("discard_top", single),
            ("discard_pile", single), ("taken", single), ("table", m)]
        if jokers:
            planes.append(("table_jokers", m))
        planes += [(name, single) for name in self.extra_cards]
        if self.digs:
            planes.append(("discard_depth", single))
        scalars = [("hand_sizes", n), ("stock_size", 1), ("scores", n), ("dealer", n),
                   ("to_move", n), ("phase", 2), ("turn", 4), ("placed", n), ("deal", 1)]
        scalars += self.extra_scalars
        self.shapes: dict[str, tuple[int, ...]] = {}
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, rows in planes:
            self.shapes[name] = (rows, c) if rows else (c,)
            self.offsets[name] = offset
            offset += max(rows, 1) * c
        for name, width in scalars:
            self.shapes[name] = (width,)
            self.offsets[name] = offset
            offset += width
        self.size = offset
        #: the upper bound of every entry (:mod:`rummykit.rl.bounds`; all are at least 0)
        self._set_high(fill_high(self))
        self._melds: dict[int, tuple[TableMeld, int, int]] = {}
        self._zeros = (0,) * n
        self._card_size = self.offsets["hand_sizes"]
        #: one deck, no contract parts: every card part is a bit set (the fast path)
        self._bits_only = not self.multi and not contract
        self._set_packer()
        # the fast path's memory: each seat's last observation, the last discard pile seen
        #: the rows kept as bit sets: hand, known, discarded, discard_pile; (their offsets
        #: less one: ``bit_length`` counts from 1); discard_top and taken are kept by card
        self._fixed_rows = range(2 * n + 1)
        self._bases = [k * NUM_NATURALS - 1 for k in (*range(2 * n), 2 * n + 1)]
        self._top_at = self.offsets["discard_top"]
        self._taken_at = self.offsets["taken"]
        self._scalars_at = self._card_size * 4  # in bytes
        self._pile: tuple[int, ...] = ()
        self._pile_bits = 0
        #: one-hot rows by relative seat (row ``n``: all zero), 0/1 rows by seat bit set
        self._one_hot = [tuple(float(i == k) for i in range(n)) for k in range(n + 1)]
        self._seat_bits = [tuple(float(b >> i & 1) for i in range(n)) for b in range(1 << n)]
        #: ``_hot[d][t][phase]``: the one-hot dealer, seat to move (relative seats, ``t = n``:
        #: nobody to move) and phase (``""``: any other phase)
        self._hot = [[{phase: self._one_hot[d] + self._one_hot[t] + _PHASES.get(phase, (0.0, 0.0))
                       for phase in (*_PHASES, "")} for t in range(n + 1)] for d in range(n)]
        #: the fast path's memory, by seat
        self._seats = [_Rows(self.size, 2 * n + 1, m) for _ in range(n)] if self._bits_only \
            else []
        # seat-relative order: a seat's per-seat values, itself first; the other seats'
        # known rows then every seat's discarded row, from ``known + discarded``
        orders = [[(s + i) % n for i in range(n)] for s in range(n)]
        self._rotations = [itemgetter(*order) for order in orders]
        self._others = [itemgetter(*order[1:], *[n + i for i in order]) for order in orders]
        self._placed = [[self._seat_bits[_rotate(bits, s, n)] for bits in range(1 << n)]
                        for s in range(n)]

    # -- building ----------------------------------------------------------------------
    def _meld_planes(self, meld: TableMeld) -> tuple[int, int]:
        found = self._melds.get(id(meld))
        if found is not None and found[0] is meld:
            return found[1], found[2]
        cards = jokers = 0
        for code in meld.cards:
            ident = code - JOKER_AS if code >= JOKER_AS else code
            if code >= JOKER_AS:
                jokers |= 1 << ident
            cards = handset.add(cards, ident) if cards >> ident & 1 else cards | 1 << ident
        if len(self._melds) > 20_000:
            self._melds.clear()
        self._melds[id(meld)] = (meld, cards, jokers)
        return cards, jokers

    def build(self, seen: PlayerView, totals: Sequence[int] | None = None,
              out: Array | None = None) -> Array:
        """The flat observation of ``seen``; ``totals`` are the match totals by seat."""
        if self._bits_only:
            return self._build_one_deck(seen, totals, out)
        if out is None:
            out = np.empty(self.size, dtype=np.float32)
        seat = seen.seat
        known = seen.known
        discarded = seen.discarded or self._zeros
        sizes = seen.hand_sizes
        if seat:
            known = known[seat:] + known[:seat]
            discarded = discarded[seat:] + discarded[:seat]
            sizes = sizes[seat:] + sizes[:seat]
        pile = seen.discard
        multi = self.multi
        if multi:
            pile_cards = handset.of_cards(pile)
            discarded = tuple([_bits_to_hand(d) for d in discarded])
        else:
            pile_cards = 0
            for card in pile:
                pile_cards |= _BIT[card]
        melds = [self._meld_planes(meld) for meld in seen.table]
        head = [seen.hand, *known[1:], *discarded, _one(pile[-1]) if pile else 0, pile_cards,
                _one(seen.taken), *[cards for cards, _ in melds]]
        write = self._write_multi if multi else self._write
        at = write(out, 0, head, len(head) - len(melds) + self.max_melds)
        if self.num_cards > NUM_NATURALS:
            at = write(out, at, [_bits_to_hand(jokers) for _, jokers in melds],
                       self.max_melds)
        extra = self.extra
        if self.extra_cards:
            at = write(out, at, [_one(c) for c in extra.card_values(seen)],
                       len(self.extra_cards))
        c = self.num_cards
        if self.digs:
            depth = out[at:at + c]
            depth[...] = 0.0
            for i, card in enumerate(reversed(pile)):
                if not depth[card]:
                    depth[card] = i + 1
            at += c
        scalars = self._scalars(seen, sizes, totals)
        if self.extra_scalars:
            scalars += tuple(extra.scalar_values(seen))
        out[at:] = scalars
        return out

    def _scalars(self, seen: PlayerView, sizes: tuple[int, ...],
                 totals: Sequence[int] | None) -> tuple[float, ...]:
        """The parts from ``hand_sizes`` to ``deal`` (``sizes`` already seat-relative)."""
        n = self.players
        seat = seen.seat
        scores = tuple(totals[seat:]) + tuple(totals[:seat]) if totals is not None \
            else (0,) * n
        one_hot = self._one_hot
        return (*sizes, seen.stock_size, *scores, *one_hot[(seen.dealer - seat) % n],
                *(one_hot[n] if seen.result is not None else
                  one_hot[(seen.to_move - seat) % n]),
                *_PHASES.get(seen.phase, (0.0, 0.0)), seen.melds_this_turn,
                seen.placed_this_turn, seen.turn_count, seen.rebuilds,
                *self._seat_bits[_rotate(seen.ever_placed, seat, n)], seen.deal_index)

    def _build_one_deck(self, seen: PlayerView, totals: Sequence[int] | None,
                        out: Array | None) -> Array:
        """:meth:`build` for one deck without jokers or contract parts, where every card
        part is a bit set: incremental, from the seat's previous observation.

        Each seat keeps its last observation (:class:`_Rows`: the card rows as bit sets and
        the ``float32`` array holding them); only the entries of rows whose bit set changed
        are written (a turn changes a few cards), then the scalars, packed in one go. The
        result is a copy, so the caller may keep it. The rows are compared with what was
        written, not assumed, so any sequence of views (any seat, any game) gives the same
        observation as building it from scratch."""
        (seat, hand, known, discarded, pile, taken, table, sizes, stock_size, dealer,
         to_move, phase, melds_this_turn, placed_this_turn, turn_count, rebuilds,
         ever_placed, deal_index, result) = _READ(seen)
        if seat < 0:
            raise ValueError("a spectator's view (seat -1) has no observation")
        memo: _Rows = self._seats[seat]
        floats = memo.floats
        top = pile[-1] if pile else -1
        last = self._pile
        grown = len(pile) - len(last)
        if grown == 1 and pile[:-1] == last:  # one card discarded since (one scan)
            self._pile_bits |= _BIT[top]
            self._pile = pile
        elif grown == -1 and last[:-1] == pile:  # one card taken
            self._pile_bits ^= _BIT[last[-1]]
            self._pile = pile
        elif grown or pile != last:  # another pile: one deck, so the sum is the union
            self._pile_bits = sum(map(_BIT.__getitem__, pile))
            self._pile = pile
        # the one-card rows: written by card
        was = memo.top
        if top != was:
            if was >= 0:
                floats[self._top_at + was] = 0.0
            if top >= 0:
                floats[self._top_at + top] = 1.0
            memo.top = top
        was = memo.taken
        if taken != was:
            if was >= 0:
                floats[self._taken_at + was] = 0.0
            if taken >= 0:
                floats[self._taken_at + taken] = 1.0
            memo.taken = taken
        # the other rows: written by the bits that changed
        rows = [hand, *self._others[seat](known + (discarded or self._zeros)),
                self._pile_bits]
        before = memo.rows
        bases = self._bases
        for k in compress(self._fixed_rows, map(ne, rows, before)):
            new = rows[k]
            base = bases[k]
            diff = new ^ before[k]
            if not diff & (diff - 1):  # one card in or out: the common case
                floats[base + diff.bit_length()] = 1.0 if new & diff else 0.0
                continue
            while diff:
                low = diff & -diff
                floats[base + low.bit_length()] = 1.0 if new & low else 0.0
                diff ^= low
        memo.rows = rows
        if table != memo.table:
            self._table_rows(memo, table)
        n = self.players
        rotate = self._rotations[seat]
        hot = self._hot[(dealer - seat) % n][n if result is not None else (to_move - seat) % n]
        self._pack_into(
            memo.raw, self._scalars_at, *rotate(sizes), stock_size,
            *(rotate(totals) if totals is not None else self._zeros),
            *(hot.get(phase) or hot[""]), melds_this_turn, placed_this_turn, turn_count,
            rebuilds, *self._placed[seat][ever_placed], deal_index)
        if out is None:
            return memo.flat.copy()
        out[:] = memo.flat
        return out

    def _table_rows(self, memo: _Rows, table: tuple[TableMeld, ...]) -> None:
        """Rewrite the rows of the table melds that changed."""
        cache = self._melds
        rows = memo.table_rows
        floats = memo.floats
        first = self.offsets["table"]
        for t in range(max(len(table), len(memo.table))):
            if t < len(table):
                meld = table[t]
                entry = cache.get(id(meld))
                new = entry[1] if entry is not None and entry[0] is meld \
                    else self._meld_planes(meld)[0]
            else:
                new = 0
            old = rows[t]
            if new != old:
                rows[t] = new
                base = first + t * NUM_NATURALS
                diff = new ^ old
                while diff:
                    low = diff & -diff
                    floats[base + low.bit_length() - 1] = 1.0 if new & low else 0.0
                    diff ^= low
        memo.table = table

    def _write(self, out: Array, at: int, planes: list[int], rows: int) -> int:
        """Card bit sets (one deck) as ``rows`` rows of 0/1 from ``out[at]`` (zero-padded)."""
        c = self.num_cards
        packed = 0
        shift = 0
        for plane in planes:
            if plane:
                packed |= plane << shift
            shift += c
        size = rows * c
        raw = np.frombuffer(packed.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
        out[at:at + size] = np.unpackbits(raw, count=size, bitorder="little")
        return at + size

    def _write_multi(self, out: Array, at: int, planes: list[int], rows: int) -> int:
        """Hands (:mod:`rummykit.core.handset`) as ``rows`` rows of copy counts."""
        c = self.num_cards
        k = len(planes)
        block = out[at:at + rows * c].reshape(rows, c)
        raw = np.frombuffer(b"".join([p.to_bytes(32, "little") for p in planes]),
                            dtype=np.uint8).reshape(k, 32)
        bits = np.unpackbits(raw[:, :24], axis=1, bitorder="little").reshape(k, 3, 64)
        np.sum(bits[:, :, :NUM_NATURALS], axis=1, out=block[:k, :NUM_NATURALS])
        block[:k, NUM_NATURALS] = raw[:, 24]
        block[k:] = 0.0
        return at + rows * c


_BIT = tuple(1 << c for c in range(NUM_NATURALS))
#: the view's fields the one-deck build reads, in one call (by name: a field added to the
#: view changes nothing here)
_READ = itemgetter(*map(PlayerView._fields.index, (
    "seat", "hand", "known", "discarded", "discard", "taken", "table", "hand_sizes",
    "stock_size", "dealer", "to_move", "phase", "melds_this_turn", "placed_this_turn",
    "turn_count", "rebuilds", "ever_placed", "deal_index", "result")))


class _Rows:
    """One seat's last observation on the one-deck fast path: its card rows as bit sets,
    the table melds they came from, and the ``float32`` array that holds them (with
    memoryviews for single-entry and byte-range writes)."""

    __slots__ = ("flat", "floats", "raw", "rows", "table", "table_rows", "taken", "top")

    def __init__(self, size: int, rows: int, melds: int) -> None:
        self.rows = [0] * rows  # hand, known, discarded, discard_pile
        self.top = self.taken = -1  # the card of discard_top and of taken, or -1
        self.table: tuple[TableMeld, ...] = ()
        self.table_rows = [0] * melds
        #: the bytes of the observation (``struct.pack_into`` takes a bytearray faster
        #: than a view of a numpy array), seen as floats by ``flat`` and ``floats``
        self.raw = bytearray(size * 4)
        self.flat: Array = np.frombuffer(self.raw, dtype=np.float32)
        #: a memoryview of format ``f``: it takes floats (typeshed knows only bytes views)
        self.floats: Any = memoryview(self.raw).cast("f")

    def __getstate__(self) -> tuple[Any, ...]:
        """The rows and the bytes (a memoryview cannot be copied or pickled)."""
        return self.rows, self.top, self.taken, self.table, self.table_rows, self.raw

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.rows, self.top, self.taken, self.table, self.table_rows, raw = state
        self.raw = bytearray(raw)
        self.flat = np.frombuffer(self.raw, dtype=np.float32)
        self.floats = memoryview(self.raw).cast("f")


def _rotate(bits: int, seat: int, n: int) -> int:
    """A bit set of seats, renumbered from ``seat`` on."""
    return (bits >> seat | bits << (n - seat)) & ((1 << n) - 1)


def _one(card: int) -> int:
    """A one-card hand (``0`` for no card, -1)."""
    if card < 0:
        return 0
    return handset.ONE_JOKER if card == JOKER else 1 << card


def _bits_to_hand(bits: int) -> int:
    """A bit set of cards with the joker as bit 52, as a hand (joker count at its place)."""
    return (bits & _NATURALS) | (bits >> NUM_NATURALS & 1) << handset.JOKER_SHIFT
