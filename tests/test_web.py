"""The web app in a real browser (Debian's Chromium driven by Playwright) against a real
``rummykit serve`` started as a subprocess: play a hand against a bot by clicking, an
illegal attempt, a reload and a dropped connection mid-hand, two players on two browser
contexts with a spectator, and the replay viewer.

Screenshots of the lobby and of a table in the middle of a hand are saved under the
directory named by ``RUMMYKIT_WEB_ARTIFACTS`` (default: a pytest temporary directory).
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket

from web_helpers import (
    GOLDEN,
    Opener,
    api,
    artifacts,
    browser,
    click_move,
    create_table,
    drag,
    hand,
    hand_over,
    needs_browser,
    new_page,
    pick_port,
    play_turn,
    server,
    table_against_bot,
    version,
    wait_past,
    wait_turn_or_end,
    whose_turn,
)

pytestmark = needs_browser
__all__ = ["artifacts", "browser", "new_page", "server"]  # fixtures used by name

# -- the tests ----------------------------------------------------------------------------

def top_label(page: Page) -> str:
    """The discard pile's top card as the table writes it ("10♦")."""
    return page.locator(".pile.discard .card").get_attribute("title") or ""


def test_play_a_whole_hand_against_a_bot(new_page: Opener, server: str,
                                         artifacts: Path) -> None:
    """One click from the lobby; the hand played by clicking and dragging to its end; the
    summary; a match to 1 point is then over: rematch, and the lobby's tables and stats."""
    page = new_page()
    page.goto("/")
    page.fill("input[name=name]", "Tess")
    page.keyboard.press("Tab")
    page.select_option(".play-bots select[name=seat1]", "easy")
    page.click(".play-bots summary")
    page.fill(".play-bots input[name=target_score]", "1")
    page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    page.click("#play-bots")
    page.wait_for_selector(".hand-cards button.card")
    assert len(hand(page)) == 10
    assert page.locator(".player").count() == 1
    turns = 0
    while wait_turn_or_end(page):
        play_turn(page)
        turns += 1
        if turns == 3:
            page.screenshot(path=str(artifacts / "table-mid-hand.png"), full_page=True)
        assert turns < 600, "the hand did not end"  # an easy bot can take long
    page.screenshot(path=str(artifacts / "hand-over.png"))
    if page.locator(".hand-summary").count():  # a drawn hand: the match goes on beside it
        page.wait_for_selector("text=Hand 2 ·")
        assert page.locator(".hand-summary .revealed").count() == 2
        page.click(".hand-summary button:has-text('Hide')")
        page.wait_for_selector(".hand-summary", state="detached")
        return
    summary = page.locator(".overlay .dialog")
    assert summary.locator(".revealed").count() == 2
    assert "over" in summary.locator("h2").inner_text()
    assert page.locator(".log-list li").count() > 3
    assert page.locator(".sheet tbody tr").count() == 1
    assert "won the match" in summary.inner_text()
    page.click("text=Rematch")  # the bot agrees: a new match starts at once
    page.wait_for_selector(".overlay", state="detached")
    page.wait_for_selector("text=Match 2 ·")
    assert len(hand(page)) == 10
    page.click(".topbar .home")
    page.wait_for_selector(".my-tables li")
    assert "Basic Rummy" in page.locator(".my-tables").inner_text()
    stats = page.locator("table.stats")
    stats.wait_for()
    assert stats.locator("tbody td").nth(1).inner_text() == "1"  # played one match
    assert page.errors == []  # type: ignore[attr-defined]


