"""Measure the web app in Chromium against a real server (a benchmark, not a test):

- cold start: a fresh browser context (empty cache) opens a seat's link; the time from
  the navigation's start to a playable hand (cards shown, the seat to move, its moves on
  the buttons), from the page's own clock (performance.now());
- the lobby's one click: from the click on "Play against the computer" to a playable hand;
- move round trip: from a move's send (the click) to the page redrawn with its event, over
  a loop of draws and discards against a bot that moves at once.

    .venv/bin/python tests/web_timing.py --port 18540 --starts 10 --moves 100 [--waterfall]

It prints the load average before and after: on a shared machine the figures follow it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).parent))
from web_helpers import CHROMIUM, running_server

PLAYABLE = """() => document.querySelector('.turn[data-mine="yes"]')
    && document.querySelector('.hand-cards button.card')
    && document.querySelector('.actions button.action') ? performance.now() : false"""


def create_table(url: str) -> str:
    body = {"rules": "basic", "seats": [{"kind": "human", "name": "Tess"},
                                        {"kind": "bot", "level": "easy"}]}
    request = urllib.request.Request(f"{url}/api/tables", data=json.dumps(body).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        token: str = json.loads(reply.read())["tokens"][0]["token"]
        return token


def cold_start(browser: Browser, url: str) -> float:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(f"{url}/#/play/{create_table(url)}", wait_until="commit")
    ms: float = page.wait_for_function(PLAYABLE, polling="raf").json_value()
    context.close()
    return ms


WATERFALL = """() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const rows = [['document', 0, nav.responseEnd, nav.transferSize, nav.encodedBodySize]];
    for (const r of performance.getEntriesByType('resource'))
        rows.push([r.name.replace(location.origin, ''), r.startTime, r.responseEnd,
                   r.transferSize, r.encodedBodySize]);
    const ready = nav.domContentLoadedEventEnd;
    rows.push(['DOMContentLoaded', ready, ready, 0, 0]);
    return rows;
}"""


def waterfall(browser: Browser, url: str) -> list[str]:
    """One cold start's requests: path, start and end (ms from the navigation), bytes
    transferred and body bytes; and when the hand was playable."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(f"{url}/#/play/{create_table(url)}", wait_until="commit")
    ms: float = page.wait_for_function(PLAYABLE, polling="raf").json_value()
    rows: list[list[Any]] = page.evaluate(WATERFALL)
    context.close()
    lines = [f"{name[:60]:60} {start:7.1f} {end:7.1f} {sent:7d} {body:7d}"
             for name, start, end, sent, body in sorted(rows, key=lambda r: r[1])]
    names = [row[0] for row in rows]
    twice = sorted({n for n in names if names.count(n) > 1})  # a preload fetch() did not take
    return [*lines, f"{'playable':60} {ms:7.1f}",
            *(f"asked for twice: {name}" for name in twice)]


def lobby_click(browser: Browser, url: str) -> float:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#play-bots")
    clicked: float = page.evaluate("""() => new Promise((done) => {
        const button = document.getElementById('play-bots');
        const first = {capture: true, once: true};
        button.addEventListener('click', () => done(performance.now()), first);
        button.click();
    })""")
    ms: float = page.wait_for_function(PLAYABLE, polling="raf").json_value()
    context.close()
    return ms - clicked


def move_round_trips(browser: Browser, url: str, moves: int) -> list[float]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    times: list[float] = []
    while len(times) < moves:
        page.goto(f"{url}/#/play/{create_table(url)}")
        page.wait_for_function(PLAYABLE, polling="raf")
        while len(times) < moves and one_turn(page, times):
            pass
    context.close()
    return times


def timed_click(page: Page, selector: str) -> float | None:
    """Click; the ms until the page shows a later version (None if the hand ended)."""
    result: Any = page.evaluate("""(selector) => new Promise((done) => {
        const app = document.getElementById('app');
        const seen = Number(app.querySelector('.table-screen').dataset.version);
        const watch = new MutationObserver(() => {
            const screen = app.querySelector('.table-screen');
            if (screen && Number(screen.dataset.version) > seen) {
                watch.disconnect();
                done(performance.now() - start);
            }
        });
        watch.observe(app, {childList: true});
        const start = performance.now();
        document.querySelector(selector).click();
    })""", selector)
    return float(result) if result is not None else None


def one_turn(page: Page, times: list[float]) -> bool:
    """Draw and discard once; False when the hand is over."""
    page.wait_for_function(PLAYABLE + " || document.querySelector('.hand-summary, .overlay')")
    if page.locator(".hand-summary, .overlay").count():
        return False
    times.append(timed_click(page, 'button[data-move="draw"]') or 0.0)
    legal: list[str] = json.loads(page.locator(".table-screen").get_attribute("data-legal") or "[]")
    discard = next((m for m in legal if m.startswith("discard")), None)
    if discard is None:
        return False
    page.locator(f'.hand-cards button.card[data-card="{discard.split()[1]}"]').first.click()
    times.append(timed_click(page, f'button[data-move="{discard}"]') or 0.0)
    return True


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 20 else max(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=18540)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--waterfall", action="store_true",
                        help="print one cold start's requests (start, end, bytes)")
    args = parser.parse_args()
    before = os.getloadavg()
    os.environ["RUMMYKIT_WEB_PORTS"] = f"{args.port}-{args.port + 9}"
    with tempfile.TemporaryDirectory() as folder, running_server(Path(folder), 0) as url, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        cold_start(browser, url)  # the server's first table warms its imports
        if args.waterfall:
            print(f"{'request':60} {'start':>7} {'end':>7} {'bytes':>7} {'body':>7}")
            print("\n".join(waterfall(browser, url)))
        starts = [cold_start(browser, url) for _ in range(args.starts)]
        clicks = [lobby_click(browser, url) for _ in range(args.starts)]
        trips = move_round_trips(browser, url, args.moves)
        browser.close()
    print(f"cold start to a playable hand (seat link, fresh context), {len(starts)} runs: "
          f"median {statistics.median(starts):.0f} ms, max {max(starts):.0f} ms")
    print(f"lobby click to a playable hand, {len(clicks)} runs: "
          f"median {statistics.median(clicks):.0f} ms, max {max(clicks):.0f} ms")
    print(f"move round trip (click to redrawn), {len(trips)} moves: "
          f"median {statistics.median(trips):.1f} ms, p95 {p95(trips):.1f} ms, "
          f"max {max(trips):.1f} ms")
    after = os.getloadavg()
    print(f"load average (1, 5, 15 min) before {before[0]:.2f} {before[1]:.2f} {before[2]:.2f},"
          f" after {after[0]:.2f} {after[1]:.2f} {after[2]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
