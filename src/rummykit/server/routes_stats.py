"""HTTP: results per player name and rule set."""

from __future__ import annotations

from fastapi import APIRouter

from rummykit.server.routes_tables import HubDep
from rummykit.server.wire import PlayerStats, StatLine

router = APIRouter(prefix="/api", tags=["stats"])


@router.get("/stats/{name}")
async def player_stats(name: str, hub: HubDep) -> PlayerStats:
    """Matches played, won and lost per rule set (a drawn match counts as lost when the
    rules say so: ``traditional``, RULES.md §3.4)."""
    lines = await hub.db(hub.storage.stats, name)
    return PlayerStats(name=name, rules={rules: StatLine(played=p, won=w, lost=lost)
                                         for rules, (p, w, lost) in lines.items()})