def test_an_illegal_attempt_shows_the_reason_then_reload_and_continue(
        new_page: Opener, server: str) -> None:
    page = new_page()
    page.goto(f"/#/play/{table_against_bot(server)}")
    assert wait_turn_or_end(page)
    # sort by rank, then select three cards by sweeping the pointer across them
    page.click("text=by rank")
    ranks = "A23456789TJQK"
    order = [ranks.index(c[1]) for c in hand(page)]
    assert order == sorted(order)
    cards = page.locator(".hand-cards button.card")
    drag(page, cards.nth(0), cards.nth(2))
    assert page.locator(".hand-cards button.card.selected").count() == 3
    page.keyboard.press("Escape")
    assert page.locator(".hand-cards button.card.selected").count() == 0
    page.click("text=whole pile")
    assert page.locator(".whole-pile .card").count() >= 1
    top = page.locator(".pile.discard .card").get_attribute("data-card")
    click_move(page, 'button[data-move="take"]')
    assert top in hand(page)
    # buttons offer only legal moves: no discard of the card just taken
    page.click(f'.hand-cards button.card[data-card="{top}"]')
    assert page.locator(f'button[data-move="discard {top}"]').count() == 0
    # dropping it on the discard pile anyway: the server refuses and says why
    page.click(".pile.discard")
    error = page.locator(".error")
    error.wait_for()
    assert "taken from the discard pile" in error.inner_text()
    held = sorted(hand(page))
    moves_seen = page.locator(".log-list li").count()

    page.reload()
    page.wait_for_selector(".hand-cards button.card")
    assert sorted(hand(page)) == held
    assert page.locator(".log-list li").count() >= moves_seen  # the move log survives
    other = next(c for c in hand(page) if c != top)
    before = version(page)
    drag(page, page.locator(f'.hand-cards button.card[data-card="{other}"]'),
         page.locator(".pile.discard"))
    wait_past(page, before)
    assert other not in hand(page)
    assert wait_turn_or_end(page)  # the bot moved; our turn again
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_dropped_connection_reconnects_by_itself(new_page: Opener, server: str) -> None:
    page = new_page()
    page.goto(f"/#/play/{table_against_bot(server)}")
    assert wait_turn_or_end(page)
    # every status the pill shows, in order, also when the app redraws the pill itself
    page.evaluate("""() => {
        window.statuses = [];
        const seen = (status) => {
            if (status && window.statuses.at(-1) !== status) window.statuses.push(status);
        };
        new MutationObserver((records) => {
            const pills = records.filter((r) => r.type === "attributes");
            pills.forEach((r, i) => seen(i + 1 < pills.length ? pills[i + 1].oldValue
                                                             : r.target.dataset.status));
            seen((document.querySelector(".conn") || {dataset: {}}).dataset.status);
        }).observe(document.body, {subtree: true, childList: true, attributes: true,
                                   attributeOldValue: true, attributeFilter: ["data-status"]});
    }""")
    page.evaluate("window.rummykitSocket.reconnect()")
    page.wait_for_selector('.conn[data-status="open"]')
    page.wait_for_function("() => window.statuses.includes('open')")
    assert page.evaluate("window.statuses")[0] == "reconnecting"
    play_turn(page, meld=False)  # and the game goes on
    assert page.errors == []  # type: ignore[attr-defined]


