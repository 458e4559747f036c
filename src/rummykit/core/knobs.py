"""The knob reference, made from :class:`~rummykit.core.rules.Rules` itself.

Every field of ``Rules`` (except its name) is a knob, set in JSON form with
``Rules.from_options`` or ``--option KEY=VALUE``. :func:`reference` lists them with what
this code knows about each: the rule sets it applies to (each family's ``knobs``),
every preset's value in JSON form, and the values the validator accepts (asked of the
validator itself). Only the one-paragraph meaning of a knob is written here, in
:data:`MEANINGS`; a knob without one is an error, so a new knob cannot go undocumented.
The documentation site's knob page is :func:`markdown` (docs/hooks/knob_reference.py).

>>> ace = next(k for k in reference() if k.name == "ace_mode")
>>> ace.defaults
{'basic': 'low', 'traditional': 'low', 'contract': 'high_or_low'}
>>> ace.accepted
"one of 'low', 'high_or_low'"
>>> hand = next(k for k in reference() if k.name == "hand_size")
>>> hand.defaults["contract"]
[10, 10, 10, 10, 12, 12, 12]
>>> print(hand.accepted)
basic, traditional: an object keyed by player count; contract: a list of hand sizes, one
per deal
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Any

from rummykit.core.errors import RummyError
from rummykit.core.rules import PRESETS, Rules, applicable_knobs, preset_names

# Fields of Rules that are not knobs of their own (``deal_hand_sizes`` is contract's
# ``hand_size``).
NOT_KNOBS = ("name", "deal_hand_sizes", "_options")

MEANINGS: dict[str, str] = {
    "player_range": "The fewest and the most players the rule set seats, `[min, max]`.",
    "hand_size": "Cards dealt to each player. In basic and traditional an object keyed by "
                 "player count (`{\"2\": 10, \"3\": 7}`; a partial object changes only the "
                 "counts it names); in contract a list with one size per deal.",
    "deck_config": "The pack in contract: `bicycle` is 2 decks and 1 joker for 3-4 players, "
                   "3 decks and 2 jokers for 5-8; `pagat` is 2 decks and one joker fewer "
                   "than the players (3-5 players). Basic and traditional always use one "
                   "deck without jokers.",
    "ace_mode": "`low`: an ace is only below the 2 in a run (A-2-3). `high_or_low`: it may "
                "also stand above the king (Q-K-A), but a run never wraps round (K-A-2).",
    "ace_points": "What an ace counts when hands are scored. Unless it is set (the "
                  "presets show `null`), an ace counts 1 with `ace_mode` low and 15 with "
                  "high_or_low in basic and traditional, and 15 in contract.",
    "joker_points": "What a joker left in a hand counts against its holder (contract).",
    "run_min_length": "The fewest cards a run may have (3, or 4 for runs of four).",
    "max_melds_per_turn": "How many new melds a player may lay in one turn; `null` for no "
                          "limit. Lay-offs are never limited.",
    "must_discard_to_go_out": "When true a player can only go out by discarding the last "
                              "card, so a meld or lay-off that would empty the hand is "
                              "refused.",
    "going_rummy_multiplier": "The factor on the winner's points when they go out in one "
                              "turn having laid nothing on the table before (going rummy); "
                              "1 turns the bonus off.",
    "stock_rebuild": "What happens when the stock runs out: `shuffle_keep_top` shuffles the "
                     "discard pile except its top card into a new stock; `shuffle_all` "
                     "shuffles the whole pile; `turn_over_all` turns the pile over unshuffled "
                     "when the player chooses to draw from the stock.",
    "max_rebuilds": "How many times the stock may be rebuilt in one hand; when it runs out "
                    "again the hand is a draw. `null` for no limit.",
    "scoring": "`winner_collects`: the player who goes out scores the cards left in the "
               "other hands and the highest total wins. `penalty`: everyone else adds the "
               "cards left in their own hand and the lowest total wins.",
    "game_end": "`target`: the match ends when someone reaches `target_score` (needs "
                "`winner_collects`). `fixed_hands`: it ends after `num_hands` hands.",
    "target_score": "The total that wins the match under `game_end` target: a number, or an "
                    "object keyed by player count.",
    "num_hands": "The number of hands of a match under `game_end` fixed_hands; in contract "
                 "it equals the number of contracts.",
    "first_dealer": "Who deals the first hand: `random`, or `low_card` (everyone draws a "
                    "card and the lowest deals). The deal then passes to the left.",
    "blocked_deal": "`score_hands`: once every player is down and no card off the table can "
                    "ever be placed (no lay-off, no joker swap, no new meld), the deal ends "
                    "at once and every player scores the cards left in hand, as when someone "
                    "goes out. `none` turns this off (the turn limit then ends such a deal).",
    "deadlock_draw": "When true a hand is drawn as soon as every player holds one card and "
                     "no card off the table could ever be laid off.",
    "draw_counts_as_loss": "When true a drawn hand counts as a lost match for every player "
                           "in the statistics.",
    "draw_ends_match": "When true a drawn hand ends the whole match, with no winner; when "
                       "false the match goes on with the next deal.",
    "contract_schedule": "The contract of each deal, as `[sets, runs]` pairs: "
                         "`[[2, 0], [1, 1], ...]` is two sets in deal 1, a set and a run in "
                         "deal 2, and so on.",
    "contract_runs_distinct_suits": "When true the runs of one contract must all be of "
                                    "different suits.",
    "extra_melds_after_contract": "When true a player who has gone down may still lay new "
                                  "melds in later turns; by default they may only lay off.",
    "discard_dig": "When true a player may take a card from deeper in the discard pile "
                   "together with every card above it, and must then get that card onto "
                   "the table in the same turn.",
    "joker_swap": "When true a player who went down on an earlier turn may replace a joker "
                  "in a run by the card it stands for, and must lay that joker again in the "
                  "same turn.",
    "final_deal_rule": "The last deal of contract: `all_at_once_no_discard` means going "
                       "down with every card at once and no discard; "
                       "`all_at_once_discard_ok` allows lay-offs on those runs and one "
                       "final discard; `none` plays it like the other deals.",
    "max_turns_per_hand": "A safety limit, not a rule: a hand still going after this many "
                          "turns is aborted and scores nothing. `null` turns it off (bots "
                          "can play a hand that never ends).",
}


@dataclass(frozen=True, slots=True)
class Knob:
    """One knob: its meaning, the values it accepts and each preset's value."""

    name: str
    meaning: str
    accepted: str  # in the validator's words
    defaults: dict[str, Any]  # preset name -> JSON value; only the presets it applies to


