"""Every rule set as an OpenSpiel Python game: ``python_rummykit_basic``, ``..._traditional``
and ``..._contract`` (registered with :func:`pyspiel.register_game` on import).

One game is one hand. The shuffle is explicit: the first chance nodes deal the pack one card
at a time (an outcome is a card, 0..51 or 52 for a joker, with probability proportional to
the copies left), in the order of :meth:`HandState.from_deck` (hands from the seat left of
the dealer, the upcard, then the stock top first). A stock rebuild later in the hand is not
a chance node: the engine shuffles it with a generator seeded by the position, so the rest
of the game is deterministic.

Player actions are the ids of :class:`rummykit.rl.actions.ActionSpace` (a contract ``meld``
of several groups is one action per group, the player staying to move between them).
Information-state and observation strings and tensors both come from the seat's
:class:`~rummykit.views.PlayerView` (observation tensor: :class:`rummykit.rl.observation.
Observation`, plus a ``pending`` part in contract for the groups of a meld being chosen):
the view holds the seat's cards and all public knowledge (table, discard pile, each seat's
taken and discarded cards), not the order of past moves, so the information state is not
perfect recall; only single-player observers exist (no public observer). Whole matches are
not modelled (play hand after hand and keep the totals yourself). ``resample_from_infostate``
deals the hidden cards anew with :func:`rummykit.views.resample`, which is what ISMCTS
needs; such a sampled world has no history of its own, so unlike a played state it cannot
be serialized (``pyspiel.serialize_game_and_state`` stores the deal and the moves).

Parameters: ``players`` (default: the rule set's fewest), ``dealer`` (0), ``max_turns``
(200; the hand is aborted after that many turns, scoring 0), ``options`` (JSON of knob
overrides, ``"{}"``), ``returns``: ``relative`` (default: each seat's points minus the mean
of all seats, zero-sum) or ``points`` (the real hand scores: the winner's gain, or minus
each contract penalty; general-sum).

>>> import pyspiel
>>> game = pyspiel.load_game("python_rummykit_basic", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
>>> for card in range(52):
...     state.apply_action(card)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(1, ['draw', 'take'])
>>> state.information_state_string(1)[:40]
'seat 1 deal 0 dealer 0 to_move 1 draw tu'
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from rummykit.extras import MissingExtraError

try:
    import pyspiel
except ImportError:
    raise MissingExtraError("rl", "open-spiel", "rummykit.rl.openspiel_game") from None

from rummykit.cards import card_points, format_card, format_cards, standard_pack
from rummykit.engine import HandState
from rummykit.handset import cards as hand_cards
from rummykit.melds import format_placed
from rummykit.moves import Move
from rummykit.rl.actions import ActionSpace, Decision
from rummykit.rl.observation import Observation
from rummykit.rules import Rules, find_rules
from rummykit.views import PlayerView, resample, view

GAME_NAMES = {name: f"python_rummykit_{name}" for name in ("basic", "traditional", "contract")}
RETURNS = ("relative", "points")
DEFAULT_MAX_TURNS = 200


def _game_type(rule_set: str, utility: Any = pyspiel.GameType.Utility.ZERO_SUM
               ) -> pyspiel.GameType:
    low, high = find_rules(rule_set).player_range
    return pyspiel.GameType(
        short_name=GAME_NAMES[rule_set], long_name=f"rummykit {rule_set} rummy (one hand)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": low, "dealer": 0, "max_turns": DEFAULT_MAX_TURNS,
                                 "options": "{}", "returns": "relative"})


class RummyGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of a rummykit rule set (see the module docstring)."""

    def __init__(self, rule_set: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = _game_type(rule_set).parameter_specification
        values = {key: params.get(key, default) for key, default in spec.items()}
        options = json.loads(values["options"])
        options.setdefault("max_turns_per_hand", int(values["max_turns"]))
        rules = Rules.from_options(rule_set, options)
        players = int(values["players"])
        HandState.check_supported(rules, players)
        self.rules = rules
        self.space = ActionSpace(rules, players)
        self.observation = Observation(rules, players)
        self.dealer = int(values["dealer"]) % players
        self.relative = values["returns"] == "relative"
        if values["returns"] not in RETURNS:
            raise ValueError(f"returns {values['returns']!r}: expected relative or points")
        self.pack = standard_pack(*rules.pack_spec(players))
        self.penalty = rules.scoring == "penalty"
        bound = float(sum(card_points(c, rules.ace_value, rules.joker_points)
                          for c in self.pack) * max(1, rules.going_rummy_multiplier))
        low, high = (-bound, bound) if self.relative else \
            (-bound, 0.0) if self.penalty else (0.0, bound)
        turns = rules.max_turns_per_hand or DEFAULT_MAX_TURNS
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size, max_chance_outcomes=self.space.num_cards,
            num_players=players, min_utility=low, max_utility=high,
            utility_sum=0.0 if self.relative else None,
            max_game_length=len(self.pack) + turns * (len(self.pack) + 5))
        general = pyspiel.GameType.Utility.GENERAL_SUM
        kind = _game_type(rule_set) if self.relative else _game_type(rule_set, general)
        super().__init__(kind, info, {k: v for k, v in values.items()})

    def new_initial_state(self) -> RummyState:
        """A hand about to be dealt."""
        return RummyState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> RummyObserver:
        """The observer of both strings and tensors (built from the seat's view)."""
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        single = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None and iig_obs_type.private_info != single:
            raise ValueError("only single-player observers (a seat's view) are supported")
        return RummyObserver(self)


