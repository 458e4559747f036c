"""The OpenSpiel Python games of the families that encode themselves (``kind = "own"``,
:mod:`rummykit.rl.encodings`), ``python_rummykit_<rule set>`` (registered on import; also
imported by :mod:`rummykit.rl.openspiel_game`, so one import registers every rule set).

As in :mod:`rummykit.rl.openspiel_game`: one game is one hand, or with ``match=True`` a
whole match (the family's score sheet deciding the dealers and the end; ``max_hands``
stops a match with no end in its rules). A hand starts with chance nodes dealing the pack
one card at a time, in the family's ``deck`` order (each outcome a card, uniform over the
cards left). Player actions are the family encoding's ids (a knock is several ids by the
same player). The observation is the seat's view (tensor: the encoding's rows, with the
match totals); the information state adds the hand's history, one row per player action:
``action + 1`` and, for the seat's own actions, ``card + 1`` of a card the action put in
its hand (0 otherwise), so the seat's own stock draws are remembered and the others' never
show; an action the encoding calls private (the knock's face-down discard) shows to the
other seats as ``num_actions + 1``. Returns are each seat's points less the mean
(``returns="relative"``, zero-sum) or the points (``"points"``); for a match, its settled
totals.

>>> import pyspiel
>>> game = pyspiel.load_game("python_rummykit_gin")
>>> state = game.new_initial_state()
>>> len(state.chance_outcomes())
52
>>> for card in range(52):
...     state.apply_action(card)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(1, ['take', 'pass / end / done'])
>>> len(state.observation_tensor(0)), game.num_distinct_actions()
(970, 241)
"""

from __future__ import annotations

import json
import random
from typing import Any

from rummykit.extras import MissingExtraError

try:
    import pyspiel
except ImportError:
    raise MissingExtraError("rl", "open-spiel", "rummykit.rl.openspiel_own") from None

import numpy as np

from rummykit.core.cards import format_card, format_cards, standard_pack
from rummykit.core.errors import RummyError
from rummykit.rl.encodings import encoding_for, kind_of
from rummykit.rl.openspiel_observer import Action
from rummykit.rl.openspiel_types import DEFAULT_MAX_TURNS, game_type
from rummykit.rl.own_game import OwnObservation
from rummykit.variants.registry import all_rule_set_names, variant_for

__all__ = ["GAME_CLASSES", "GAME_NAMES", "OwnGameSpiel", "OwnState", "load"]

#: the OpenSpiel name of every rule set of a family that encodes itself
GAME_NAMES = {name: f"python_rummykit_{name}" for name in all_rule_set_names()
              if kind_of(name) == "own"}
#: the ``drawn`` mark of a history action the other seats may not see (a knock's
#: face-down discard): their information state shows it as ``?`` (tensor:
#: ``num_actions + 1``)
HIDDEN = -2
#: player actions a turn can take at most beyond its draw and discard (a knock's steps and
#: the whole show), a generous bound for the history's length
SHOW_ACTIONS = 32


def _seat_range(rule_set: str) -> tuple[int, int]:
    rules = variant_for(rule_set).preset(rule_set)
    fits = []
    for players in range(1, 9):
        try:
            rules.check_players(players)
        except RummyError:  # the rules refuse that many players
            continue
        fits.append(players)
    return min(fits), max(fits)


def _game_type(rule_set: str, utility: Any = pyspiel.GameType.Utility.ZERO_SUM
               ) -> pyspiel.GameType:
    return game_type(GAME_NAMES[rule_set], f"rummykit {rule_set}", _seat_range(rule_set),
                     utility)


