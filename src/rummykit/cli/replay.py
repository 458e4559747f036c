"""``rummykit replay FILE [--json] [--check]``: replay a record and report (FORMATS.md §3).

:func:`run` returns the exit status and the text for stdout; the CLI only prints it.
Without ``--json`` the text is a readable account: each hand's turns with the player who
made them, the melds on the table at the end of the hand, and the score sheet.
"""

from __future__ import annotations

import json

from rummykit.core.outcome import BLOCKED
from rummykit.core.record import HandReplay, Replay, ReplayError, replay_file
from rummykit.core.views import public_view
from rummykit.display.terms import facts_of, facts_words, score_label, sheet_title, terms_of, unit
from rummykit.display.wording import agree
from rummykit.variants.table_hooks import is_down

__all__ = ["describe", "run"]


def run(path: str, as_json: bool, check: bool) -> tuple[int, str]:
    """Replay the record at ``path``: (0, output) if valid, (1, error) if not.

    With ``check`` the record's embedded ``"result"`` must equal the replay's output.
    """
    replayed = replay_file(path)
    error = replayed.check() if check else replayed.error
    if as_json:
        body = error.to_json() if error is not None else replayed.to_json()
        text = json.dumps(body, ensure_ascii=False) + "\n"
    else:
        text = describe(replayed, error)
    # a record may smuggle in lone surrogates (valid JSON escapes): print them escaped
    return (1 if error else 0), text.encode("utf-8", "backslashreplace").decode("utf-8")


def _error_line(error: ReplayError) -> str:
    where = []
    if error.hand is not None:
        where.append(f"hand {error.hand + 1}")
    if error.move is not None:
        where.append(f"move {error.move + 1}")
    if error.text is not None:
        where.append(repr(error.text))
    place = f" at {', '.join(where)}" if where else ""
    return f"Invalid record ({error.type} error{place}): {error.message}"


def _turns(played: HandReplay, names: list[str]) -> list[str]:
    turns: list[tuple[int, list[str]]] = []
    down: set[int] = set()
    word = terms_of(played.state.rules).down
    for seat, text in played.moves:
        if not turns or text.startswith(("draw", "take")) or turns[-1][0] != seat:
            turns.append((seat, []))
        if word and text.startswith("meld") and seat not in down:
            down.add(seat)  # where a contract is laid down, a seat's first meld is it
            text += f" (goes {word})"
        turns[-1][1].append(text)
    width = max(len(n) for n in names)
    return [f"  {i:3}. {names[seat]:<{width}}  {', '.join(moves)}"
            for i, (seat, moves) in enumerate(turns, 1)]


def _outcome(played: HandReplay, names: list[str]) -> str:
    result = played.state.result
    if result is None:
        state = played.state
        return f"  Unfinished: {names[state.to_move]} to move ({state.phase})."
    points = ", ".join(f"{names[s]} {p}" for s, p in enumerate(result.scores))
    kind = score_label(played.state.rules)
    if result.winner is None and result.reason == BLOCKED:
        return f"  Blocked: no card can be placed any more. {kind}: {points}."
    if result.winner is None:
        return f"  {result.result.capitalize()} ({result.reason}): no points."
    rummy = ", going rummy" if result.rummy else ""
    return f"  {agree(names[result.winner], 'goes')} out{rummy}. {kind}: {points}."


def _hand_lines(number: int, played: HandReplay, names: list[str]) -> list[str]:
    state = played.state
    facts = facts_words(facts_of(state.rules, state.num_players, state.deal_index))
    lines = [f"{unit(state.rules, capital=True)} {number}{f': {facts}' if facts else ''}, "
             f"dealt by {names[played.dealer]}"]
    lines += _turns(played, names) or ["  (no moves)"]
    word = terms_of(state.rules).down
    if word:
        seen = public_view(state)
        down = [names[s] for s in range(state.num_players) if is_down(seen, s)]
        lines.append(f"  {word.capitalize()}: {', '.join(down) if down else 'nobody'}")
    table = state.table
    lines.append("  Table:" if table else "  Table: empty")
    for index, meld in enumerate(table, 1):
        by = ", ".join(dict.fromkeys(names[s] for s in meld.placed_by))
        lines.append(f"    {index}. {meld}  ({by})")
    lines.append(_outcome(played, names))
    return lines


def _sheet(replayed: Replay, names: list[str]) -> list[str]:
    assert replayed.match is not None
    width = max(6, *(len(n) for n in names))
    rules = replayed.match.rules
    title = sheet_title(rules)
    if terms_of(rules).lowest_wins:
        title += " (lowest total wins)"
    lines = [title, f"  {unit(rules):<4}  " + " ".join(f"{n:>{width}}" for n in names)]
    for number, log in enumerate(replayed.match.hands, 1):
        if log.result is not None:
            cells = " ".join(f"{p:>{width}}" for p in log.result.scores)
            lines.append(f"  {number:<4}  {cells}")
    totals = " ".join(f"{t:>{width}}" for t in replayed.match.totals)
    lines.append(f"  total {totals}")
    return lines


def _match_line(replayed: Replay, names: list[str]) -> str:
    match = replayed.match
    assert match is not None
    if not match.over:
        return "The match is not over."
    if not match.winners:
        return "The match is over with no winner (a drawn hand ended it)."
    who = " and ".join(names[s] for s in match.winners)
    return "The match is over: " + (f"{who} win (tied)." if len(match.winners) > 1
                                     else agree(who, "wins") + ".")


def describe(replayed: Replay, error: ReplayError | None = None) -> str:
    """The readable account of a replay, then its error (or ``error``) if any."""
    own = replayed.account(error)  # a family that writes its own account
    if own is not None:
        return own
    error = error or replayed.error
    lines: list[str] = []
    record, match = replayed.record, replayed.match
    if record is not None and match is not None:
        names = list(record.players)
        options = json.dumps(record.options, ensure_ascii=False) if record.options else "none"
        seats = ", ".join(f"{s} {n}" for s, n in enumerate(names))
        lines.append(f"{match.rules.name} rummy, options {options}; players: {seats}")
        for number, played in enumerate(replayed.hands, 1):
            lines += ["", *_hand_lines(number, played, names)]
        if replayed.error is None:
            lines += ["", *_sheet(replayed, names), _match_line(replayed, names)]
    if error is not None:
        lines += ["", _error_line(error)] if lines else [_error_line(error)]
    return "\n".join(lines) + "\n"
