"""The new-game dialog: rule set, players, bots, options; returns a :class:`Setup`."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select

from rummykit.bots import BOTS, LEVELS
from rummykit.core.errors import RummyError
from rummykit.core.rules import Rules, preset_names
from rummykit.tui.game import Setup

ACE_CHOICES = [("preset default", "default"), ("low only", "low"),
               ("high or low", "high_or_low")]


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


def build_setup(rules_name: str, players: str, name: str, bots: str, ace: str,
                one_meld: bool, must_discard: bool, target: str, seed: str) -> Setup:
    """The setup the dialog's fields describe; raises ValueError with the reason."""
    options: dict[str, Any] = {}
    if ace != "default":
        options["ace_mode"] = ace
    if one_meld:
        options["max_melds_per_turn"] = 1
    if must_discard:
        options["must_discard_to_go_out"] = True
    if target.strip():
        if not target.strip().isdigit():
            raise ValueError(f"target {target!r}: expected a number of points")
        options["target_score"] = int(target)
    if not players.strip().isdigit():
        raise ValueError(f"players {players!r}: expected a number")
    if not name.strip() or not name.strip().isprintable():
        raise ValueError("your name: expected a printable, non-empty name")
    if seed.strip() and not seed.strip().isdigit():
        raise ValueError(f"seed {seed!r}: expected a number")
    try:
        rules = Rules.from_options(rules_name, options)
        rules.check_players(int(players))
    except RummyError as error:
        raise ValueError(str(error)) from None
    chosen = int(seed) if seed.strip() else random.SystemRandom().randrange(1, 10**9)
    return Setup(rules, name.strip(), parse_bots(bots, int(players) - 1), chosen)


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
                yield Select([(n, n) for n in preset_names()], value="basic", allow_blank=False,
                             id="rules", compact=True)
                yield Label("Players")
                yield Input("2", id="players", compact=True)
                yield Label("Your name")
                yield Input(self.player_name, id="name", compact=True)
                yield Label("Bots")
                yield Input("medium", id="bots", compact=True,
                            placeholder=f"a level ({', '.join(LEVELS)}) or one per seat")
                yield Label("Aces")
                yield Select(ACE_CHOICES, value="default", allow_blank=False, id="ace",
                             compact=True)
                yield Label("Target score")
                yield Input("", id="target", compact=True, placeholder="preset default")
                yield Label("Seed")
                yield Input("", id="seed", compact=True, placeholder="random")
            yield Checkbox("One meld per turn", id="one-meld", compact=True)
            yield Checkbox("Must discard to go out", id="must-discard", compact=True)
            yield Label("", id="new-game-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "rules" and event.value == "contract":
            players = self.query_one("#players", Input)
            if players.value.strip() in ("", "2"):
                players.value = "3"

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        value = {i.id: i.value for i in self.query(Input)}
        try:
            setup = build_setup(
                str(self.query_one("#rules", Select).value), value["players"], value["name"],
                value["bots"], str(self.query_one("#ace", Select).value),
                self.query_one("#one-meld", Checkbox).value,
                self.query_one("#must-discard", Checkbox).value, value["target"],
                value["seed"])
        except ValueError as error:
            self.query_one("#new-game-error", Label).update(str(error))
            return
        self.dismiss(setup)

    def action_cancel(self) -> None:
        self.dismiss(None)
