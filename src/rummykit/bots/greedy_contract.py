"""The greedy bot's Contract Rummy policy (RULES.md §4), on a :class:`PlayerView` only.

Goes down as soon as it can (the going-down move leaving the least penalty in hand), lays
off every natural card it can, a joker only when that lets it lay off more or go out, swaps
jokers out of runs to place cards it could not lay off, digs only for the shallowest dig it
can use, takes the discard top only when it completes a meld or can be laid off, and
discards the card least useful to the contract (highest penalty among the cards in no meld
of the best partial arrangement; a joker only when forced). In the seventh deal under
``all_at_once_no_discard`` (three runs using every card, RULES.md §4.7; alike under
``all_at_once_discard_ok``) it keeps the cards
three runs of distinct suits could hold (:func:`rummykit.bots.contract_shape.coverage`),
takes the discard top when it raises that count, and throws the highest card the runs
need least; it goes down (out) as soon as it can.

>>> import random
>>> from rummykit.core.match import Match
>>> from rummykit.variants import CONTRACT
>>> from rummykit.core.views import view
>>> match = Match(CONTRACT, ["a", "b", "c"], seed=2)
>>> state = match.start_hand()
>>> seen = view(state, state.to_move)
>>> choose_contract(seen) in seen.legal
True
"""

from __future__ import annotations

from rummykit.bots.contract_shape import coverage_without, held_count
from rummykit.core import handset
from rummykit.core.cards import JOKER, NUM_RANKS, Card, points_table
from rummykit.core.engine import DRAW_PHASE
from rummykit.core.melds import JOKER_AS, RUN, SET, TableMeld, hand_card, lay_off, position_card
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take
from rummykit.core.views import PlayerView
from rummykit.variants.contract.melds import can_make, least_penalty, uses_every_card
from rummykit.variants.contract.schedule import contract_of, final_rule, three_runs
from rummykit.variants.contract.view import contract_part as part

MELDS_INSPECTED = 200  # going-down moves looked at, for speed


def contract(view: PlayerView) -> tuple[int, int]:
    """(sets, runs) of the deal's contract."""
    return contract_of(view)


def all_at_once(view: PlayerView) -> bool:
    """Whether this is the seventh deal the bots' shape play knows (§4.7): three runs of
    distinct suits, gone down all at once (with no discard, or with lay-offs on them and
    one discard). Any other last-deal contract is played with the heuristics of deals
    1-6, the engine listing only the melds that go out (:func:`goes_out_at_once`)."""
    return goes_out_at_once(view) and three_runs(view)


def goes_out_at_once(view: PlayerView) -> bool:
    """Whether going down this deal means going out (a last-deal rule other than ``none``):
    then nobody waits or searches before going down."""
    return final_rule(view) != "none"


def card_values(view: PlayerView) -> tuple[int, ...]:
    """Penalty points by card (jokers included)."""
    return points_table(view.rules.ace_value, view.rules.joker_points)


def progress(cards: list[Card], view: PlayerView) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
    """(melds of the contract makeable, -penalty left, way) of the best partial arrangement.

    The most contract melds that ``cards`` can make at once (never more sets or runs than
    the contract asks for), and among those the arrangement leaving the least penalty.
    """
    sets, runs = contract(view)
    for total in range(sets + runs, 0, -1):
        best: tuple[int, tuple[tuple[int, ...], ...]] | None = None
        for s in range(min(sets, total), -1, -1):
            r = total - s
            if r > runs:
                continue
            penalty, way = least_penalty(cards, s, r, view.rules)
            if way is not None and (best is None or penalty < best[0]):
                best = (penalty, way)
        if best is not None:
            return total, -best[0], best[1]
    values = card_values(view)
    return 0, -sum(values[c] for c in cards), ()


def _layable(card: Card, table: tuple[TableMeld, ...]) -> bool:
    if card == JOKER:
        return any(m.kind == RUN or len(m.cards) < 4 for m in table)
    return any(m.accepts >> card & 1 for m in table)