class OwnGameSpiel(pyspiel.Game):  # type: ignore[misc]
    """One hand, or one match, of a rule set of an own-encoded family."""

    def __init__(self, rule_set: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = _game_type(rule_set).parameter_specification
        values = {key: params.get(key, default) for key, default in spec.items()}
        if values["returns"] not in ("relative", "points"):
            raise ValueError(f"returns {values['returns']!r}: expected relative or points")
        options = json.loads(values["options"])
        options.setdefault("max_turns_per_hand", int(values["max_turns"]))
        self.variant = variant_for(rule_set)
        self.rules = self.variant.rules_from_options(rule_set, options)
        self.players = int(values["players"])
        self.rules.check_players(self.players)
        self.encoding = encoding_for(rule_set)
        self.whole_match = bool(values["match"])
        self.max_hands = int(values["max_hands"]) if self.whole_match else 1
        if self.max_hands < 1:
            raise ValueError(f"max_hands {values['max_hands']}: expected at least 1")
        self.dealer = int(values["dealer"]) % self.players
        self.relative = values["returns"] == "relative"
        self.observation = OwnObservation(self.encoding, self.rules, self.whole_match)
        self.pack = list(standard_pack(*self.rules.pack_spec(self.players)))
        turns = self.rules.max_turns_per_hand or DEFAULT_MAX_TURNS
        #: the most player actions in a hand: two a turn, and the knock and the show
        self.history_length = 2 * turns + SHOW_ACTIONS
        high = self.observation.high
        points = float(self.observation.part(high, "scores").max()) \
            if "scores" in self.observation.shapes else 1000.0
        if not np.isfinite(points):
            points = 1000.0 * self.max_hands
        low_u, high_u = (-points, points) if self.relative else (0.0, points)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions, max_chance_outcomes=len(self.pack),
            num_players=self.players, min_utility=low_u, max_utility=high_u,
            utility_sum=0.0 if self.relative else None,
            max_game_length=self.max_hands * (len(self.pack) + self.history_length))
        kind = _game_type(rule_set) if self.relative else \
            _game_type(rule_set, pyspiel.GameType.Utility.GENERAL_SUM)
        super().__init__(kind, info, dict(values))

    def new_initial_state(self) -> OwnState:
        """A hand (the first of a match) about to be dealt."""
        return OwnState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> OwnObserver:
        """The seat's view, with the hand's history for a perfect-recall type."""
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        single = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None and iig_obs_type.private_info != single:
            raise ValueError("only single-player observers (a seat's view) are supported")
        return OwnObserver(self, history=iig_obs_type is not None and
                           iig_obs_type.perfect_recall)


class _Position:
    """A state's data, copied cheaply when OpenSpiel clones the state and pickled as the
    deals and the actions (OpenSpiel's serialization)."""

    __slots__ = ("actions", "choice", "deck", "game", "hand", "history", "over", "played",
                 "prefix", "resampled", "results", "scorer")

    def __init__(self, game: OwnGameSpiel) -> None:
        self.game = game
        self.deck: list[int] = []
        self.hand: Any = None
        self.prefix: list[int] = []  # the ids of a move being chosen
        self.choice: Any = None
        self.history: list[Action] = []  # this hand's player actions
        self.actions: list[int] = []  # this hand's player action ids (for pickling)
        self.played: list[tuple[list[int], list[int]]] = []  # finished hands' deck, ids
        self.results: list[Any] = []
        self.scorer = game.variant.match_scorer(game.rules, game.players)
        self.over = False
        self.resampled = False  # a world dealt anew: it has no actions of its own

    @property
    def dealer(self) -> int:
        """The dealer of the hand being dealt or played."""
        game = self.game
        return int(self.scorer.dealer_of(game.dealer, len(self.played), self.results))

    def deal(self, card: int) -> None:
        """The next card of the pack; the hand starts once the pack is dealt."""
        if card in self.deck or not 0 <= card < len(self.game.pack):
            raise ValueError(f"chance outcome {card}: no such card left to deal")
        self.deck.append(card)
        if len(self.deck) == len(self.game.pack):
            game = self.game
            self.hand = game.variant.deal(game.rules, game.players, self.dealer, self.deck,
                                          rng=None, deal_index=len(self.played))

    def current_choice(self) -> Any:
        """The choice of the seat to move, with the ids already chosen."""
        if self.choice is None:
            seat = self.hand.to_move
            self.choice = self.game.encoding.choice(self.game.variant.view(self.hand, seat))
            for action in self.prefix:
                self.choice.choose(action)
        return self.choice

    def act(self, action: int) -> None:
        """One player action; a complete move is played (a match deals the next hand)."""
        hand = self.hand
        seat = hand.to_move
        before = self.game.variant.view(hand, seat).hand
        choice = self.current_choice()
        hidden = self.game.encoding.private(choice, action)
        move = choice.choose(action)
        self.actions.append(action)
        if move is None:
            self.prefix.append(action)
            self.history.append(Action(seat, action, HIDDEN if hidden else -1))
            return
        checked = self.choice.checked
        self.prefix = []
        self.choice = None
        if checked:
            hand.play(move)
        else:
            hand.push(move)
        added = self.game.variant.view(hand, seat).hand & ~before
        drawn = (added & -added).bit_length() - 1 if added else -1
        self.history.append(Action(seat, action, drawn))
        result = hand.result
        if result is None:
            return
        self.results.append(result)
        self.scorer.after_hand(result, len(self.results))
        if not self.game.whole_match or self.scorer.over or \
                len(self.results) >= self.game.max_hands:
            self.over = True
            return
        self.played.append((self.deck, self.actions))
        self.deck, self.hand, self.actions, self.history = [], None, [], []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        new = _Position.__new__(_Position)
        new.game = self.game
        new.deck = self.deck[:]
        new.hand = None if self.hand is None else self.hand.copy()
        new.prefix = self.prefix[:]
        new.choice = None
        new.history = self.history[:]
        new.actions = self.actions[:]
        new.played = self.played[:]
        new.results = self.results[:]
        new.scorer = self.scorer.copy()
        new.over = self.over
        new.resampled = self.resampled
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        if self.resampled:
            raise TypeError("a resampled state has no history of its own to serialize")
        game = self.game
        return (_restore, (game.get_type().short_name, dict(game.get_parameters()),
                           [*self.played, (self.deck, self.actions)]))


