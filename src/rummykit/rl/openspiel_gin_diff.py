"""The differential test of our gin against OpenSpiel's ``gin_rummy`` (RULES.md §6.14).

:func:`compare_hand` plays one deal on both engines in lockstep: OpenSpiel's policies choose
OpenSpiel actions, each is mapped onto our move by the table of §6.14.5 and played on our
:class:`~rummykit.variants.gin.hand.GinHand` under the OpenSpiel profile (§6.14.1, seat 0
the non-dealer = player 0). At every OpenSpiel decision the two legal sets are compared:

- offer, draw, wall: ``take``/``pass``/``draw`` action for action;
- discard: the cards to discard are the same, and action 55 (knock) is offered iff we list
  some knock or gin;
- the knock's discard (11 cards held): OpenSpiel's legal discards are the cards X of our
  listed ``knock X`` / ``gin X`` moves;
- the knock's meld ``m`` with melds ``L`` already laid and cards ``R`` left: OpenSpiel
  offers ``m`` iff we accept ``knock X: L / m / B`` with ``B`` the implied arrangement of
  ``R - m`` (the best completion), and its pass iff we accept ``knock X: L``;
- lay-offs: OpenSpiel's cards are those of our ``lay`` moves (and ``done`` is ours), and
  each lay-off played gets the target of §6.14.3 (the lowest meld the card fits);
- the defender's melds: OpenSpiel's are the 3-5-card melds we accept as ``meld G``.

The state is compared too (who moves, both hands, the discard top, the stock size, the
end of the hand), and at the end OpenSpiel's returns must be
``scores[p] - scores[1 - p]`` of our result. A disagreement stops its hand and is reported
with the deal and our moves so far: a reproduction.

``python -m rummykit.rl.openspiel_gin_diff [--hands N] [--seed S]`` (``make gin-diff``)
runs N hands per variant (standard and Oklahoma) for each policy pairing and prints the
counts.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummykit.core.cards import Card, format_card, format_cards, mask_of
from rummykit.core.errors import IllegalMoveError, RummyError
from rummykit.core.moves import Discard, LayOff, Meld
from rummykit.rl.openspiel_gin import (
    DRAW_STOCK,
    KNOCK,
    MELD_BASE,
    PASS,
    TAKE,
    Deal,
    OsHand,
    meld_cards,
    meld_ids,
    our_card,
)
from rummykit.rl.openspiel_gin_policies import POLICIES, Policy, make_policy
from rummykit.variants.gin.deadwood import implied_arrangement, is_set, mask_value
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import Gin, Knock
from rummykit.variants.gin.rules import GinRules, openspiel_profile

__all__ = ["HandReport", "Lockstep", "Tally", "compare_hand", "fitting_melds", "main", "run"]

PAIRINGS: tuple[tuple[str, str], ...] = (
    ("random", "random"), ("greedy", "greedy"), ("adversarial", "adversarial"),
    ("greedy", "adversarial"), ("adversarial", "greedy"), ("random", "adversarial"),
)


@dataclass
class HandReport:
    """One compared hand: decisions compared, disagreements, our result's reason."""

    deal: Deal
    rule_set: str  # the rule set compared (gin or its Oklahoma form)
    moves: list[str] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)  # OpenSpiel's player actions
    decisions: int = 0
    disagreements: list[str] = field(default_factory=list)
    reason: str | None = None
    #: decisions compared by kind, and the edges met (knocks at the limit, lay-offs, ...)
    kinds: Counter[str] = field(default_factory=Counter)

    def reproduction(self) -> str:
        """A record-like JSON of the deal and our moves up to the disagreement."""
        return json.dumps({"rules": self.rule_set, "profile": "openspiel", "dealer": 1,
                           "deal": self.deal.record(), "moves": self.moves,
                           "openspiel_actions": self.actions})


def _cards(mask_or_cards: Iterable[int]) -> str:
    return format_cards(sorted(mask_or_cards))


def fitting_melds(card: Card, melds: Sequence[tuple[Card, ...]], laid: Iterable[Card]
                  ) -> list[int]:
    """Numbers (1-based) of the knocker melds ``card`` fits under OpenSpiel's lay-off rule
    (§6.14.3), given the cards ``laid`` off so far.

    >>> from rummykit.core.cards import parse_card, parse_cards
    >>> melds = [tuple(parse_cards("CT DT HT")), tuple(parse_cards("SJ SQ SK"))]
    >>> fitting_melds(parse_card("ST"), melds, [])
    [1, 2]
    >>> fitting_melds(parse_card("S9"), melds, [parse_card("ST")])
    [2]
    >>> run = [tuple(parse_cards("S5 S6 S7"))]
    >>> fitting_melds(parse_card("ST"), run, parse_cards("S8 S9"))
    []
    """
    laid = set(laid)
    found = []
    for number, meld in enumerate(melds, 1):
        mask = mask_of(meld)
        if is_set(mask):
            if len(meld) == 3 and card % 13 == meld[0] % 13:
                found.append(number)
            continue
        ends = _ends(meld)
        grown = sorted({*meld, *(laid & ends)})
        if card in _ends(tuple(grown)):
            found.append(number)
    return found


