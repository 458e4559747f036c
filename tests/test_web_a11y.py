"""Accessibility: axe-core (its npm package, pinned in tests/browser/package.json and
installed by ``npm ci --prefix tests/browser``) run in Chromium on the lobby, a table in
play, the end of a match, the replay viewer and the rules page: no serious or critical
violation. Without the package the tests fail where the browser tests are required (CI)
and are skipped elsewhere, saying how to install it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from web_helpers import (
    GOLDEN,
    Opener,
    api,
    artifacts,
    browser,
    create_table,
    needs_browser,
    new_page,
    server,
    table_against_bot,
    wait_turn_or_end,
)

pytestmark = needs_browser
__all__ = ["artifacts", "browser", "new_page", "server"]  # fixtures used by name

AXE = Path(__file__).parent / "browser" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        message = f"no {AXE}: run `npm ci --prefix tests/browser`"
        if os.environ.get("RUMMYKIT_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text()


def serious(page: Page, axe_source: str) -> list[str]:
    """The serious and critical violations axe finds on the page, one line each."""
    page.evaluate(axe_source)  # evaluated by the test, not by a <script>: the CSP stays
    found: list[dict[str, Any]] = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => ({id: v.id, impact: v.impact, help: v.help,
                        nodes: v.nodes.slice(0, 4).map(n => n.target.join(' '))}));
    }""")
    return [f"{v['impact']} {v['id']}: {v['help']} at {v['nodes']}" for v in found]


def test_the_lobby_and_the_rules_pass_axe(new_page: Opener, axe_source: str) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector(".my-tables, .lobby p.muted")
    page.click(".play-bots summary")  # the options open too
    assert serious(page, axe_source) == []
    page.goto("/#/help/contract")
    page.wait_for_selector(".help h2")
    assert serious(page, axe_source) == []


def test_a_table_in_play_passes_axe(new_page: Opener, server: str, axe_source: str) -> None:
    page = new_page()
    page.goto(f"/#/play/{table_against_bot(server)}")
    assert wait_turn_or_end(page)
    page.locator(".hand-cards button.card").first.click()  # a selection and its tip
    assert serious(page, axe_source) == []
    page.keyboard.press("?")
    page.wait_for_selector(".dialog.help")
    assert serious(page, axe_source) == []


def test_the_replay_viewer_passes_axe(new_page: Opener, axe_source: str) -> None:
    page = new_page()
    page.goto("/")
    page.set_input_files(".upload input[type=file]", str(GOLDEN / "basic_2p.rummy.json"))
    page.wait_for_selector(".replay-seat")
    page.click("[aria-label=End]")
    assert serious(page, axe_source) == []


def test_the_end_of_a_match_passes_axe(new_page: Opener, server: str, axe_source: str) -> None:
    """Two bots play a match to 1 point; a spectator's match-over dialog (the last hand's
    melds, cards and points) is checked once nothing moves any more."""
    created = create_table(server, {
        "rules": "basic", "options": {"target_score": 1},
        "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]})
    table = created["table"]["id"]
    deadline = time.monotonic() + 60
    while api(server, "GET", f"/api/tables/{table}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the match"
        time.sleep(0.2)
    page = new_page()
    page.goto(f"/#/watch/{table}")
    page.wait_for_selector(".overlay .dialog .summary")
    assert serious(page, axe_source) == []