def choose_contract(view: PlayerView) -> Move:
    """The greedy contract move: always one of ``view.legal``."""
    legal = view.legal
    if all_at_once(view):
        return seventh(view, legal)
    if view.phase == DRAW_PHASE:
        return greedy_draw(view, legal)
    down = bool(part(view).down >> view.seat & 1)
    if not down:
        melds = [m for m in legal[:MELDS_INSPECTED] if isinstance(m, Meld)]
        if melds:
            return go_down(view, melds)
        return _discard(view, legal, down)
    move = play_down(view, legal)
    return move if move is not None else _discard(view, legal, down)


# -- draw step ------------------------------------------------------------------------------

def greedy_draw(view: PlayerView, legal: tuple[Move, ...]) -> Move:
    takes = sorted((m for m in legal if isinstance(m, Take)), key=lambda m: m.count)
    draw = next((m for m in legal if isinstance(m, Draw)), None)
    if draw is None:
        return takes[0] if takes else legal[0]
    top = view.discard_top
    if not takes or top is None:
        return draw
    hand = handset.cards(view.hand)
    down = bool(part(view).down >> view.seat & 1)
    single = takes[0] if takes[0].count == 1 else None
    if down:
        if single is not None and _layable(top, view.table):
            return single
        for take in takes:  # digs the engine lists can place the dug card; keep the cheap ones
            if take.count > 1 and all(_layable(c, view.table)
                                      for c in view.discard[-take.count:]):
                return take
        return draw
    if single is not None and _goes_down([*hand, top], view):
        return single
    for take in takes:
        if take.count > 1:  # not down: a listed dig lets the seat go down this turn
            return take
    if single is not None and _improves(hand, [top], view):
        return single
    return draw


def _goes_down(cards: list[Card], view: PlayerView) -> bool:
    """Whether ``cards`` make the contract; in a last deal gone out all at once, whether
    they go out (under ``all_at_once_discard_ok``: every card but one placed, since
    lay-offs on one's own melds only lengthen them)."""
    sets, runs = contract(view)
    rule = final_rule(view)
    if rule == "none":
        return can_make(cards, sets, runs, view.rules)
    if uses_every_card(cards, sets, runs, view.rules):
        return True
    return rule == "all_at_once_discard_ok" and any(
        uses_every_card(_without(cards, thrown), sets, runs, view.rules)
        for thrown in set(cards))


def _without(cards: list[Card], card: Card) -> list[Card]:
    """``cards`` less one copy of ``card``."""
    rest = list(cards)
    rest.remove(card)
    return rest


def _improves(hand: list[Card], extra: list[Card], view: PlayerView) -> bool:
    """Whether taking ``extra`` completes a meld towards the contract (a joker always)."""
    if JOKER in extra:
        return True
    return progress(hand + extra, view)[0] > progress(hand, view)[0]


# -- play step ------------------------------------------------------------------------------

def go_down(view: PlayerView, melds: list[Meld]) -> Meld:
    values = card_values(view)

    def placed(move: Meld) -> tuple[int, int]:
        cards = [hand_card(c) for g in move.groups for c in g]
        return sum(values[c] for c in cards), -cards.count(JOKER)

    return max(melds, key=placed)


def play_down(view: PlayerView, legal: tuple[Move, ...]) -> Move | None:
    values = card_values(view)
    lays = [m for m in legal if isinstance(m, LayOff)]
    naturals = [m for m in lays if m.card < JOKER_AS]
    if naturals:
        duty = part(view).dig_duty
        return max(naturals, key=lambda m: (m.card == duty, values[m.card]))
    jokers = [m for m in lays if m.card >= JOKER_AS]
    swaps = [m for m in legal if isinstance(m, Swap)]
    if swaps and not part(view).joker_duty:
        return max(swaps, key=lambda m: values[m.card])
    if not jokers:
        return None
    present = handset.presence(view.hand)
    opening = [m for m in jokers if opens(view, m) & present]
    if opening:
        return opening[0]
    naturals_left = handset.size(view.hand) - handset.count(view.hand, JOKER)
    if part(view).joker_duty or naturals_left <= 1 \
            or not any(isinstance(m, Discard) for m in legal):
        return jokers[0]
    return None


