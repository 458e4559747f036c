"""Contract's part of a seat's view (``PlayerView.family``) and what the faces ask of it.

A contract deal has public state beyond the table's: the seats that are down (their
contract laid), whether the seat to move went down this turn, the dug card it must still
place and the jokers it took by swaps and must still place. The hand keeps them
(:class:`~rummykit.variants.contract.hand.ContractHand`); every view carries them as one
:class:`ContractView`, immutable and hashable like the rest of the view. The functions
below answer the faces' questions (:class:`~rummykit.variants.base.TableHooks`) and
:func:`contract_part` is the bots' and encodings' one way to read the part.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.core.views import view
>>> from rummykit.variants.contract.presets import CONTRACT
>>> state = HandState.deal(CONTRACT, num_players=3, dealer=0, rng=random.Random(2))
>>> seen = view(state, 1)
>>> seen.family
ContractView(down=0, went_down=False, dig_duty=-1, joker_duty=0)
>>> part_json(seen), duties(seen)
({'down': [], 'went_down': False, 'dig_duty': None, 'joker_duty': 0}, ())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from rummykit.core.cards import format_card
from rummykit.variants.base import Duty

if TYPE_CHECKING:
    from rummykit.core.views import PlayerView

__all__ = ["NO_CONTRACT_VIEW", "ContractView", "contract_part", "duties", "part_json",
           "part_text", "seats_down", "went_down"]


class ContractView(NamedTuple):
    """What every seat sees of a contract deal's own state."""

    down: int = 0  # bit set of the seats that are down (their contract made)
    went_down: bool = False  # the seat to move went down this turn
    dig_duty: int = -1  # the dug card still to be placed this turn, or -1
    joker_duty: int = 0  # jokers taken by swaps still to be placed this turn


#: the part of a view without one (nobody down, no duty)
NO_CONTRACT_VIEW = ContractView()


def contract_part(seen: PlayerView) -> ContractView:
    """The contract part of ``seen`` (:data:`NO_CONTRACT_VIEW` when it has none)."""
    part = seen.family
    return part if type(part) is ContractView else NO_CONTRACT_VIEW


def seats_down(seen: PlayerView) -> int:
    """The bit set of the seats that are down."""
    return contract_part(seen).down


def went_down(seen: PlayerView) -> bool:
    """Whether the seat to move went down this turn."""
    return contract_part(seen).went_down


def duties(seen: PlayerView) -> tuple[Duty, ...]:
    """What the seat to move must still place this turn: the card it dug, the jokers it
    took by swaps."""
    part = contract_part(seen)
    found = []
    if part.dig_duty >= 0:
        found.append(Duty("place the card you dug",
                          f"You must place {format_card(part.dig_duty)} this turn "
                          "(the card you dug), before you discard."))
    if part.joker_duty:
        jokers = "the joker" if part.joker_duty == 1 else f"{part.joker_duty} jokers"
        found.append(Duty("place the joker you took",
                          f"You must place {jokers} you took by a swap this turn "
                          "(lay it off with its new identity, e.g. lay JK=SQ on 3)."))
    return tuple(found)


def part_json(seen: PlayerView) -> dict[str, Any]:
    """The part's fields of the agent protocol's view (docs/agents.md)."""
    part = contract_part(seen)
    return {"down": [s for s in range(seen.num_players) if part.down >> s & 1],
            "went_down": part.went_down,
            "dig_duty": format_card(part.dig_duty) if part.dig_duty >= 0 else None,
            "joker_duty": part.joker_duty}


def part_text(seen: PlayerView) -> str:
    """The part as words of a one-line observation (the OpenSpiel observer's string)."""
    part = contract_part(seen)
    dug = format_card(part.dig_duty) if part.dig_duty >= 0 else "-"
    return (f"down {part.down} went_down {int(part.went_down)} dig {dug} "
            f"jokers {part.joker_duty}")
