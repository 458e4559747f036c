"""Engine values in wire form. Renders what :mod:`rummykit.core.views` allows, hides nothing
itself: a view is rendered whole. Models are built without validation (the values come
from the engine, not from outside)."""

from __future__ import annotations

from typing import Any

from rummykit.core import handset
from rummykit.core.cards import format_card
from rummykit.core.errors import RummyError
from rummykit.core.knobs import json_value, knob_names
from rummykit.core.match import FamilyMatch
from rummykit.core.melds import format_placed
from rummykit.core.outcome import HandResult
from rummykit.core.rules import Rules
from rummykit.core.views import PlayerView
from rummykit.display.terms import facts_of, terms_of
from rummykit.server.bots import bot_levels, default_level
from rummykit.server.wire import (
    ContractOut,
    FactOut,
    LoggedMove,
    MatchOut,
    MeldOut,
    OptionOut,
    ResultOut,
    RuleSetOut,
    TermsOut,
    ViewOut,
)
from rummykit.variants.base import RulesLike
from rummykit.variants.registry import variant_for
from rummykit.variants.table_hooks import table_hooks


def _cards(hand: int) -> list[str]:
    return [format_card(c) for c in handset.cards(hand)]


def _seats(mask: int, players: int) -> list[int]:
    return [s for s in range(players) if mask >> s & 1]


def result_out(result: HandResult) -> ResultOut:
    """How a hand ended (FORMATS.md §3)."""
    return ResultOut.model_construct(result=result.result, winner=result.winner,
                                     rummy=result.rummy, reason=result.reason,
                                     scores=list(result.scores))


def contract_out(seen: PlayerView, facts: list[FactOut]) -> ContractOut | None:
    """The deal's meld quota (the family's, where it has one), else None: the
    ``contract`` field of the protocol, its words the family's fact."""
    quota = table_hooks(seen.rules).meld_quota(seen.rules, seen.deal_index)
    if quota is None:
        return None
    sets, runs = quota
    words = next((f.value for f in facts if f.label == "Contract"), "")
    return ContractOut.model_construct(sets=sets, runs=runs, words=words)


def facts_out(seen: PlayerView) -> list[FactOut]:
    """What the family shows about the deal in play."""
    return [FactOut.model_construct(label=f.label, value=f.value)
            for f in facts_of(seen.rules, seen.num_players, seen.deal_index)]


def view_out(seen: PlayerView) -> ViewOut:
    """The wire form of a view (a spectator's has seat -1, sent as null)."""
    result = seen.result
    facts = facts_out(seen)
    return ViewOut.model_construct(
        rules=seen.rules.name,
        seat=None if seen.seat < 0 else seen.seat,
        hand_number=seen.deal_index,
        dealer=seen.dealer,
        to_move=seen.to_move,
        phase=seen.phase,
        hand=_cards(seen.hand),
        hand_sizes=list(seen.hand_sizes),
        table=[MeldOut.model_construct(number=i + 1, kind=m.kind,
                                       cards=[format_placed(c) for c in m.cards],
                       placed_by=list(m.placed_by)) for i, m in enumerate(seen.table)],
        discard=[format_card(c) for c in seen.discard],
        stock_size=seen.stock_size,
        known=[_cards(k) for k in seen.known],
        discarded=[_cards(d) for d in seen.discarded],
        taken=None if seen.taken < 0 else format_card(seen.taken),
        turn_count=seen.turn_count,
        rebuilds=seen.rebuilds,
        down=_seats(table_hooks(seen.rules).seats_down(seen), seen.num_players),
        result=None if result is None else result_out(result),
        revealed=[_cards(h) for h in seen.revealed] if seen.revealed else None,
        contract=contract_out(seen, facts),
        facts=facts,
    )


def _players(rules: RulesLike) -> tuple[int, int]:
    """The range of player counts ``rules`` deals for."""
    def deals(players: int) -> bool:
        try:
            rules.check_players(players)
        except RummyError:
            return False
        return True
    counts = [n for n in range(2, 9) if deals(n)]
    return counts[0], counts[-1]


def _knobs(rules: RulesLike, name: str) -> dict[str, Any]:
    """Every knob's value, in the JSON form of ``options``."""
    if isinstance(rules, Rules):
        return {knob: json_value(rules, knob) for knob in knob_names()}
    return {knob: getattr(rules, knob) for knob in sorted(variant_for(name).knobs(name))}


def rule_set_out(name: str) -> RuleSetOut:
    """A registered rule set as its family describes it (``GET /api/rule-sets``)."""
    family = variant_for(name)
    rules = family.preset(name)
    terms = terms_of(rules)
    options = [OptionOut(knob=o.knob, label=o.label, kind=o.kind,  # type: ignore[arg-type]
                         default=o.default, choices=list(o.choices), minimum=o.minimum,
                         maximum=o.maximum, help=o.help, sets=[dict(c) for c in o.sets])
               for o in family.options(rules)]
    return RuleSetOut(
        name=name, family=family.name, players=_players(rules),
        terms=TermsOut(title=terms.title, hand=terms.hand, hands=terms.hands,
                       score=terms.score, lowest_wins=terms.lowest_wins, match=terms.match,
                       down=terms.down, meld_owners=terms.meld_owners),
        options=options, knobs=_knobs(rules, name), help=family.help_text(rules),
        bots=list(bot_levels(rules)), default_bot=default_level(rules))


def legal_out(seen: PlayerView) -> list[str]:
    """The viewer's legal moves in canonical notation (empty unless it is to move)."""
    return [str(m) for m in seen.legal]


def log_out(moves: list[tuple[int, int, str, bool]]) -> list[LoggedMove]:
    """A hand's moves in wire form (notation is public: every viewer gets the same)."""
    return [LoggedMove.model_construct(version=v, seat=s, move=m, bot=b)
            for v, s, m, b in moves]


def match_out(match: FamilyMatch[Any, Any], number: int) -> MatchOut:
    """The public state of a match."""
    hands = [result_out(log.result) for log in match.hands if log.result is not None]
    return MatchOut(number=number, hands_played=len(hands), hands=hands,
                    totals=list(match.totals), over=match.over, winners=list(match.winners))
