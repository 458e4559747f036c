"""Contract Rummy meld arithmetic (RULES.md §1.3-§1.4, §4): can a hand go down, and how.

A hand is a multiset of cards (naturals ``0..51``, each at most three times, and any number
of jokers, card 52). A *way to go down* is a tuple of groups of placed codes (a joker standing
for natural ``X`` is ``JOKER_AS + X``), each group in canonical meld order as
:func:`~rummykit.core.melds.make_meld` gives it: first the sets, ordered by rank then by their
cards, then the runs, ordered by suit, low position, length, then cards.

>>> from rummykit.core.cards import parse_cards
>>> from rummykit.core.melds import format_placed
>>> from rummykit.variants import CONTRACT
>>> hand = parse_cards("D8 S8 JK H5 H6 H7 C2")
>>> can_make(hand, 1, 1, CONTRACT)
True
>>> for way in ways_to_go_down(hand, 1, 1, CONTRACT):
...     print(" / ".join(" ".join(format_placed(c) for c in g) for g in way))
D8 JK=H8 S8 / H5 H6 H7
JK=C8 D8 S8 / H5 H6 H7
>>> least_penalty(hand, 1, 1, CONTRACT)[0]
2

How it works. The hand is held as three bit sets ``l1, l2, l3`` (the cards held at least
once, twice, three times), so taking a group of distinct cards out is three mask operations.
Ways are built sets first (ascending rank), then runs (ascending suit), each candidate group in
ascending canonical order; a candidate is followed only if the rest of the hand can still
finish the contract. That test (:meth:`_Search.feasible`) needs only minimal melds (a set of 3,
a run of ``run_min_length``: every meld holds one with a natural card), and settles the runs
with a table, per suit, of the fewest jokers a run needs. :meth:`_Search.best` is the same
recursion maximizing the value put down, with a per-suit table of the best run for each joker
budget; :func:`least_penalty` follows the generator's order and keeps only candidates that can
still reach the optimum, so it returns the first optimal way in that order.

Ways placing a given natural card (a dug card, §4.4): :meth:`_Search.containing` tries each
smallest meld holding the card (a set of three of its rank, a run of the minimum length in its
suit over its position, every other card a held natural or a joker, since a joker standing in
for a held natural can free that natural for another meld), and asks :meth:`_Search.feasible`
whether the rest makes the contract less that meld (its runs kept out of the card's suit when
runs must be of distinct suits). Any meld holding the card shrinks to one of those, the cards
dropped only helping the rest, so the test is exact. :func:`first_way_containing` is the
generator's walk with that test as its pruning until the card is placed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rummykit.core.cards import ALL_NATURALS, JOKER, NUM_NATURALS, NUM_RANKS, Card, card_points
from rummykit.core.melds import JOKER_AS, RUN, SET, make_meld
from rummykit.core.rules import Rules
from rummykit.variants.contract.meld_search import _Search
from rummykit.variants.contract.meld_tables import (
    _NEG,
    Group,
    Way,
    _kit,
    _layers,
)

# --- public API ------------------------------------------------------------------------------

def _values(rules: Rules) -> tuple[tuple[int, ...], int]:
    """Penalty value of each rank index and of a joker (RULES.md §1.11, §4.9)."""
    return (tuple(card_points(r, rules.ace_value) for r in range(NUM_RANKS)),
            rules.joker_points)


def _check_contract(sets: int, runs: int) -> None:
    if sets < 0 or runs < 0:
        raise ValueError(f"a contract needs non-negative counts, got {sets} sets, {runs} runs")


def can_make(hand: Iterable[Card], sets: int, runs: int, rules: Rules) -> bool:
    """Whether ``hand`` holds disjoint melds making exactly ``sets`` sets and ``runs`` runs.

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.variants import CONTRACT
    >>> can_make(parse_cards("H4 H5 H6 H9 HT HJ"), 0, 2, CONTRACT)  # same suit
    False
    >>> can_make(parse_cards("H4 H5 H6 S9 ST JK"), 0, 2, CONTRACT)
    True
    """
    _check_contract(sets, runs)
    l1, l2, l3, jokers = _layers(hand)
    return _Search(_kit(rules)).feasible(l1, l2, l3, jokers, sets, runs, 0, 0)


def can_make_held(held: int, sets: int, runs: int, rules: Rules) -> bool:
    """:func:`can_make` for a hand given as a :mod:`rummykit.core.handset` multiset."""
    _check_contract(sets, runs)
    return _Search(_kit(rules)).feasible(held & ALL_NATURALS, held >> 64 & ALL_NATURALS,
                                         held >> 128 & ALL_NATURALS, held >> 192, sets, runs,
                                         0, 0)


def ways_to_go_down(hand: Iterable[Card], sets: int, runs: int, rules: Rules
                    ) -> Iterator[Way]:
    """Every distinct way to go down with the contract, lazily, in canonical order.

    A way is a tuple of groups (sets by rank, then runs by suit, low position and length),
    each group exactly as ``make_meld(group, rules).cards``. Ways come in ascending order
    of their groups (a set by rank then cards, a run by suit, low position, length, cards).

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.core.melds import format_placed
    >>> from rummykit.variants import CONTRACT
    >>> [" ".join(map(format_placed, g)) for (g,) in
    ...  ways_to_go_down(parse_cards("H5 JK H7 H8"), 0, 1, CONTRACT)][:3]
    ['H5 JK=H6 H7', 'H5 JK=H6 H7 H8', 'JK=H6 H7 H8']
    """
    _check_contract(sets, runs)
    l1, l2, l3, jokers = _layers(hand)
    search = _Search(_kit(rules))
    if not search.feasible(l1, l2, l3, jokers, sets, runs, 0, 0):
        return iter(())
    return search.walk(l1, l2, l3, jokers, sets, runs, (0, 0), None, [], None)


def _target(card: Card) -> int:
    if not (isinstance(card, int) and 0 <= card < NUM_NATURALS):
        raise ValueError(f"not a natural card: {card!r}")
    return card


def can_make_containing(hand: Iterable[Card], card: Card, sets: int, runs: int, rules: Rules
                        ) -> bool:
    """Whether some way to go down with the contract places the natural ``card`` (as itself,
    in one of the melds); ``False`` when ``hand`` does not hold ``card``.

    Exactly ``any(card in g for w in ways_to_go_down(hand, sets, runs, rules) for g in w)``,
    without enumerating the ways: each smallest meld holding ``card`` (set of three, run of
    ``run_min_length``, with each choice of held natural or joker for its other cards) is
    tried against the feasibility search for the rest of the contract.

    >>> from rummykit.core.cards import parse_card, parse_cards
    >>> from rummykit.variants import CONTRACT
    >>> hand = parse_cards("C8 D8 H8 S9 ST SJ H2")
    >>> can_make_containing(hand, parse_card("SJ"), 1, 1, CONTRACT)
    True
    >>> can_make_containing(hand, parse_card("H2"), 1, 1, CONTRACT)
    False
    >>> can_make_containing(parse_cards("C8 D8 JK JK JK JK"), parse_card("C8"), 2, 0,
    ...                     CONTRACT)  # C8 JK=D8 JK=H8 / D8 JK=H8 JK=S8
    True
    """
    _check_contract(sets, runs)
    target = _target(card)
    l1, l2, l3, jokers = _layers(hand)
    return _Search(_kit(rules)).containing(l1, l2, l3, jokers, sets, runs, 0, 0, target)


def first_way_containing(hand: Iterable[Card], card: Card, sets: int, runs: int,
                         rules: Rules) -> Way | None:
    """The first way of :func:`ways_to_go_down` (same canonical form, same order) that places
    the natural ``card`` in one of its melds, or ``None`` when there is none.

    >>> from rummykit.core.cards import parse_card, parse_cards
    >>> from rummykit.core.melds import format_placed
    >>> from rummykit.variants import CONTRACT
    >>> hand = parse_cards("C8 D8 H8 S8 S9 ST SJ")
    >>> def show(way):
    ...     return [" ".join(map(format_placed, g)) for g in way]
    >>> show(next(ways_to_go_down(hand, 1, 1, CONTRACT)))
    ['C8 D8 H8', 'S8 S9 ST']
    >>> show(first_way_containing(hand, parse_card("SJ"), 1, 1, CONTRACT))
    ['C8 D8 H8', 'S8 S9 ST SJ']
    >>> show(first_way_containing(hand, parse_card("S8"), 1, 0, CONTRACT))
    ['C8 D8 H8 S8']
    >>> first_way_containing(hand, parse_card("S8"), 2, 0, CONTRACT) is None
    True
    """
    _check_contract(sets, runs)
    target = _target(card)
    l1, l2, l3, jokers = _layers(hand)
    search = _Search(_kit(rules))
    if not search.containing(l1, l2, l3, jokers, sets, runs, 0, 0, target):
        return None
    return next(search.walk(l1, l2, l3, jokers, sets, runs, (0, 0), None, [], None, target))


def is_way_to_go_down(hand: Iterable[Card], groups: Iterable[Iterable[int]], sets: int,
                      runs: int, rules: Rules) -> bool:
    """Whether ``groups`` (placed codes, in any order) is a way to go down from ``hand``.

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.core.melds import JOKER_AS
    >>> from rummykit.variants import CONTRACT
    >>> d8, s8, h8 = parse_cards("D8 S8 H8")
    >>> is_way_to_go_down([d8, s8, 52], [[s8, JOKER_AS + h8, d8]], 1, 0, CONTRACT)
    True
    >>> is_way_to_go_down([d8, s8, 52], [[s8, JOKER_AS + s8, d8]], 1, 0, CONTRACT)
    False
    """
    _check_contract(sets, runs)
    l1, l2, l3, jokers = _layers(hand)
    held = {c: (l1 >> c & 1) + (l2 >> c & 1) + (l3 >> c & 1) for c in range(NUM_NATURALS)}
    made_sets = 0
    run_suits: list[int] = []
    for group in groups:
        cards = tuple(group)
        for code in cards:
            if not isinstance(code, int):
                return False
            if JOKER_AS <= code < JOKER_AS + NUM_NATURALS:
                jokers -= 1
            elif 0 <= code < NUM_NATURALS:
                held[code] -= 1
                if held[code] < 0:
                    return False
            else:
                return False
        if jokers < 0:
            return False
        meld = make_meld(cards, rules)
        if isinstance(meld, str):
            return False
        if meld.kind == SET:
            made_sets += 1
        else:
            assert meld.kind == RUN
            run_suits.append(meld.suit)
    if made_sets != sets or len(run_suits) != runs:
        return False
    return not (rules.contract_runs_distinct_suits and len(set(run_suits)) != len(run_suits))


def least_penalty(hand: Iterable[Card], sets: int, runs: int, rules: Rules
                  ) -> tuple[int, Way | None]:
    """(penalty left in hand, way) for the way to go down leaving the least penalty.

    Among equal penalties, the first way in :func:`ways_to_go_down` order. When the
    contract cannot be made: (value of the whole hand, ``None``).

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.core.melds import format_placed
    >>> from rummykit.variants import CONTRACT
    >>> penalty, way = least_penalty(parse_cards("C8 D8 H8 S8 H9 HT SA"), 1, 0, CONTRACT)
    >>> penalty, [" ".join(map(format_placed, g)) for g in way]
    (34, ['C8 D8 H8 S8'])
    >>> least_penalty(parse_cards("C8 D8 SA"), 1, 0, CONTRACT)
    (31, None)
    """
    _check_contract(sets, runs)
    cards = list(hand)
    l1, l2, l3, jokers = _layers(cards)
    kit = _kit(rules)
    ranks, joker = _values(rules)
    total = sum(joker if c == JOKER else ranks[c % NUM_RANKS] for c in cards)
    search = _Search(kit, kit.value_table(ranks, joker))
    most = search.best(l1, l2, l3, jokers, sets, runs, 0, 0)
    if most == _NEG:
        return total, None
    way = next(search.walk(l1, l2, l3, jokers, sets, runs, (0, 0), None, [], most))
    return total - most, way


def uses_every_card(hand: Iterable[Card], sets: int, runs: int, rules: Rules) -> bool:
    """Whether one way to go down with the contract places every card of ``hand``.

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.variants import CONTRACT
    >>> uses_every_card(parse_cards("H5 H6 H7 C2 C3 C4 JK SK SQ"), 0, 3, CONTRACT)
    True
    """
    _check_contract(sets, runs)
    cards = list(hand)
    if not sets and len({c // NUM_RANKS for c in cards if c != JOKER}) > runs:
        return False  # runs only: each holds naturals of one suit
    l1, l2, l3, jokers = _layers(cards)
    kit = _kit(rules)
    search = _Search(kit, kit.value_table((1,) * NUM_RANKS, 1))
    return search.best(l1, l2, l3, jokers, sets, runs, 0, 0) == len(cards)


def deal_seven_ok(hand: Iterable[Card], rules: Rules) -> bool:
    """Whether three runs (of distinct suits under ``contract_runs_distinct_suits``) use every
    card of ``hand``: going down in deal 7 under ``all_at_once_no_discard`` (RULES.md §4.7).

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.variants import CONTRACT
    >>> deal_seven_ok(parse_cards("H5 H6 H7 C2 C3 C4 SQ SK SA"), CONTRACT)
    True
    >>> deal_seven_ok(parse_cards("H5 H6 H7 C2 C3 C4 SQ SK SA D9"), CONTRACT)
    False
    """
    return uses_every_card(hand, 0, 3, rules)


__all__ = ["Group", "Way", "can_make", "can_make_containing", "deal_seven_ok",
           "first_way_containing", "is_way_to_go_down", "least_penalty", "uses_every_card",
           "ways_to_go_down"]
