"""A fast greedy Contract Rummy policy for playouts, on the full (sampled) state.

The search's playouts run thousands of turns per decision; listing every legal move
(digs, lay-offs and going-down moves each checked for completability, §1.6) costs most of
that time. This policy builds its one move directly from the state instead, and only
moves that are legal by construction:

- **draw**: the discard top when a seat that is down can lay it off, or when it completes
  a three-card meld the contract wants (or lets the seat go down); never a dig;
- **play, not down**: go down as soon as the contract can be made, with the way leaving the
  least penalty (:func:`rummykit.variants.contract.melds.least_penalty`);
- **play, down**: lay off every card that fits (jokers too), never a swap;
- **discard**: the highest card with the fewest partners for the contract, never a joker
  while another card can go; a seat that is down throws its highest card.

In the seventh deal under ``all_at_once_no_discard`` (three runs using every card, §4.7) it
plays the greedy bot's deal 7 without listing the legal moves (its digs cost most): it
takes the discard top when that raises the cards three runs could hold
(:func:`rummykit.bots.contract_shape.coverage`), never digs, goes down (out) as soon as
three runs use every card, and throws the card the runs need least.

Anything unusual (a duty to meet, another last-deal rule or contract, a contract of three
runs or more played like deals 1-6, a knob this policy does not model) falls back to the
greedy bot on the engine's legal moves
(:func:`rummykit.bots.greedy_contract.choose_contract`), so every move is legal; the
tests check every move of thousands of playouts against the engine.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.variants import CONTRACT
>>> state = HandState.deal(CONTRACT, 4, dealer=0, rng=random.Random(2))
>>> state.is_legal(fast_move(state))
True
"""

from __future__ import annotations

from functools import lru_cache

from rummykit.bots.contract_shape import coverage_without, held_count
from rummykit.bots.greedy_contract import choose_contract
from rummykit.core import handset
from rummykit.core.cards import JOKER, NUM_RANKS, Card
from rummykit.core.engine import DRAW_PHASE, HandState
from rummykit.core.melds import JOKER_AS
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Take
from rummykit.core.views import view
from rummykit.variants.contract.hand import ContractHand
from rummykit.variants.contract.melds import can_make, least_penalty
from rummykit.variants.contract.play import DISCARDS, joker_places
from rummykit.variants.contract.schedule import Dealt, contract_of, final_rule, three_runs

DRAW_MOVE = Draw()
TAKE_MOVE = Take(1)


def fast_move(state: HandState) -> Move:
    """The fast greedy move of the seat to move: always a legal move."""
    assert isinstance(state, ContractHand)
    if state.dig_duty >= 0 or state.joker_duty or not modelled(state):
        return choose_contract(view(state, state.to_move))
    if final_rule(state) != "none":
        return _seventh(state)
    if state.phase == DRAW_PHASE:
        return _draw(state)
    return _play(state)


def modelled(state: Dealt) -> bool:
    """Whether this policy plays the deal itself: deals of one or two runs at most
    (``final_deal_rule`` none), and deal 7's three runs gone out with no discard. In any
    other deal every move is the greedy bot's on the listed legal moves, about a hundred
    times slower."""
    last = final_rule(state)
    if state.rules.must_discard_to_go_out:
        return False
    if last == "none":
        return contract_of(state)[1] <= 2
    return last == "all_at_once_no_discard" and three_runs(state)


def play_out(state: HandState, turns: int) -> None:
    """Fast greedy moves until the hand ends or ``turns`` more turns have passed."""
    stop = state.turn_count + turns
    while state.result is None and state.turn_count < stop:
        state.push(fast_move(state))


# -- draw ----------------------------------------------------------------------------------

def _draw(state: ContractHand) -> Move:
    can_draw = bool(state.stock) or state.rules.stock_rebuild == "turn_over_all"
    if not state.discard:
        return DRAW_MOVE if can_draw else choose_contract(view(state, state.to_move))
    if not can_draw:
        return TAKE_MOVE
    top = state.discard[-1]
    seat = state.to_move
    hand = state.hands[seat]
    if not any(c != top for c in handset.distinct(hand)):
        return DRAW_MOVE  # the top could be neither thrown again nor always placed
    if state.down >> seat & 1:
        return TAKE_MOVE if _layable(state, top) else DRAW_MOVE
    if top == JOKER or _completes(hand, top, state):
        return TAKE_MOVE
    return DRAW_MOVE


def _layable(state: ContractHand, card: Card) -> bool:
    if card == JOKER:
        return any(joker_places(m, state) for m in state.table)
    return any(m.accepts >> card & 1 for m in state.table)


def _completes(hand: int, card: Card, state: ContractHand) -> bool:
    """Whether ``card`` makes a three-card meld the contract wants with two held cards."""
    sets, runs = contract_of(state)
    present = handset.presence(hand)
    suit, rank = divmod(card, NUM_RANKS)
    if sets:
        same = sum(1 for s in range(4) if s != suit and present >> (s * NUM_RANKS + rank) & 1)
        if same >= 2:
            return True
    if runs:
        held = [present >> (suit * NUM_RANKS + rank + d) & 1 if 0 <= rank + d < NUM_RANKS
                else 0 for d in (-2, -1, 1, 2)]
        if (held[0] and held[1]) or (held[1] and held[2]) or (held[2] and held[3]):
            return True
    return False


# -- play ----------------------------------------------------------------------------------