def knob_names() -> list[str]:
    """Every knob, in the order of the fields of :class:`Rules`."""
    return [f.name for f in dataclasses.fields(Rules) if f.name not in NOT_KNOBS]


def json_value(rules: Rules, knob: str) -> Any:
    """The value of ``knob`` in ``rules``, in the JSON form ``Rules.from_options`` takes."""
    if knob == "hand_size" and rules.deal_hand_sizes:
        return list(rules.deal_hand_sizes)
    value = getattr(rules, knob)
    if knob in ("hand_size", "target_score") and isinstance(value, tuple):
        return {str(players): size for players, size in value}
    if isinstance(value, tuple):
        return json.loads(json.dumps(value))  # tuples of tuples as lists of lists
    return value


_EXPECTED = re.compile(r"expected (.*), got ")


def _refusal(preset: str, knob: str, value: Any) -> str | None:
    """The validator's description of what it expected, or None when it took ``value``."""
    try:
        Rules.from_options(preset, {knob: value})
    except RummyError as error:
        found = _EXPECTED.search(str(error))
        return found.group(1) if found else str(error)
    return None


def accepted_values(preset: str, knob: str) -> str:
    """What the validator accepts for ``knob`` in ``preset``, in its own words."""
    words = _refusal(preset, knob, "?") or "any text"
    if _refusal(preset, knob, None) is None:
        words += ", or null"
    if "object" not in words and _refusal(preset, knob, {}) is None:
        words += ", or an object keyed by player count"
    return words


def reference() -> list[Knob]:
    """Every knob (see the module docstring); RummyError names a knob without a meaning."""
    knobs = []
    undocumented = [name for name in knob_names() if name not in MEANINGS]
    if undocumented:
        raise RummyError(f"knobs without a meaning in rummykit/core/knobs.py: "
                         f"{', '.join(undocumented)}")
    for name in knob_names():
        presets = [p for p in preset_names() if name in applicable_knobs(p)]
        kinds: dict[str, list[str]] = {}
        for preset in presets:
            kinds.setdefault(accepted_values(preset, name), []).append(preset)
        accepted = next(iter(kinds)) if len(kinds) == 1 else "; ".join(
            f"{', '.join(where)}: {words}" for words, where in kinds.items())
        knobs.append(Knob(name, MEANINGS[name], accepted,
                          {p: json_value(PRESETS[p], name) for p in presets}))
    return knobs


def _shown(value: Any) -> str:
    return f"`{json.dumps(value)}`"


def markdown() -> str:
    """The knob reference as Markdown: a table of values by preset, then each knob."""
    knobs = reference()
    names = preset_names()
    lines = ["| knob | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for knob in knobs:
        cells = [_shown(knob.defaults[p]) if p in knob.defaults else "—"
                 for p in names]
        lines.append(f"| [`{knob.name}`](#{knob.name}) | " + " | ".join(cells) + " |")
    lines.append("")
    for knob in knobs:
        lines += [f"### `{knob.name}` {{#{knob.name}}}", "", knob.meaning, "",
                  f"- Applies to: {', '.join(knob.defaults)}.",
                  f"- Accepts: {knob.accepted}.", ""]
    return "\n".join(lines)