def test_two_players_in_two_browsers_and_a_spectator(new_page: Opener, server: str,
                                                      artifacts: Path) -> None:
    ann = new_page()
    ann.goto("/")
    ann.fill("input[name=name]", "Ann")
    ann.keyboard.press("Tab")
    ann.fill(".play-friends input[name=friend1]", "Bob")
    ann.click("#create-friends")
    links = ann.locator("a.seat-link")
    links.nth(1).wait_for()
    urls = [links.nth(i).get_attribute("href") or "" for i in range(2)]
    watch_url = ann.locator(".links a.watch-link").get_attribute("href") or ""
    ann.goto(urls[0])
    bob = new_page()
    bob.goto(urls[1])
    for page in (ann, bob):
        page.wait_for_selector(".hand-cards button.card")
    assert not set(hand(ann)) & set(hand(bob))

    watcher = new_page()
    received: list[dict[str, Any]] = []
    batches: list[list[dict[str, Any]]] = []

    def take(frame: Any) -> None:  # protocol 2: a frame is a message or a batch of them
        if isinstance(frame, list):
            batches.append(frame)
        received.extend(frame if isinstance(frame, list) else [frame])

    def listen(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: take(json.loads(payload)))

    watcher.on("websocket", listen)
    watcher.goto(watch_url)
    watcher.wait_for_selector(".players .player")

    for _ in range(4):  # two turns each
        mover = whose_turn(ann, bob)
        other = bob if mover is ann else ann
        seen = version(other)
        play_turn(mover, meld=False)
        wait_past(other, seen)
        if hand_over(mover):
            break
    wait_past(watcher, version(ann) - 1)
    watcher.screenshot(path=str(artifacts / "spectator.png"), full_page=True)

    # the spectator sees no hidden card: no hand, and none of the players' cards
    assert watcher.locator(".hand-cards").count() == 0
    shown = set(watcher.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert not shown & (set(hand(ann)) | set(hand(bob)))
    views = [m["view"] for m in received if m.get("type") in ("event", "sync") and m.get("view")]
    assert views and all(v["hand"] == [] and v["seat"] is None for v in views)
    assert all(m.get("legal", []) == [] for m in received)
    # the page speaks protocol 2: its hello's welcome, sync and seats came in one frame
    assert batches and [m["type"] for m in batches[0]][:2] == ["welcome", "sync"]
    # each player sees the other's card count and moves
    bob_count = len(hand(bob))
    assert ann.locator(".player .player-count").get_attribute("data-count") == str(bob_count)
    assert "Ann" in bob.locator(".log-list").inner_text()
    assert "Bob" in ann.locator(".log-list").inner_text()
    ann.click(".topbar .home")  # the lobby lists the table
    assert "Ann, Bob" in ann.locator(".my-tables").inner_text()
    for page in (ann, bob, watcher):
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_replay_viewer_steps_through_an_uploaded_record(new_page: Opener,
                                                            server: str) -> None:
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url.split("/api/")[-1])
            if "/api/replays/" in request.url else None)
    page.goto("/")
    page.set_input_files(".upload input[type=file]", str(GOLDEN / "basic_2p.rummy.json"))
    page.wait_for_selector(".replay")
    assert page.locator(".replay-seat").count() == 2
    assert len(asked) == 1 and asked[0].endswith("?seat=all")  # one request, every seat
    # every seat's cards are visible
    seats = [page.locator(f'.replay-seat[data-seat="{s}"] .card') for s in (0, 1)]
    assert [cards.count() for cards in seats] == [10, 10]
    assert "dealt" in page.locator(".said").inner_text()
    page.click("[aria-label='Step forward']")
    page.click("[aria-label='Step forward']")
    assert page.locator(".replay").get_attribute("data-frame") == "2"
    page.keyboard.press("ArrowLeft")
    assert page.locator(".replay").get_attribute("data-frame") == "1"
    said = page.locator(".said").inner_text()
    assert "Ann" in said or "Bob" in said
    page.click("[aria-label=End]")
    assert page.locator(".replay .result").count() == 1
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_replay_of_a_finished_match_at_a_table(new_page: Opener, server: str) -> None:
    created = create_table(server, {
        "rules": "basic", "options": {"target_score": 5},
        "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]})
    table = created["table"]["id"]
    deadline = time.monotonic() + 60
    while api(server, "GET", f"/api/tables/{table}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the match"
        time.sleep(0.2)
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(f"{request.method} {request.url}")
            if "/api/" in request.url else None)
    page.goto(f"/#/replay/table/{table}/0")
    page.wait_for_selector(".replay")
    # one request for the whole replay, every seat's cards face up; nothing uploaded
    assert [a for a in asked if "replay" in a] == [
        f"GET {server}/api/tables/{table}/matches/0/replay?seat=all"]
    assert all(page.locator(f'.replay-seat[data-seat="{s}"] .card').count() >= 10
               for s in (0, 1))
    assert page.locator("a:has-text('download record')").get_attribute("href") == \
        f"/api/tables/{table}/matches/0/record"
    page.click("[aria-label=End]")
    assert page.locator(".replay .result").count() == 1
    page.click("[aria-label=Start]")
    assert page.locator(".replay").get_attribute("data-frame") == "0"
    assert page.errors == []  # type: ignore[attr-defined]


def test_moves_in_words_and_the_buttons_a_selection_offers(new_page: Opener,
                                                           server: str) -> None:
    """The modules that read the server's legal moves, run in the browser itself."""
    page = new_page()
    page.goto("/")
    result = page.evaluate("""async () => {
        const words = await import("/js/words.js");
        const moves = await import("/js/moves.js");
        const view = {discard: ["S2", "H9", "C4"]};
        const legal = ["draw", "take", "take 3", "meld H5 JK=H6 H7", "meld H5 JK=H4 H7",
                       "meld C8 D8 H8 / CK DK HK", "lay JK=H9 on 1", "lay HA on 2 low",
                       "lay HA on 2 high", "swap H6 on 2", "discard H5"];
        const texts = (selected) => moves.offeredMoves(legal, selected).map(m => m.text);
        return {
            labels: legal.map(m => words.actionLabel(m, view)),
            mine: words.moveSentence("Ann", "take", {yours: true}),
            theirs: words.moveSentence("Ann", "take 3", {taken: "S2"}),
            facts: words.factsClause({facts: [{label: "Contract", value: "2 sets"}]}),
            joker: texts(["H7", "JK", "H5"]),
            down: texts(["CK", "C8", "DK", "H8", "HK", "D8"]),
            one: texts(["H5"]),
            ace: moves.movesOntoMeld(legal, "HA", 2).map(m => m.text),
            jokerLay: moves.movesOntoMeld(legal, "JK", 1).map(m => m.text),
        };
    }""")
    assert result["labels"] == [
        "Draw from the stock", "Take 4♣", "Take 3 cards, down to 2♠", "Meld 5♥ joker (6♥) 7♥",
        "Meld 5♥ joker (4♥) 7♥", "Go down with 8♣ 8♦ 8♥ and K♣ K♦ K♥",
        "Lay joker (9♥) off on meld 1", "Lay A♥ off on meld 2 (low end)",
        "Lay A♥ off on meld 2 (high end)", "Swap 6♥ for the joker in meld 2", "Discard 5♥"]
    assert result["mine"] == "You take the top of the discard pile."
    assert result["theirs"] == "Ann digs the top 3 cards of the discard pile, down to 2♠."
    assert result["facts"] == "contract: 2 sets"
    draws = ["draw", "take", "take 3"]
    assert result["joker"] == [*draws, "meld H5 JK=H6 H7", "meld H5 JK=H4 H7"]
    assert result["down"] == [*draws, "meld C8 D8 H8 / CK DK HK"]
    assert result["one"] == [*draws, "discard H5"]
    assert result["ace"] == ["lay HA on 2 low", "lay HA on 2 high"]
    assert result["jokerLay"] == ["lay JK=H9 on 1"]


def test_a_phone_sized_screen_needs_no_sideways_scrolling(browser: Browser, server: str,
                                                          artifacts: Path) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 360, "height": 740},
                                  has_touch=True, is_mobile=True)
    context.set_default_timeout(15000)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("#play-bots")
    overflow = "document.scrollingElement.scrollWidth - window.innerWidth"
    assert page.evaluate(overflow) <= 0
    page.click("#play-bots")
    page.wait_for_selector(".hand-cards button.card")
    assert page.evaluate(overflow) <= 0
    page.screenshot(path=str(artifacts / "table-phone.png"), full_page=True)
    context.close()


