"""What the table offers: your hand in display order and the legal moves of a selection.

Only the engine's legal moves (``PlayerView.legal``) are offered; a selection of cards
picks the melds, lay-offs, swaps and discards that use exactly those cards.

>>> from rummykit.core.cards import parse_cards
>>> [str(m) for m in matching(tuple(parse_cards("H9")), [Discard(parse_cards("H9")[0])])]
['discard H9']
>>> keyed([Discard(parse_cards("H9")[0]), LayOff(parse_cards("H9")[0], 2, "low"),
...        LayOff(parse_cards("H9")[0], 2, "high")])
['x', '', '']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rummykit.core import handset
from rummykit.core.cards import JOKER, Card, card_points, rank_of
from rummykit.core.engine import DRAW_PHASE, PLAY_PHASE
from rummykit.core.melds import best_arrangement, hand_card
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take
from rummykit.core.views import PlayerView
from rummykit.display.faces import card_face, faces_in
from rummykit.display.terms import terms_of
from rummykit.variants.table_hooks import is_down, table_hooks

SORTS = ("suit", "rank")
MAX_OFFERED = 8


def ordered(seen: PlayerView, by: str) -> list[Card]:
    """Your cards by suit then rank, or by rank then suit; jokers last either way."""
    cards = seen.hand_cards
    if by == "rank":
        return sorted(cards, key=lambda c: (c == JOKER, rank_of(c) if c != JOKER else 0, c))
    return cards


def cards_used(move: Move) -> Counter[Card]:
    """The cards of your hand that a move puts on the table or the pile."""
    if isinstance(move, Meld):
        return Counter(hand_card(c) for group in move.groups for c in group)
    if isinstance(move, LayOff):
        return Counter([hand_card(move.card)])
    if isinstance(move, (Swap, Discard)):
        return Counter([move.card])
    return Counter()


def matching(selection: Sequence[Card], legal: Iterable[Move]) -> list[Move]:
    """The legal moves that use exactly the selected cards."""
    if not selection:
        return []
    wanted = Counter(selection)
    return [m for m in legal if not isinstance(m, (Draw, Take)) and cards_used(m) == wanted]


def offered(seen: PlayerView, selection: Sequence[Card]) -> list[Move]:
    """The moves the action bar offers: draw and take, or the selection's moves."""
    if seen.result is not None or seen.to_move != seen.seat:
        return []
    if seen.phase == DRAW_PHASE:
        return [m for m in seen.legal if isinstance(m, Draw)
                or (isinstance(m, Take) and m.count == 1)]
    if seen.phase == PLAY_PHASE:
        return matching(selection, seen.legal)[:MAX_OFFERED]
    return []


def key_of(move: Move) -> str:
    """The key that plays ``move`` once its cards are selected ("" for none)."""
    if isinstance(move, Draw):
        return "d"
    if isinstance(move, Take):
        return "t" if move.count == 1 else ""
    if isinstance(move, LayOff):
        return str(move.target) if move.target < 10 else ""
    return {Meld: "m", Discard: "x", Swap: "w"}.get(type(move), "")


def keyed(moves: Sequence[Move]) -> list[str]:
    """Each move's key, or "" where several of ``moves`` share it (then a key would not say
    which one it plays: the buttons do)."""
    keys = [key_of(m) for m in moves]
    counts = Counter(keys)
    return [k if counts[k] == 1 else "" for k in keys]


def label(move: Move, seen: PlayerView | None = None, key: str | None = None) -> str:
    """A button's words for a move, with its key (``key`` overrides :func:`key_of`)."""
    key = key_of(move) if key is None else key
    if isinstance(move, Draw):
        text = "Draw from stock"
    elif isinstance(move, Take) and move.count == 1:
        text = "Take the discard"
        if seen is not None and seen.discard_top is not None:
            text = f"Take {card_face(seen.discard_top)}"
    elif isinstance(move, Take):
        text = f"Dig {move.count} deep"
        if seen is not None and len(seen.discard) >= move.count:
            text = f"Dig {card_face(seen.discard[-move.count])} ({move.count} cards)"
    else:
        text = faces_in(str(move))
        text = text[:1].upper() + text[1:]
    return text + (f" ({key})" if key else "")


def fits(seen: PlayerView) -> dict[Card, tuple[int, ...]]:
    """The cards of your hand that may be laid off, with the melds they fit: in your play
    phase the legal lay-offs; otherwise the natural cards some table meld accepts (when
    you may lay off at all: where contracts are laid down, once you are down)."""
    found: dict[Card, set[int]] = {}
    if seen.to_move == seen.seat and seen.phase == PLAY_PHASE and seen.result is None:
        for move in seen.legal:
            if isinstance(move, LayOff):
                found.setdefault(hand_card(move.card), set()).add(move.target)
    elif not terms_of(seen.rules).down or is_down(seen, seen.seat):
        for card in set(seen.hand_cards) - {JOKER}:
            targets = {n for n, meld in enumerate(seen.table, 1) if meld.accepts >> card & 1}
            if targets:
                found[card] = targets
    return {card: tuple(sorted(targets)) for card, targets in found.items()}


def fit_tag(targets: tuple[int, ...]) -> str:
    """The tag of a card that fits melds: ``+2``, or ``+2…`` when it fits several."""
    return f"+{targets[0]}" + ("…" if len(targets) > 1 else "")


def points_line(seen: PlayerView) -> str:
    """Your hand's live count: deadwood (the points left out of melds) or, where melds
    come only with a contract laid down, the penalty you would take if someone went out
    now."""
    if terms_of(seen.rules).down:
        values = seen.rules.ace_value, seen.rules.joker_points
        points = sum(card_points(c, *values) for c in handset.cards(seen.hand))
        return f"penalty {points}"
    best = best_arrangement(seen.hand, seen.rules)
    return f"deadwood {best.deadwood}"


def guidance(seen: PlayerView, selection: Sequence[Card]) -> str:
    """One line telling you what you can do now."""
    if seen.result is not None:
        return "The hand is over."
    if seen.to_move != seen.seat:
        return "Waiting for the other players..."
    if seen.phase == DRAW_PHASE:
        return "Your turn: draw from the stock (d) or take the discard (t)."
    duties = [duty.brief for duty in table_hooks(seen.rules).duties(seen)]
    need = f" You must {' and '.join(duties)}." if duties else ""
    if not selection:
        return "Select cards (click, or arrows + space) to meld, lay off or discard." + need
    if not offered(seen, selection):
        return "No legal move uses exactly the selected cards." + need
    return "Choose an action: its key or its button (below your hand)." + need
