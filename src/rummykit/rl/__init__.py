"""Interfaces for reinforcement learning: action ids, observations, PettingZoo and Gymnasium
environments (ARCHITECTURE.md §1: above the core, which never imports this package).

Seats see only their :class:`~rummykit.views.PlayerView` (and the public match totals).
Importing this package needs only numpy; the environments import PettingZoo or Gymnasium
when they are made.
"""

from __future__ import annotations

from rummykit.rl.actions import ActionSpace, Decision

__all__ = ["ActionSpace", "Decision"]