def _restore(name: str, params: dict[str, Any], hands: list[tuple[list[int], list[int]]]
             ) -> _Position:
    """A pickled position, rebuilt by dealing and playing its hands again."""
    game: OwnGameSpiel = pyspiel.load_game(name, params)
    position = _Position(game)
    for deck, actions in hands:
        for card in deck:
            position.deal(card)
        for action in actions:
            position.act(action)
    return position


class OwnState(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt or played (in a whole match: the match so far)."""

    def __init__(self, game: OwnGameSpiel) -> None:
        super().__init__(game)
        self.position = _Position(game)

    @property
    def hand(self) -> Any:
        """The family's hand once dealt, else None."""
        return self.position.hand

    def view_of(self, player: int) -> Any:
        """What ``player`` sees of the dealt hand (None while dealing)."""
        hand = self.position.hand
        return None if hand is None else self.position.game.variant.view(hand, player)

    def current_player(self) -> int:
        """The seat to move, CHANCE while dealing, TERMINAL once the game is over."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        hand = self.position.hand
        return int(pyspiel.PlayerId.CHANCE) if hand is None else int(hand.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.position.current_choice().legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card dealt: each card left, equally likely."""
        dealt = set(self.position.deck)
        left = [c for c in range(len(self.position.game.pack)) if c not in dealt]
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        position = self.position
        if position.hand is None:
            position.deal(action)
        else:
            position.act(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {format_card(action)}"
        return str(self.position.game.encoding.describe(action))

    def is_terminal(self) -> bool:
        """True once the hand has a result (in a whole match: once the match is over)."""
        return self.position.over

    def returns(self) -> list[float]:
        """Each seat's points of the hand (of the match: its settled totals), less the
        mean under ``returns="relative"``; 0 before the end."""
        position = self.position
        game = position.game
        if not position.over:
            return [0.0] * game.players
        scores = position.scorer.settled_totals if game.whole_match \
            else position.results[-1].scores
        points = [float(s) for s in scores]
        if game.relative:
            mean = sum(points) / len(points)
            return [p - mean for p in points]
        return points

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OwnState:
        """A state ``player_id`` cannot tell from this one: the cards it cannot see dealt
        anew (the family encoding's ``resample`` of its view), its history kept (the other
        seats' draws unknown there). Such a world cannot be serialized."""
        old = self.position
        if old.hand is None:
            raise ValueError("resample_from_infostate: the hand is not dealt yet")
        game = old.game
        rng = random.Random(int(probability_sampler() * 2**53))
        new = OwnState(game)
        position = new.position = old.__deepcopy__({})
        position.hand = game.encoding.resample(game.variant.view(old.hand, player_id), rng)
        position.choice = None
        position.history = [a._replace(drawn=-1) if a.seat != player_id and a.drawn >= 0
                            else a for a in old.history]
        position.resampled = True
        return new

    def __str__(self) -> str:
        position = self.position
        hand = position.hand
        if hand is None:
            return f"dealing: {format_cards(position.deck)}"
        return f"{hand!r} | results {[r.reason for r in position.results]}"


class OwnObserver:
    """Strings and tensors of a seat's view, with the hand's history when ``history``
    (OpenSpiel's PyObserver interface)."""

    def __init__(self, game: OwnGameSpiel, history: bool = False) -> None:
        self.game = game
        self.history = history
        layout = game.observation
        rows = game.history_length if history else 0
        self.tensor = np.zeros(layout.size + 2 * rows, np.float32)
        self.dict: dict[str, Any] = layout.as_dict(self.tensor[:layout.size])
        if history:
            self.dict["history"] = self.tensor[layout.size:].reshape(rows, 2)

    def set_from(self, state: OwnState, player: int) -> None:
        """Fill ``tensor`` from ``player``'s view of ``state``."""
        seen = state.view_of(player)
        if seen is None:
            self.tensor.fill(0.0)
            return
        position = state.position
        layout = self.game.observation
        choice = position.current_choice() if seen.to_move == player and \
            not position.over else None
        layout.build(seen, position.scorer.totals, choice, out=self.tensor[:layout.size])
        if self.history:
            rows = self.dict["history"]
            rows.fill(0.0)
            past = position.history
            if past:
                hidden = self.game.encoding.num_actions + 1
                rows[:len(past)] = [
                    (a.action + 1, a.drawn + 1 if a.drawn >= 0 else 0) if a.seat == player
                    else (hidden if a.drawn == HIDDEN else a.action + 1, 0) for a in past]

    def string_from(self, state: OwnState, player: int) -> str:
        """``player``'s view as text (its cards, the public facts, the history)."""
        seen = state.view_of(player)
        position = state.position
        if seen is None:
            return f"seat {player} dealing {len(position.deck)}"
        describe = self.game.encoding.describe
        top = seen.discard[-1] if seen.discard else None
        text = (f"seat {player} deal {seen.deal_index} dealer {seen.dealer} to_move "
                f"{seen.to_move} {seen.phase} | hand {format_cards(seen.hand_cards)} | "
                f"top {'-' if top is None else format_card(top)} pile "
                f"{format_cards(seen.discard)} | stock {seen.stock_size} | table "
                f"{' / '.join(format_cards(_cards(m)) for m in seen.table) or '-'} | "
                f"totals {position.scorer.totals}")
        if seen.to_move == player and position.prefix:
            text += " | choosing " + ", ".join(describe(a) for a in position.prefix)
        if seen.result is not None:
            text += f" | result {seen.result.reason} {list(seen.result.scores)}"
        if self.history:
            text += " | history " + " ".join(
                f"{a.action}={format_card(a.drawn)}" if a.seat == player and a.drawn >= 0
                else "?" if a.seat != player and a.drawn == HIDDEN else str(a.action)
                for a in position.history)
        return text


def _cards(bits: int) -> list[int]:
    return [c for c in range(52) if bits >> c & 1]


def _game_class(rule_set: str) -> type[OwnGameSpiel]:
    def __init__(self: OwnGameSpiel, params: dict[str, Any] | None = None) -> None:
        OwnGameSpiel.__init__(self, rule_set, params)

    return type(f"{rule_set.capitalize()}Game", (OwnGameSpiel,),
                {"__init__": __init__, "__doc__": f"``{GAME_NAMES[rule_set]}``."})


#: the game class of every own-encoded rule set (kept alive here, as the registry needs)
GAME_CLASSES = {name: _game_class(name) for name in GAME_NAMES}
for _name, _class in GAME_CLASSES.items():
    pyspiel.register_game(_game_type(_name), _class)


def load(rule_set: str, **params: Any) -> OwnGameSpiel:
    """``pyspiel.load_game`` of a rule set's game with these parameters."""
    game: OwnGameSpiel = pyspiel.load_game(GAME_NAMES[rule_set], params)
    return game
