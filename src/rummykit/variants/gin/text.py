"""Gin in words for the terminal faces, from a seat's :class:`GinView` only.

Cards are written in the notation (``DT``, ``SA``); a face that draws faces rewrites them
(:func:`rummykit.display.faces.faces_in`). Besides sentences, :func:`knock_choices` lists
the arrangements a knock may declare (the menu a face offers after ``knock X``).

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> from rummykit.variants.gin.view import gin_view
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> choices_words(gin_view(hand, 1))
'The first upcard is C6: take it (take) or pass (pass).'
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.core.cards import Card, cards_of, format_card, format_cards
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take
from rummykit.core.outcome import ABORTED, WIN
from rummykit.variants.gin import outcome as why
from rummykit.variants.gin.deadwood import (
    Arrangement,
    arrangement_mask,
    arrangements,
    implied_arrangement,
    mask_value,
    melds_in,
)
from rummykit.variants.gin.game import Game, ScoreSheet
from rummykit.variants.gin.moves import BigGin, Done, Gin, GinMove, Knock, Pass
from rummykit.variants.gin.phases import (
    BIG_GIN_KNOCK,
    DISCARD_STEP,
    DRAW_STEP,
    GIN_KNOCK,
    OFFER,
    PLAIN_KNOCK,
    SHOW,
    WALL,
    WALL_KNOCK,
)
from rummykit.variants.gin.rules import GinRules
from rummykit.variants.gin.view import GinView

#: the most arrangements a knock menu lists
MENU_SIZE = 9
#: how a hand was knocked, by its ``kind``, as the agent protocol's ``knock`` field says it
KNOCK_KINDS = {PLAIN_KNOCK: "knock", GIN_KNOCK: "gin", BIG_GIN_KNOCK: "big_gin"}


def move_name(move: GinMove) -> str:
    """A move in a few words for a button: ``knock K♠`` without the melds, ``big gin``."""
    if isinstance(move, Knock):
        return f"knock {format_card(move.card)}"
    if isinstance(move, Gin):
        return f"gin {format_card(move.card)}"
    if isinstance(move, BigGin):
        return "big gin"
    return str(move)


def title_words(rules: GinRules) -> str:
    """The game's name for people: ``Gin Rummy``, ``Oklahoma Gin``, with Hollywood scoring
    or a single hand said."""
    name = "Oklahoma Gin" if rules.oklahoma else "Gin Rummy"
    if rules.hollywood:
        name += " (Hollywood scoring)"
    elif rules.game_end == "single_hand":
        name += " (one hand)"
    return name


def groups_words(groups: Arrangement) -> str:
    """``H7 H8 H9 / C2 D2 S2``, or ``no melds``."""
    return " / ".join(format_cards(g) for g in groups) or "no melds"


def arranged_words(hand: int, groups: Arrangement | None = None) -> str:
    """A hand split into melds and deadwood (the implied arrangement unless given):
    ``melds H7 H8 H9 / C2 D2 S2; deadwood S5 D3 = 8``."""
    if groups is None:
        groups = implied_arrangement(hand)
    loose = hand & ~arrangement_mask(groups)
    dead = f"deadwood {format_cards(cards_of(loose))} = {mask_value(loose)}" if loose \
        else "no deadwood"
    return f"melds {groups_words(groups)}; {dead}" if groups else f"no melds; {dead}"


def hand_words(seen: GinView) -> str:
    """Your hand and its best arrangement."""
    count = seen.hand.bit_count()
    return (f"Your hand: {format_cards(seen.hand_cards)}\n  ({count} cards; "
            f"{arranged_words(seen.hand)})")


def knock_choices(seen: GinView, card: Card) -> list[GinMove]:
    """The knocks discarding ``card`` that the seat may make now: the implied arrangement
    first, then every other arrangement within the knock limit that leaves no meld among
    its deadwood, least deadwood first (at most :data:`MENU_SIZE`); empty when ``card``
    allows no knock."""
    listed = [m for m in seen.legal if isinstance(m, (Knock, Gin)) and m.card == card]
    if not listed:
        return []
    first = listed[0]
    rest = seen.hand & ~(1 << card)
    found: list[tuple[int, Arrangement]] = []
    for melds in arrangements(rest, seen.knock_limit):
        loose = rest & ~sum(melds)
        if melds_in(loose):
            continue
        groups = tuple(tuple(cards_of(m)) for m in sorted(melds, key=lambda m: (
            m & -m, m.bit_count())))
        found.append((mask_value(loose), groups))
    found.sort(key=lambda item: (item[0], len(item[1])))
    choices: list[GinMove] = [first]
    seen_masks = {frozenset(arrangement_mask((g,)) for g in first.groups or ())}
    for dead, groups in found:
        key = frozenset(arrangement_mask((g,)) for g in groups)
        if key in seen_masks:
            continue
        seen_masks.add(key)
        choices.append(Gin(card, groups) if dead == 0 else Knock(card, groups))
        if len(choices) == MENU_SIZE:
            break
    return choices


def choice_words(move: GinMove, hand: int) -> str:
    """One knock of a menu: its groups and the deadwood left."""
    if isinstance(move, (Knock, Gin)):
        rest = hand & ~(1 << move.card)
        return arranged_words(rest, move.groups or ())
    return str(move)


def choices_words(seen: GinView) -> str:
    """What the seat may do now, in one sentence."""
    top = seen.discard_top
    phase = seen.phase
    if phase == OFFER:
        return f"The first upcard is {format_card(seen.upcard)}: take it (take) or pass (pass)."
    if phase == DRAW_STEP:
        if seen.stock_only or top is None:
            return "Draw from the stock (draw): both passed the first upcard."
        return f"Draw from the stock (draw) or take {format_card(top)} (take)."
    if phase == WALL:
        take = f" or take {format_card(top)} to knock (take)" if any(
            isinstance(m, Take) for m in seen.legal) and top is not None else ""
        return f"The wall: two cards left in the stock. Pass (the hand is dead){take}."
    if phase in (DISCARD_STEP, WALL_KNOCK):
        knocks = sorted({m.card for m in seen.legal if isinstance(m, (Knock, Gin))})
        gins = sorted({m.card for m in seen.legal if isinstance(m, Gin)})
        parts = [] if phase == WALL_KNOCK else ["Discard a card (discard CARD)"]
        if gins:
            parts.append(f"go gin discarding {format_cards(gins)} (gin X)")
        plain = [c for c in knocks if c not in gins]
        if plain:
            parts.append(f"knock discarding {format_cards(plain)} (knock X)")
        if any(isinstance(m, BigGin) for m in seen.legal):
            parts.append("go big gin (gin)")
        if seen.taken >= 0 and seen.rules.rediscard_ban:
            parts.append(f"not {format_card(seen.taken)}, taken this turn")
        text = "; ".join(parts) or "No move"
        return text + f". Knock limit {seen.knock_limit}."
    if phase == SHOW:
        lays = [m for m in seen.legal if isinstance(m, LayOff)]
        melds = [m for m in seen.legal if isinstance(m, Meld)]
        parts = []
        if lays:
            parts.append("lay off (lay CARD on N)")
        if melds:
            parts.append("meld (meld CARDS)")
        return "The show: " + ", ".join([*parts, "then done (done)."])
    return "The hand is over."


def knock_kind_words(seen: GinView) -> str:
    """``knocked`` / ``went gin`` / ``went big gin``."""
    return {GIN_KNOCK: "went gin", BIG_GIN_KNOCK: "went big gin"}.get(seen.kind, "knocked")


def table_lines(seen: GinView, names: Sequence[str]) -> list[str]:
    """The public table: discard pile, stock, what each side is known to hold; at the show
    the knocker's melds (numbered, lay-offs in), deadwood and the defender's melds."""
    top = format_card(seen.discard_top) if seen.discard_top is not None else "empty"
    lines = [f"Discard: {top} ({len(seen.discard)} face up)  Stock: {seen.stock_size}  "
             f"Knock limit {seen.knock_limit}"
             + ("   (spade upcard: points doubled)" if seen.multiplier > 1 else "")]
    for seat in (0, 1):
        if seat == seen.seat:
            continue
        known = seen.known[seat]
        extra = f", holds {format_cards(cards_of(known))} from the pile" if known else ""
        lines.append(f"  {names[seat]}: {seen.hand_sizes[seat]} cards{extra}")
    if seen.knocker is not None:
        lines += show_lines(seen, names)
    return lines


def show_lines(seen: GinView, names: Sequence[str]) -> list[str]:
    """The knocker's melds as they now stand and what the defender has shown."""
    assert seen.knocker is not None
    who = names[seen.knocker]
    loose = seen.knocker_deadwood
    lines = [f"{who} {knock_kind_words(seen)}; melds:"]
    for number, meld in enumerate(seen.table, 1):
        laid = meld & seen.laid
        extra = f"  (laid off: {format_cards(cards_of(laid))})" if laid else ""
        lines.append(f"  {number}. {format_cards(cards_of(meld))}{extra}")
    dead = f"{format_cards(cards_of(loose))} = {mask_value(loose)}" if loose else "none"
    lines.append(f"  {who}'s deadwood: {dead}")
    if seen.defender_groups:
        lines.append(f"  {names[1 - seen.knocker]} melded: "
                     f"{groups_words(seen.defender_groups)}")
    return lines


