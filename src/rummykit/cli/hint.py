"""``rummykit hint FILE``: the search bot's advice for one position of a game record.

The position is hand ``--hand K`` (1-based, as the readable replay numbers hands) after its
first ``--move N`` moves; by default the end of the record, a match in progress. Bad input
is a :class:`HintError` whose message quotes it; the command prints it with status 2.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from rummykit.core.errors import RecordError
from rummykit.core.match import FamilyMatch, Match
from rummykit.core.outcome import ABORTED, WIN
from rummykit.core.record import Record, load, loads, replay
from rummykit.core.rules import Rules
from rummykit.core.views import view
from rummykit.display.terms import facts_of, facts_words, unit
from rummykit.variants.registry import variant_for
from rummykit.variants.table_kinds import KNOCK, table_kind

__all__ = ["HintError", "Position", "hint", "locate", "read", "run"]


class HintError(ValueError):
    """Input a hint cannot be given for; the message quotes it and says why."""


@dataclass(frozen=True, slots=True)
class Position:
    """Hand ``hand`` (0-based) of a record after its first ``moves`` moves."""

    record: Record
    hand: int
    moves: int
    state: Any  # the family's hand


def read(source: str) -> Record:
    """The valid record at ``source`` (a path, or ``-`` for stdin)."""
    name = "<stdin>" if source == "-" else source
    try:
        record = loads(sys.stdin.read()) if source == "-" else load(source)
    except RecordError as error:
        message = str(error)
        raise HintError(message if repr(name) in message else f"{name!r}: {message}") from None
    bad = replay(record).error
    if bad is not None:
        where = [f"{label} {index + 1}" for label, index
                 in (("hand", bad.hand), ("move", bad.move)) if index is not None]
        if bad.text is not None:
            where.append(repr(bad.text))
        place = f" at {', '.join(where)}" if where else ""
        raise HintError(f"{name!r} is not a valid record ({bad.type} error{place}): "
                        f"{bad.message}")
    return record


def _replay_to(record: Record, hand: int, moves: int) -> Any:
    """Replay a valid record up to hand ``hand`` after ``moves`` of its moves (the
    family's hand: a ``HandState`` for the draw-and-discard engine's rules)."""
    rules = variant_for(record.rules).rules_from_options(record.rules, record.options)
    match: FamilyMatch[Any, Any] = (
        Match(rules, record.players, seed=record.seed, dealer=record.dealer)
        if isinstance(rules, Rules)
        else FamilyMatch(rules, record.players, seed=record.seed, dealer=record.dealer))
    for index, played in enumerate(record.hands[:hand + 1]):
        deal = None if played.deal is None else (
            played.deal.hands, played.deal.upcard, played.deal.stock)
        state = match.start_hand(played.deck, deal=deal, restocks=played.restocks)
        for text in played.moves[:moves] if index == hand else played.moves:
            match.play(text)
    return state


def _ended(state: Any, names: tuple[str, ...]) -> str:
    result = state.result
    assert result is not None
    if result.result == WIN and result.winner is not None:
        return f"{names[result.winner]} went out"
    if result.result == ABORTED:
        return "aborted at the turn limit"
    return f"drawn ({result.reason})"


def locate(record: Record, hand: int | None, move: int | None) -> Position:
    """The position to hint: ``hand`` 1-based, ``move`` moves played (defaults: the end)."""
    count = len(record.hands)
    if count == 0:
        raise HintError("the record has no hands yet: there is no position to hint")
    if hand is None:
        hand = count
    if not 1 <= hand <= count:
        raise HintError(f"--hand {hand}: the record has {count} hand{'s' * (count != 1)} "
                        f"(1..{count})")
    moves = len(record.hands[hand - 1].moves)
    if move is None:
        move = moves
    if not 0 <= move <= moves:
        raise HintError(f"--move {move}: hand {hand} has {moves} moves (--move 0..{moves}, "
                        "the number of moves played)")
    state = _replay_to(record, hand - 1, move)
    if state.result is not None:
        raise HintError(f"hand {hand} is over after {move} moves "
                        f"({_ended(state, record.players)}): there is no move to hint; "
                        f"choose an earlier position with --move 0..{move - 1}"
                        if move else f"hand {hand} ended at the deal: there is no move to hint")
    return Position(record, hand - 1, move, state)


def run(source: str, *, hand: int | None = None, move: int | None = None,
        seat: int | None = None, level: str = "expert", top: int = 5, seed: int | None = None,
        as_json: bool = False) -> str:
    """The hint for a position of the record at ``source`` as text (or JSON text)."""
    from rummykit.bots.hints import HINT_LEVELS, advice_lines, position_lines, to_json
    from rummykit.bots.hints import hint as advise

    if level not in HINT_LEVELS:
        raise HintError(f"--level {level!r}: expected one of {', '.join(HINT_LEVELS)}")
    if top < 1:
        raise HintError(f"--top {top}: expected 1 or more")
    place = locate(read(source), hand, move)
    state, names = place.state, list(place.record.players)
    if seat is not None and not 0 <= seat < len(names):
        raise HintError(f"--seat {seat}: expected a seat 0..{len(names) - 1}")
    if seat is not None and seat != state.to_move:
        raise HintError(f"--seat {seat}: at this position {names[state.to_move]} (seat "
                        f"{state.to_move}) is to move, and a hint is for the seat to move")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    if table_kind(state.rules) == KNOCK:
        return _knock_hint(place, names, level, seed, as_json, top)
    advice = advise(view(state, state.to_move), level, random.Random(seed))
    if as_json:
        body = {"hand": place.hand + 1, "moves_played": place.moves,
                "player": names[state.to_move], "rules": state.rules.name, "seed": seed,
                **to_json(advice, top)}
        return json.dumps(body, ensure_ascii=False) + "\n"
    facts = facts_words(facts_of(state.rules, state.num_players, state.deal_index))
    which = f"{unit(state.rules)} {place.hand + 1}{f' ({facts})' if facts else ''}"
    lines = [f"{names[state.to_move]} (seat {state.to_move}) to move: {state.rules.name} "
             f"rummy, {which}, after {place.moves} moves ({state.phase} step of turn "
             f"{state.turn_count + 1}). Seed {seed}.",
             *position_lines(advice.view, names), *advice_lines(advice, top)]
    return "\n".join(lines) + "\n"


def _knock_hint(place: Position, names: list[str], level: str, seed: int,
                as_json: bool, top: int) -> str:
    """The hint for a knock family's position (gin): from the seat's own view."""
    from rummykit.cli.gin_hint import advice, advice_lines
    from rummykit.variants.gin.text import hand_words, table_lines

    state = place.state
    seen = variant_for(state.rules.name).view(state, state.to_move)
    rng = random.Random(seed)
    if as_json:
        body = {"hand": place.hand + 1, "moves_played": place.moves,
                "player": names[state.to_move], "rules": state.rules.name, "seed": seed,
                **advice(seen, level, rng, top)}
        return json.dumps(body, ensure_ascii=False) + "\n"
    lines = [f"{names[state.to_move]} (seat {state.to_move}) to move: {state.rules.name}, "
             f"hand {place.hand + 1}, after {place.moves} moves ({state.phase} step of turn "
             f"{state.turn_count + 1}). Seed {seed}.",
             *hand_words(seen).splitlines(), *table_lines(seen, names),
             *advice_lines(seen, level, rng, top)]
    return "\n".join(lines) + "\n"


def hint(
    file: Annotated[str, typer.Argument(help="A .rummy.json match record, or - for stdin.")],
    hand: Annotated[int | None, typer.Option(
        help="The hand (1-based; default the last one).")] = None,
    move: Annotated[int | None, typer.Option(
        help="Moves of the hand played before the position (default all of them).")] = None,
    seat: Annotated[int | None, typer.Option(
        help="The seat asking (default the seat to move; it must be to move).")] = None,
    level: Annotated[str, typer.Option(help="Search level: medium, hard or expert.")
                     ] = "expert",
    top: Annotated[int, typer.Option(help="How many candidate moves to list.")] = 5,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", help="Seed for the search (the same seed, the same advice).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Advise the seat to move at a position of a match record: best moves, win chances."""
    try:
        output = run(file, hand=hand, move=move, seat=seat, level=level.strip().lower(),
                     top=top, seed=seed, as_json=as_json)
    except HintError as error:
        print(f"rummykit: error: {error}", file=sys.stderr)
        raise typer.Exit(2) from None
    sys.stdout.write(output.encode("utf-8", "backslashreplace").decode("utf-8"))