def _ends(run: tuple[Card, ...]) -> set[Card]:
    low, high = min(run), max(run)
    out = set()
    if low % 13 != 0:
        out.add(low - 1)
    if high % 13 != 12:
        out.add(high + 1)
    return out


class Lockstep:
    """Both engines on one deal (ours under ``rules``, default the OpenSpiel profile)."""

    def __init__(self, deal: Deal, oklahoma: bool, rules: GinRules | None = None) -> None:
        self.os = OsHand(oklahoma, deal)
        if rules is None:
            rules = openspiel_profile(oklahoma)
        self.ours = GinHand.from_deal(rules, 1, deal.hands, deal.upcard, list(deal.stock))
        self.report = HandReport(deal, rules.name)
        self.knock_card: Card | None = None
        self.knock_groups: list[tuple[Card, ...]] = []
        self.knocker_melds: list[tuple[Card, ...]] = []
        self.laid: list[Card] = []

    def fail(self, text: str) -> None:
        """Record a disagreement (the hand stops at the first)."""
        self.report.disagreements.append(text)

    # ---------------------------------------------------------------- state checks

    def check_state(self) -> None:
        """Who moves, both hands, the stock size and the discard top agree."""
        os, ours = self.os, self.ours
        if ours.phase == "over":
            self.fail(f"our hand is over ({_reason(ours)}) but OpenSpiel's {os.phase} "
                      f"phase waits for player {os.player}")
            return
        if ours.to_move != os.player:
            self.fail(f"to move: ours seat {ours.to_move}, OpenSpiel player {os.player}")
        if os.phase in ("FirstUpcard", "Draw", "Discard", "Wall"):
            for p in (0, 1):
                theirs = sum(1 << our_card(c) for c in os.hand(p))
                if ours.hands[p] != theirs:
                    self.fail(f"seat {p} holds {_cards(_bits(ours.hands[p]))} in ours, "
                              f"{_cards(_bits(theirs))} in OpenSpiel")
            if int(os.state.stock_size()) != len(ours.stock):
                self.fail(f"stock: ours {len(ours.stock)} cards, "
                          f"OpenSpiel {os.state.stock_size()}")
            up = os.state.upcard()
            if up is not None and (not ours.discard or ours.discard[-1] != our_card(up)):
                top = format_card(ours.discard[-1]) if ours.discard else "none"
                self.fail(f"discard top: ours {top}, OpenSpiel {format_card(our_card(up))}")

    # ---------------------------------------------------------------- legal sets

    def compare_legal(self) -> None:
        """OpenSpiel's legal actions here correspond to our legal moves (module doc)."""
        os = self.os
        legal = os.legal()
        phase = os.phase
        self.report.kinds[_kind(phase, len(os.hand(os.player)), os.state)] += 1
        if phase == "Knock":
            if len(os.hand(os.player)) == 11:
                self._compare_set("knock discards", {our_card(a) for a in legal},
                                  {m.card for m in self._knocks()})
            else:
                self._compare_knock_melds(legal)
            return
        ours = self.ours.legal_moves()
        texts = {str(m) for m in ours}
        if phase in ("FirstUpcard", "Draw", "Wall"):
            names = {TAKE: "take", DRAW_STOCK: "draw", PASS: "pass",
                     KNOCK: "take"}
            self._compare_set(f"{phase} moves", {names[a] for a in legal}, texts)
            return
        if phase == "Discard":
            self._compare_set("discards", {our_card(a) for a in legal if a < TAKE},
                              {m.card for m in ours if isinstance(m, Discard)})
            knocks = self._knocks(ours)
            if (KNOCK in legal) != bool(knocks):
                self.fail(f"knock offered: OpenSpiel {KNOCK in legal}, ours "
                          f"{[str(m) for m in knocks] or 'no knock move'}")
            return
        # Layoff
        if "done" not in texts:
            self.fail(f"done is not among our moves {sorted(texts)}")
        if not os.state.finished_layoffs():
            self._compare_set("lay-off cards", {our_card(a) for a in legal if a < TAKE},
                              {m.card for m in ours if isinstance(m, LayOff)})
            return
        self._compare_set("defender melds",
                          {meld_cards(a - MELD_BASE) for a in legal if a >= MELD_BASE},
                          self._our_melds())

    def _knocks(self, moves: Sequence[object] | None = None) -> list[Knock | Gin]:
        found = self.ours.legal_moves() if moves is None else moves
        return [m for m in found if isinstance(m, (Knock, Gin))]

    def _our_melds(self) -> set[tuple[Card, ...]]:
        seat = self.ours.to_move
        hand = self.ours.hands[seat]
        accepted = set()
        for cards, _ in meld_ids().items():
            group = tuple(sorted(cards))
            if mask_of(group) & hand == mask_of(group) and self.ours.is_legal(Meld((group,))):
                accepted.add(group)
        return accepted

    def _compare_knock_melds(self, legal: list[int]) -> None:
        assert self.knock_card is not None
        seat = self.ours.to_move
        rest = mask_of(our_card(c) for c in self.os.hand(self.os.player))
        offered = {meld_cards(a - MELD_BASE) for a in legal if a >= MELD_BASE}
        accepted = set()
        laid = tuple(self.knock_groups)
        for cards in meld_ids():
            mask = mask_of(cards)
            if mask & rest != mask:
                continue
            group = tuple(sorted(cards))
            best = implied_arrangement(rest & ~mask)
            if self.ours.is_legal(Knock(self.knock_card, (*laid, group, *best))):
                accepted.add(group)
        self._compare_set(f"knock melds after {_groups(laid) or 'none'} (seat {seat})",
                          offered, accepted)
        ours_pass = self.ours.is_legal(Knock(self.knock_card, laid))
        if (PASS in legal) != ours_pass:
            self.fail(f"knock {format_card(self.knock_card)}: {_groups(laid)} with "
                      f"{_cards(_bits(rest))} left: OpenSpiel pass {PASS in legal}, "
                      f"ours accepts {ours_pass}")

    def _compare_set(self, what: str, theirs: set[Any], ours: set[Any]) -> None:
        if theirs != ours:
            self.fail(f"{what}: only OpenSpiel {_show(theirs - ours)}, "
                      f"only ours {_show(ours - theirs)}")

    # ---------------------------------------------------------------- moves

    def play(self, text: str) -> None:
        """Play our move ``text``; a refusal is a disagreement."""
        try:
            move = self.ours.play(text)
        except (IllegalMoveError, RummyError) as exc:
            self.fail(f"ours refuses {text!r}, which OpenSpiel played: {exc}")
            return
        self.report.moves.append(str(move))
        if (isinstance(move, (Knock, Gin))
                and mask_value(self.ours.knocker_loose) == self.ours.knock_limit):
            self.report.kinds["edge: knock at the limit"] += 1
        if isinstance(move, LayOff):
            self.report.kinds["edge: lay-off"] += 1
            fits = fitting_melds(move.card, self.knocker_melds, self.laid)
            if len(fits) > 1:
                self.report.kinds["edge: lay-off fitting two melds"] += 1
            if any(_beyond(move.card, self.knocker_melds[n - 1]) == 2 for n in fits):
                self.report.kinds["edge: lay-off two beyond a run's end"] += 1
            if not fits or move.target != fits[0]:
                self.fail(f"{text!r} became {str(move)!r}; §6.14.3 gives meld {fits[:1]}")
            self.laid.append(move.card)

    def apply(self, action: int) -> None:
        """Apply OpenSpiel's ``action`` to both engines (our move when one is complete)."""
        os = self.os
        phase = os.phase
        knock_discard = phase == "Knock" and len(os.hand(os.player)) == 11
        finished = bool(os.state.finished_layoffs())
        os.apply(action)
        if phase in ("FirstUpcard", "Draw"):
            self.play({TAKE: "take", DRAW_STOCK: "draw", PASS: "pass"}[action])
        elif phase == "Wall":
            self.play("take" if action == KNOCK else "pass")
        elif phase == "Discard":
            if action != KNOCK:
                self.play(f"discard {format_card(our_card(action))}")
        elif phase == "Knock":
            if knock_discard:
                self.knock_card = our_card(action)
            elif action == PASS:
                assert self.knock_card is not None
                self.knocker_melds = list(self.knock_groups)
                self.play(f"knock {format_card(self.knock_card)}: {_groups(self.knock_groups)}")
            else:
                self.knock_groups.append(meld_cards(action - MELD_BASE))
        elif not finished:
            if action != PASS:
                self.play(f"lay {format_card(our_card(action))}")
        elif action == PASS:
            self.play("done")
        else:
            self.play(f"meld {format_cards(meld_cards(action - MELD_BASE))}")

    def finish(self) -> None:
        """Both hands are over, and OpenSpiel's returns come from our scores."""
        ours = self.ours
        if ours.phase != "over":
            self.fail(f"OpenSpiel's hand is over but ours waits in phase {ours.phase} for "
                      f"seat {ours.to_move}")
            return
        result = ours.result
        assert result is not None
        self.report.reason = result.reason
        s = result.scores
        mine = (s[0] - s[1], s[1] - s[0])
        if mine != self.os.returns():
            self.fail(f"returns: OpenSpiel {self.os.returns()}, ours {mine} from scores "
                      f"{list(s)} ({result.result}, {result.reason})")