def opens(view: PlayerView, move: LayOff) -> int:
    """Natural cards the table accepts after the joker lay-off ``move`` but not before."""
    meld = view.table[move.target - 1]
    ident = move.card - JOKER_AS
    if meld.kind == SET:
        return 0
    end = "low" if ident == position_card(meld.suit, meld.low - 1) and meld.low > 1 else "high"
    grown = lay_off(meld, move.card, end, view.seat, view.rules)
    before = 0
    for m in view.table:
        before |= m.accepts
    return grown.accepts & ~before


# -- deal 7: three runs using every card -------------------------------------------------

def seventh(view: PlayerView, legal: tuple[Move, ...]) -> Move:
    """The greedy move of the all-at-once seventh deal (§4.7): go down as soon as three
    runs use every card; otherwise keep the cards three runs could hold."""
    hand = handset.cards(view.hand)
    melds = [m for m in legal if isinstance(m, Meld)]
    if melds:
        return melds[0]
    if view.phase == DRAW_PHASE:
        takes = sorted((m for m in legal if isinstance(m, Take)), key=lambda m: m.count)
        draw = next((m for m in legal if isinstance(m, Draw)), None)
        top = view.discard_top
        if draw is None or not takes:
            return takes[0] if takes else legal[0]
        if takes[-1].count > 1:  # a dig is listed only when it lets the seat go out
            return next(m for m in takes if m.count > 1)
        if top is None or takes[0].count != 1:
            return draw
        size = len(hand) + 1
        if _goes_down([*hand, top], view):
            return takes[0]
        now = held_count(hand, size)
        with_top = [*hand, top]
        left = coverage_without(with_top, size)
        best = max(left[c] for c in hand)  # the top kept
        return takes[0] if best > now else draw
    discards = [m for m in legal if isinstance(m, Discard)]
    if not discards:
        return legal[0]
    values = card_values(view)
    left = coverage_without(hand, len(hand))

    def kept(move: Discard) -> tuple[int, bool, int, int]:
        return left[move.card], move.card != JOKER, values[move.card], move.card % NUM_RANKS

    return max(discards, key=kept)


# -- discard ---------------------------------------------------------------------------------

def _discard(view: PlayerView, legal: tuple[Move, ...], down: bool) -> Move:
    discards = [m for m in legal if isinstance(m, Discard)]
    if not discards:
        return legal[0]
    values = card_values(view)
    hand = handset.cards(view.hand)
    kept, partners = kept_and_partners(hand, view, down)

    def useless(move: Discard) -> tuple[bool, bool, bool, int, int]:
        c = move.card
        return (c != JOKER, c not in kept, c not in partners, values[c], c % NUM_RANKS)

    return max(discards, key=useless)


def kept_and_partners(hand: list[Card], view: PlayerView,
                      down: bool) -> tuple[set[Card], set[Card]]:
    """(cards of the best partial contract, cards that could join them) of a seat not yet
    down; two empty sets once it is down.

    In a last deal gone out all at once (:func:`goes_out_at_once`) a card held in more
    copies than the partial contract uses is not kept: throwing one copy keeps the melds
    whole, and hoarding such copies kept every seat from going out (deals to the turn
    valve). Deals 1-6 keep them, as the measured bots always have."""
    if down:
        return set(), set()
    _, _, way = progress(hand, view)
    used: list[Card] = [hand_card(c) for g in way for c in g]
    loose = list(hand)
    for c in used:
        loose.remove(c)
    kept = set(used)
    if goes_out_at_once(view):
        kept = {c for c in kept if c not in loose}
    return kept, meld_partners(loose, view)


def meld_partners(loose: list[Card], view: PlayerView) -> set[Card]:
    """Loose cards one card away from a meld the contract wants with another loose card."""
    sets, runs = contract(view)
    found: set[Card] = set()
    naturals = [c for c in loose if c != JOKER]
    for i, a in enumerate(naturals):
        for b in naturals[i + 1:]:
            if a == b:
                continue
            same_rank = a % NUM_RANKS == b % NUM_RANKS
            near = a // NUM_RANKS == b // NUM_RANKS and abs(a - b) <= 2
            if (sets and same_rank) or (runs and near):
                found.update((a, b))
    return found


__all__ = ["MELDS_INSPECTED", "all_at_once", "choose_contract", "goes_out_at_once", "progress",
           "seventh"]
