"""HTTP: the registered rule sets, as their families describe them (the lobby's source)."""

from __future__ import annotations

from fastapi import APIRouter

from rummykit.server.render import rule_set_out
from rummykit.server.wire import RuleSetOut
from rummykit.variants.registry import all_rule_set_names

router = APIRouter(prefix="/api", tags=["rules"])


@router.get("/rule-sets")
async def rule_sets() -> list[RuleSetOut]:
    """Every registered rule set: its name and family, the player counts, its words
    (title, what a hand and a score are called, who wins), the options a face offers,
    every knob's preset value and the rules for players."""
    return [rule_set_out(name) for name in all_rule_set_names()]
