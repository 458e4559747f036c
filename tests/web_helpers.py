"""What the browser tests share: a real ``rummykit serve`` in a subprocess, Debian's
Chromium driven by Playwright, fresh pages, and helpers that read and play the table.

A test module imports the fixtures it uses from here. ``RUMMYKIT_WEB_PORTS`` (e.g.
``18500-18599``) keeps the servers the tests start inside a range of ports; by default
any free port is used.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import Browser, BrowserContext, Page  # noqa: E402

from rummykit.server.loadbench import free_port  # noqa: E402
from rummykit.web import WEB_ROOT  # noqa: E402

__all__ = ["WEB_ROOT", "free_port"]

CHROMIUM = os.environ.get("RUMMYKIT_CHROMIUM", "/usr/bin/chromium")
GOLDEN = Path(__file__).parent / "data" / "golden"

#: the ``new_page`` fixture: opens a page in a fresh browser context
Opener = Callable[[], Page]

# Skipped without a browser, except where RUMMYKIT_REQUIRE_BROWSER is set (CI): there a
# missing browser fails the tests. Each browser test module sets `pytestmark = needs_browser`.
needs_browser = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("RUMMYKIT_REQUIRE_BROWSER"),
    reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)")


def pick_port() -> int:
    """A free port for a test server: inside ``RUMMYKIT_WEB_PORTS`` when it is set."""
    wanted = os.environ.get("RUMMYKIT_WEB_PORTS")
    if not wanted:
        return free_port()
    low, high = (int(p) for p in wanted.split("-"))
    for port in range(low, high + 1):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError(f"no free port in RUMMYKIT_WEB_PORTS={wanted}")


# -- the server and the browser ---------------------------------------------------------

def _rummykit() -> list[str]:
    beside = Path(sys.executable).parent / "rummykit"
    found = str(beside) if beside.exists() else shutil.which("rummykit")
    assert found, "the rummykit command is not installed"
    return [found]


@contextmanager
def running_server(folder: Path, bot_delay: float) -> Iterator[str]:
    """``rummykit serve`` on a free port with its own SQLite file, until the block ends."""
    port = pick_port()
    # a hand nobody can end (basic has no deadlock rule: two players left with cards that
    # fit nowhere) is ended by the server's valve (1,000 turns, the rules' own) within the
    # 500 turns a seat that the tests play may take
    env = {**os.environ, "RUMMYKIT_ALLOW_SEEDS": "true",
           "RUMMYKIT_BOT_DELAY": str(bot_delay), "RUMMYKIT_GRACE_SECONDS": "600"}
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(
        [*_rummykit(), "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database-url", f"sqlite:///{folder / 'web.db'}"],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/health", timeout=1) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            assert process.poll() is None, (folder / "server.log").read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server for the module; bots move at once."""
    with running_server(tmp_path_factory.mktemp("web-server"), 0) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"],
                                              headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = os.environ.get("RUMMYKIT_WEB_ARTIFACTS")
    folder = Path(where) if where else tmp_path_factory.mktemp("web-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def new_page(browser: Browser, server: str) -> Iterator[Opener]:
    """Opens a page in a fresh browser context (its own localStorage); page errors and
    Content-Security-Policy violations are kept in ``page.errors``; the contexts close
    after the test."""
    contexts: list[BrowserContext] = []

    def open_page() -> Page:
        context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 860})
        context.set_default_timeout(15000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text)
                if "Content Security Policy" in message.text else None)
        page.errors = errors  # type: ignore[attr-defined]
        return page

    yield open_page
    for context in contexts:
        context.close()


def api(server: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


def seed_of_this_test() -> int:
    """The running test's own seed (from its node id): its tables deal the same cards each
    time it runs, so a deal that fails a test fails it again."""
    node = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    return zlib.crc32(node.encode())


def create_table(server: str, spec: dict[str, Any]) -> Any:
    """``POST /api/tables`` with the test's seed unless ``spec`` gives one."""
    return api(server, "POST", "/api/tables", {"seed": seed_of_this_test(), **spec})


def table_against_bot(server: str, rules: str = "basic", level: str = "easy") -> str:
    """A table with you at seat 0 and a bot; the seat's token."""
    seats = [{"kind": "human", "name": "Tess"}, {"kind": "bot", "level": level}]
    created = create_table(server, {"rules": rules, "seats": seats})
    token: str = created["tokens"][0]["token"]
    return token


# -- reading and playing the table ------------------------------------------------------

def version(page: Page) -> int:
    return int(page.locator(".table-screen").get_attribute("data-version") or 0)


def legal(page: Page) -> list[str]:
    moves: list[str] = json.loads(page.locator(".table-screen").get_attribute("data-legal") or "[]")
    return moves


def hand(page: Page) -> list[str]:
    cards: list[str] = page.locator(".hand-cards button.card").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    return cards


def wait_past(page: Page, seen: int) -> None:
    """Until the table has moved past version ``seen``."""
    page.wait_for_function(
        "seen => Number(document.querySelector('.table-screen')?.dataset.version) > seen", arg=seen)


#: what shows once a hand is over: the panel beside the next hand, or the match's dialog
MATCH_OVER = ".overlay .dialog[aria-labelledby=summary-title]"
HAND_OVER = f".hand-summary, {MATCH_OVER}"


def hand_over(page: Page) -> bool:
    return page.locator(HAND_OVER).count() > 0


def wait_turn_or_end(page: Page) -> bool:
    """Until it is this seat's turn (True) or the hand-over summary shows (False)."""
    page.wait_for_selector(f'.turn[data-mine="yes"], {HAND_OVER}')
    return not hand_over(page)


def whose_turn(*pages: Page) -> Page:
    """The page whose seat is to move (waiting a little for the event to arrive)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator('.turn[data-mine="yes"]').count():
                return page
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody's turn")


def click_move(page: Page, selector: str) -> None:
    before = version(page)
    page.click(selector)
    wait_past(page, before)


def box_of(page: Page, locator: Any) -> dict[str, float]:
    """Where ``locator`` is on the screen, waiting while the app redraws it (a locator's
    element can be replaced between finding it and measuring it)."""
    for _ in range(100):
        locator.wait_for(state="visible")
        box = locator.bounding_box()
        if box is not None:
            return cast(dict[str, float], box)
        page.wait_for_timeout(20)
    raise AssertionError(f"{locator} has no place on the screen")


def drag(page: Page, source: Any, target: Any) -> None:
    """Drag with the mouse in small steps (pointer events, as a finger or mouse would)."""
    start = box_of(page, source)
    end = box_of(page, target)
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def play_turn(page: Page, *, meld: bool = True) -> None:
    """Draw, meld what can be melded, lay off by dragging, discard the first card."""
    click_move(page, 'button[data-move="draw"]')
    if meld and page.locator("text=possible melds").count():
        page.click("text=Show possible melds")
        click_move(page, ".meld-list button >> nth=0")
    if hand_over(page):
        return
    lay = next((m for m in legal(page) if m.startswith("lay ")), None)
    if lay is not None:
        card, number = lay.split()[1], lay.split()[3]
        before = version(page)
        drag(page, page.locator(f'.hand-cards button.card[data-card="{card.split("=")[0]}"]').first,
             page.locator(f'.meld[data-number="{number}"]'))
        wait_past(page, before)
        if hand_over(page):
            return
    page.locator(".hand-cards button.card").first.click()
    click_move(page, 'button[data-move^="discard"]')
