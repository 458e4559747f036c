"""Sessions in the browser (issue 19): a guest who signs in brings the matches played as a
guest to the account, and a sign-in that expires leaves the browser a guest, told why.
Debian's Chromium driven by Playwright against a real server whose signed-in sessions
idle out after a few seconds."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from rummykit.server.loadbench import start_server
from web_helpers import artifacts, browser, needs_browser, pick_port

pytestmark = needs_browser
__all__ = ["artifacts", "browser"]  # fixtures used by name

IDLE = 4.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server whose signed-in sessions expire after :data:`IDLE` seconds unused."""
    folder = tmp_path_factory.mktemp("web-sessions")
    port = pick_port()
    process = start_server(f"sqlite:///{folder / 'web.db'}", port, folder / "server.log",
                           {"RUMMYKIT_BOT_DELAY": "0.05",
                            "RUMMYKIT_SESSION_IDLE_SECONDS": str(IDLE)})
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
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
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(path)
    return page


def sign(page: Page, form: str, name: str, password: str) -> None:
    page.goto("/#/account")
    page.wait_for_selector(f"#{form}")
    page.fill(f"#{form}-name", name)
    page.fill(f"#{form}-password", password)
    page.click(f"#{form} button[type=submit]")
    page.wait_for_selector(f"text=Signed in as {name}")


def test_signing_in_brings_the_guest_matches_and_an_expired_sign_in_says_why(
        browser: Browser, server: str, contexts: list[BrowserContext],
        artifacts: Path) -> None:
    name, password = f"web_{random.randrange(10**6)}", "a good password"
    sign(open_page(browser, server, contexts), "signup", name, password)  # elsewhere
    page = open_page(browser, server, contexts)  # a guest plays one match here
    page.wait_for_selector("text=No finished matches yet")
    page.click("#play-bots")
    page.wait_for_selector(".hand-cards button.card")
    page.click("button.resign")
    page.click("#confirm-resign")
    page.wait_for_selector(".left-notice.mine")
    sign(page, "signin", name, password)
    page.wait_for_selector(".toast:has-text('played here as a guest are now your account')")
    assert re.search(r"Basic Rummy\s+1\s+0\s+1", page.locator(".record").inner_text())

    page.goto("/#/")
    page.wait_for_selector(f".who:has-text('Signed in as {name}')")
    time.sleep(IDLE + 1.5)  # unused past the idle timeout
    page.click("#play-bots")  # refused for the expired session, then made as a guest
    page.wait_for_selector(".toast:has-text('Your sign-in expired')")
    page.wait_for_selector(".hand-cards button.card")
    page.goto("/#/")
    notice = page.wait_for_selector("#session-expired")
    assert "Your sign-in expired (it went unused too long)" in notice.inner_text()
    assert "You play as a guest" in page.locator(".who").inner_text()
    assert page.locator("text=No finished matches yet").count() == 1  # a new guest
    page.screenshot(path=str(artifacts / "web-session-expired.png"))
    sign(page, "signin", name, password)  # back to the account
    assert page.locator("#session-expired").count() == 0
    assert re.search(r"Basic Rummy\s+1\s+0\s+1", page.locator(".record").inner_text())
    assert page.errors == []  # type: ignore[attr-defined]
