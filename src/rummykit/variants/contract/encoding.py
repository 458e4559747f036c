"""Contract's research encoding (read by :mod:`rummykit.rl`; standard library only): the
observation parts a contract deal adds and the limits its schedule puts on the compact
action space (:mod:`rummykit.rl.compact`).

A contract family is hosted on the engine's ``HandState`` (``kind = "table"``); its
observation adds the card part ``dig_duty`` (the dug card still to be placed) and the
scalars ``contract`` (sets and runs of the deal's contract), ``down`` (the seats that are
down, seat-relative) and ``joker_duty`` (jokers taken by swaps still to be placed).

>>> from rummykit.core.rules import find_rules
>>> rules = find_rules("contract")
>>> ENCODING.scalar_parts(rules, 3), ENCODING.bounds(rules, 3)["contract"]
((('contract', 2), ('down', 3), ('joker_duty', 1)), 3)
>>> ENCODING.meld_numbers(rules, 3, 9)
(9, {1, 2, 3, 4, 5, 6, 8, 9})
"""

from __future__ import annotations

from typing import Any

from rummykit.core.rules import Rules
from rummykit.variants.base import TableEncoding
from rummykit.variants.contract.view import contract_part

__all__ = ["ENCODING", "ContractEncoding"]


def _lay_off_deals(rules: Rules) -> list[tuple[int, int]]:
    """The contracts of the deals after whose going down cards can still be laid off."""
    deals = list(rules.contract_schedule)
    if rules.final_deal_rule == "all_at_once_no_discard":
        deals.pop()  # going down there empties the hand: the deal is over
    return deals


def _rotate(bits: int, seat: int, n: int) -> int:
    """A bit set of seats, renumbered from ``seat`` on."""
    return (bits >> seat | bits << (n - seat)) & ((1 << n) - 1)


class ContractEncoding:
    """What :mod:`rummykit.rl` reads of a contract rule set beyond the table's parts."""

    kind = "table"

    def goes_down(self, rules: Rules) -> bool:
        """True when the rule set's seats lay a contract down (the parts below exist)."""
        return bool(rules.contract_schedule)

    def card_parts(self, rules: Rules) -> tuple[str, ...]:
        """The one-card parts (shape ``(C,)``), after the table's card parts."""
        return ("dig_duty",) if self.goes_down(rules) else ()

    def card_values(self, seen: Any) -> tuple[int, ...]:
        """The card of each one-card part (-1: none)."""
        return (contract_part(seen).dig_duty,)

    def scalar_parts(self, rules: Rules, players: int) -> tuple[tuple[str, int], ...]:
        """The scalar parts (name, width), after the table's scalars."""
        if not self.goes_down(rules):
            return ()
        return (("contract", 2), ("down", players), ("joker_duty", 1))

    def scalar_values(self, seen: Any) -> tuple[int, ...]:
        """The scalar parts' values, seat-relative."""
        schedule = seen.rules.contract_schedule
        n = len(seen.hand_sizes)
        part = contract_part(seen)
        down = _rotate(part.down, seen.seat, n)
        return (*schedule[seen.deal_index % len(schedule)],
                *(down >> i & 1 for i in range(n)), part.joker_duty)

    def bounds(self, rules: Rules, players: int) -> dict[str, float]:
        """The upper bounds of the scalar parts (``down`` is 0/1)."""
        if not self.goes_down(rules):
            return {}
        jokers = rules.pack_spec(players)[1]
        return {"contract": max(max(c) for c in rules.contract_schedule),
                "joker_duty": jokers}

    def meld_numbers(self, rules: Rules, players: int, by_cards: int
                     ) -> tuple[int, set[int]] | None:
        """The most melds on the table when a card is laid off or swapped, and the meld
        numbers that can be runs then, when the contract limits them (None: melds may be
        placed freely, ``by_cards`` melds at most). Melds come only with going down: at
        most ``players`` times the largest contract, each seat's melds in a row, sets
        before runs (the engine's order), and no lay-off follows the all-at-once final
        deal."""
        if not self.goes_down(rules) or rules.extra_melds_after_contract:
            return None
        runs: set[int] = set()
        count = 0
        for sets, kinds_runs in _lay_off_deals(rules):
            size = sets + kinds_runs
            count = max(count, min(by_cards, players * size))
            runs |= {t for t in range(1, min(by_cards, players * size) + 1)
                     if (t - 1) % size >= sets}
        return count, runs

    def group_fits(self, rules: Rules, players: int, size: int, is_set: bool,
                   held: int, room: int) -> bool | None:
        """Can a meld group of ``size`` cards (a set or a run) be part of a legal meld,
        with ``held`` the most cards a seat holds and ``room`` those it may meld? None:
        the contract puts no limit (only ``room``). A group must be of a kind that some
        deal's contract asks for, with room left for that contract's other melds."""
        if not self.goes_down(rules) or (rules.extra_melds_after_contract and size <= room):
            return None
        schedule = rules.contract_schedule
        for d, (sets, runs) in enumerate(schedule):
            if (sets if is_set else runs) == 0:
                continue
            held_d = held if rules.discard_dig else rules.hand_size_for(players, d) + 1
            others = 3 * (sets - is_set) + rules.run_min_length * (runs - (not is_set))
            last = d == len(schedule) - 1
            keep = rules.must_discard_to_go_out or (
                last and rules.final_deal_rule == "all_at_once_discard_ok")
            if size + others <= held_d - keep:
                return True
        return False


#: the family's encoding, found by rummykit.rl as ``variants.<family>.encoding.ENCODING``
ENCODING: TableEncoding = ContractEncoding()
