"""Gin's research encoding (read by :mod:`rummykit.rl`; standard library only): the action
ids of RULES.md §6.14.5, the step-by-step choice of a move, and the observation's rows.

**Actions** (241 ids, OpenSpiel ``gin_rummy``'s layout with our card codes, suits C, D, H,
S, where OpenSpiel's are S, C, D, H):

=========  =================================================================================
id         meaning
=========  =================================================================================
0-51       ``discard C``; in the knock, the card ``C`` discarded face down; in the show,
           ``lay C on N`` (N the lowest knocker meld C fits)
52         ``take`` (the offer, the draw step, the wall)
53         ``draw``
54         ``pass`` (offer, wall); in a knock, the end of its melds; in the show, the end of
           the lay-offs, then ``done``
55         knock (then the discard, the melds one by one, and 54); with big gin allowed and
           possible, 55 then 54 is big gin with the implied arrangement
56 + m     meld ``m`` (3-5 cards): a set of rank r missing suit s is ``5r + s``, a 4-set
           ``5r + 4``; a run of suit s from rank r is ``65 + 11s + r`` (3 cards), ``109 +
           10s + r`` (4), ``149 + 9s + r`` (5); r = 0 for an ace
=========  =================================================================================

A knock is ``[55, C, m1, m2, ..., 54]``: the melds offered after ``C`` are those ``m`` of the
cards left whose removal leaves minimum deadwood within the knock limit (OpenSpiel's exact
rule, §6.14.2), and 54 once the cards left are worth at most the limit; the move made is
``knock C: m1 / m2 ...`` (``gin`` at 0 deadwood). A run of 6+ cards is declared as pieces.
In the show, while lay-offs are open (a plain knock, no meld yet), 54 closes them; then
each meld is its id and 54 is ``done``. So ``done`` there is ``[54, 54]``, as in §6.14.5.

>>> from rummykit.core.cards import mask_of, parse_cards
>>> meld_id(mask_of(parse_cards("HK SK DK"))), meld_id(mask_of(parse_cards("C5 C6 C7")))
(60, 69)
>>> describe(56 + 69), describe(55), describe(54)
('meld C5 C6 C7', 'knock', 'pass / end / done')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, ClassVar

from rummykit.core.cards import cards_of, format_card, format_cards
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take
from rummykit.variants.base import OwnEncoding
from rummykit.variants.gin.deadwood import mask_value, min_deadwood
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import BigGin, Done, Gin, GinMove, Knock, Pass
from rummykit.variants.gin.phases import (
    DISCARD_STEP,
    DRAW_STEP,
    OFFER,
    OVER,
    PLAIN_KNOCK,
    SHOW,
    WALL,
    WALL_KNOCK,
)
from rummykit.variants.gin.rules import GinRules
from rummykit.variants.gin.view import GinView, resample

__all__ = ["ENCODING", "Choice", "GinEncoding", "describe", "meld_id"]

#: how rummykit.rl hosts the family: it encodes itself (see rummykit.variants.base.Encoding)
ENV_KIND = "own"
TAKE, DRAW, END, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
NUM_MELDS = 185
NUM_ACTIONS = MELD_BASE + NUM_MELDS


def _meld_table() -> tuple[int, ...]:
    melds = [0] * NUM_MELDS
    for rank in range(13):
        column = sum(1 << (13 * s + rank) for s in range(4))
        for suit in range(4):
            melds[5 * rank + suit] = column & ~(1 << (13 * suit + rank))
        melds[5 * rank + 4] = column
    for length, base, starts in ((3, 65, 11), (4, 109, 10), (5, 149, 9)):
        for suit in range(4):
            for rank in range(starts):
                melds[base + starts * suit + rank] = ((1 << length) - 1) << (13 * suit + rank)
    return tuple(melds)


#: the cards (a bit set) of each meld id
MELDS = _meld_table()
_MELD_IDS = {mask: i for i, mask in enumerate(MELDS)}
_ALL = (1 << 52) - 1


def meld_id(mask: int) -> int:
    """The meld id (0..184) of a meld of 3-5 cards given as a bit set; -1 for any other."""
    return _MELD_IDS.get(mask, -1)


def describe(action: int) -> str:
    """An action id in words."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action}: expected 0..{NUM_ACTIONS - 1}")
    if action < TAKE:
        return f"card {format_card(action)}"
    if action >= MELD_BASE:
        return "meld " + format_cards(cards_of(MELDS[action - MELD_BASE]))
    return ("take", "draw", "pass / end / done", "knock")[action - TAKE]