def _kind(phase: str, held: int, state: Any) -> str:
    if phase == "Knock":
        return "knock discard" if held == 11 else "knock meld"
    if phase == "Layoff":
        return "meld step" if state.finished_layoffs() else "lay-off"
    return phase.lower()


def _beyond(card: Card, meld: Sequence[Card]) -> int:
    """How far ``card`` lies beyond the ends of run ``meld`` (0 for a set or inside)."""
    if card // 13 != meld[0] // 13 or is_set(mask_of(meld)):
        return 0
    return max(min(meld) - card, card - max(meld), 0)


def _bits(mask: int) -> list[Card]:
    return [c for c in range(52) if mask >> c & 1]


def _groups(groups: Sequence[Sequence[Card]]) -> str:
    return " / ".join(format_cards(g) for g in groups)


def _show(items: set[Any]) -> str:
    shown = sorted(format_cards(i) if isinstance(i, tuple) else
                   format_card(i) if isinstance(i, int) else str(i) for i in items)
    return "{" + ", ".join(shown) + "}"


def _reason(hand: GinHand) -> str:
    return "unfinished" if hand.result is None else f"{hand.result.result} {hand.result.reason}"


def compare_hand(deal: Deal, oklahoma: bool, players: Sequence[Policy], rng: random.Random,
                 rules: GinRules | None = None) -> HandReport:
    """Play ``deal`` on both engines, OpenSpiel player p choosing with ``players[p]``
    (the same object twice for a :class:`Scripted` reproduction)."""
    step = Lockstep(deal, oklahoma, rules)
    for player in dict.fromkeys(players):  # each once, in seat order (reproducible)
        player.reset(rng)
    report = step.report
    while not step.os.over and not report.disagreements:
        step.check_state()
        if report.disagreements:
            break
        step.compare_legal()
        report.decisions += 1
        if report.disagreements:
            break
        action = players[step.os.player].choose(step.os, rng)
        report.actions.append(action)
        step.apply(action)
    if not report.disagreements:
        step.finish()
    return report