def _play(state: ContractHand) -> Move:
    seat = state.to_move
    hand = state.hands[seat]
    if not state.down >> seat & 1:
        move = _go_down(state, hand)
        if move is not None:
            return move
        return _discard(state, hand, down=False)
    move = _lay(state, hand)
    return move if move is not None else _discard(state, hand, down=True)


def _leaves_discard(state: ContractHand, rest: list[Card]) -> bool:
    """Whether a hand of ``rest`` after a placement can still end the turn (empty, or a
    card other than the taken top to throw)."""
    return not rest or any(c != state.taken for c in rest)


def _go_down(state: ContractHand, hand: int) -> Move | None:
    cards = handset.cards(hand)
    sets, runs = contract_of(state)
    if not can_make(cards, sets, runs, state.rules):
        return None
    _, way = least_penalty(cards, sets, runs, state.rules)
    if way is None:
        return None
    rest = list(cards)
    for group in way:
        for code in group:
            rest.remove(code if code < JOKER_AS else JOKER)
    if not _leaves_discard(state, rest):
        return None
    return Meld(way)


def _lay(state: ContractHand, hand: int) -> Move | None:
    present = handset.presence(hand)
    taken = state.taken
    size = handset.size(hand)
    rules = state.rules
    first = None
    for index, meld in enumerate(state.table):
        fits = present & meld.accepts
        if not fits:
            continue
        if taken >= 0 and fits >> taken & 1:
            return LayOff(taken, index + 1, _end(meld.ends_for(taken, rules)))
        if first is None:
            card = fits.bit_length() - 1  # the highest natural that fits
            first = LayOff(card, index + 1, _end(meld.ends_for(card, rules)))
    if first is not None:
        rest = handset.cards(handset.remove(hand, first.card))
        if _leaves_discard(state, rest):
            return first
    if handset.count(hand, JOKER) and size > 1:
        rest = handset.cards(handset.remove(hand, JOKER))
        if _leaves_discard(state, rest):
            for index, meld in enumerate(state.table):
                places = joker_places(meld, state)
                if places:
                    ident, end = places[0]
                    return LayOff(JOKER_AS + ident, index + 1, end)
    return None


def _end(ends: tuple[str, ...]) -> str | None:
    return ends[0] if len(ends) > 1 else None


def _discard(state: ContractHand, hand: int, down: bool) -> Move:
    cards = handset.distinct(hand)
    taken = state.taken
    values = state._values
    choices = [c for c in cards if c != taken]
    if not choices:
        return choose_contract(view(state, state.to_move))
    naturals = [c for c in choices if c != JOKER] or choices
    if down:
        return Discard(max(naturals, key=lambda c: (values[c], c)))
    sets, runs = contract_of(state)
    present = handset.presence(hand)

    def partners(card: Card) -> int:
        suit, rank = divmod(card, NUM_RANKS)
        found = 0
        if sets:
            found += sum(1 for s in range(4)
                         if s != suit and present >> (s * NUM_RANKS + rank) & 1)
            found += handset.count(hand, card) > 1
        if runs:
            base = suit * NUM_RANKS
            found += sum(1 for d in (-2, -1, 1, 2)
                         if 0 <= rank + d < NUM_RANKS and present >> (base + rank + d) & 1)
        return found

    return Discard(min(naturals, key=lambda c: (partners(c), -values[c], -c)))


# -- deal 7: three runs using every card ---------------------------------------------------

def _seventh(state: ContractHand) -> Move:
    seat = state.to_move
    hand = state.hands[seat]
    cards = handset.cards(hand)
    if state.phase == DRAW_PHASE:
        can_draw = bool(state.stock) or state.rules.stock_rebuild == "turn_over_all"
        if not can_draw or not state.discard:
            return choose_contract(view(state, seat))
        top = state.discard[-1]
        if not any(c != top for c in handset.distinct(hand)):
            return DRAW_MOVE
        size = len(cards) + 1
        with_top = [*cards, top]
        gained = held_count(with_top, size)
        if gained == size and _all_runs(with_top, state) is not None:
            return TAKE_MOVE
        # after taking, a card the runs do not hold can go (the top itself only when
        # nothing was gained), so more held with the top is more held after the discard
        return TAKE_MOVE if gained < size and gained > held_count(cards, size) else DRAW_MOVE
    size = len(cards)
    if held_count(cards, size) == size:
        way = _all_runs(cards, state)
        if way is not None:
            return Meld(way)
    card = _seventh_discard(hand, state.taken, state._values)
    return choose_contract(view(state, seat)) if card is None else DISCARDS[card]


@lru_cache(maxsize=1 << 16)
def _seventh_discard(hand: int, taken: int, values: tuple[int, ...]) -> Card | None:
    """Deal 7's discard from ``hand`` (a multiset), never the card ``taken``: the one whose
    loss keeps the most cards three runs hold, then a natural, then the highest (memoised:
    a search's playouts meet the same hands in every world)."""
    cards = handset.cards(hand)
    choices = [c for c in handset.distinct(hand) if c != taken]
    if not choices:
        return None
    left = coverage_without(cards, len(cards))

    def kept(card: Card) -> tuple[int, bool, int, int]:
        return left[card], card != JOKER, values[card], card % NUM_RANKS

    return max(choices, key=kept)


def _all_runs(cards: list[Card], state: ContractHand) -> tuple[tuple[int, ...], ...] | None:
    """The way three runs of the contract place every card of ``cards``, or None."""
    sets, runs = contract_of(state)
    penalty, way = least_penalty(cards, sets, runs, state.rules)
    return way if way is not None and penalty == 0 and \
        sum(len(g) for g in way) == len(cards) else None


__all__ = ["fast_move", "modelled", "play_out"]