def move_words(name: str, move: GinMove, before: GinView, after: GinView) -> str:
    """A move as the others see it (``name`` is who made it)."""
    if isinstance(move, Take):
        card = before.discard_top
        return f"{name}: take {format_card(card)}" if card is not None else f"{name}: take"
    if isinstance(move, Pass):
        return f"{name}: pass" + (" (the hand is dead at the wall)" if before.phase == WALL
                                  else "")
    if isinstance(move, Draw):
        return f"{name}: draw from the stock"
    if isinstance(move, Discard):
        return f"{name}: discard {format_card(move.card)}"
    if isinstance(move, (Knock, Gin)):
        face = format_card(move.card) if after.face_down >= 0 else "a card face down"
        verb = "knocks" if isinstance(move, Knock) else "goes gin"
        return f"{name}: {verb}, discarding {face}; melds {groups_words(move.groups or ())}"
    if isinstance(move, BigGin):
        return f"{name}: goes big gin, melds {groups_words(move.groups or ())}"
    if isinstance(move, LayOff):
        meld = after.table[move.target - 1]
        return (f"{name}: lays off {format_card(move.card)} on meld {move.target} "
                f"(now {format_cards(cards_of(meld))})")
    if isinstance(move, Meld):
        return f"{name}: melds {groups_words(move.groups)}"
    if isinstance(move, Done):
        return f"{name}: done"
    return f"{name}: {move}"


