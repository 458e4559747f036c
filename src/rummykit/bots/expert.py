"""The expert bot: determinized Monte Carlo search over the discard.

When the bot must choose what to throw away, it keeps a few candidates (the card a greedy
player would throw, the highest card related to nothing else in hand, the card whose loss
costs least by the judge's measure, then the next highest cards left out of melds) and
plays each of them in the same sampled worlds: hidden cards dealt consistently with its
view and with what the others' play told (:mod:`rummykit.bots.inference`; worlds where a
hidden hand could have melded or laid off, or would have taken a discard it passed, are
unlikely), the rest of the hand played out by the greedy policy (one-deck hands on bit sets
in :mod:`rummykit.bots.fastplay`, others through the engine in
:mod:`rummykit.bots.playout`). The candidate with the best mean hand score wins (at
``medium``, where a drawn hand ends the match, only if it beats the greedy discard by a
standard error, :attr:`Budget.keep_first`); candidates clearly behind are dropped on the
way. Drawing, melds and lay-offs follow the greedy rules
(searched draws took high discards that cost points in real play). Keeping melds in hand to
go rummy (:mod:`rummykit.bots.holding`) is the level's style (:attr:`Budget.hold`): never
(``medium``, ``hard``: they meld and lay off like a person), or when the search says it
pays (``expert``: melding now and holding, the holding candidates played out by a seat that
keeps holding). A hint (:meth:`ExpertBot.analyse`) searches every kind of decision. A family
with its own search bot plays that one (:mod:`rummykit.bots.families`).

The budget is a number of worlds, so a seeded game is reproducible; ``max_seconds`` stops
sampling early for interactive play.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.variants import BASIC
>>> from rummykit.core.views import view
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(3))
>>> bot = ExpertBot.for_level("hard")
>>> bot.choose(view(state, state.to_move), random.Random(1)) in state.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from rummykit.bots import fastplay
from rummykit.bots.analysis import Analysis, Candidate
from rummykit.bots.families import policies_for
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.holding import holds_for_rummy
from rummykit.bots.inference import inference_weights
from rummykit.bots.judge import judge_for, layable_cards, live_cards, related
from rummykit.bots.playout import play_out
from rummykit.core.cards import cards_of, mask_of
from rummykit.core.engine import DRAW_PHASE, HandState
from rummykit.core.errors import RummyError
from rummykit.core.melds import tables_for
from rummykit.core.moves import Discard, LayOff, Meld, Move, Take
from rummykit.core.views import PlayerView, Weigh, resample

DISCARD_ORDER = "mixed"  # candidates: also structural ones ("mixed"), highest loose cards
# first ("shed") or by the judge
DANGER_LAY = 12.0  # a discard that fits a table meld: any opponent can take and lay it off
DANGER_KNOWN = 8.0  # a discard that goes with cards an opponent is known to hold
SAFE_DISCARDED = 2.0  # a discard related to cards an opponent threw away
WORLD_CHOICES = 8  # resamplings per world, one kept (see _sample_world)
PRUNE_EVERY = 8  # worlds between checks for candidates clearly behind
PRUNE_SIGMAS = 2.0  # how far behind (in standard errors) a candidate is dropped
NEVER, ALWAYS, SEARCHED = "never", "always", "searched"  # Budget.hold: when melds are held


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard the bot thinks: sampled worlds per decision and candidates kept."""

    worlds: int
    candidates: int
    max_turns: int = 120  # turns a playout may run before it is scored as it stands
    long_hand: int = 150  # past this many turns a hand is cycling: play greedily
    max_seconds: float | None = None
    hold: str = NEVER  # keeping melds to go rummy: NEVER, ALWAYS (when it may) or SEARCHED
    # worlds of a SEARCHED hold decision at most: its playouts run on the engine (expert, 12
    # seeded 2p basic hands against greedy: 128 worlds took 0.49 s CPU a decision, median)
    hold_worlds: int = 48
    # where a drawn hand ends the match (its playouts' value, fastplay.DRAWN_MATCH_VALUE,
    # swamps the hand points), the first candidate (the greedy move) stays the choice
    # unless another beats it by this many standard errors of their paired differences
    # (0: the best mean wins)
    keep_first: float = 0.0


