"""The new-game dialog: rule set, players, bots, and the options the rule set's family
offers; returns a :class:`Setup`."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select

from rummykit.bots import BOTS, LEVELS, make_bot_for
from rummykit.core.errors import RummyError
from rummykit.display.seats import default_bot
from rummykit.tui.game import Setup
from rummykit.variants.base import OptionSpec, RulesLike
from rummykit.variants.registry import all_rule_set_names, variant_for, variant_of


def parse_bots(text: str, seats: int) -> tuple[str, ...]:
    """One bot per other seat from ``medium`` or ``easy,hard``; raises ValueError.

    >>> parse_bots("hard", 2), parse_bots("easy, greedy", 2)
    (('hard', 'hard'), ('easy', 'greedy'))
    """
    names = [n.strip().lower() for n in text.split(",") if n.strip()] or ["medium"]
    for name in names:
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}")
    if len(names) == 1:
        return tuple(names * seats)
    if len(names) != seats:
        raise ValueError(f"{len(names)} bots named for {seats} bot seats")
    return tuple(names)


def build_setup(rules_name: str, players: str, name: str, bots: str, options: dict[str, Any],
                seed: str) -> Setup:
    """The setup the dialog's fields describe (``options``: knob overrides in JSON form);
    raises ValueError with the reason."""
    if not players.strip().isdigit():
        raise ValueError(f"players {players!r}: expected a number")
    if not name.strip() or not name.strip().isprintable():
        raise ValueError("your name: expected a printable, non-empty name")
    if seed.strip() and not seed.strip().isdigit():
        raise ValueError(f"seed {seed!r}: expected a number")
    try:
        rules = variant_for(rules_name).rules_from_options(rules_name, options)
        rules.check_players(int(players))
    except RummyError as error:
        raise ValueError(str(error)) from None
    chosen = int(seed) if seed.strip() else random.SystemRandom().randrange(1, 10**9)
    seats = parse_bots(bots, int(players) - 1)
    for bot in seats:
        try:
            make_bot_for(bot, rules)
        except RummyError as error:
            raise ValueError(str(error)) from None
    return Setup(rules, name.strip(), seats, chosen)


def preset(rule_set: str) -> RulesLike:
    """The preset of any registered rule set."""
    rules: RulesLike = variant_for(rule_set).preset(rule_set)
    return rules


def player_range(rules: RulesLike) -> tuple[int, int]:
    """The fewest and the most players ``rules`` seat."""
    seated = []
    for count in range(1, 9):
        try:
            rules.check_players(count)
        except RummyError:
            continue
        seated.append(count)
    return (min(seated), max(seated)) if seated else (2, 2)


def option_widgets(specs: tuple[OptionSpec, ...]) -> list[Widget]:
    """A label and an input per option the family offers: a checkbox, a choice (a
    preset's too) or a number (empty: the preset's value); each input's id is
    ``opt-KNOB``."""
    widgets: list[Widget] = []
    for spec in specs:
        widgets.append(Label(spec.label))
        wid = f"opt-{spec.knob}"
        if spec.kind == "bool":
            widgets.append(Checkbox("", bool(spec.default), id=wid, compact=True))
        elif spec.kind in ("choice", "preset"):
            widgets.append(Select([("no limit" if c is None else str(c), c)
                                   for c in spec.choices], value=spec.default,
                                  allow_blank=False, id=wid, compact=True))
        else:
            shown = "preset default" if spec.default is None or isinstance(spec.default, dict) \
                else f"preset: {spec.default}"
            widgets.append(Input("", id=wid, compact=True, placeholder=shown))
    return widgets


def chosen_options(screen: Widget, specs: tuple[OptionSpec, ...]) -> dict[str, Any]:
    """The options whose input differs from the preset (an int typed, a box changed, the
    knobs a chosen preset sets); raises ValueError for a number that is not one."""
    options: dict[str, Any] = {}
    for spec in specs:
        field = screen.query_one(f"#opt-{spec.knob}")
        if isinstance(field, Checkbox):
            if field.value != bool(spec.default):
                options[spec.knob] = field.value
        elif isinstance(field, Select) and spec.kind == "preset":
            options.update(spec.chosen(field.value))
        elif isinstance(field, Select):
            if field.value != spec.default:
                options[spec.knob] = field.value
        elif isinstance(field, Input) and field.value.strip():
            text = field.value.strip()
            if not text.isdigit():
                raise ValueError(f"{spec.label}: {text!r}: expected a whole number")
            options[spec.knob] = int(text)
    return options


class NewGameScreen(ModalScreen[Setup | None]):
    """Choose the game; Start returns its setup, Escape returns None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, name: str = "You") -> None:
        super().__init__()
        self.player_name = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="new-game"):
            yield Label("New game", classes="dialog-title")
            with Grid(id="new-game-grid"):
                yield Label("Rule set")
                names = all_rule_set_names()
                yield Select([(n, n) for n in names], value=names[0], allow_blank=False,
                             id="rules", compact=True)
                yield Label("Players")
                yield Input("2", id="players", compact=True)
                yield Label("Your name")
                yield Input(self.player_name, id="name", compact=True)
                yield Label("Bots")
                yield Input("medium", id="bots", compact=True,
                            placeholder=f"a level ({', '.join(LEVELS)}) or one per seat")
                yield Label("Seed")
                yield Input("", id="seed", compact=True, placeholder="random")
            with Grid(id="new-game-options"):
                yield from option_widgets(self.specs(names[0]))
            yield Label("", id="new-game-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Cancel", id="cancel")

    @staticmethod
    def specs(rule_set: str) -> tuple[OptionSpec, ...]:
        """The options the rule set's family offers."""
        rules = preset(rule_set)
        return variant_of(rules).options(rules)

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "rules" and isinstance(event.value, str):
            rules = preset(event.value)
            low, high = player_range(rules)
            players = self.query_one("#players", Input)
            count = players.value.strip()
            if not count.isdigit() or not low <= int(count) <= high:
                players.value = str(low)
            bots = self.query_one("#bots", Input)
            try:
                for bot in parse_bots(bots.value, 1):
                    make_bot_for(bot, rules)
            except (ValueError, RummyError):
                bots.value = default_bot(rules)
            box = self.query_one("#new-game-options", Grid)
            await box.remove_children()
            await box.mount(*option_widgets(self.specs(event.value)))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        value = {i.id: i.value for i in self.query(Input)}
        rule_set = str(self.query_one("#rules", Select).value)
        try:
            options = chosen_options(self, self.specs(rule_set))
            setup = build_setup(rule_set, value["players"], value["name"], value["bots"],
                                options, value["seed"])
        except ValueError as error:
            self.query_one("#new-game-error", Label).update(str(error))
            return
        self.dismiss(setup)

    def action_cancel(self) -> None:
        self.dismiss(None)
