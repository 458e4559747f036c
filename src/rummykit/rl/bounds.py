"""True upper bounds of the observation's entries, derived from the rules (every entry is at
least 0).

The counting arguments (``P`` the pack size, ``n`` the players, ``h`` the smallest hand size
dealt in the match, ``H`` the largest):

- Cards are conserved, and at a draw step every seat holds at least one card (a seat whose
  hand empties goes out and the hand ends, RULES.md §1.7). A turn changes stock + discard
  pile by -1 (draw or take) then +1 (discard), or by ``-k + 1`` after a dig, so stock + pile
  never exceeds its value after the deal, ``P - n * h``: a bound of the stock, the pile and
  a card's depth in it.
- Without digs a seat's hand at a turn's start is at most ``H`` (one card in, one out per
  turn) and at most ``H + 1`` within its turn; with digs, every other seat holding a card,
  at most ``P - (n - 1)``.
- A hand's score: the winner's gain is the others' hand values (their ``H`` dearest cards
  at most, or ``P - (n - 1) - 1`` cards with digs) times ``going_rummy_multiplier``; a
  penalty is one seat's hand value. Match totals: at most ``num_hands`` hands' worth
  (``fixed_hands``), or just under the target plus one hand (``target``).
- A table plane's joker column (cards by identity: always 0) has bound 1, Gymnasium warning
  of spaces whose low and high are equal.
- Counts with no bound in the rules are ``inf``: the turns of a hand (and its stock
  rebuilds) without ``max_turns_per_hand``, and the hands already played under
  ``game_end = target`` (drawn and aborted hands score nothing, so any number may come).

>>> from rummykit import BASIC
>>> from rummykit.rl.observation import Observation
>>> obs = Observation(BASIC, 2)
>>> bound = {name: float(obs.part(obs.high, name).max()) for name in obs.shapes}
>>> bound["hand_sizes"], bound["stock_size"], bound["scores"], bound["deal"]
(11.0, 32.0, 349.0, inf)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rummykit.core.cards import JOKER, NUM_NATURALS, NUM_RANKS, card_points, standard_pack
from rummykit.core.rules import Rules

if TYPE_CHECKING:
    from rummykit.rl.observation import Array, Observation

__all__ = ["fill_high", "hand_limit", "hand_score_limit", "hand_sizes", "pile_limit"]

INF = float("inf")


def hand_sizes(rules: Rules, players: int) -> list[int]:
    """The hand size of every deal of a match (one size unless the deals differ)."""
    deals = max(1, len(rules.deal_hand_sizes))
    return [rules.hand_size_for(players, d) for d in range(deals)]


def pile_limit(rules: Rules, players: int) -> int:
    """The most cards the stock, or the discard pile, can hold."""
    decks, jokers = rules.pack_spec(players)
    return decks * NUM_NATURALS + jokers - players * min(hand_sizes(rules, players))


def hand_limit(rules: Rules, players: int) -> int:
    """The most cards one seat can hold."""
    decks, jokers = rules.pack_spec(players)
    if rules.discard_dig:
        return decks * NUM_NATURALS + jokers - (players - 1)
    return max(hand_sizes(rules, players)) + 1


def hand_score_limit(rules: Rules, players: int) -> int:
    """The most points one hand can give one seat (a gain, or a penalty)."""
    values = sorted((card_points(c, rules.ace_value, rules.joker_points)
                     for c in standard_pack(*rules.pack_spec(players))), reverse=True)
    held = hand_limit(rules, players) - 1 if rules.discard_dig \
        else max(hand_sizes(rules, players))
    if rules.scoring == "penalty":
        return sum(values[:held])
    return sum(values[:held * (players - 1)]) * rules.going_rummy_multiplier


def _total_limit(rules: Rules, players: int) -> int:
    hand = hand_score_limit(rules, players)
    if rules.game_end == "fixed_hands":
        return hand * rules.num_hands
    return rules.target_for(players) - 1 + hand


def _deals_limit(rules: Rules) -> float:
    if rules.game_end == "fixed_hands":
        return float(rules.num_hands - 1)
    return INF


def fill_high(obs: Observation) -> Array:
    """The upper bound of every entry of ``obs``'s flat observation."""
    rules, n = obs.rules, obs.players
    decks, jokers = rules.pack_spec(n)
    high = np.ones(obs.size, dtype=np.float32)
    turns = float(rules.max_turns_per_hand) if rules.max_turns_per_hand is not None else INF
    rebuilds = float(rules.max_rebuilds) if rules.max_rebuilds is not None else turns
    melds = rules.max_melds_per_turn or obs.max_melds
    pile = pile_limit(rules, n)
    counts: dict[str, float | list[float]] = {
        "hand": decks, "known": decks, "discard_pile": decks, "discard_depth": pile,
        "hand_sizes": hand_limit(rules, n), "stock_size": pile,
        "scores": _total_limit(rules, n), "turn": [melds, 1, turns, rebuilds],
        "deal": _deals_limit(rules)}
    if obs.extra is not None:  # the family's own parts (rummykit.rl.encodings)
        counts.update(obs.extra.bounds(rules, n))
    for name, bound in counts.items():
        if name in obs.shapes:
            obs.part(high, name)[...] = bound
    if obs.num_cards > NUM_NATURALS:
        for name in ("hand", "known", "discard_pile"):
            obs.part(high, name)[..., JOKER] = jokers
    if rules.ace_high and (decks > 1 or jokers):  # a run from ace to ace holds two
        aces = [suit * NUM_RANKS for suit in range(4)]
        for name in ("table", "table_jokers"):
            if name in obs.shapes:
                obs.part(high, name)[..., aces] = 2
    return high
