"""What the speed benchmark measures of basic and traditional (:mod:`..workloads`).

Basic 2-player is the reference table: the closest to the anchors' gin rummy (ten cards,
one deck), so its copy, min deadwood, greedy hands and environment steps are compared
with theirs.
"""

from __future__ import annotations

from rummykit.variants.rummy.presets import BASIC, TRADITIONAL
from rummykit.variants.workloads import Table, Workloads

WORKLOADS = Workloads(
    playouts=tuple(Table(BASIC.name, n) for n in (2, 3, 4, 6))
    + tuple(Table(TRADITIONAL.name, n) for n in (2, 3, 4)),
    positions=tuple(Table(rules.name, n) for rules in (BASIC, TRADITIONAL) for n in (2, 4)),
    reference=Table(BASIC.name, 2),
)