class _Position:
    """A state's data: OpenSpiel clones a Python state by deep-copying its attributes, so
    they live here, copied cheaply (the game shared, the decision cache dropped), and
    pickle as the deal and the moves (OpenSpiel's serialization)."""

    __slots__ = ("decision", "deck", "game", "hand", "moves", "prefix", "remaining")

    def __init__(self, game: RummyGame, deck: list[int], remaining: Counter[int],
                 hand: HandState | None, prefix: tuple[int, ...],
                 moves: list[Move] | None) -> None:
        self.game = game
        self.deck = deck
        self.remaining = remaining
        self.hand = hand
        self.prefix = prefix
        self.moves = moves  # None in a resampled world, which has no history of its own
        self.decision: Decision | None = None

    def deal(self, card: int) -> None:
        """The next card of the pack; the hand starts once the pack is dealt."""
        if not self.remaining[card]:
            raise ValueError(f"chance outcome {card}: no such card left to deal")
        self.remaining[card] -= 1
        self.deck.append(card)
        if len(self.deck) == len(self.game.pack):
            game = self.game
            dealt = HandState.from_deck(game.rules, game.space.players, game.dealer, self.deck)
            self.hand = dealt.copy()  # a copy: rebuilds shuffle by position

    def play(self, move: Move) -> None:
        """Make a legal move."""
        assert self.hand is not None
        self.hand.push(move)
        if self.moves is not None:
            self.moves.append(move)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        hand = self.hand.copy() if self.hand is not None else None
        moves = None if self.moves is None else self.moves[:]
        return _Position(self.game, self.deck[:], self.remaining.copy(), hand, self.prefix,
                         moves)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.moves is None:
            raise TypeError("a resampled state has no history of its own to serialize")
        game = self.game
        return (_restore, (game.get_type().short_name, dict(game.get_parameters()),
                           self.deck, self.moves, self.prefix))


def _restore(name: str, params: dict[str, Any], deck: list[int], moves: list[Move],
             prefix: tuple[int, ...]) -> _Position:
    """A pickled position, rebuilt by dealing and playing it again."""
    game: RummyGame = pyspiel.load_game(name, params)
    position = _Position(game, [], Counter(game.pack), None, (), [])
    for card in deck:
        position.deal(card)
    for move in moves:
        position.play(move)
    position.prefix = tuple(prefix)
    return position


