"""A fixed discrete action space for one rule set and player count, with legal-action masks.

Every move of the engine maps to a short sequence of action ids; all moves but one kind map
to exactly one id. Blocks, in this order (``C`` card kinds: 52, or 53 when the pack has
jokers, the joker being card 52; ``T = pack size // 3`` table melds at most; ``K`` dig
depths: the pack size with ``discard_dig``, else 1; ``P`` placed cards: 52, or 104 with
jokers, ``52 + X`` being a joker standing for natural ``X``; ``G`` meld groups):

==========  =========  ===================================================================
block       size       id within the block
==========  =========  ===================================================================
draw        1          ``draw``
take        K          ``take k`` is ``k - 1`` (``take 1`` = ``take``; ``k > 1`` a dig)
discard     C          ``discard c`` is card ``c``
lay         P * T * 2  ``lay p on t [end]`` is ``(p * T + t - 1) * 2 + e``, ``e = 1`` for
                       ``high`` and 0 for ``low`` or no END (a joker's identity ``p`` and
                       the meld ``t`` fix its place; END only tells an ace's two ends apart)
swap        52 * T     ``swap c on t`` is ``c * T + t - 1`` (0 without ``joker_swap``)
group       G          one group of a ``meld``: its placed cards in meld order
==========  =========  ===================================================================

**Two-step decomposition.** A ``meld`` with several groups (going down in contract: two or
three melds at once, jokers' identities included) cannot have one fixed id: it is the
sequence of its groups' ids, chosen one per step in the order of the move (the engine's
canonical order: sets by rank, then runs by suit and low position). At each step the mask
holds the ids that extend the chosen prefix towards some legal move; the move is made when
the prefix is a whole legal move (in any one position all legal melds have the same number
of groups, so no legal move is a prefix of another). A one-group ``meld`` (every meld in
``basic`` and ``traditional``) is one id, like every other move. :class:`Decision` keeps the
prefix.

The group codebook lists, for the rule set's ace mode, minimum run length and jokers per
pack, every set (3 or 4 distinct suits) and run (suit, low and high position), each with
every placement of at most as many jokers as the pack holds (at least one natural card).

>>> import random
>>> from rummykit import BASIC, HandState, view
>>> space = ActionSpace(BASIC, 2)
>>> space.size, space.encode(parse_move("discard H8")), space.describe(1)
(2151, 35, 'take')
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(1))
>>> [space.describe(a) for a in space.legal_ids(view(state, state.to_move))]
['draw', 'take']
>>> str(space.decode(0, view(state, state.to_move)))
'draw'
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from rummykit.core.cards import JOKER, NUM_NATURALS, NUM_RANKS, format_card
from rummykit.core.melds import JOKER_AS, format_placed, make_meld, position_card
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take, parse_move
from rummykit.core.rules import Rules
from rummykit.core.views import PlayerView

__all__ = ["ActionSpace", "Decision", "fill_mask", "group_codebook", "parse_move"]

Group = tuple[int, ...]
Mask = npt.NDArray[np.int8]


def _run_groups(suit: int, low: int, high: int, jokers: int) -> Iterable[Group]:
    positions = range(low, high + 1)
    cards = [position_card(suit, p) for p in positions]
    for j in range(min(jokers, len(cards) - 1) + 1):
        for chosen in itertools.combinations(range(len(cards)), j):
            yield tuple(JOKER_AS + c if i in chosen else c for i, c in enumerate(cards))


def _set_groups(rank: int, jokers: int) -> Iterable[Group]:
    for size in (3, 4):
        for suits in itertools.combinations(range(4), size):
            cards = [s * NUM_RANKS + rank - 1 for s in suits]
            for j in range(min(jokers, size - 1) + 1):
                for chosen in itertools.combinations(range(size), j):
                    yield tuple(JOKER_AS + c if i in chosen else c
                                for i, c in enumerate(cards))


@cache
def group_codebook(ace_high: bool, run_min_length: int, jokers: int) -> tuple[Group, ...]:
    """Every meld group in canonical meld order: sets by rank, then runs by suit, low
    position, length, then joker placement.

    >>> len(group_codebook(False, 3, 0)), len(group_codebook(True, 3, 0))
    (329, 373)
    """
    groups: list[Group] = []
    for rank in range(1, NUM_RANKS + 1):
        groups += _set_groups(rank, jokers)
    top = 14 if ace_high else 13
    for suit in range(4):
        for low in range(1, top + 1):
            for high in range(low + run_min_length - 1, top + 1):
                if jokers == 0 and low == 1 and high == 14:
                    continue  # both aces of a suit: only with jokers or several decks
                groups += _run_groups(suit, low, high, jokers)
    return tuple(groups)


class ActionSpace:
    """The action ids of one rule set and player count (see the module docstring)."""

    def __init__(self, rules: Rules, players: int) -> None:
        rules.check_players(players)
        decks, jokers = rules.pack_spec(players)
        pack = decks * NUM_NATURALS + jokers
        self.rules = rules
        self.players = players
        self.num_cards = NUM_NATURALS + (1 if jokers else 0)
        self.max_melds = pack // 3
        self.max_take = pack if rules.discard_dig else 1
        self.num_placed = NUM_NATURALS * (2 if jokers else 1)
        if decks > 1 and not jokers:  # pragma: no cover - no preset or knob gives this
            raise ValueError("several decks without jokers are not supported")
        self.groups = group_codebook(rules.ace_high, rules.run_min_length, jokers)
        self._group_ids = {g: i for i, g in enumerate(self.groups)}
        self.take_base = 1
        self.discard_base = self.take_base + self.max_take
        self.lay_base = self.discard_base + self.num_cards
        self.swap_base = self.lay_base + self.num_placed * self.max_melds * 2
        swaps = NUM_NATURALS * self.max_melds if rules.joker_swap else 0
        self.group_base = self.swap_base + swaps
        self.size = self.group_base + len(self.groups)
        self._memo: dict[Move, tuple[int, ...]] = {}
        self._by_id: dict[int, tuple[Move, tuple[int, ...]]] = {}
        #: by the id() of a move in ``_by_id``: its one action id, or -1 for several
        self._first: dict[int, int] = {}
        self._first_of = self._first.__getitem__  # (the dict is cleared, never replaced)
        self._masks: dict[tuple[int, ...], Mask] = {}  # the draw steps' masks

    # -- moves -> ids ----------------------------------------------------------------
    def actions(self, move: Move) -> tuple[int, ...]:
        """The ids of ``move`` (a canonical move, as the engine generates them): one id,
        or one per group for a ``meld``."""
        # keyed by identity first: the engine shares its move objects between positions.
        # _by_id holds the move itself, so while an entry lives no other object can have
        # its id: an id found there is that very move
        entry = self._by_id.get(id(move))
        if entry is not None:
            return entry[1]
        found = self._memo.get(move)
        if found is None:
            found = self._actions(move)
            if len(self._memo) > 100_000:
                self._memo.clear()
            self._memo[move] = found
        if len(self._by_id) > 100_000:
            self._by_id.clear()
            self._first.clear()
        self._by_id[id(move)] = (move, found)
        self._first[id(move)] = found[0] if len(found) == 1 else -1
        return found

    def _actions(self, move: Move) -> tuple[int, ...]:
        kind = type(move)
        if kind is Draw:
            return (0,)
        if isinstance(move, Take):
            if move.card is not None or not 1 <= move.count <= self.max_take:
                raise ValueError(f"{move}: not a canonical take of this action space")
            return (self.take_base + move.count - 1,)
        if isinstance(move, Discard):
            return (self.discard_base + self._card(move.card),)
        if isinstance(move, LayOff):
            code = move.card
            slot = code if code < JOKER_AS else NUM_NATURALS + code - JOKER_AS
            if code == JOKER or slot >= self.num_placed:
                raise ValueError(f"{move}: a joker laid off needs its identity (JK=XY)")
            e = 1 if move.end == "high" else 0
            return (self.lay_base + (slot * self.max_melds + self._target(move.target)) * 2
                    + e,)
        if isinstance(move, Swap):
            if not self.rules.joker_swap:
                raise ValueError(f"{move}: no joker swaps in this rule set")
            return (self.swap_base + self._card(move.card) * self.max_melds
                    + self._target(move.target),)
        if isinstance(move, Meld):
            return tuple(self.group_id(g) for g in move.groups)
        raise ValueError(f"not a move: {move!r}")

    def encode(self, move: Move | str) -> int:
        """The one id of a move; a ``meld`` of several groups raises ``ValueError`` (it
        takes one step per group: see :meth:`actions`)."""
        ids = self.actions(parse_move(move) if isinstance(move, str) else move)
        if len(ids) != 1:
            raise ValueError(f"{move}: a meld of {len(ids)} groups takes {len(ids)} actions")
        return ids[0]

    def group_id(self, group: Sequence[int]) -> int:
        """The id of one meld group (placed codes, in any order)."""
        key = tuple(group)
        found = self._group_ids.get(key)
        if found is None:
            meld = make_meld(key, self.rules)
            found = None if isinstance(meld, str) else self._group_ids.get(meld.cards)
            if found is None:
                text = " ".join(format_placed(c) for c in key)
                raise ValueError(f"{text}: not a meld group of this action space")
        return self.group_base + found

    def _card(self, card: int) -> int:
        if not 0 <= card < self.num_cards:
            raise ValueError(f"card {card}: not a card of this action space")
        return card

    def _target(self, target: int) -> int:
        if not 1 <= target <= self.max_melds:
            raise ValueError(f"meld number {target}: expected 1..{self.max_melds}")
        return target - 1

    # -- ids -> text -------------------------------------------------------------------
    def describe(self, action: int) -> str:
        """The id in words, in move notation where it is a whole move (``meld-group ...``
        for one group of a meld; a lay-off shows ``high`` or ``low/-`` for its END bit)."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action}: expected 0..{self.size - 1}")
        if action == 0:
            return "draw"
        if action < self.discard_base:
            count = action - self.take_base + 1
            return "take" if count == 1 else f"take {count}"
        if action < self.lay_base:
            return f"discard {format_card(action - self.discard_base)}"
        if action < self.swap_base:
            rest, e = divmod(action - self.lay_base, 2)
            slot, t = divmod(rest, self.max_melds)
            code = slot if slot < NUM_NATURALS else JOKER_AS + slot - NUM_NATURALS
            return f"lay {format_placed(code)} on {t + 1}" + (" high" if e else "")
        if action < self.group_base:
            card, t = divmod(action - self.swap_base, self.max_melds)
            return f"swap {format_card(card)} on {t + 1}"
        group = self.groups[action - self.group_base]
        return "meld-group " + " ".join(format_placed(c) for c in group)

    # -- masks and decoding ------------------------------------------------------------
    def decision(self, seen: PlayerView) -> Decision:
        """The choice of the seat to move in ``seen``, step by step."""
        return Decision(self, seen.legal)

    def legal_ids(self, seen: PlayerView, prefix: Sequence[int] = ()) -> list[int]:
        """The ids allowed after ``prefix`` (the ids already chosen for a ``meld``), sorted."""
        decision = self.decision(seen)
        for action in prefix:
            decision.choose(action)
        return decision.legal_ids()

    def mask(self, seen: PlayerView, prefix: Sequence[int] = ()) -> Mask:
        """The legal-action mask (``int8``, 1 = legal) after ``prefix``."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[self.legal_ids(seen, prefix)] = 1
        return mask

    def decode(self, action: int, seen: PlayerView, prefix: Sequence[int] = ()) -> Move | None:
        """The move that ``prefix`` + ``action`` makes, or ``None`` when a ``meld`` needs
        more groups; raises ``ValueError`` when the id is not legal there."""
        decision = self.decision(seen)
        for chosen in prefix:
            decision.choose(chosen)
        return decision.choose(action)


class Decision:
    """One seat's choice among legal moves, made one action id at a time.

    ``legal`` is the seat's legal moves: a view's ``legal`` (:meth:`ActionSpace.decision`)
    or, where the full state is at hand (a search), ``state.legal_moves()``.

    >>> from rummykit import CONTRACT, HandState, parse_cards, view
    >>> hands = [parse_cards("C8 D8 H8 CK DK JK C5 D6 H9 S2"),
    ...          parse_cards("C3 C4 C5 D9 D9 H2 S7 S8 ST SQ"),
    ...          parse_cards("HA HA SK SK D2 D3 D4 CJ CQ C7")]
    >>> deal = HandState.from_deal(CONTRACT, dealer=2, hands=hands, upcard=parse_cards("S3")[0],
    ...                            stock_top_first=parse_cards("H4 H5 H6 H7"))
    >>> _ = deal.play("draw")
    >>> d = ActionSpace(CONTRACT, 3).decision(view(deal, 0))
    >>> groups = [a for a in d.legal_ids() if a >= d.space.group_base]
    >>> [d.space.describe(a) for a in groups]
    ['meld-group C8 D8 H8']
    >>> d.choose(groups[0]) is None        # one group chosen: more to come
    True
    >>> [d.space.describe(a) for a in d.legal_ids()]
    ['meld-group CK DK JK=HK', 'meld-group CK DK JK=SK']
    >>> str(d.choose(d.legal_ids()[1]))
    'meld C8 D8 H8 / CK DK JK=SK'
    """

    __slots__ = ("_firsts", "_moves", "_options", "prefix", "space")

    def __init__(self, space: ActionSpace, legal: Iterable[Move]) -> None:
        self.space = space
        self.prefix: tuple[int, ...] = ()
        moves = legal if type(legal) is tuple or type(legal) is list else tuple(legal)
        #: the legal moves and, once needed, their ids, in the engine's order
        self._moves: Sequence[Move] = moves
        self._options: list[tuple[int, ...]] | None = None
        # every move's one id, by the moves' identity (a C-level map: this runs every step)
        try:
            firsts = list(map(space._first_of, map(id, moves)))
        except KeyError:  # a move not met yet
            firsts = [space.actions(move)[0] if len(space.actions(move)) == 1 else -1
                      for move in moves]
        #: the id of every move while every move is one id (then no two legal moves share
        #: an id, and the id picks the move), else None
        self._firsts: list[int] | None = None if -1 in firsts else firsts

    def _ids(self) -> list[tuple[int, ...]]:
        if self._options is None:
            actions = self.space.actions
            self._options = [actions(move) for move in self._moves]
        return self._options

    def _next_ids(self) -> list[int]:
        firsts = self._firsts
        if firsts is not None:
            return firsts
        at = len(self.prefix)
        return [ids[at] for ids in self._ids()]

    def legal_ids(self) -> list[int]:
        """The ids that extend the current prefix, sorted."""
        return sorted(set(self._next_ids()))

    def mask(self) -> Mask:
        """The legal-action mask (``int8``) of the current step (a new array: callers may
        edit it)."""
        ids = self._firsts
        if ids is None:
            ids = self._next_ids()
        space = self.space
        if not ids or ids[-1] < space.discard_base:  # a draw step (draw, take, digs): few masks
            key = tuple(ids)
            found = space._masks.get(key)
            if found is None:
                found = space._masks[key] = fill_mask(space.size, ids)
            return found.copy()
        raw = bytearray(space.size)
        for action in ids:
            raw[action] = 1
        return np.frombuffer(raw, _INT8)

    def choose(self, action: int) -> Move | None:
        """Take one step: the move once complete, else ``None``; ``ValueError`` if illegal."""
        firsts = self._firsts
        if firsts is not None:
            try:
                move = self._moves[firsts.index(action)]
            except ValueError:
                raise ValueError(f"action {action} ({self._describe(action)}) is not legal "
                                 "here") from None
            self.prefix += (action,)
            return move
        at = len(self.prefix)
        kept = [(ids, move) for ids, move in zip(self._ids(), self._moves, strict=True)
                if ids[at] == action]
        if not kept:
            raise ValueError(f"action {action} ({self._describe(action)}) is not legal here")
        self.prefix += (action,)
        for ids, move in kept:
            if len(ids) == at + 1:
                return move
        self._options = [ids for ids, _ in kept]
        self._moves = [move for _, move in kept]
        return None

    def _describe(self, action: int) -> str:
        try:
            return self.space.describe(action)
        except ValueError:
            return "out of range"


_INT8 = np.dtype(np.int8)


def fill_mask(size: int, ids: list[int]) -> Mask:
    """A new ``int8`` mask of ``size`` entries, 1 at ``ids``."""
    raw = bytearray(size)
    for action in ids:
        raw[action] = 1
    return np.frombuffer(raw, _INT8)

