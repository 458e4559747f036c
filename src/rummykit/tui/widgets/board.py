"""The table around your hand, each widget rendering your :class:`PlayerView`: the deal,
the other players, the numbered melds and the discard pile with the stock."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from rummykit.core import handset
from rummykit.core.melds import TableMeld
from rummykit.core.views import PlayerView
from rummykit.display.terms import facts_of, terms_of, unit
from rummykit.display.wording import plural
from rummykit.tui.cardart import face, inline
from rummykit.variants.table_hooks import is_down


class SeenWidget(Widget):
    """A widget drawn from your view and the players' names (attributes set from above)."""

    seen: reactive[PlayerView | None] = reactive(None, layout=True)
    names: reactive[tuple[str, ...]] = reactive((), layout=True)

    def render(self) -> RenderableType:
        if self.seen is None or not self.names:
            return Text("")
        return self.draw(self.seen)

    def draw(self, seen: PlayerView) -> Text:
        """The widget's text for ``seen``."""
        raise NotImplementedError


class DealInfo(SeenWidget):
    """Which hand or deal this is, its dealer, whose turn it is, and the deal's facts
    (its contract ...)."""

    hand_count: reactive[str] = reactive("")

    def draw(self, seen: PlayerView) -> Text:
        rules, names = seen.rules, self.names
        text = Text(terms_of(rules).title, style="bold")
        text.append(f"\n{unit(rules, capital=True)} {seen.deal_index + 1}{self.hand_count}, "
                    f"dealer {names[seen.dealer]}")
        for fact in facts_of(rules, seen.num_players, seen.deal_index):
            text.append(f"\n{fact.label}: ", style="bold")
            text.append(fact.value)
        if seen.result is None:
            turn = "your" if seen.to_move == seen.seat else f"{names[seen.to_move]}'s"
            text.append(f"\nTurn {seen.turn_count + 1}: {turn} {seen.phase}")
        return text


class Summary(SeenWidget):
    """The compact layout's lines in place of the left column: the deal and the scores,
    then every player's card count (and whether they are down, where contracts are laid
    down)."""

    hand_count: reactive[str] = reactive("")
    totals: reactive[tuple[int, ...]] = reactive(())
    goal: reactive[str] = reactive("")

    def draw(self, seen: PlayerView) -> Text:
        rules, names = seen.rules, self.names
        facts = facts_of(rules, seen.num_players, seen.deal_index)
        text = Text(f"{facts[0].label if facts else rules.name.capitalize()}: ", style="bold")
        text.append(f"{unit(rules, capital=True)} {seen.deal_index + 1}{self.hand_count}",
                    style="bold")
        text.append(f", dealer {names[seen.dealer]}")
        for fact in facts:
            text.append(f"; {fact.value}")
        down = terms_of(rules).down
        text.append(f" · {self.goal}", style="dim")
        for seat, size in enumerate(seen.hand_sizes):
            turn = seat == seen.to_move and seen.result is None
            text.append("\n" if seat == 0 else "  ")
            text.append(f"{'▶' if turn else ' '}{names[seat]} ", style="bold" if turn else "")
            points = self.totals[seat] if self.totals else 0
            text.append(f"{plural(size, 'card')} ({points} pts)")
            if down and is_down(seen, seat):
                text.append(f" {down}", style="green")
        return text


class Opponents(SeenWidget):
    """Every player with their card count, whether they are down, and known cards."""

    def draw(self, seen: PlayerView) -> Text:
        down = terms_of(seen.rules).down
        text = Text("Players", style="bold underline")
        for seat, size in enumerate(seen.hand_sizes):
            mark = "▶ " if seat == seen.to_move and seen.result is None else "  "
            name = self.names[seat]
            if seat == seen.seat and name.lower() != "you":
                name += " (you)"
            text.append(f"\n{mark}{name}: {plural(size, 'card')}",
                        style="bold" if seat == seen.to_move else "")
            if down:
                seat_down = is_down(seen, seat)
                text.append(f", {down}" if seat_down else f", not {down}",
                            style="green" if seat_down else "dim")
            known = handset.cards(seen.known[seat]) if seat != seen.seat else []
            if known:
                text.append("\n    holds ")
                text.append_text(inline(known))
        return text


def placers(meld: TableMeld, names: tuple[str, ...]) -> str:
    """Who placed a meld's cards: ``by Ann``, or ``Ann 3, Bob 1`` when several did."""
    counts: dict[int, int] = {}
    for seat in meld.placed_by:
        counts[seat] = counts.get(seat, 0) + 1
    if len(counts) == 1:
        return f"by {names[next(iter(counts))]}"
    return "by " + ", ".join(f"{names[s]} {n}" for s, n in counts.items())


class Melds(SeenWidget):
    """The melds on the table, numbered as in the notation; a click chooses one."""

    class Chosen(Message):
        """Table meld ``number`` (from 1) was clicked."""

        def __init__(self, number: int) -> None:
            self.number = number
            super().__init__()

    def draw(self, seen: PlayerView) -> Text:
        text = Text("Table melds", style="bold underline")
        if not seen.table:
            text.append("\n  no melds yet", style="dim")
        for number, meld in enumerate(seen.table, 1):
            text.append(f"\n{number:>2}. ")
            text.append_text(inline(meld.cards, table=True))
            text.append(f"  {placers(meld, self.names)}", style="dim")
        return text

    def on_click(self, event: events.Click) -> None:
        if self.seen is not None and 1 <= event.y <= len(self.seen.table):
            self.post_message(self.Chosen(event.y))


class PileView(SeenWidget):
    """The discard pile's top card and size, and the stock count; a click shows the pile."""

    class Clicked(Message):
        """The pile was clicked."""

    def draw(self, seen: PlayerView) -> Text:
        text = Text("Discard: ", style="bold")
        top = seen.discard_top
        if top is None:
            text.append("empty")
        else:
            text.append_text(face(top))
            text.append(f" ({plural(len(seen.discard), 'card')}; p: all)")
        text.append("   Stock: ", style="bold")
        text.append(plural(seen.stock_size, "card"))
        return text

    def on_click(self) -> None:
        self.post_message(self.Clicked())