class RummyState(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt or played."""

    def __init__(self, game: RummyGame) -> None:
        super().__init__(game)
        self.position = _Position(game, [], Counter(game.pack), None, (), [])

    @property
    def rummy(self) -> RummyGame:
        """The game (its rules, action space and observation layout)."""
        return self.position.game

    # -- helpers ------------------------------------------------------------------------
    @property
    def hand(self) -> HandState | None:
        """The engine's state of the hand once dealt."""
        return self.position.hand

    def view_of(self, player: int) -> PlayerView | None:
        """What ``player`` sees of the dealt hand."""
        hand = self.position.hand
        return None if hand is None else view(hand, player)

    def decision(self) -> Decision:
        """The choice of the seat to move, with the ids already chosen for a meld."""
        position = self.position
        found = position.decision
        if found is None or found.prefix != position.prefix:
            assert position.hand is not None
            found = Decision(position.game.space, position.hand.legal_moves())
            for action in position.prefix:
                found.choose(action)
            position.decision = found
        return found

    # -- the OpenSpiel state API ----------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, CHANCE while dealing, TERMINAL once the hand is over."""
        hand = self.position.hand
        if hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        if hand.result is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return hand.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return self.decision().legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card dealt: each card kind left, by its number of copies left."""
        remaining = self.position.remaining
        total = sum(remaining.values())
        return [(card, count / total) for card, count in sorted(remaining.items()) if count]

    def _apply_action(self, action: int) -> None:
        position = self.position
        if position.hand is None:
            position.deal(action)
            return
        decision = self.decision()
        move = decision.choose(action)
        if move is None:  # one group of a meld chosen: the same seat chooses the next
            position.prefix = decision.prefix
            return
        position.prefix = ()
        position.decision = None
        position.play(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {format_card(action)}"
        return str(self.rummy.space.describe(action))

    def is_terminal(self) -> bool:
        """True once the hand has a result."""
        hand = self.position.hand
        return hand is not None and hand.result is not None

    def returns(self) -> list[float]:
        """Each seat's result of the hand (0 before the end); see the module docstring."""
        hand = self.position.hand
        players = self.rummy.space.players
        if hand is None or hand.result is None:
            return [0.0] * players
        penalty = self.rummy.penalty
        points = [float(-s if penalty else s) for s in hand.result.scores]
        if self.rummy.relative:
            mean = sum(points) / players
            return [p - mean for p in points]
        return points

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RummyState:
        """A state ``player_id`` cannot tell from this one: the hidden cards dealt anew."""
        hand = self.position.hand
        if hand is None:
            raise ValueError("resample_from_infostate: the hand is not dealt yet")
        rng = random.Random(int(probability_sampler() * 2**53))
        sampled = resample(view(hand, player_id), rng)
        sampled.rng = None
        new = RummyState(self.rummy)
        new.position = _Position(self.rummy, self.position.deck[:], Counter(), sampled.copy(),
                                 self.position.prefix, None)
        return new

    def __str__(self) -> str:
        hand = self.position.hand
        if hand is None:
            return f"dealing: {format_cards(self.position.deck)}"
        seats = "; ".join(f"{s}: {format_cards(hand.hand_cards(s))}"
                          for s in range(hand.num_players))
        table = ", ".join(str(m) for m in hand.table)
        top = format_card(hand.discard[-1]) if hand.discard else "-"
        return (f"{seats} | table: {table} | discard top {top} ({len(hand.discard)}) | "
                f"stock {len(hand.stock)} | to move {hand.to_move} {hand.phase}")


class RummyObserver:
    """Strings and tensors of a seat's view (OpenSpiel's PyObserver interface)."""

    def __init__(self, game: RummyGame) -> None:
        self.game = game
        layout = game.observation
        pending = len(game.space.groups) if game.rules.contract_schedule else 0
        self.tensor = np.zeros(layout.size + pending, np.float32)
        self.dict: dict[str, Any] = layout.as_dict(self.tensor[:layout.size])
        if pending:
            self.dict["pending"] = self.tensor[layout.size:]

    def set_from(self, state: RummyState, player: int) -> None:
        """Fill ``tensor`` (and ``dict``, views of it) from ``player``'s view of ``state``."""
        seen = state.view_of(player)
        if seen is None:
            self.tensor.fill(0.0)
            return
        layout = self.game.observation
        layout.build(seen, out=self.tensor[:layout.size])
        if "pending" in self.dict:
            pending = self.dict["pending"]
            pending.fill(0.0)
            base = self.game.space.group_base
            for action in state.position.prefix if seen.to_move == player else ():
                pending[action - base] += 1.0

    def string_from(self, state: RummyState, player: int) -> str:
        """``player``'s view of ``state`` as one line of text."""
        seen = state.view_of(player)
        if seen is None:
            return _dealing_text(state, player)
        text = view_text(seen)
        prefix = state.position.prefix if seen.to_move == player else ()
        if prefix:
            space = self.game.space
            text += " | choosing " + " / ".join(space.describe(a) for a in prefix)
        return text


def _dealing_text(state: RummyState, player: int) -> str:
    """During the deal: the cards dealt to ``player`` so far (and the upcard once dealt)."""
    game = state.rummy
    players = game.space.players
    size = game.rules.hand_size_for(players)
    deck = state.position.deck
    mine = [c for i, c in enumerate(deck[:size * players])
            if (game.dealer + 1 + i) % players == player]
    upcard = format_card(deck[size * players]) if len(deck) > size * players else "-"
    return f"seat {player} dealing {len(deck)} | hand {format_cards(sorted(mine))} | " \
           f"upcard {upcard}"


def _seat_cards(hands: Sequence[int]) -> str:
    return ", ".join(format_cards(hand_cards(h)) or "-" for h in hands)


def view_text(seen: PlayerView) -> str:
    """A seat's view as one line: everything in it, in a fixed order."""
    table = "; ".join(
        f"{n}: {' '.join(format_placed(c) for c in m.cards)} by "
        f"{''.join(str(p) for p in m.placed_by)}" for n, m in enumerate(seen.table, 1))
    discarded = ", ".join(format_cards(c for c in range(53) if d >> c & 1) or "-"
                          for d in seen.discarded)
    parts = [
        f"seat {seen.seat} deal {seen.deal_index} dealer {seen.dealer} to_move {seen.to_move} "
        f"{seen.phase} turn {seen.turn_count}",
        f"hand {format_cards(hand_cards(seen.hand))}",
        f"sizes {' '.join(map(str, seen.hand_sizes))} stock {seen.stock_size}",
        f"table {table or '-'}",
        f"discard {format_cards(seen.discard) or '-'}",
        f"known {_seat_cards(seen.known)}",
        f"discarded {discarded}",
        f"taken {format_card(seen.taken) if seen.taken >= 0 else '-'} melds "
        f"{seen.melds_this_turn} placed {int(seen.placed_this_turn)} ever {seen.ever_placed} "
        f"rebuilds {seen.rebuilds}",
    ]
    if seen.rules.contract_schedule:
        dug = format_card(seen.dig_duty) if seen.dig_duty >= 0 else "-"
        parts.append(f"down {seen.down} went_down {int(seen.went_down)} dig {dug} "
                     f"jokers {seen.joker_duty}")
    if seen.result is not None:
        parts.append(f"result {seen.result.result} {seen.result.winner} "
                     f"{list(seen.result.scores)} revealed {_seat_cards(seen.revealed)}")
    return " | ".join(parts)


class BasicGame(RummyGame):
    """``python_rummykit_basic``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("basic", params)


class TraditionalGame(RummyGame):
    """``python_rummykit_traditional``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("traditional", params)


class ContractGame(RummyGame):
    """``python_rummykit_contract``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("contract", params)


# Registered as classes, like OpenSpiel's own Python games: a closure held only by the
# registry would be freed at interpreter exit without the GIL (a crash).
for _name, _class in (("basic", BasicGame), ("traditional", TraditionalGame),
                      ("contract", ContractGame)):
    pyspiel.register_game(_game_type(_name), _class)


def load(rule_set: str, **params: Any) -> RummyGame:
    """``pyspiel.load_game`` of a rule set's game with these parameters."""
    game: RummyGame = pyspiel.load_game(GAME_NAMES[rule_set], params)
    return game


__all__ = [
    "GAME_NAMES",
    "BasicGame",
    "ContractGame",
    "RummyGame",
    "RummyObserver",
    "RummyState",
    "TraditionalGame",
    "load",
    "view_text",
]
