"""The workloads the families declare (:mod:`rummykit.variants.workloads`), gathered from
the registry: each registered family's ``benchmarks.WORKLOADS``, beside its variant
module, in registration order. Nothing here knows a family by name.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable

from rummykit.variants.registry import families
from rummykit.variants.workloads import DecisionWorkload, Table, Workloads


@functools.cache
def declared() -> tuple[Workloads, ...]:
    """Every registered family's workloads, in registration order."""
    return workloads_of(families())


def workloads_of(variants: Iterable[object]) -> tuple[Workloads, ...]:
    """The ``WORKLOADS`` of the ``benchmarks`` module beside each family's variant class
    (a family without one declares none)."""
    found = []
    for variant in variants:
        package = type(variant).__module__.rpartition(".")[0]
        try:
            module = importlib.import_module(f"{package}.benchmarks")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.benchmarks":
                raise
            continue
        workloads = getattr(module, "WORKLOADS", None)
        if not isinstance(workloads, Workloads):
            raise TypeError(f"{module.__name__}.WORKLOADS is not a Workloads")
        found.append(workloads)
    return tuple(found)


def playouts() -> tuple[Table, ...]:
    """The tables of the random-playout measures."""
    return tuple(t for w in declared() for t in w.playouts)


def positions() -> tuple[Table, ...]:
    """The tables the mid-hand positions are taken from."""
    return tuple(t for w in declared() for t in w.positions)


def decisions() -> tuple[DecisionWorkload, ...]:
    """The families' own decisions to time."""
    return tuple(d for w in declared() for d in w.decisions)


def reference() -> Table:
    """The one table compared with the anchors."""
    tables = [w.reference for w in declared() if w.reference is not None]
    if len(tables) != 1:
        raise RuntimeError(f"exactly one family must declare the reference table, not "
                           f"{len(tables)}: {tables}")
    return tables[0]