LEVELS: dict[str, Budget] = {
    # medium keeps the greedy discard unless another is 1 s.e. better, where a drawn hand
    # ends the match (3p traditional against two greedy, mirrored hands, 200 deals, seed 3:
    # points per hand +0.50 -> +1.21, points lost when caught 21.9 -> 18.7; in 2p basic,
    # 150 deals, seed 4, it lost points: +0.92 -> +0.00, so it is off there)
    "medium": Budget(worlds=16, candidates=3, keep_first=1.0),
    "hard": Budget(worlds=48, candidates=4),
    "expert": Budget(worlds=128, candidates=4, hold=SEARCHED),
}


class ExpertBot:
    """Search bot: samples hidden cards, plays candidate moves out, keeps the best."""

    def __init__(self, budget: Budget | None = None, name: str = "expert") -> None:
        self.budget = budget or LEVELS["expert"]
        self.name = name
        self._greedy = GreedyBot()

    @classmethod
    def for_level(cls, level: str) -> ExpertBot:
        """The bot of a named search level: ``medium``, ``hard`` or ``expert``."""
        try:
            return cls(LEVELS[level], level)
        except KeyError:
            raise RummyError(
                f"unknown level {level!r}: expected one of {', '.join(LEVELS)}") from None

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """The move with the best estimate; forced and routine moves without search."""
        own = policies_for(view.rules)
        if own is not None:
            return own.choose(view, rng, self.budget)
        candidates = self.candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        return self.search(view, candidates, rng).best

    def analyse(self, view: PlayerView, rng: random.Random) -> Analysis:
        """Every candidate's estimate (a hint): routine moves are searched too."""
        own = policies_for(view.rules)
        if own is not None:
            return own.analyse(view, rng, self.budget)
        candidates = self.candidates(view, routine=False)
        return self.search(view, candidates, rng)

    # -- candidates ------------------------------------------------------------------
    def candidates(self, view: PlayerView, routine: bool = True) -> list[Move]:
        """The moves worth searching, best first by the quick measures; one move when the
        choice is forced or routine (``routine``: melds and lay-offs are played greedily)."""
        legal = view.legal
        if len(legal) == 1:
            return [legal[0]]
        if routine and view.turn_count >= self.budget.long_hand:
            return [self._greedy.choose(view, random.Random(0))]
        if policies_for(view.rules) is not None:
            return [self._greedy.choose(view, random.Random(0))]
        if view.phase == DRAW_PHASE:
            ranked = self._draw_candidates(view, legal)
            return ranked if not routine else [self._greedy.choose(view, random.Random(0))]
        placing = [m for m in legal if isinstance(m, (Meld, LayOff))]
        if placing and routine:
            hold = self.budget.hold
            greedy = self._greedy.choose(view, random.Random(0))
            if hold == NEVER or not holds_for_rummy(view):
                return [greedy]
            legal = tuple(m for m in legal if isinstance(m, Discard))
            view = view._replace(legal=legal)
            if hold == SEARCHED:  # melding now against holding (discards only)
                return [greedy, *self._discard_candidates(view, legal)[
                    :self.budget.candidates - 1]]
            if len(legal) == 1:
                return [legal[0]]
        return self._discard_candidates(view, legal)

    def _discard_candidates(self, view: PlayerView, legal: tuple[Move, ...]) -> list[Move]:
        """The discards worth searching: the greedy one, structural ones, then by the judge."""
        ranked = self._rank_discards(view, legal)
        simple = self._greedy.choose(view, random.Random(0))  # what a greedy player does
        if DISCARD_ORDER == "mixed":
            chosen = [simple]
            for move in (*self._structural(view, legal), *ranked):
                if move not in chosen and len(chosen) < self.budget.candidates:
                    chosen.append(move)
            return chosen
        others = [m for m in ranked if m != simple][:self.budget.candidates - 1]
        return [simple, *others]

    @staticmethod
    def _structural(view: PlayerView, legal: tuple[Move, ...]) -> list[Move]:
        """Discards a structure-minded player considers: the highest card related to no
        other card in hand, then the card whose loss costs least by the judge."""
        hand = view.hand
        values = tables_for(view.rules).values
        discards = [m for m in legal if isinstance(m, Discard)]
        found: list[Move] = []
        isolated = [m for m in discards
                    if not any(related(m.card, c) for c in cards_of(hand & ~(1 << m.card)))]
        if isolated:
            found.append(max(isolated, key=lambda m: (values[m.card % 13], m.card % 13)))
        judge = judge_for(view.rules)
        layable = layable_cards(view)
        live = live_cards(view)
        best = min(discards, key=lambda m: (
            judge.score(hand & ~(1 << m.card), layable, live & ~(1 << m.card)), m.card),
            default=None)
        if best is not None:
            found.append(best)
        return found

    def _draw_candidates(self, view: PlayerView, legal: tuple[Move, ...]) -> list[Move]:
        judge = judge_for(view.rules)
        top = view.discard_top
        takes = [m for m in legal if isinstance(m, Take)]
        others = [m for m in legal if not isinstance(m, Take)]
        if top is None or not takes or not others:
            return list(legal)
        layable = layable_cards(view)
        live = live_cards(view)
        hand = view.hand
        take_cost = judge.best_after(hand | 1 << top, layable, 1 << top)
        if take_cost < judge.drawing(hand, layable, live):
            return [takes[0], *others]
        return [*others, takes[0]]

    def _rank_discards(self, view: PlayerView, legal: tuple[Move, ...]) -> list[Move]:
        if DISCARD_ORDER == "shed":
            tables = tables_for(view.rules)
            melded = tables.melded(view.hand)
            values = tables.values
            shed = [m for m in legal if isinstance(m, Discard)]
            shed.sort(key=lambda m: (melded >> m.card & 1, -values[m.card % 13],
                                     -(m.card % 13)))
            return list(shed)
        judge = judge_for(view.rules)
        layable = layable_cards(view)
        live = live_cards(view)
        hand = view.hand
        scored = []
        for move in legal:
            if isinstance(move, Discard):
                card = move.card
                value = judge.score(hand & ~(1 << card), layable, live & ~(1 << card))
                scored.append((value + self._danger(view, card, layable), card, move))
        scored.sort(key=lambda entry: (entry[0], entry[1]))
        return [move for _, _, move in scored]

    @staticmethod
    def _danger(view: PlayerView, card: int, layable: int) -> float:
        danger = DANGER_LAY if layable >> card & 1 else 0.0
        for seat in range(view.num_players):
            if seat == view.seat:
                continue
            known = view.known[seat]
            while known:
                low = known & -known
                known ^= low
                if related(card, low.bit_length() - 1):
                    danger += DANGER_KNOWN
                    break
            thrown = view.discarded[seat] if view.discarded else 0
            while thrown:
                low = thrown & -thrown
                thrown ^= low
                if related(card, low.bit_length() - 1):
                    danger -= SAFE_DISCARDED
                    break
        return danger

    # -- search ----------------------------------------------------------------------
    def search(self, view: PlayerView, candidates: list[Move], rng: random.Random) -> Analysis:
        """Play every candidate out in the same sampled worlds; best mean score first
        (candidates dropped on the way come after those played to the end).

        Every :data:`PRUNE_EVERY` worlds, a candidate that trails the leader by more than
        :data:`PRUNE_SIGMAS` standard errors of their paired differences stops being played.
        """
        started = time.perf_counter()
        budget = self.budget
        count = len(candidates)
        values: list[list[float]] = [[] for _ in candidates]
        wins = [0] * count
        active = list(range(count)) if count > 1 else []
        weigh = inference_weights(view)
        fast = fastplay.supports(view) and all(fastplay.fast_move(m) for m in candidates)
        holder = view.seat if self._weighs_holding(view, candidates) else None
        sampler = fastplay.Sampler(view, weigh) if fast else None
        worlds = 0
        simulations = 0
        most = budget.worlds if holder is None else min(budget.worlds, budget.hold_worlds)
        while active and worlds < most:
            if sampler is not None:
                sampled = sampler.sample(rng)
                for i in active:
                    value, won = fastplay.play_out_world(sampled, view, candidates[i], rng,
                                                         max_turns=budget.max_turns)
                    values[i].append(value)
                    wins[i] += won
            else:
                world = _sample_world(view, rng, weigh)
                for i in active:
                    state = world.copy()
                    state.push(candidates[i])
                    keeps = holder if isinstance(candidates[i], Discard) else None
                    play_out(state, max_turns=budget.max_turns, holder=keeps)
                    value, won = _outcome(state, view.seat)
                    values[i].append(value)
                    wins[i] += won
            simulations += len(active)
            worlds += 1
            if worlds % PRUNE_EVERY == 0 and len(active) > 1:
                active = _pruned(active, values)
            if (budget.max_seconds is not None
                    and time.perf_counter() - started > budget.max_seconds):
                break
        found = [Candidate(move, sum(values[i]) / max(len(values[i]), 1),
                           wins[i] / max(len(values[i]), 1), len(values[i]))
                 for i, move in enumerate(candidates)]
        dropped = set(range(count)) - set(active)  # behind the leader when dropped
        order = sorted(range(count), key=lambda i: (len(active) > 0 and i in dropped,
                                                   -found[i].value, i))
        keep = budget.keep_first if view.rules.draw_ends_match else 0.0
        if keep > 0 and order[0] != 0 and not _beats(values[order[0]], values[0], keep):
            order.remove(0)
            order.insert(0, 0)
        return Analysis(view.seat, tuple(found[i] for i in order), simulations,
                        time.perf_counter() - started)

    def _weighs_holding(self, view: PlayerView, candidates: list[Move]) -> bool:
        """Whether the search compares melding now with holding (its discards held on in
        the playouts)."""
        return (self.budget.hold == SEARCHED
                and any(isinstance(m, (Meld, LayOff)) for m in candidates)
                and any(isinstance(m, Discard) for m in candidates) and holds_for_rummy(view))