def _first_id(move: GinMove) -> int:
    """The first action id of a legal move (its only one but for knocks and ``done``)."""
    if isinstance(move, (Discard, LayOff)):
        return move.card
    if isinstance(move, Take):
        return TAKE
    if isinstance(move, Draw):
        return DRAW
    if isinstance(move, (Pass, Done)):
        return END
    if isinstance(move, Meld):
        found = meld_id(sum(1 << c for c in move.groups[0]))
        return MELD_BASE + found if found >= 0 else -1
    return KNOCK  # Knock, Gin, BigGin


#: the id of each move of the draw step and the offer
_SIMPLE: dict[type, int] = {Take: TAKE, Draw: DRAW, Pass: END}


class Choice:
    """One seat's choice of a move, one action id at a time (the module docstring's
    steps). ``legal_ids()`` lists the ids allowed now; ``choose(id)`` returns the move once
    it is complete, else None; ``checked`` is True when the move was assembled here (a
    knock's arrangement), so that the hand should check it before playing it."""

    __slots__ = ("_by_id", "_discard", "_hand", "_ids", "_limit", "_moves", "_rest",
                 "checked", "chosen", "layoffs_open", "step")

    def __init__(self, seen: GinView) -> None:
        moves = seen.legal
        self._moves = moves
        self._hand = seen.hand
        self._limit = seen.knock_limit
        #: where the choice stands: "" (a move's first id), "knock" (55 chosen), "arrange"
        #: (the knock's discard chosen), "show" (the lay-offs closed)
        self.step = ""
        self._discard = -1
        self._rest = 0
        self.chosen: list[int] = []  # the knock's melds so far, bit sets
        self.checked = False
        #: in the show before any meld after a plain knock, 54 closes the lay-offs
        self.layoffs_open = seen.phase == SHOW and seen.kind == PLAIN_KNOCK and \
            not seen.melded
        by_id: dict[int, GinMove | None]
        if seen.phase == DISCARD_STEP:  # the common steps: ids straight from the moves
            by_id = {KNOCK if type(m) is not Discard else m.card: m
                     for m in reversed(moves)}
        elif seen.phase == DRAW_STEP or seen.phase == OFFER:
            by_id = {_SIMPLE[type(m)]: m for m in moves}
        else:
            by_id = {END: None} if self.layoffs_open else {}
            for move in moves:
                action = _first_id(move)
                if action < 0 or action in by_id:
                    continue  # a meld of 6+ cards (made of pieces), a second target
                if self.layoffs_open and type(move) is not LayOff:
                    continue  # melds and done come once 54 has closed the lay-offs
                by_id[action] = move
        self._by_id = by_id
        self._ids: list[int] | None = None

    @property
    def discard(self) -> int:
        """The knock's discard once chosen, else -1."""
        return self._discard

    def legal_ids(self) -> list[int]:
        """The ids allowed now, ascending."""
        step = self.step
        if not step:
            ids = self._ids
            if ids is None:
                ids = self._ids = sorted(self._by_id)
            return ids
        moves = self._moves
        if step == "knock":
            cards = {m.card for m in moves if type(m) is Knock or type(m) is Gin}
            if any(type(m) is BigGin for m in moves):
                cards.add(END)
            return sorted(cards)
        if step == "show":
            melds = {a for a in map(_first_id, moves) if a >= MELD_BASE}
            melds.add(END)
            return sorted(melds)
        rest = self._rest  # arranging the knock's melds
        limit = self._limit
        found = [MELD_BASE + i for i, meld in enumerate(MELDS)
                 if meld & rest == meld and min_deadwood(rest ^ meld) <= limit]
        if mask_value(rest) <= limit:
            found.append(END)
        return sorted(found)

    def choose(self, action: int) -> GinMove | None:
        """One step; ``ValueError`` naming the id when it is not legal now."""
        step = self.step
        if not step:
            try:
                move = self._by_id[action]
            except KeyError:
                raise ValueError(f"action {action} ({_describe(action)}) is not legal "
                                 "here") from None
            if action == KNOCK:
                self.step = "knock"
                return None
            if move is None:  # 54 with the lay-offs open: a meld or done follows
                self.step = "show"
                return None
            return move
        if action not in self.legal_ids():
            raise ValueError(f"action {action} ({_describe(action)}) is not legal here")
        if step == "knock":
            if action == END:
                return next(m for m in self._moves if type(m) is BigGin)
            self._discard = action
            self._rest = self._hand & ~(1 << action)
            self.step = "arrange"
            return None
        if step == "show":
            if action == END:
                return next(m for m in self._moves if type(m) is Done)
            return next(m for m in self._moves if _first_id(m) == action)
        if action == END:
            groups = tuple(tuple(cards_of(m)) for m in self.chosen)
            self.checked = True
            if mask_value(self._rest) == 0:
                return Gin(self._discard, groups)
            return Knock(self._discard, groups)
        meld = MELDS[action - MELD_BASE]
        self.chosen.append(meld)
        self._rest ^= meld
        return None

    @property
    def pending(self) -> tuple[int, int, int]:
        """Where the choice stands, for the observation: knock chosen, arranging its melds,
        lay-offs closed (0/1 each)."""
        step = self.step
        return (int(step in ("knock", "arrange")), int(step == "arrange"),
                int(step == "show"))