def test_the_hint_button_asks_the_server(new_page: Opener, server: str) -> None:
    """The server lists its hint endpoint in its OpenAPI document, so the seat to move gets
    a Hint button; the advice shown is the real endpoint's, a legal move."""
    assert any("hint" in path for path in api(server, "GET", "/api/openapi.json")["paths"])
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.headers.get("x-seat-token", ""))
            if request.url.endswith("/hint") else None)
    token = table_against_bot(server)
    page.goto(f"/#/play/{token}")
    assert wait_turn_or_end(page)
    page.click("button:has-text('Hint')")
    page.wait_for_selector(".hint .hint-text")
    text = page.locator(".hint .hint-text").inner_text()
    assert text.endswith(".") and "[" not in text
    # the advice can be played with one click; the candidates are a table of words
    play = page.locator(".hint button:has-text('Play it')")
    assert play.inner_text() in ("Play it: Draw from the stock", "Play it: Take " + top_label(page))
    page.click(".hint summary")
    rows = page.locator(".hint-table tbody tr")
    assert rows.count() >= 1
    assert all(c not in rows.first.inner_text() for c in ("   ", "SA", "DT"))
    assert asked == [token]
    before = version(page)
    play.click()
    wait_past(page, before)
    assert len(hand(page)) == 11


