"""Every registered rule set as an OpenSpiel Python game, ``python_rummykit_<rule set>``
(``python_rummykit_basic``, ``..._contract``, ...; registered with
:func:`pyspiel.register_game` on import).

One game is one hand, or with ``match=True`` a whole match (hand after hand, each dealt by
chance nodes, the deal passing left, to the rules' end of the match). The shuffle is
explicit: the first chance nodes of a hand deal the pack one card at a time (an outcome is a
card, 0..51 or 52 for a joker, with probability proportional to the copies left), in the
order of :meth:`HandState.from_deck` (hands from the seat left of the dealer, the upcard,
then the stock top first). A stock rebuild later in the hand is not a chance node: the
engine shuffles it with a generator seeded by the position, so the rest of the hand is
deterministic.

Player actions are the ids of :class:`rummykit.rl.actions.ActionSpace` (a contract ``meld``
of several groups is one action per group, the player staying to move between them).
Observation strings and tensors come from the seat's :class:`~rummykit.core.views.PlayerView`;
information states add the hand's history, perfect recall within a hand
(:mod:`rummykit.rl.openspiel_observer`). Only single-player observers exist (no public
observer). ``resample_from_infostate`` deals the hidden cards anew with
:func:`rummykit.core.views.resample`, which is what ISMCTS needs, keeping the player's history
(the other seats' stock draws become unknown); such a sampled world has no history of its
own, so unlike a played state it cannot be serialized (``pyspiel.serialize_game_and_state``
stores the deals and the moves).

Parameters: ``players`` (default: the rule set's fewest), ``dealer`` (0: of the first
hand), ``max_turns`` (200; a hand is aborted after that many turns, scoring 0),
``options`` (JSON of knob overrides, ``"{}"``), ``returns``: ``relative`` (default: each
seat's points minus the mean of all seats, zero-sum) or ``points`` (the real scores: the
winner's gain, or minus each contract penalty; general-sum), ``match`` (``False``: one
hand; ``True``: the whole match, returns from the match totals), ``max_hands`` (50: a
``target`` match stops after that many hands, drawn and aborted hands scoring nothing, so
that the game is finite; ``fixed_hands`` matches such as contract's seven deals end by
their rules).

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
>>> state.apply_action(0)
>>> state.information_state_string(1).rsplit(" | ", 1)[-1]
'history 0=D9'
>>> len(state.information_state_tensor(1)), len(state.observation_tensor(1))
(10866, 1266)
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from rummykit.extras import MissingExtraError

try:
    import pyspiel
except ImportError:
    raise MissingExtraError("rl", "open-spiel", "rummykit.rl.openspiel_game") from None

from rummykit.core import handset
from rummykit.core.cards import card_points, format_card, format_cards, standard_pack
from rummykit.core.engine import HandState
from rummykit.core.moves import Draw, Move
from rummykit.core.outcome import DRAW, HandResult
from rummykit.core.rules import Rules, find_rules
from rummykit.core.views import PlayerView, resample, view
from rummykit.rl.actions import ActionSpace, Decision
from rummykit.rl.bounds import hand_limit
from rummykit.rl.observation import Observation
from rummykit.rl.openspiel_observer import Action, RummyObserver, view_text
from rummykit.rl.openspiel_types import DEFAULT_MAX_TURNS, game_type
from rummykit.variants.registry import rule_set_names

#: the OpenSpiel name of every registered rule set's game
GAME_NAMES = {name: f"python_rummykit_{name}" for name in rule_set_names()}
RETURNS = ("relative", "points")


def _game_type(rule_set: str, utility: Any = pyspiel.GameType.Utility.ZERO_SUM
               ) -> pyspiel.GameType:
    return game_type(GAME_NAMES[rule_set], f"rummykit {rule_set} rummy",
                     find_rules(rule_set).player_range, utility)


class RummyGame(pyspiel.Game):  # type: ignore[misc]
    """One hand, or one match, of a rummykit rule set (see the module docstring)."""

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
        self.whole_match = bool(values["match"])
        fixed = rules.game_end == "fixed_hands"
        #: the most hands a game plays
        self.max_hands = (rules.num_hands if fixed else int(values["max_hands"])) \
            if self.whole_match else 1
        if self.max_hands < 1:
            raise ValueError(f"max_hands {values['max_hands']}: expected at least 1")
        self.pack = standard_pack(*rules.pack_spec(players))
        self.penalty = rules.scoring == "penalty"
        bound = float(sum(card_points(c, rules.ace_value, rules.joker_points)
                          for c in self.pack) * max(1, rules.going_rummy_multiplier))
        if self.whole_match:
            bound = bound * self.max_hands if fixed else rules.target_for(players) - 1 + bound
        low, high = (-bound, bound) if self.relative else \
            (-bound, 0.0) if self.penalty else (0.0, bound)
        turns = rules.max_turns_per_hand or DEFAULT_MAX_TURNS
        #: the most player actions in a hand: per turn a draw, a discard, and at most two
        #: per card held (each play places a card; a swap takes a joker to place again)
        self.history_length = turns * (2 + 2 * hand_limit(rules, players))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size, max_chance_outcomes=self.space.num_cards,
            num_players=players, min_utility=low, max_utility=high,
            utility_sum=0.0 if self.relative else None,
            max_game_length=self.max_hands * (len(self.pack) + self.history_length))
        general = pyspiel.GameType.Utility.GENERAL_SUM
        kind = _game_type(rule_set) if self.relative else _game_type(rule_set, general)
        super().__init__(kind, info, {k: v for k, v in values.items()})

    def new_initial_state(self) -> RummyState:
        """A hand (the first of a match) about to be dealt."""
        return RummyState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> RummyObserver:
        """The observer of strings and tensors: the seat's view, with the hand's history
        for a perfect-recall type (the information state)."""
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        single = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None and iig_obs_type.private_info != single:
            raise ValueError("only single-player observers (a seat's view) are supported")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return RummyObserver(self, history=recall)


def match_over(rules: Rules, totals: list[int], hands: int, result: HandResult) -> bool:
    """Does the match end with this hand (``hands`` played, this one included)? As
    :class:`rummykit.core.match.Match` decides it (RULES.md §1.10)."""
    if result.result == DRAW and rules.draw_ends_match:
        return True
    if rules.game_end == "target":
        return max(totals) >= rules.target_for(len(totals))
    return hands >= rules.num_hands


class _Position:
    """A state's data: OpenSpiel clones a Python state by deep-copying its attributes, so
    they live here, copied cheaply (the game shared, the decision cache dropped), and
    pickle as the deals and the moves (OpenSpiel's serialization)."""

    __slots__ = ("decision", "deck", "game", "hand", "history", "moves", "over", "played",
                 "prefix", "remaining", "totals")

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
        #: the hand's player actions (the information state's history)
        self.history: list[Action] = []
        #: the match totals of the hands finished (always 0 in a one-hand game)
        self.totals = [0] * game.space.players
        #: the deck and moves of every hand finished (whole matches)
        self.played: list[tuple[list[int], list[Move]]] = []
        self.over = False  # the match is over (whole matches)

    @property
    def deal_index(self) -> int:
        """The number of the hand being played (0-based)."""
        return len(self.played)

    @property
    def dealer(self) -> int:
        """The dealer of the hand being played: one seat left per hand."""
        return (self.game.dealer + self.deal_index) % self.game.space.players

    def deal(self, card: int) -> None:
        """The next card of the pack; the hand starts once the pack is dealt."""
        if not self.remaining[card]:
            raise ValueError(f"chance outcome {card}: no such card left to deal")
        self.remaining[card] -= 1
        self.deck.append(card)
        if len(self.deck) == len(self.game.pack):
            game = self.game
            dealt = HandState.from_deck(game.rules, game.space.players, self.dealer,
                                        self.deck, deal_index=self.deal_index)
            self.hand = dealt.copy()  # a copy: rebuilds shuffle by position

    def play(self, move: Move) -> None:
        """Make a legal move; in a whole match, a hand's end deals the next one."""
        hand = self.hand
        assert hand is not None
        hand.push(move)
        if self.moves is not None:
            self.moves.append(move)
        result = hand.result
        if result is None or not self.game.whole_match:
            return
        self.totals = [t + s for t, s in zip(self.totals, result.scores, strict=True)]
        hands = self.deal_index + 1
        self.over = hands >= self.game.max_hands or match_over(
            self.game.rules, self.totals, hands, result)
        if not self.over:
            self.played.append((self.deck, self.moves or []))
            self.deck, self.remaining, self.hand = [], Counter(self.game.pack), None
            self.moves = None if self.moves is None else []
            self.history = []

    def record(self, move: Move, ids: tuple[int, ...]) -> None:
        """:meth:`play` a move chosen by the action ids ``ids`` (its history's last ones:
        the earlier groups of a meld are already there when chosen one at a time)."""
        hand = self.hand
        assert hand is not None
        seat = hand.to_move
        before = hand.hands[seat]
        history = self.history  # this hand's: a whole match's next hand starts afresh
        self.play(move)
        drawn = _drawn(before, hand.hands[seat]) if type(move) is Draw else -1
        history.extend(Action(seat, a, -1) for a in ids[:-1])
        history.append(Action(seat, ids[-1], drawn))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        hand = self.hand.copy() if self.hand is not None else None
        moves = None if self.moves is None else self.moves[:]
        new = _Position(self.game, self.deck[:], self.remaining.copy(), hand, self.prefix,
                        moves)
        new.history = self.history[:]
        new.totals = self.totals[:]
        new.played = self.played[:]  # finished hands never change
        new.over = self.over
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        if self.moves is None:
            raise TypeError("a resampled state has no history of its own to serialize")
        game = self.game
        return (_restore, (game.get_type().short_name, dict(game.get_parameters()),
                           [*self.played, (self.deck, self.moves)], self.prefix))


def _restore(name: str, params: dict[str, Any], hands: list[tuple[list[int], list[Move]]],
             prefix: tuple[int, ...]) -> _Position:
    """A pickled position, rebuilt by dealing and playing its hands again."""
    game: RummyGame = pyspiel.load_game(name, params)
    position = _Position(game, [], Counter(game.pack), None, (), [])
    for deck, moves in hands:
        for card in deck:
            position.deal(card)
        for move in moves:
            position.record(move, game.space.actions(move))
    position.prefix = tuple(prefix)
    if prefix:
        assert position.hand is not None
        position.history += [Action(position.hand.to_move, a, -1) for a in prefix]
    return position


class RummyState(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt or played (in a whole match: the match so far)."""

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
        """The seat to move, CHANCE while dealing, TERMINAL once the game is over."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        hand = self.position.hand
        if hand is None:
            return int(pyspiel.PlayerId.CHANCE)
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
        hand = position.hand
        if hand is None:
            position.deal(action)
            return
        seat = hand.to_move
        decision = self.decision()
        move = decision.choose(action)
        if move is None:  # one group of a meld chosen: the same seat chooses the next
            position.prefix = decision.prefix
            position.history.append(Action(seat, action, -1))
            return
        position.prefix = ()
        position.decision = None
        position.record(move, (action,))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {format_card(action)}"
        return str(self.rummy.space.describe(action))

    def is_terminal(self) -> bool:
        """True once the hand has a result (in a whole match: once the match is over)."""
        position = self.position
        if position.game.whole_match:
            return position.over
        hand = position.hand
        return hand is not None and hand.result is not None

    def returns(self) -> list[float]:
        """Each seat's result of the hand (of the match: its totals), 0 before the end;
        see the module docstring."""
        players = self.rummy.space.players
        if not self.is_terminal():
            return [0.0] * players
        position = self.position
        hand = position.hand
        assert hand is not None and hand.result is not None
        scores = position.totals if position.game.whole_match else hand.result.scores
        points = [float(-s if self.rummy.penalty else s) for s in scores]
        if self.rummy.relative:
            mean = sum(points) / players
            return [p - mean for p in points]
        return points

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RummyState:
        """A state ``player_id`` cannot tell from this one: the hidden cards dealt anew, the
        history kept (the other seats' stock draws unknown there)."""
        old = self.position
        hand = old.hand
        if hand is None:
            raise ValueError("resample_from_infostate: the hand is not dealt yet")
        rng = random.Random(int(probability_sampler() * 2**53))
        sampled = resample(view(hand, player_id), rng)
        sampled.rng = None
        new = RummyState(self.rummy)
        position = new.position = _Position(self.rummy, old.deck[:], Counter(),
                                            sampled.copy(), old.prefix, None)
        position.history = [a if a.seat == player_id else a._replace(drawn=-1)
                            for a in old.history]
        position.totals = old.totals[:]
        position.played = old.played[:]
        return new

    def __str__(self) -> str:
        position = self.position
        hand = position.hand
        totals = f" | totals {position.totals}" if position.game.whole_match else ""
        if hand is None:
            return f"dealing: {format_cards(position.deck)}{totals}"
        seats = "; ".join(f"{s}: {format_cards(hand.hand_cards(s))}"
                          for s in range(hand.num_players))
        table = ", ".join(str(m) for m in hand.table)
        top = format_card(hand.discard[-1]) if hand.discard else "-"
        return (f"{seats} | table: {table} | discard top {top} ({len(hand.discard)}) | "
                f"stock {len(hand.stock)} | to move {hand.to_move} {hand.phase}{totals}")


def _drawn(before: int, after: int) -> int:
    """The card a draw added to a hand (hands of :mod:`rummykit.core.handset`)."""
    added = Counter(handset.cards(after))
    added.subtract(handset.cards(before))
    return next(card for card, count in added.items() if count > 0)


def _game_class(rule_set: str) -> type[RummyGame]:
    """The game class of one rule set: ``python_rummykit_<rule set>``."""

    def __init__(self: RummyGame, params: dict[str, Any] | None = None) -> None:
        RummyGame.__init__(self, rule_set, params)

    return type(f"{rule_set.capitalize()}Game", (RummyGame,),
                {"__init__": __init__, "__doc__": f"``{GAME_NAMES[rule_set]}``."})


#: the game class of every rule set. Registered as classes, like OpenSpiel's own Python
#: games (a closure held only by the registry would be freed at interpreter exit without
#: the GIL: a crash); this table keeps them alive.
GAME_CLASSES = {name: _game_class(name) for name in GAME_NAMES}
for _name, _class in GAME_CLASSES.items():
    pyspiel.register_game(_game_type(_name), _class)


# the games of the families that encode themselves (registered on import)
from rummykit.rl import openspiel_own  # noqa: E402

#: every registered rule set's OpenSpiel name, the own-encoded families' included
ALL_GAME_NAMES = {**GAME_NAMES, **openspiel_own.GAME_NAMES}


def load(rule_set: str, **params: Any) -> Any:
    """``pyspiel.load_game`` of any registered rule set's game with these parameters (a
    :class:`RummyGame`, or an :class:`~rummykit.rl.openspiel_own.OwnGameSpiel`)."""
    return pyspiel.load_game(ALL_GAME_NAMES[rule_set], params)


__all__ = [
    "ALL_GAME_NAMES",
    "GAME_CLASSES",
    "GAME_NAMES",
    "RummyGame",
    "RummyObserver",
    "RummyState",
    "load",
    "view_text",
]
