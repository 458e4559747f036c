"""A phone (Chromium at 390 x 844 with touch, through Playwright, a real ``rummykit
serve``) for every family: the gin table through the first-upcard offer, a knock with its
arrangement choice, the defender's show with lay-offs and the hand report; the basic,
traditional and contract tables and their end-of-hand summaries; a basic and a
traditional match played to its end by a person, and the rematch. At each step: no
sideways scrolling, every control at least 44 x 44 px, the summary within one screen, and
axe-core with no serious or critical violation."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from test_web_a11y import axe_source, serious
from test_web_gin import MINE, Played, close_report, gin_table, take_turn
from test_web_play import bots_table, paced, present, small_targets
from web_helpers import (
    HAND_OVER,
    MATCH_OVER,
    artifacts,
    browser,
    create_table,
    hand_over,
    legal,
    needs_browser,
    server,
    version,
    wait_past,
    wait_turn_or_end,
)

pytestmark = needs_browser
__all__ = ["artifacts", "axe_source", "browser", "paced", "server"]  # fixtures used by name

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Page]:
    """A page on a phone-sized touch screen."""
    context = browser.new_context(base_url=server, viewport=PHONE, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    context.set_default_timeout(15000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()


def sideways(page: Page) -> list[str]:
    """What sticks out to the right of the screen (the page scrolls sideways), or []."""
    found: list[str] = page.evaluate("""() => {
        const over = document.scrollingElement.scrollWidth - window.innerWidth;
        if (over <= 0) return [];
        return [`the page is ${over} px too wide`, ...[...document.querySelectorAll('body *')]
            .filter(el => el.getBoundingClientRect().right > window.innerWidth + 1
                          && el.offsetParent !== null)
            .slice(0, 6).map(el => `${el.tagName.toLowerCase()}.${el.className} ` +
                             `${Math.round(el.getBoundingClientRect().right)}`)];
    }""")
    return found


def phone_problems(page: Page, axe: str, where: str) -> list[str]:
    """Sideways scrolling, small targets and serious axe violations, each named."""
    return [f"{where}: {p}" for p in sideways(page) + small_targets(page) + serious(page, axe)]


def summary_height(page: Page) -> int:
    height: int = page.evaluate(
        "() => document.querySelector('.hand-summary')?.offsetHeight ?? 0")
    return height


def test_a_gin_hand_on_a_phone(phone: Page, server: str, axe_source: str,
                               artifacts: Path) -> None:
    """Offer, knock (the arrangements open), the defender's show and the report, each
    checked when it first comes; screenshots of the knock and the report."""
    token, _ = gin_table(server, "easy", target=400)
    page = phone
    page.goto(f"/#/play/{token}")
    seen: dict[str, list[str]] = {}
    played = Played()
    deadline = time.monotonic() + 360
    while time.monotonic() < deadline and len(seen) < 4:
        page.wait_for_selector(f"{MINE}, {HAND_OVER}")
        if page.locator(MATCH_OVER).count():
            break
        if page.locator(".hand-summary").count():
            if "report" not in seen:
                seen["report"] = phone_problems(page, axe_source, "report")
                height = summary_height(page)
                if height > PHONE["height"]:
                    seen["report"].append(f"report: {height} px tall")
                report = page.locator(".hand-summary")
                report.scroll_into_view_if_needed()
                report.screenshot(path=str(artifacts / "phone-gin-report.png"))
            close_report(page, played)
            continue
        if not page.locator(MINE).count():
            continue
        phase = page.locator(".board.gin").get_attribute("data-phase")
        if phase == "offer" and "offer" not in seen:
            seen["offer"] = phone_problems(page, axe_source, "offer")
        if "done" in legal(page) and "show" not in seen:
            seen["show"] = phone_problems(page, axe_source, "show")
        if page.locator(".gin-knocks button").count() and "knock" not in seen:
            page.locator(".gin-knocks button").first.click()
            page.wait_for_selector(".gin-arrangements .gin-choice button")
            seen["knock"] = phone_problems(page, axe_source, "knock")
            page.locator(".gin-arrangements").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / "phone-gin-knock.png"))
            page.click("button[data-key='knock:cancel']")
        take_turn(page, played, choose_other=False)
    assert set(seen) == {"offer", "knock", "show", "report"}, (seen, played)
    assert [p for found in seen.values() for p in found] == []
    assert page.errors == []  # type: ignore[attr-defined]


def table_with_bots(server: str, rules: str, bots: int, **options: Any) -> str:
    seats = [{"kind": "human", "name": "Tess"}] + [{"kind": "bot", "level": "easy"}] * bots
    created = create_table(server, {"rules": rules, "seats": seats,
                                    "options": options})
    token: str = created["tokens"][0]["token"]
    return token


@pytest.mark.parametrize(("rules", "bots"), [("basic", 1), ("traditional", 2),
                                             ("contract", 3)])
def test_a_table_and_its_summary_on_a_phone(phone: Page, server: str, paced: str,
                                            axe_source: str, artifacts: Path, rules: str,
                                            bots: int) -> None:
    page = phone
    page.goto(f"/#/play/{table_with_bots(server, rules, bots)}")
    assert wait_turn_or_end(page)
    problems = phone_problems(page, axe_source, f"{rules} table")
    page.locator(".hand-cards button.card").first.tap()  # a selection and its tip
    problems += phone_problems(page, axe_source, f"{rules} selection")
    # a spectator of bots on the same phone: the summary between two hands (a drawn
    # traditional hand ends the match: its dialog is checked, and another table watched)
    # (the valve at 200 turns keeps a drawn-out hand of easy bots under a minute)
    options = {} if rules == "contract" else {"target_score": 1000, "max_turns_per_hand": 200}
    for _ in range(4):
        page.goto(f"{paced}/#/watch/{bots_table(paced, rules, bots + 1, **options)}")
        present(page, HAND_OVER, 90000)
        page.wait_for_timeout(300)
        if page.locator(".hand-summary").count():
            break
        problems += phone_problems(page, axe_source, f"{rules} match over")
    assert page.locator(".hand-summary").count(), "every match watched ended at its first hand"
    problems += phone_problems(page, axe_source, f"{rules} summary")
    height = summary_height(page)
    # the page, not the panel: the bots redraw it all the time
    page.evaluate("() => document.querySelector('.hand-summary').scrollIntoView()")
    page.screenshot(path=str(artifacts / f"phone-{rules}-summary.png"), animations="disabled",
                    timeout=60000)
    assert height <= PHONE["height"], f"the {rules} summary is {height} px tall"
    assert problems == []
    assert page.errors == []  # type: ignore[attr-defined]


def tap_move(page: Page, move: str) -> None:
    before = version(page)
    page.locator(f'.actions button[data-move="{move}"]').tap()
    wait_past(page, before)


def tap_turn(page: Page) -> None:
    """A turn as a thumb plays it: tap Draw; tap a possible meld; tap a card, then its
    lay-off button; tap the first card, then Discard."""
    tap_move(page, "draw")
    if page.locator("text=Show possible melds").count():
        page.locator("text=Show possible melds").tap()
        before = version(page)
        page.locator(".meld-list button").first.tap()
        wait_past(page, before)
    if hand_over(page):
        return
    lay = next((m for m in legal(page) if m.startswith("lay ")), None)
    if lay is not None:
        card = lay.split()[1].split("=")[0]
        page.locator(f'.hand-cards button.card[data-card="{card}"]').first.tap()
        tap_move(page, lay)
        if hand_over(page):
            return
    page.locator(".hand-cards button.card").first.tap()
    discard = page.locator('.actions button[data-move^="discard"]').first
    tap_move(page, discard.get_attribute("data-move") or "")


def next_hand(page: Page) -> bool:
    """Hide the summary of a hand that did not end the match (True), or leave the
    match-over dialog as it is (False)."""
    if page.locator(MATCH_OVER).count():
        return False
    page.locator('.hand-summary button[data-key="summary:close"]').tap()
    page.wait_for_selector(".hand-summary", state="detached")
    return True


@pytest.mark.parametrize("rules", ["basic", "traditional"])
def test_a_match_played_to_its_end_on_a_phone(phone: Page, server: str, axe_source: str,
                                              rules: str) -> None:
    """A person's whole match on the phone (to 1 point: the first hand won decides), by
    taps (a drag to a meld scrolled off the screen is no thumb's move): draw, meld, lay
    off, discard; then the match-over dialog fits the screen,
    passes axe, and its rematch deals again. A hand that scores nobody (basic has no
    deadlock rule, so the turn valve may end it with no points) leaves the match going:
    the person hides its summary and plays the next hand."""
    page = phone
    options = {"target_score": 1, "max_turns_per_hand": 200}
    page.goto(f"/#/play/{table_with_bots(server, rules, 1, **options)}")
    turns = 0
    while wait_turn_or_end(page) or next_hand(page):
        if not page.locator('.turn[data-mine="yes"]').count():
            continue  # the summary hidden: wait for the next hand's turn
        if turns == 0:  # index.html's preloads of the API replies, taken by fetch() once
            asked = page.evaluate("""() => performance.getEntriesByType('resource')
                .filter(r => r.name.includes('/api/'))
                .map(r => [new URL(r.name).pathname, r.initiatorType])""")
            assert sorted(a for a in asked if a[0] in ("/api/me", "/api/rule-sets")) == [
                ["/api/me", "link"], ["/api/rule-sets", "link"]], asked  # in either order
        if turns == 3:
            assert phone_problems(page, axe_source, f"{rules} turn 4") == []
        tap_turn(page)
        turns += 1
        assert turns < 600, "the match did not end"
    dialog = page.locator(".overlay .dialog")
    assert "Match over" in dialog.inner_text()
    box = dialog.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"]
    assert box["height"] <= PHONE["height"]  # it scrolls inside, the page does not
    assert phone_problems(page, axe_source, f"{rules} match over") == []
    page.click("text=Rematch")
    page.wait_for_selector(".overlay", state="detached")
    assert wait_turn_or_end(page) or hand_over(page)
    assert page.errors == []  # type: ignore[attr-defined]