def test_a_fresh_browser_gets_the_hand_so_far_from_the_server(new_page: Opener,
                                                                server: str) -> None:
    """The sync carries the hand's move log: a browser with no notes of its own (another
    context, empty localStorage) lists the same moves as the one that played them."""
    page = new_page()
    token = table_against_bot(server)
    page.goto(f"/#/play/{token}")
    for _ in range(2):
        if not wait_turn_or_end(page):
            pytest.skip("the bot went out at once")
        play_turn(page, meld=False)
    if not wait_turn_or_end(page):
        pytest.skip("the hand ended early")
    played = page.locator(".log-list li").all_inner_texts()
    assert len(played) >= 5  # the deal and at least two turns of two moves
    fresh = new_page()
    fresh.goto(f"/#/play/{token}")
    assert wait_turn_or_end(fresh)
    fresh.wait_for_function("n => document.querySelectorAll('.log-list li').length >= n",
                            arg=len(played))
    listed = fresh.locator(".log-list li").all_inner_texts()
    if "discard pile" in played[1]:  # the upcard taken first is not named by the log
        listed[1], played[1] = listed[1].split(" takes")[0], played[1].split(" takes")[0]
    assert listed == played


def test_the_sheet_and_contract_come_from_the_server(new_page: Opener, server: str) -> None:
    """A spectator arriving after some hands sees every hand's points (``match.hands``),
    not "hands not seen here", and the deal's contract as the server words it."""
    seats = [{"kind": "bot", "level": "easy"}] * 3
    created = create_table(server, {"rules": "contract", "seats": seats,
                                    "options": {"max_turns_per_hand": 40}})
    table_id = created["table"]["id"]
    deadline = time.monotonic() + 120  # bots at a loaded machine's pace
    while True:
        match = api(server, "GET", f"/api/tables/{table_id}")["match"]
        if match["hands_played"] >= 2:
            break
        assert time.monotonic() < deadline, match
        time.sleep(0.05)
    page = new_page()
    page.goto(f"/#/watch/{table_id}")
    page.wait_for_selector(".sheet tbody tr")
    assert page.locator(".sheet tr.muted").count() == 0
    assert page.locator(".sheet tbody tr").count() >= 2
    deal, contract = page.evaluate(  # read in one go: the bots keep playing
        "[document.querySelector('.topbar .deal').innerText,"
        " document.querySelector('.topbar [data-fact=contract]').innerText]")
    words = ["2 sets", "1 set + 1 run", "2 runs (of different suits)", "3 sets",
             "2 sets + 1 run", "1 set + 2 runs (of different suits)",
             "3 runs (of different suits), all cards at once with no discard"]
    assert contract == f"Contract: {words[(int(deal.split()[1]) - 1) % 7]}"


def test_the_app_runs_under_its_content_security_policy(new_page: Opener, server: str) -> None:
    """The pages carry the CSP; an injected inline script is refused (and reported, so the
    other tests would see a violation), and a foreign page cannot frame the app."""
    page = new_page()
    response = page.goto("/")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector("#play-bots")
    page.evaluate("""() => { const s = document.createElement("script");
                             s.textContent = "window.injected = 1;";
                             document.head.append(s); }""")
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.injected") is None
    assert any("Content Security Policy" in e for e in page.errors)  # type: ignore[attr-defined]
    with framing_page(f'<iframe id="app" src="{server}/"></iframe>') as foreign:
        framing = new_page()
        framing.goto(foreign)
        framing.wait_for_timeout(1500)
        assert framing.frame_locator("#app").locator("#play-bots").count() == 0
        assert any("frame-ancestors 'none'" in e for e in framing.errors)  # type: ignore[attr-defined]


@contextmanager
def framing_page(html: str) -> Iterator[str]:
    """Another local origin (a second port) serving one page; its URL."""
    body = html.encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", pick_port()), Page)
    thread = threading.Thread(target=other.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{other.server_address[1]}/"
    finally:
        other.shutdown()
        other.server_close()
