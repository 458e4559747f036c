"""Players in the browser (issue 19): a guest from the first visit, signing up and in,
resigning with a confirmation, the countdown the others see while a seat is away, the word
to a player who comes back, the leaderboard; a name typed elsewhere reads no record.
Debian's Chromium driven by Playwright against a real server (short grace period)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from rummykit.server.identity import COOKIE
from rummykit.server.loadbench import start_server
from test_web_a11y import axe_source, serious
from web_helpers import (
    artifacts,
    browser,
    create_table,
    needs_browser,
    pick_port,
    play_turn,
)

pytestmark = needs_browser
__all__ = ["artifacts", "axe_source", "browser"]  # fixtures used by name

GRACE = 6


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server whose absent players resign after a short grace period."""
    folder = tmp_path_factory.mktemp("web-players")
    port = pick_port()
    process = start_server(f"sqlite:///{folder / 'web.db'}", port, folder / "server.log",
                           {"RUMMYKIT_BOT_DELAY": "0.05", "RUMMYKIT_ALLOW_SEEDS": "true",
                            "RUMMYKIT_GRACE_SECONDS": str(GRACE)})
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture
def contexts(browser: Browser, server: str) -> Iterator[list[BrowserContext]]:
    """Fresh browser contexts (each its own cookies and storage), closed after the test."""
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def open_page(browser: Browser, server: str, made: list[BrowserContext],
              path: str = "/") -> Page:
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(15000)
    made.append(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(path)
    return page


def lobby_record(page: Page) -> str:
    page.goto("/#/")
    page.wait_for_selector(".record")
    return page.locator(".record").inner_text()


def test_a_guest_signs_up_and_signs_in_elsewhere(browser: Browser, server: str,
                                                 contexts: list[BrowserContext],
                                                 artifacts: Path) -> None:
    page = open_page(browser, server, contexts)
    page.wait_for_selector("text=You play as a guest")
    cookie = next(c for c in page.context.cookies() if c["name"] == COOKIE)
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert COOKIE not in page.evaluate("() => document.cookie")  # the page never sees it
    assert cookie["value"] not in page.url
    page.click("#account-link")
    page.wait_for_selector("#signup")
    name = f"ann_{random.randrange(10**6)}"
    page.fill("#signup-name", name)
    page.fill("#signup-password", "short")
    page.click("#signup button[type=submit]")  # the browser refuses it (minlength)
    assert page.locator("#signup-password:invalid").count() == 1
    page.fill("#signup-password", "a good password")
    page.screenshot(path=str(artifacts / "web-account.png"), full_page=True)
    page.click("#signup button[type=submit]")
    page.wait_for_selector(f"text=Signed in as {name}")
    other = open_page(browser, server, contexts, "/#/account")
    other.wait_for_selector("#signin")
    other.fill("#signin-name", name)
    other.fill("#signin-password", "not the password")
    other.click("#signin button[type=submit]")
    other.wait_for_selector("#signin .error:has-text('wrong name or password')")
    other.fill("#signin-password", "a good password")
    other.click("#signin button[type=submit]")
    other.wait_for_selector(f"text=Signed in as {name}")
    other.click("#sign-out")
    other.wait_for_selector("text=You play as a guest")
    assert page.errors == [] and other.errors == []  # type: ignore[attr-defined]


def test_resign_asks_first_and_counts_as_a_loss(browser: Browser, server: str,
                                                contexts: list[BrowserContext],
                                                artifacts: Path) -> None:
    page = open_page(browser, server, contexts)
    page.wait_for_selector("text=No finished matches yet")
    page.click("#play-bots")
    page.wait_for_selector(".hand-cards button.card")
    page.click("button.resign")
    dialog = page.locator("[role=alertdialog]")
    dialog.wait_for()
    assert page.evaluate("() => document.activeElement.id") == "keep-playing"
    page.screenshot(path=str(artifacts / "web-resign.png"))
    page.click("#keep-playing")  # nothing happens
    assert dialog.count() == 0 and page.locator(".left-notice").count() == 0
    page.click("button.resign")
    page.keyboard.press("Escape")
    assert dialog.count() == 0
    page.click("button.resign")
    page.click("#confirm-resign")
    page.wait_for_selector(".left-notice.mine:has-text('You resigned this match')")
    assert page.locator("button.resign").count() == 0
    assert page.locator(".actions button[data-move]").count() == 0  # no move offered
    assert re.search(r"Basic Rummy\s+1\s+0\s+1", lobby_record(page))
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_others_see_a_countdown_and_the_absent_player_learns_why(
        browser: Browser, server: str, contexts: list[BrowserContext],
        artifacts: Path) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    created = create_table(server, {"seats": seats,
                                    "options": {"target_score": 500}})
    ann_token, bob_token = (t["token"] for t in created["tokens"])
    ann = open_page(browser, server, contexts, f"/#/play/{ann_token}")
    bob = open_page(browser, server, contexts, f"/#/play/{bob_token}")
    for page in (ann, bob):
        page.wait_for_selector(".hand-cards button.card")
    ann.goto("about:blank")  # Ann closes the table
    away = bob.locator(".absence .away")
    away.wait_for()
    first = int(re.findall(r"resigns in (\d+) s", away.inner_text())[0])
    assert 0 < first <= GRACE
    bob.wait_for_function(f"() => /resigns in ([0-{first - 1}]) s/.test("
                          "document.querySelector('.absence .away')?.textContent || '')")
    bob.screenshot(path=str(artifacts / "web-absence.png"))
    bob.wait_for_selector(".left-notice:has-text('Ann was away too long and resigned')")
    assert away.count() == 0
    # Bob plays on against Ann's bot, whose moves are labelled as the bot's
    for _ in range(3):
        bob.wait_for_selector('.turn[data-mine="yes"], .hand-summary')
        if bob.locator(".hand-summary").count():
            break
        play_turn(bob, meld=False)
    bob.wait_for_selector(".log-list li:has-text(\"Ann's bot\")")
    ann.goto(f"/#/play/{ann_token}")  # back: told what happened
    ann.wait_for_selector(".left-notice.mine:has-text('You were away longer than the grace')")
    ann.wait_for_selector(".log-list li:has-text('Your bot')")
    ann.screenshot(path=str(artifacts / "web-returned.png"))
    log = ann.locator(".log-list").inner_text()
    after = log.split("Your bot", 1)[1]
    assert "You " not in after.split("\n", 1)[0]
    assert ann.errors == [] and bob.errors == []  # type: ignore[attr-defined]


def test_a_name_typed_elsewhere_reads_and_adds_nothing(browser: Browser, server: str,
                                                       contexts: list[BrowserContext],
                                                       artifacts: Path) -> None:
    ann = open_page(browser, server, contexts)
    ann.fill("input[name=name]", "Twin")
    ann.dispatch_event("input[name=name]", "change")
    ann.click("#play-bots")
    ann.wait_for_selector(".hand-cards button.card")
    ann.click("button.resign")
    ann.click("#confirm-resign")
    ann.wait_for_selector(".left-notice.mine")
    assert re.search(r"Basic Rummy\s+1\s+0\s+1", lobby_record(ann))
    twin = open_page(browser, server, contexts)
    twin.fill("input[name=name]", "Twin")  # the same name, another browser
    twin.dispatch_event("input[name=name]", "change")
    twin.wait_for_selector("text=No finished matches yet")
    twin.click("#play-bots")
    twin.wait_for_selector(".hand-cards button.card")
    twin.click("button.resign")
    twin.click("#confirm-resign")
    twin.wait_for_selector(".left-notice.mine")
    assert re.search(r"Basic Rummy\s+1\s+0\s+1", lobby_record(twin))
    assert re.search(r"Basic Rummy\s+1\s+0\s+1", lobby_record(ann))  # nothing added
    ann.locator("section.panel:has(#stats-title)").screenshot(path=str(artifacts / "web-you.png"))


def test_the_leaderboard_page(browser: Browser, server: str, contexts: list[BrowserContext],
                              artifacts: Path) -> None:
    page = open_page(browser, server, contexts)
    page.wait_for_selector("text=No finished matches yet")
    page.click("#play-bots")
    page.wait_for_selector(".hand-cards button.card")
    page.click("button.resign")
    page.click("#confirm-resign")
    page.wait_for_selector(".left-notice.mine")
    page.goto("/#/")
    page.click("a[href='#/leaderboard']")
    page.wait_for_selector("table.leaders tbody tr")
    rows = page.locator("table.leaders tbody tr")
    ratings = [float(r) for r in rows.evaluate_all(
        "rows => rows.map(r => r.children[2].textContent)")]
    assert ratings == sorted(ratings, reverse=True)
    assert page.locator("table.leaders tr.me .badge.you").count() == 1
    assert page.locator("table.leaders td .badge:text('bot')").count() >= 1
    page.screenshot(path=str(artifacts / "web-leaderboard.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]



def test_the_new_screens_pass_axe(browser: Browser, server: str, contexts: list[BrowserContext],
                                  axe_source: str) -> None:
    page = open_page(browser, server, contexts, "/#/account")
    page.wait_for_selector("#signup")
    assert serious(page, axe_source) == []
    page.goto("/#/leaderboard")
    page.wait_for_selector("table.leaders, .leaderboard p.muted")
    assert serious(page, axe_source) == []
    page.goto("/#/")
    page.click("#play-bots")
    page.wait_for_selector(".hand-cards button.card")
    page.click("button.resign")
    page.wait_for_selector("[role=alertdialog]")
    assert serious(page, axe_source) == []
    page.click("#confirm-resign")
    page.wait_for_selector(".left-notice.mine")
    assert serious(page, axe_source) == []
