"""The gin replay output (FORMATS.md §4.2-§4.3): the JSON and the readable account, from
the replayed hands and the match's score sheet.

A replayed hand is anything with ``dealer``, ``state`` (a :class:`GinHand`) and ``moves``
(``(seat, canonical text)`` pairs), as the core replay keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from rummykit.core.cards import cards_of, format_card, format_cards
from rummykit.core.errors import RecordError
from rummykit.core.outcome import ABORTED, WIN
from rummykit.display.wording import agree
from rummykit.variants.gin import outcome as why
from rummykit.variants.gin.game import Game, ScoreSheet, Settlement
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.outcome import hand_json


class PlayedHand(Protocol):
    """One replayed hand: its dealer, its state after the last move, its moves by seat."""

    @property
    def dealer(self) -> int: ...
    @property
    def state(self) -> Any: ...
    @property
    def moves(self) -> list[tuple[int, str]]: ...


def check_no_restocks(hands: Sequence[Any]) -> None:
    """Refuse a ``restocks`` key in any hand of a decoded gin record (FORMATS.md §4.2)."""
    for index, hand in enumerate(hands):
        if isinstance(hand, dict) and "restocks" in hand:
            raise RecordError(f"hands[{index}]: unknown key 'restocks' "
                              "(gin never rebuilds a stock)")


def hand_object(hand: GinHand) -> dict[str, Any]:
    """The gin hand object of the replay output, finished or not (FORMATS.md §4.3)."""
    if hand.result is not None and hand.outcome is not None:
        return hand_json(hand.result, hand.outcome)
    return {"result": "unfinished", "winner": None, "rummy": False, "reason": None,
            "scores": [0, 0], "knocker": hand.knocker, "knock_limit": hand.knock_limit,
            "multiplier": hand.multiplier, "deadwood": None}


def replay_json(hands: Sequence[GinHand], sheet: ScoreSheet) -> dict[str, Any]:
    """The whole replay output: the hands, then the match-level fields."""
    return {"hands": [hand_object(h) for h in hands], **sheet.to_json()}


# -- the readable account ---------------------------------------------------------------

def _offer(played: PlayedHand, names: Sequence[str]) -> tuple[str, int]:
    """The first-upcard decisions in words, and how many passes they took."""
    upcard = format_card(played.state.upcard)
    words, used = [], 0
    for seat, text in played.moves[:2]:
        if text == "pass":
            words.append(f"{names[seat]} passes")
            used += 1
        elif text == "take":  # the take stays in the turns: it starts that turn
            words.append(f"{names[seat]} takes it")
            break
        else:
            break
    return f"  First upcard {upcard}: {', '.join(words) if words else 'not yet decided'}", used


def _turn_lines(played: PlayedHand, names: Sequence[str], start: int) -> list[str]:
    hand: GinHand = played.state
    turns: list[tuple[int, list[str]]] = []
    for seat, text in played.moves[start:]:
        if text.startswith(("knock", "gin")):
            loose = hand.knocker_loose
            text += (f"  (deadwood {hand.knocker_deadwood}: {format_cards(cards_of(loose))})"
                     if loose else "  (no deadwood)")
        if not turns or text.startswith(("draw", "take", "pass")) or turns[-1][0] != seat:
            turns.append((seat, []))
        turns[-1][1].append(text)
    width = max(len(n) for n in names)
    return [f"  {i:3}. {names[seat]:<{width}}  {', '.join(moves)}"
            for i, (seat, moves) in enumerate(turns, 1)]


def result_line(number: int, hand: GinHand, names: Sequence[str]) -> str:
    """``Hand 3: Bob undercuts Ann 9 v 10 — Bob scores 26`` (FORMATS.md §4.3)."""
    result, outcome = hand.result, hand.outcome
    if result is None or outcome is None:
        return f"Hand {number}: unfinished, {names[hand.to_move]} to move ({hand.phase})"
    if result.result == ABORTED:
        return f"Hand {number}: aborted at the turn limit — no score"
    if result.result != WIN or result.winner is None:
        if result.reason == why.KNOCK_TIE and outcome.deadwood is not None:
            a, b = outcome.deadwood
            return f"Hand {number}: the knock is tied {a} v {b} — no score"
        words = {why.DEAD_HAND: "a dead hand at the wall",
                 why.REPEATED_MOVE: "drawn by a repeated move",
                 why.UPCARD_LIMIT: "drawn at the upcard-take limit"}
        return f"Hand {number}: {words.get(result.reason or '', result.reason)} — no score"
    winner, loser = result.winner, 1 - result.winner
    verb = {why.KNOCK: "knocks against", why.GIN: "goes gin against",
            why.BIG_GIN: "goes big gin against", why.UNDERCUT: "undercuts"}[result.reason or ""]
    score = f"{names[winner]} scores {result.scores[winner]}"
    if outcome.multiplier > 1:
        score += " (doubled: spade upcard)"
    deadwood = outcome.deadwood or (0, 0)
    return (f"Hand {number}: {names[winner]} {verb} {names[loser]} "
            f"{deadwood[winner]} v {deadwood[loser]} — {score}")


def _show_lines(hand: GinHand) -> list[str]:
    if hand.knocker is None:
        return []
    lines = ["  Knocker's melds:"]
    for index, meld in enumerate(hand.table, 1):
        lines.append(f"    {index}. {format_cards(cards_of(meld))}")
    if hand.laid:
        lines.append(f"  Laid off: {format_cards(cards_of(hand.laid))}")
    if hand.defender_groups:
        groups = " / ".join(format_cards(g) for g in hand.defender_groups)
        lines.append(f"  Defender's melds: {groups}")
    return lines


def hand_lines(number: int, played: PlayedHand, names: Sequence[str]) -> list[str]:
    """One hand of the readable account."""
    hand: GinHand = played.state
    head = f"Hand {number}, dealt by {names[played.dealer]} (knock limit {hand.knock_limit}"
    head += ", spade upcard: points doubled)" if hand.multiplier > 1 else ")"
    offer, used = _offer(played, names)
    return [head, offer, *(_turn_lines(played, names, used) or ["  (no moves)"]),
            *_show_lines(hand), "  " + result_line(number, hand, names)]


def _settlement_lines(title: str, game: Game | None, final: Settlement,
                      names: Sequence[str]) -> list[str]:
    def per_seat(values: Sequence[int]) -> str:
        return ", ".join(f"{names[s]} {v}" for s, v in enumerate(values))

    winner = game.winner if game is not None else None
    lines = [f"{title}" + (f": {agree(names[winner], 'wins')}" if winner is not None else "")]
    lines.append("  boxes " + ", ".join(f"{names[s]} {n} ({p})" for s, (n, p) in
                                        enumerate(zip(final.boxes, final.box_points,
                                                      strict=True))))
    lines.append(f"  game bonus {per_seat(final.game_bonus)}"
                 + ("; shutout" if final.shutout else ""))
    lines.append(f"  final {per_seat(final.totals)}")
    return lines


def sheet_lines(hands: Sequence[GinHand], sheet: ScoreSheet, names: Sequence[str]) -> list[str]:
    """The score sheet: each scored hand, the totals, and each settled game."""
    width = max(6, *(len(n) for n in names))
    lines = ["Score sheet", "  hand  " + " ".join(f"{n:>{width}}" for n in names)]
    for number, hand in enumerate(hands, 1):
        if hand.result is not None:
            cells = " ".join(f"{p:>{width}}" for p in hand.result.scores)
            lines.append(f"  {number:<4}  {cells}")
    label = "match " if sheet.rules.hollywood and sheet.over else "total "  # settled games
    lines.append(f"  {label}" + " ".join(f"{t:>{width}}" for t in sheet.totals))
    if sheet.final is not None:
        lines += _settlement_lines("Game over", sheet.games[0], sheet.final, names)
    if sheet.rules.hollywood:
        for number, game in enumerate(sheet.games, 1):
            if game.final is not None:
                lines += _settlement_lines(f"Hollywood game {number}", game, game.final, names)
            else:
                scores = ", ".join(f"{names[s]} {v}" for s, v in enumerate(game.scores))
                lines.append(f"Hollywood game {number}: in progress, {scores}")
    return lines


def match_line(sheet: ScoreSheet, names: Sequence[str]) -> str:
    """Who won the game (or the match), or that it goes on."""
    if not sheet.over:
        return "The game is not over."
    whole = "match" if sheet.rules.hollywood or sheet.rules.game_end == "single_hand" else "game"
    if not sheet.winners:
        return f"The {whole} is over with no winner (the hand was drawn)."
    who = " and ".join(names[s] for s in sheet.winners)
    return f"The {whole} is over: " + (f"{who} win (tied)." if len(sheet.winners) > 1
                                        else agree(who, "wins") + ".")