@dataclass
class Tally:
    """Counts over many compared hands."""

    hands: Counter[str] = field(default_factory=Counter)
    decisions: int = 0
    disagreements: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    examples: list[HandReport] = field(default_factory=list)

    def add(self, variant: str, report: HandReport, keep: int = 5) -> None:
        self.hands[variant] += 1
        self.decisions += report.decisions
        self.kinds.update(report.kinds)
        if report.disagreements:
            self.disagreements += 1
            if len(self.examples) < keep:
                self.examples.append(report)
        else:
            self.reasons[f"{variant} {report.reason}"] += 1


def run(hands: int, seed: int, oklahoma_values: Sequence[bool] = (False, True),
        pairings: Sequence[tuple[str, str]] = PAIRINGS, rules: GinRules | None = None
        ) -> Tally:
    """``hands`` hands per variant, spread over ``pairings``, seeded."""
    tally = Tally()
    for oklahoma in oklahoma_values:
        variant = openspiel_profile(oklahoma).name
        rng = random.Random(f"{seed} {variant}")
        for i in range(hands):
            pairing = pairings[i % len(pairings)]
            players = [make_policy(name) for name in pairing]
            report = compare_hand(Deal.shuffled(rng), oklahoma, players, rng, rules)
            tally.add(variant, report)
    return tally


def main(argv: list[str] | None = None) -> int:
    """Run the differential test and print the counts; exit status 1 on any disagreement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands per variant")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tally = run(args.hands, args.seed)
    spent = time.perf_counter() - started
    print(f"hands: {dict(tally.hands)} ({sum(tally.hands.values())} in {spent:.0f} s; "
          f"policies {', '.join(POLICIES)}; pairings {len(PAIRINGS)})")
    print(f"decisions compared: {tally.decisions} ("
          + ", ".join(f"{k} {v}" for k, v in sorted(tally.kinds.items())
                      if not k.startswith("edge")) + ")")
    print("edges met: " + ", ".join(f"{k[6:]} {v}" for k, v in sorted(tally.kinds.items())
                                    if k.startswith("edge")))
    print(f"disagreements: {tally.disagreements}")
    print("reasons seen: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.reasons.items())))
    for report in tally.examples:
        print("DISAGREEMENT: " + "; ".join(report.disagreements))
        print("  reproduction: " + report.reproduction())
    return 1 if tally.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