def _describe(action: int) -> str:
    try:
        return describe(action)
    except ValueError:
        return "out of range"


# -- observation rows ------------------------------------------------------------------
#: the card planes of the observation (52 columns each, card code order), seat-relative
#: rows: row 0 the observing seat, row 1 the opponent
PLANES: tuple[tuple[str, int, str], ...] = (
    ("hand", 1, "the seat's cards"),
    ("known", 1, "cards the opponent took from the discard pile and holds"),
    ("discarded", 2, "cards each seat discarded face up this hand"),
    ("discard_top", 1, "the face-up top of the discard pile"),
    ("discard_pile", 1, "the face-up discard pile"),
    ("taken", 1, "the card taken from the discard pile this turn"),
    ("upcard", 1, "the first upcard (it sets Oklahoma's knock limit and doubling)"),
    ("face_down", 1, "the knocker's face-down discard, where this seat may see it"),
    ("table", 3, "the knocker's melds as they now stand (lay-offs included), in order"),
    ("laid", 1, "the cards the defender laid off"),
    ("knocker_deadwood", 1, "the knocker's deadwood cards (public at the show)"),
    ("defender_melds", 1, "the cards of the defender's declared melds"),
    ("revealed", 1, "the opponent's hand, once the hand is over"),
    ("pending_discard", 1, "a knock being chosen: its discard"),
    ("pending_melds", 1, "a knock being chosen: its melds so far"),
)
PHASES = (OFFER, DRAW_STEP, DISCARD_STEP, WALL, WALL_KNOCK, SHOW, OVER)
#: the one-hot parts are floats, which ``struct`` packs quicker than ints
_PHASE_HOT = {p: tuple(float(p == q) for q in PHASES) for p in PHASES}
_KINDS = 4
#: the scalar parts: name, width, meaning
SCALARS: tuple[tuple[str, int, str], ...] = (
    ("hand_sizes", 2, "cards held by each seat"),
    ("stock_size", 1, "cards in the stock"),
    ("knock_limit", 1, "the hand's knock limit K"),
    ("multiplier", 1, "2 when Oklahoma's spade upcard doubles the hand, else 1"),
    ("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
    ("offer", 3, "passes made in the first-upcard offer (0-2), stock only, echo turn"),
    ("counts", 2, "draw-step takes, turns played this hand"),
    ("knocker", 2, "one-hot knocker (all 0 before a knock)"),
    ("kind", _KINDS, "one-hot: no knock, knock, gin, big gin"),
    ("melded", 1, "1 once the defender melded (lay-offs over)"),
    ("pending", 3, "a knock chosen, its discard chosen, the show's lay-offs closed"),
    ("scores", 2, "match totals of the hands finished so far"),
    ("dealer", 2, "one-hot dealer"),
    ("to_move", 2, "one-hot seat to move (all 0 once the hand is over)"),
    ("deal", 1, "hands already played in the match"),
)


def _hand_points(rules: GinRules) -> int:
    """The most points one hand can give its winner (a defender's 10 cards are worth 100
    at most)."""
    bonus = max(rules.gin_bonus, rules.big_gin_bonus or 0)
    points = max(100 + bonus, 10 + rules.undercut_bonus) * (2 if rules.spade_double else 1)
    return points + (rules.box_bonus if rules.immediate_boxes else 0)


class GinEncoding:
    """What :mod:`rummykit.rl` reads of gin: actions, choices, observation rows, bounds."""

    kind = ENV_KIND
    num_actions = NUM_ACTIONS
    planes = PLANES
    scalars = SCALARS
    #: the Gymnasium env's default opponent (a bot name the family plays)
    default_opponent = "greedy"
    #: other libraries' environments of the same game (for benchmarks)
    anchors: ClassVar[dict[str, str]] = {
        "pettingzoo": "gin_rummy_v4", "openspiel": "gin_rummy", "rlcard": "gin-rummy"}

    def describe(self, action: int) -> str:
        """An action id in words."""
        return describe(action)

    def choice(self, seen: GinView) -> Choice:
        """The choice of the seat to move in ``seen``."""
        return Choice(seen)

    def private(self, choice: Choice, action: int) -> bool:
        """True when ``action``, taken now in ``choice``, is hidden from the other seat
        (the knock's face-down discard)."""
        return choice.step == "knock" and action != END

    def resample(self, seen: GinView, rng: random.Random) -> GinHand:
        """A hand consistent with ``seen``, the unseen cards dealt anew (for ISMCTS)."""
        return resample(seen, rng)

    def actions(self, move: GinMove, seen: GinView) -> list[int]:
        """The ids that make ``move`` (a legal move of ``seen``'s seat, short forms
        resolved) step by step."""
        if isinstance(move, (Knock, Gin)):
            pieces = [piece for group in move.groups or () for piece in _pieces(group)]
            return [KNOCK, move.card, *[MELD_BASE + _piece_id(p) for p in pieces], END]
        if isinstance(move, BigGin):
            return [KNOCK, END]
        first = _first_id(move)
        if first < 0:
            raise ValueError(f"{move}: a meld of 6+ cards has no id (meld it as pieces)")
        layoffs_open = seen.phase == SHOW and seen.kind == PLAIN_KNOCK and not seen.melded
        if layoffs_open and type(move) is not LayOff:
            return [END, first]
        return [first]

    def bounds(self, rules: GinRules, whole_match: bool) -> dict[str, float | list[float]]:
        """The upper bound of every part with a bound other than 1 (``inf``: none; a true
        bound of 0 is given as 1, Gymnasium warning of spaces whose low and high are
        equal)."""
        inf = float("inf")
        turns = float(rules.max_turns_per_hand) if rules.max_turns_per_hand else inf
        takes = float(rules.upcard_take_limit) if rules.upcard_take_limit else turns
        points = _hand_points(rules)
        single = rules.game_end == "single_hand"
        scores = float(points) if single or not whole_match else (
            inf if rules.hollywood else float(rules.target_score - 1 + points))
        return {"hand_sizes": 11.0, "stock_size": 31.0,
                "knock_limit": float(max(1, rules.knock_limit)),
                "multiplier": 2.0 if rules.spade_double else 1.0,
                "offer": [2.0, 1.0, 1.0], "counts": [takes, turns],
                "scores": scores, "deal": 1.0 if single or not whole_match else inf,
                "table": 1.0}

    #: the last discard pile met by :meth:`rows` and its bit set (compared, not assumed)
    _last_pile: tuple[tuple[int, ...], int] = ((), 0)

    def _pile_bits(self, pile: tuple[int, ...]) -> int:
        """The bit set of the discard pile's cards, from the last pile when one card was
        discarded or taken since (a scan of the pile instead of a sum of bits)."""
        last, bits = self._last_pile
        grown = len(pile) - len(last)
        if grown == 0 and pile == last:
            return bits
        if grown == 1 and pile[:-1] == last:
            bits |= _ONE[pile[-1]]
        elif grown == -1 and last[:-1] == pile:
            bits ^= _ONE[last[-1]]
        else:
            bits = sum(map(_ONE.__getitem__, pile))
        self._last_pile = (pile, bits)
        return bits

    def rows(self, seen: GinView, choice: Choice | None, totals: Sequence[int]
             ) -> tuple[list[int], tuple[float, ...]]:
        """The card planes (bit sets, in :data:`PLANES` order, row by row) and the
        scalars of ``seen`` (seat-relative), with a knock being chosen in ``choice``."""
        (me, hand, known, discarded, pile, taken, upcard, face_down, sizes, stock_size,
         limit, multiplier, phase, offer_step, stock_only, echo, takes, turns, knocker, kind,
         melded, dealer, to_move, deal_index, result) = _READ(seen)
        other = 1 - me
        one = _ONE
        show: tuple[int, ...]
        if knocker is None and result is None:  # no show yet: its planes are empty
            show = _NO_SHOW
        else:
            table = seen.table
            defender = 0
            for group in seen.defender_groups:
                defender |= sum(map(one.__getitem__, group))
            revealed = seen.revealed
            show = (*table, *_NO_TABLE[len(table):], seen.laid, seen.knocker_deadwood,
                    defender, revealed[other] if revealed else 0)
        pending: tuple[float, ...]
        if choice is not None and choice.step:
            pending = choice.pending
            pending_melds = 0
            for meld in choice.chosen:
                pending_melds |= meld
            pendings = (one[choice.discard], pending_melds)
        else:
            pending, pendings = _NO_PENDING, _NO_PENDINGS
        planes = [hand, known[other], discarded[me], discarded[other],
                  one[pile[-1]] if pile else 0, self._pile_bits(pile), one[taken],
                  one[upcard], one[face_down], *show, *pendings]
        return planes, (
            sizes[me], sizes[other], stock_size, limit, multiplier, *_PHASE_HOT[phase],
            offer_step, stock_only, echo, takes, turns,
            *(_NOBODY if knocker is None else _SEAT_HOT[knocker ^ me]), *_KIND_HOT[kind],
            melded, *pending, totals[me], totals[other], *_SEAT_HOT[dealer ^ me],
            *(_NOBODY if result is not None else _SEAT_HOT[to_move ^ me]), deal_index)


#: the view's fields :meth:`GinEncoding.rows` reads every step, in one call (by name, so
#: that a field added to the view changes nothing here)
_READ = itemgetter(*map(GinView._fields.index, (
    "seat", "hand", "known", "discarded", "discard", "taken", "upcard", "face_down",
    "hand_sizes", "stock_size", "knock_limit", "multiplier", "phase", "offer_step",
    "stock_only", "echo", "take_count", "turn_count", "knocker", "kind", "melded", "dealer",
    "to_move", "deal_index", "result")))
#: the show's planes before a knock (table rows, laid, knocker's deadwood, defender's
#: melds, revealed) and the table's padding to its 3 rows
_NO_SHOW = (0,) * 7
_NO_TABLE = (0, 0, 0)
_NO_PENDINGS = (0, 0)


#: one card's bit set by card code, and 0 at index -1 (no card)
_ONE = (*(1 << c for c in range(52)), 0)
_NO_PENDING = (0.0, 0.0, 0.0)
_NOBODY = (0.0, 0.0)
#: one-hot of a seat relative to the observer (0: itself)
_SEAT_HOT = ((1.0, 0.0), (0.0, 1.0))
_KIND_HOT = tuple(tuple(float(k == j) for j in range(_KINDS)) for k in range(_KINDS))


def _pieces(group: Sequence[int]) -> list[tuple[int, ...]]:
    """A group as melds of 3-5 cards (a run of 6+ split as §6.14.5 splits it)."""
    cards = sorted(group)
    n = len(cards)
    if n <= 5:
        return [tuple(cards)]
    parts = -(-n // 5)
    sizes = [n // parts + (1 if i < n % parts else 0) for i in range(parts)]
    out = []
    at = 0
    for size in sizes:
        out.append(tuple(cards[at:at + size]))
        at += size
    return out


def _piece_id(piece: Sequence[int]) -> int:
    found = meld_id(sum(1 << c for c in piece))
    if found < 0:
        raise ValueError(f"{format_cards(piece)}: not a meld of 3-5 cards")
    return found


def move_of(seen: GinView, ids: Sequence[int]) -> Any:
    """The move a sequence of ids makes from ``seen`` (None if it is not complete)."""
    choice = Choice(seen)
    move = None
    for action in ids:
        move = choice.choose(action)
    return move


#: the family's encoding, found by rummykit.rl as ``variants.<family>.encoding.ENCODING``
ENCODING: OwnEncoding = GinEncoding()