def points_words(seen: GinView) -> str:
    """How the hand's points were made: the deadwood difference, the bonus, the doubling
    and the box."""
    result, outcome, rules = seen.result, seen.outcome, seen.rules
    if result is None or outcome is None or result.winner is None or outcome.deadwood is None:
        return ""
    winner = result.winner
    dead = outcome.deadwood
    mine, theirs = dead[winner], dead[1 - winner]
    reason = result.reason
    if reason == why.GIN:
        text = f"{theirs} deadwood + gin bonus {rules.gin_bonus}"
    elif reason == why.BIG_GIN:
        text = f"{theirs} deadwood + big gin bonus {rules.big_gin_bonus or 0}"
    elif reason == why.UNDERCUT:
        diff = f"{theirs} - {mine} + " if theirs != mine else ""
        text = f"{diff}undercut bonus {rules.undercut_bonus}"
    else:
        text = f"{theirs} - {mine} deadwood"
    if outcome.multiplier > 1:
        text = f"({text}) x {outcome.multiplier} (spade upcard)"
    if rules.immediate_boxes:
        text += f" + box {rules.box_bonus}"
    return f"{text} = {result.scores[winner]}"


def end_words(seen: GinView, names: Sequence[str]) -> str:
    """How the hand ended, in one line."""
    result = seen.result
    assert result is not None
    if result.result == ABORTED:
        return "aborted at the turn limit: no score"
    if result.result != WIN or result.winner is None:
        return {why.DEAD_HAND: "a dead hand at the wall: no score",
                why.REPEATED_MOVE: "drawn by a repeated move: no score",
                why.UPCARD_LIMIT: "drawn at the upcard-take limit: no score",
                why.KNOCK_TIE: "the knock is tied: no score"}.get(result.reason or "",
                                                                  "drawn: no score")
    winner = names[result.winner]
    verb = {why.KNOCK: "wins the knock", why.GIN: "goes gin", why.BIG_GIN: "goes big gin",
            why.UNDERCUT: "undercuts"}.get(result.reason or "", "wins")
    return f"{winner} {verb}: {points_words(seen)}"


def result_lines(seen: GinView, names: Sequence[str]) -> list[str]:
    """The finished hand: both hands as arranged and counted, the show, the points."""
    assert seen.result is not None and seen.revealed
    lines = [end_words(seen, names)]
    for seat in (0, 1):
        rest = seen.revealed[seat]
        if seat == seen.knocker:
            lines.append(f"  {names[seat]} (knocker): "
                         f"{arranged_words(rest, seen.knock_groups)}")
        elif seen.knocker is not None:
            parts = []
            if seen.defender_groups:
                parts.append(f"melded {groups_words(seen.defender_groups)}")
            if seen.laid:
                parts.append(f"laid off {format_cards(cards_of(seen.laid))}")
            if seen.rules.defender_melds == "auto" and rest:
                parts.append(f"the rest: {arranged_words(rest)}")  # counted at its best
            else:
                left = format_cards(cards_of(rest))
                parts.append(f"deadwood {left} = {mask_value(rest)}" if rest else "no deadwood")
            lines.append(f"  {names[seat]} (defender): {'; '.join(parts)}")
        else:
            lines.append(f"  {names[seat]}: {arranged_words(rest)}")
    if seen.face_down >= 0:
        lines.append(f"  The knock discard: {format_card(seen.face_down)}")
    return lines


def progress_words(sheet: ScoreSheet, names: Sequence[str]) -> str:
    """The game so far: each seat's total and boxes, and the target (or Hollywood's
    three games, or the single hand)."""
    rules = sheet.rules
    if rules.game_end == "single_hand":
        return "One hand decides the game."

    def seat_words(game: Game, seat: int) -> str:
        boxes = game.wins[seat]
        return f"{names[seat]} {game.scores[seat]} ({boxes} box{'es' * (boxes != 1)})"

    if not rules.hollywood:
        game = sheet.games[0]
        return (f"Game to {rules.target_score}: "
                f"{', '.join(seat_words(game, s) for s in (0, 1))}.")
    parts = []
    for number, game in enumerate(sheet.games, 1):
        state = f"won by {names[game.winner]}" if game.winner is not None else "playing"
        parts.append(f"game {number} ({state}): "
                     f"{', '.join(seat_words(game, s) for s in (0, 1))}")
    return f"Hollywood, three games to {rules.target_score}:\n  " + "\n  ".join(parts)
