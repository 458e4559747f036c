"""What each gin knob means (RULES.md §6.13), for the knob reference of the documentation.

The core's reference (:mod:`rummykit.core.knobs`) covers the knobs of core ``Rules``; gin's
rules are :class:`~rummykit.variants.gin.rules.GinRules`, so the family gives its own part:
:func:`knob_markdown`, a table of both presets' values and a paragraph per knob (anchors
``gin-KNOB``, as ``target_score`` and others are also core knobs). A knob without a meaning
here is an error.

>>> "| [`knock_limit`](#gin-knock_limit) | `10` | `10` |" in knob_markdown()
True
"""

from __future__ import annotations

import dataclasses
import json

from rummykit.core.errors import RummyError
from rummykit.variants.gin.rules import GIN_PRESETS, GinRules

#: every knob of GinRules, in field order
GIN_KNOB_NAMES = tuple(f.name for f in dataclasses.fields(GinRules)
                       if f.name not in ("name", "_options"))

MEANINGS: dict[str, str] = {
    "knock_limit": "The most deadwood a knock may leave (0: gin only). Under Oklahoma a cap "
                   "on the limit the first upcard sets.",
    "oklahoma": "The first upcard sets the hand's knock limit (its value, 10 for a face "
                "card; an ace: see `oklahoma_ace`).",
    "oklahoma_ace": "Under Oklahoma, what an ace upcard allows: `gin_only`, or `one` (knock "
                    "with at most 1 deadwood).",
    "oklahoma_spade_double": "Under Oklahoma, a spade first upcard doubles the hand's points.",
    "gin_bonus": "Points added for going gin (no deadwood).",
    "undercut_bonus": "Points added for the defender whose deadwood is at most the knocker's.",
    "tie_rule": "Equal deadwood after a knock: `undercut` (the defender wins), "
                "`knocker_wins`, or `no_score` (nobody scores).",
    "big_gin_bonus": "Points for big gin (all 11 cards melded after the draw); `null`: big gin "
                     "is not a move.",
    "rediscard_ban": "A card taken from the discard pile may not be discarded in the same "
                     "turn.",
    "knock_test": "How a knock is checked: `exact` (the declared arrangement's deadwood), or "
                  "`openspiel` (OpenSpiel's 11-card test before the discard, §6.14.2).",
    "layoff_rule": "Which lay-offs the defender may make: `standard`, or `openspiel` "
                   "(OpenSpiel's rule, §6.14.3).",
    "defender_melds": "The defender's melds at the show: `auto` (its best arrangement), or "
                      "`explicit` (it declares them, as OpenSpiel does).",
    "wall_knock": "At the wall (two stock cards left) a player may still take the discard "
                  "and knock; false: the hand is dead.",
    "repeated_move_draw": "A hand whose moves repeat (OpenSpiel's rule) ends drawn.",
    "upcard_take_limit": "The most draw-step takes from the discard pile in a hand (OpenSpiel's "
                         "limit); `null`: no limit.",
    "game_end": "`target`: a game to `target_score`; `single_hand`: one hand is the match.",
    "target_score": "The running total that ends a game.",
    "box_bonus": "Points per hand won, added when the game is settled (or at once with "
                 "`immediate_boxes`).",
    "immediate_boxes": "The box bonus is added to the running total as each hand is won.",
    "game_bonus": "Points for the player who wins the game.",
    "shutout_rule": "A game the loser scored nothing in: `double_total` (the winner's total "
                    "doubles), `flat` (adds `shutout_bonus`), or `none`.",
    "shutout_bonus": "The shutout's points under `shutout_rule` `flat`.",
    "next_dealer": "Who deals the next hand after a scored one: the `winner`, the `loser`, or "
                   "`alternate`; a drawn hand keeps the dealer.",
    "hollywood": "Three games at once (Hollywood scoring): a hand's points go to each game "
                 "its winner has opened.",
    "first_dealer": "How the first dealer is chosen: `random`, or `low_card` (a cut, the "
                    "lower rank deals).",
    "max_turns_per_hand": "An engine safety valve: a hand this long ends aborted; `null`: no "
                          "limit.",
}


def knob_markdown() -> str:
    """Gin's part of the knob reference as Markdown; RummyError names a knob without a
    meaning."""
    missing = [k for k in GIN_KNOB_NAMES if k not in MEANINGS]
    if missing:
        raise RummyError(f"gin knobs without a meaning in {__name__}: {', '.join(missing)}")
    names = tuple(GIN_PRESETS)
    lines = ["## Gin and Oklahoma Gin", "",
             "Gin's knobs (RULES.md §6.13); none of the knobs above applies to them.", "",
             "| knob | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for knob in GIN_KNOB_NAMES:
        cells = [f"`{json.dumps(getattr(GIN_PRESETS[n], knob))}`" for n in names]
        lines.append(f"| [`{knob}`](#gin-{knob}) | " + " | ".join(cells) + " |")
    lines.append("")
    for knob in GIN_KNOB_NAMES:
        lines += [f"### `{knob}` (gin) {{#gin-{knob}}}", "", MEANINGS[knob], ""]
    return "\n".join(lines)