def _beats(mine: list[float], first: list[float], sigmas: float) -> bool:
    """Whether ``mine`` beats ``first`` by more than ``sigmas`` standard errors of their
    paired differences over the worlds both played."""
    n = min(len(mine), len(first))
    if n < 2:
        return False
    diffs = [mine[w] - first[w] for w in range(n)]
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return mean > sigmas * spread / math.sqrt(n)


def _pruned(active: list[int], values: list[list[float]]) -> list[int]:
    """The candidates still worth playing: those not clearly behind the leader, comparing
    the worlds both played (the leader has played every world the others did)."""
    leader = max(active, key=lambda i: sum(values[i]) / len(values[i]))
    kept = []
    for i in active:
        if i == leader:
            kept.append(i)
            continue
        mine = values[i]
        diffs = [values[leader][w] - mine[w] for w in range(len(mine))]
        n = len(diffs)
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
        if mean <= PRUNE_SIGMAS * spread / math.sqrt(n):
            kept.append(i)
    return kept


def _sample_world(view: PlayerView, rng: random.Random, weigh: Weigh | None) -> HandState:
    """A world consistent with the view and likely under the others' play: players meld
    and lay off what they can, so a hidden hand holding a meld, or a card that fits the
    table, is unlikely. Of a few resamplings, one is drawn with those odds."""
    if policies_for(view.rules) is not None or WORLD_CHOICES <= 1:
        return resample(view, rng, weigh)
    constants = fastplay.constants_for(view.rules)
    layable = layable_cards(view)
    worlds = []
    odds = []
    for _ in range(WORLD_CHOICES):
        world = resample(view, rng, weigh)
        odd = 1.0
        for seat, hand in enumerate(world.hands):
            if seat != view.seat:
                odd *= fastplay.odds_of(constants, hand, hand & ~view.known[seat], layable,
                                        view.passed[seat] if view.passed else 0)
        worlds.append(world)
        odds.append(odd)
    pick = rng.random() * sum(odds)
    for world, odd in zip(worlds, odds, strict=True):
        pick -= odd
        if pick <= 0:
            return world
    return worlds[-1]


def _outcome(state: HandState, seat: int) -> tuple[float, int]:
    """(the seat's hand score less the others' mean, 1 if it won) of a played-out hand;
    a hand still going is scored by the hand measures of every seat."""
    result = state.result
    if result is None:
        return _estimate(state, seat), 0
    scores = result.scores
    others = (sum(scores) - scores[seat]) / (len(scores) - 1)
    mine = scores[seat] - others
    if state.rules.scoring == "penalty":
        mine = -mine
    return mine, int(result.winner == seat)


def _estimate(state: HandState, seat: int) -> float:
    """The seat's expected score less the others' mean in a hand still going
    (:func:`rummykit.bots.fastplay.estimate`)."""
    if policies_for(state.rules) is not None:
        return 0.0
    layable = 0
    shown = mask_of(state.discard)
    for meld in state.table:
        layable |= meld.accepts
        shown |= meld.mask
    return fastplay.estimate(fastplay.constants_for(state.rules), state.hands, seat, layable,
                             shown)
