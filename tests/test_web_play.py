"""Playing in the browser as a card player would (issue 19): a network that dies silently
or goes offline, a mistyped link, the hand's summary beside the next hand, the goal and
penalties, the rules pages, keyboard play, announcements, card symbols typed and shown,
touch targets on a phone. Debian's Chromium driven by Playwright against a real server.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from web_helpers import (
    WEB_ROOT,
    Opener,
    api,
    artifacts,
    browser,
    click_move,
    create_table,
    hand,
    legal,
    needs_browser,
    new_page,
    play_turn,
    running_server,
    server,
    table_against_bot,
    version,
    wait_past,
    wait_turn_or_end,
)

pytestmark = needs_browser
__all__ = ["artifacts", "browser", "new_page", "server"]  # fixtures used by name


class Network:
    """The page's WebSocket through a relay that can go silent (no close, no error: the
    frames are dropped, as on a dead Wi-Fi)."""

    def __init__(self, page: Page) -> None:
        self.cut = False
        page.route_web_socket(re.compile(r"/ws$"), self.relay)

    def relay(self, ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        ws.on_message(lambda message: None if self.cut else upstream.send(message))
        upstream.on_message(lambda message: None if self.cut else ws.send(message))


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second server whose bots take 50 ms a move, for tables of bots only: at full
    speed they redraw a spectator's page faster than a test can read it."""
    with running_server(tmp_path_factory.mktemp("paced-server"), 0.05) as url:
        yield url


def status(page: Page) -> str:
    return page.locator(".conn").get_attribute("data-status") or ""


def bots_table(server: str, rules: str = "basic", players: int = 2, **options: Any) -> str:
    seats = [{"kind": "bot", "level": "easy"}] * players
    spec = {"rules": rules, "seats": seats, "options": options}
    created = create_table(server, spec)
    table: str = created["table"]["id"]
    return table


# -- the network -------------------------------------------------------------------------

def test_a_silent_network_is_noticed_and_the_lost_move_is_sent_again(
        new_page: Opener, server: str) -> None:
    page = new_page()
    network = Network(page)
    page.goto(f"/#/play/{table_against_bot(server)}")
    assert wait_turn_or_end(page)
    assert status(page) == "open"
    network.cut = True
    cut_at = time.monotonic()
    page.click('button[data-move="draw"]')
    page.wait_for_function("() => document.querySelector('.conn').dataset.status !== 'open'")
    noticed = time.monotonic() - cut_at
    assert noticed < 8, f"the dead connection was noticed after {noticed:.1f} s"
    assert "connection lost" in page.locator(".conn").inner_text()
    error = page.locator(".error").inner_text()
    assert "connection was lost" in error and "draw" in error
    assert "Sending your move" not in page.locator(".turn").inner_text()
    assert len(hand(page)) == 10
    network.cut = False
    page.wait_for_selector('.conn[data-status="open"]', timeout=20000)
    page.wait_for_function(
        "() => document.querySelectorAll('.hand-cards button.card').length === 11")
    assert "sent again" in page.locator(".notice").inner_text()
    assert page.locator(".error").count() == 0
    said = page.locator("#announce").inner_text()
    assert "Connection lost" in said and "Connected again." in said
    assert page.errors == []  # type: ignore[attr-defined]


class RefusingHello:
    """The page's WebSocket through a relay whose first connection's hello is answered
    ``unavailable`` (as a cluster node answers while the table changes servers) instead
    of reaching the server; later connections pass through."""

    def __init__(self, page: Page) -> None:
        self.connections = 0
        self.refused_at: float | None = None
        page.route_web_socket(re.compile(r"/ws$"), self.relay)

    def relay(self, ws: WebSocketRoute) -> None:
        self.connections += 1
        if self.connections == 1:
            ws.on_message(lambda message: self.refuse(ws))
            return
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)
        upstream.on_message(ws.send)

    def refuse(self, ws: WebSocketRoute) -> None:
        self.refused_at = time.monotonic()
        ws.send(json.dumps({"type": "error", "code": "unavailable",
                            "message": "the table is changing hands: try again"}))


def test_a_refused_hello_is_tried_again_at_once_on_a_new_connection(
        new_page: Opener, server: str) -> None:
    """Not after the seconds of silence that a dead connection is given."""
    page = new_page()
    relay = RefusingHello(page)
    page.goto(f"/#/play/{table_against_bot(server)}")
    page.wait_for_selector('.conn[data-status="open"]', timeout=20000)
    assert relay.refused_at is not None and relay.connections == 2
    welcomed_after = time.monotonic() - relay.refused_at
    assert welcomed_after < 2.5, f"welcomed {welcomed_after:.1f} s after the refusal"
    assert wait_turn_or_end(page)
    play_turn(page, meld=False)
    assert page.errors == []  # type: ignore[attr-defined]


def test_offline_says_so_at_once_and_sends_the_move_when_back(new_page: Opener,
                                                              server: str) -> None:
    page = new_page()
    page.goto(f"/#/play/{table_against_bot(server)}")
    assert wait_turn_or_end(page)
    page.context.set_offline(True)
    page.wait_for_selector('.conn[data-status="offline"]', timeout=3000)
    page.click('button[data-move="draw"]')
    assert "offline" in page.locator(".error").inner_text()
    page.context.set_offline(False)
    page.wait_for_selector('.conn[data-status="open"]', timeout=20000)
    page.wait_for_function(
        "() => document.querySelectorAll('.hand-cards button.card').length === 11")
    assert page.errors == []  # type: ignore[attr-defined]


def test_mistyped_links_are_refused_clearly(new_page: Opener, server: str) -> None:
    page = new_page()
    page.goto("/#/watch/no-such-table")
    page.wait_for_selector(".failed", timeout=5000)
    assert "No such table" in page.locator(".failed h2").inner_text()
    assert "no-such-table" in page.locator(".failed").inner_text()
    assert page.locator(".failed a[href='#/']").count() == 1
    page.goto("/#/play/not-a-real-seat-token")
    page.wait_for_selector(".failed h2:has-text('seat link is not valid')", timeout=5000)


# -- the end of a hand, the goal, penalties ------------------------------------------------

def present(page: Page, selector: str, timeout: float = 15000) -> None:
    """Until an element is there (bots at full speed redraw the page all the time, so
    the tests read a bot table in one go, with page.evaluate). Polled on a timer, not on
    animation frames (a page the browser deems hidden gets none); a timeout says what the
    page and the server had reached."""
    try:
        page.wait_for_function("s => document.querySelector(s) !== null", arg=selector,
                               timeout=timeout, polling=100)
    except PlaywrightTimeout:
        raise AssertionError(f"{selector} did not appear in {timeout / 1000:.0f} s: "
                             f"{where_things_are(page)}") from None


def where_things_are(page: Page) -> str:
    """The page's table version, connection, visibility and errors beside the server's
    table (its version, status and finished hands), for a failure message."""
    shown = page.evaluate("""() => {
        const t = document.querySelector('.table-screen');
        const c = document.querySelector('.conn');
        return {version: t && t.dataset.version, conn: c && c.dataset.status,
                visibility: document.visibilityState, log: [...document.querySelectorAll(
                    '.log-list li')].slice(-3).map(e => e.innerText)};
    }""")
    match = re.search(r"#/watch/([\w-]+)", page.url)
    server = page.url.split("/#")[0]
    stored: Any = None
    if match:
        table = api(server, "GET", f"/api/tables/{match.group(1)}")
        stored = {"version": table.get("version"), "status": table.get("status"),
                  "hands": len(table.get("match", {}).get("hands", []))}
    errors = getattr(page, "errors", [])
    return f"page {shown}, server {stored}, page errors {errors}"


SUMMARY = """() => {
    const s = document.querySelector('.hand-summary');
    document.querySelector('.piles').scrollIntoView({block: 'center'});
    const pile = document.querySelector('.piles').getBoundingClientRect();
    const el = document.elementFromPoint(pile.x + pile.width / 2, pile.y + pile.height / 2);
    const texts = (q) => [...s.querySelectorAll(q)].map(e => e.innerText);
    return {hand: Number(s.dataset.hand), points: texts('td.points'), why: texts('.why'),
            revealed: s.querySelectorAll('.revealed').length,
            melds: s.querySelectorAll('.final-meld').length, height: s.offsetHeight,
            overlays: document.querySelectorAll('.overlay').length,
            covered: !el || !el.closest('.piles'),
            goal: document.querySelector('.topbar .goal').innerText};
}"""


def test_the_hand_summary_sits_beside_the_next_hand(new_page: Opener, paced: str) -> None:
    """Two bots play a long match; a spectator sees each finished hand's melds, cards and
    points explained, while the next hand stays visible and playable underneath."""
    table = bots_table(paced, target_score=1000)
    page = new_page()
    page.goto(f"{paced}/#/watch/{table}")
    present(page, ".hand-summary", 150000)  # a long hand of easy bots at 50 ms a move
    shown = page.evaluate(SUMMARY)
    assert shown["goal"] == "First to 1000 points wins"
    assert shown["overlays"] == 0 and not shown["covered"]  # nothing covers the table
    finished = api(paced, "GET", f"/api/tables/{table}")["match"]["hands"][shown["hand"]]
    assert shown["points"] == [f"+{p}" if p else "0" for p in finished["scores"]]
    assert shown["revealed"] == 2
    if finished["result"] == "win":
        assert shown["why"][finished["winner"]].startswith("collects the cards left")
        assert shown["melds"] >= 1  # the winner's melds, as they lay at the end
    hidden = page.evaluate("""() => {
        const s = document.querySelector('.hand-summary');
        const hand = s.dataset.hand;
        s.querySelector('button').click();
        const again = document.querySelector('.hand-summary');
        return !again || again.dataset.hand !== hand;
    }""")
    assert hidden
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_traditional_match_played_to_its_end(new_page: Opener, server: str) -> None:
    """A whole traditional match (to 1 point) by clicking, then its end: the winner, the
    last hand's melds and points, the goal, and a rematch that deals again."""
    created = create_table(server, {
        "rules": "traditional", "options": {"target_score": 1},
        "seats": [{"kind": "human", "name": "Tess"}, {"kind": "bot", "level": "easy"}]})
    page = new_page()
    page.goto(f"/#/play/{created['tokens'][0]['token']}")
    assert page.locator(".topbar .goal").inner_text() == "First to 1 point wins"
    turns = 0
    while wait_turn_or_end(page):  # the first hand to end ends the match (won or drawn)
        play_turn(page)
        turns += 1
        assert turns < 600, "the match did not end"
    dialog = page.locator(".overlay .dialog")
    text = dialog.inner_text()
    assert "Match over" in text and "First to 1 point wins" in text
    assert ("won the match." in text) or ("drawn hand ends the match" in text)
    assert dialog.locator(".revealed").count() == 2
    if "won the match." in text:
        assert dialog.locator(".final-meld").count() >= 1
    page.click("text=Rematch")
    page.wait_for_selector(".overlay", state="detached")
    page.wait_for_selector("text=Match 2 ·")
    assert page.errors == []  # type: ignore[attr-defined]


def test_points_are_explained_and_penalties_say_lowest_wins(new_page: Opener,
                                                            server: str) -> None:
    """The scoring module in the browser: a basic win collects the others' cards (doubled
    for rummy), a contract hand is penalties without a plus, and the goals say who wins."""
    page = new_page()
    page.goto("/")
    result = page.evaluate("""async () => {
        const s = await import("/js/scoring.js");
        await (await import("/js/rulesets.js")).loadRuleSets();
        const names = ["Ann", "Bob", "Cy"];
        const basic = s.scoringRules("basic", {}, 2);
        const won = {hand_sizes: [0, 3], revealed: [[], ["SK", "H7", "CA"]],
                     result: {result: "win", winner: 0, rummy: true, scores: [36, 0]}};
        const contract = s.scoringRules("contract", {}, 3);
        const long = ["SK", "HK", "D9", "C9", "S2", "H3", "D4", "C5"];
        const penalty = {hand_sizes: [0, 2, 1, 8], revealed: [[], ["JK", "SA"], ["D8"], long],
                         result: {result: "win", winner: 0, rummy: false,
                                  scores: [0, 30, 8, 52]}};
        return {
            basic: s.breakdown(won, basic, names).map(l => l.text),
            contract: s.breakdown(penalty, contract, names)
                .map(l => [l.text, s.pointsText(l.points, contract)]),
            goals: [basic, contract, s.scoringRules("traditional", {}, 3),
                    s.scoringRules("basic", {target_score: 60}, 4)].map(s.goalText),
        };
    }""")
    assert result["basic"] == ["collects the cards left: Bob 18, \u00d7 2 for going rummy",
                               "cards left worth 18 (they count for the winner)"]
    assert result["contract"] == [["went out: no penalty", "0"],
                                  ["penalty for the cards left: joker 15 + A♠ 15", "30"],
                                  ["penalty for the cards left: 8♦ 8", "8"],
                                  # a long hand counted by value (it fits a phone)
                                  ["penalty for the cards left: 2 \u00d7 10 + 2 \u00d7 9"
                                   " + 1 \u00d7 5 + 1 \u00d7 4 + 1 \u00d7 3 + 1 \u00d7 2 = 52",
                                   "52"]]
    assert result["goals"] == ["First to 150 points wins", "7 deals · lowest total wins",
                               "First to 150 points wins", "First to 60 points wins"]


def test_a_contract_table_shows_the_deal_and_penalties(new_page: Opener, paced: str) -> None:
    table = bots_table(paced, "contract", 3, max_turns_per_hand=40)
    page = new_page()
    page.goto(f"{paced}/#/watch/{table}")
    present(page, ".topbar .deal")
    goal, deal, total, sheet = page.evaluate("""() => [
        document.querySelector('.topbar .goal').innerText,
        document.querySelector('.topbar .deal').innerText,
        document.querySelector('.sheet tfoot th').innerText,
        document.querySelector('.sheet tbody').innerText]""")
    assert goal == "7 deals · lowest total wins"
    assert re.fullmatch(r"Deal [1-7] of 7 · dealer .+", deal)
    assert total == "Penalty total" and "+" not in sheet


# -- rules and help --------------------------------------------------------------------------

def test_rules_and_help_for_each_family(new_page: Opener, server: str) -> None:
    page = new_page()
    page.goto("/")
    page.click("a:has-text('Rules and help')")
    texts = {}
    for family, name in (("basic", "Basic Rummy"), ("traditional", "Traditional Rummy"),
                         ("contract", "Contract Rummy")):
        page.click(f".help-tabs a:has-text('{name}')")
        page.wait_for_selector(f".help h2:has-text('{name}')")
        assert page.locator(".help-tabs a[aria-current=page]").inner_text() == name
        texts[family] = page.locator(".help").inner_text()
        assert "Keys:" in texts[family] and "10♦" in texts[family]
    assert "doubles" in texts["basic"] and "150" in texts["basic"]
    assert "200 with four" in texts["traditional"] and "lost match" in texts["traditional"]
    assert "dug for must go onto the table" in texts["contract"]
    assert "lowest total" in texts["contract"]
    # at a table: the Rules button and "?" open the table's family, Escape closes
    page.goto(f"/#/play/{table_against_bot(server, 'traditional')}")
    page.wait_for_selector(".hand-cards button.card")
    page.click(".topbar button:has-text('Rules')")
    page.wait_for_selector(".dialog.help h2:has-text('Traditional Rummy')")
    page.keyboard.press("Escape")
    page.wait_for_selector(".dialog.help", state="detached")
    page.keyboard.press("?")
    page.wait_for_selector(".dialog.help")
    page.click(".dialog.help button:has-text('Close')")
    page.wait_for_selector(".dialog.help", state="detached")
    assert page.errors == []  # type: ignore[attr-defined]


# -- keyboard, focus, announcements --------------------------------------------------------

def focused(page: Page) -> dict[str, Any]:
    info: dict[str, Any] = page.evaluate("""() => {
        const el = document.activeElement;
        return {tag: el.tagName, card: el.dataset.card || null, move: el.dataset.move || null,
                inHand: !!el.closest('.hand-cards'),
                outline: getComputedStyle(el).outlineColor};
    }""")
    return info


def test_keyboard_play_keeps_the_focus_in_the_hand(new_page: Opener, server: str) -> None:
    page = new_page()
    page.goto(f"/#/play/{table_against_bot(server)}")
    assert wait_turn_or_end(page)
    # the hand is one Tab stop; arrows move inside it
    assert page.locator(".hand-cards button.card[tabindex='0']").count() == 1
    assert page.locator(".hand-cards button.card[tabindex='-1']").count() == 9
    page.locator(".hand-cards button.card[tabindex='0']").focus()
    before = version(page)
    page.keyboard.press("d")
    wait_past(page, before)
    fresh = page.locator(".hand-cards button.card.fresh")
    assert fresh.count() == 1 and fresh.locator(".new-mark").count() == 1
    assert "just drawn" in (fresh.get_attribute("aria-label") or "")
    assert f"You drew {fresh.get_attribute('title')}." in page.locator("#announce").inner_text()
    assert focused(page)["inHand"]  # the focus stayed in the hand through the redraw
    page.keyboard.press("End")
    here = focused(page)
    assert here["inHand"] and here["outline"] == "rgb(26, 115, 232)"  # not the selection's gold
    discardable = {m.split()[1] for m in legal(page) if m.startswith("discard")}
    while here["card"] not in discardable:
        page.keyboard.press("ArrowLeft")
        here = focused(page)
    page.keyboard.press("Space")
    selected = page.locator(".hand-cards button.card.selected")
    assert selected.count() == 1 and selected.get_attribute("data-card") == here["card"]
    page.keyboard.press("Tab")  # the selection's moves come right after the hand
    assert (focused(page)["move"] or "").split()[0] in ("discard", "lay")
    page.keyboard.press("Shift+Tab")
    assert focused(page)["card"] == here["card"]
    before = version(page)
    page.keyboard.press("x")
    wait_past(page, before)
    assert len(hand(page)) == 10
    after = focused(page)
    assert after["inHand"], f"the focus left the hand after a discard: {after}"
    assert page.errors == []  # type: ignore[attr-defined]


def test_other_moves_are_announced_and_animated(new_page: Opener, server: str) -> None:
    page = new_page()
    page.goto(f"/#/play/{table_against_bot(server)}")
    assert wait_turn_or_end(page)
    page.evaluate("""window.seen = [];
        new MutationObserver((list) => { for (const m of list) for (const n of m.addedNodes)
            if (n.nodeType === 1 && (n.matches('.arrived, .moved-draw, .moved-take')
                || n.querySelector('.arrived, .moved-draw, .moved-take')))
                window.seen.push(n.outerHTML.slice(0, 60)); })
            .observe(document.getElementById('app'), {childList: true, subtree: true});""")
    click_move(page, 'button[data-move="draw"]')
    discard = next(m for m in legal(page) if m.startswith("discard"))
    page.locator(f'.hand-cards button.card[data-card="{discard.split()[1]}"]').first.click()
    click_move(page, f'button[data-move="{discard}"]')  # the turn marker is ours until then
    assert wait_turn_or_end(page)
    said = page.locator("#announce").inner_text()
    drew = r"Bot 2 \(easy\) (draws from the stock|takes .+ from the discard pile)\."
    assert re.search(drew, said), said
    assert re.search(r"Bot 2 \(easy\) discards .+\.", said), said
    assert "Your turn." in said
    assert page.locator("#announce").get_attribute("aria-live") == "polite"
    assert page.evaluate("window.seen.length") >= 1
    assert page.errors == []  # type: ignore[attr-defined]


# -- cards written and typed the same way ------------------------------------------------------

def test_cards_typed_like_the_table_writes_them(new_page: Opener, server: str) -> None:
    page = new_page()
    page.goto("/")
    result = page.evaluate("""async () => {
        const n = await import("/js/notation.js");
        return {
            moves: ["discard 10♦", "discard ♦10", "Discard 10d", "discard dt", "discard T♦",
                    "meld 7♥ 8♥ 9♥", "meld 7h 8h 9h / 3s 3c 3d", "lay 10♣ on 2 low",
                    "lay joker=10♥ on 1", "meld ★ 5♠ 6♠", "take 3", "draw", "discard xyz"]
                   .map(n.normalizeMove),
            shown: n.humanize("cannot discard D3: it was taken from the discard pile; JK=HT"),
        };
    }""")
    assert result["moves"] == [
        "discard DT", "discard DT", "discard DT", "discard DT", "discard DT",
        "meld H7 H8 H9", "meld H7 H8 H9 / S3 C3 D3", "lay CT on 2 low", "lay JK=HT on 1",
        "meld JK S5 S6", "take 3", "draw", "discard xyz"]
    assert result["shown"] == "Cannot discard 3♦: it was taken from the discard pile; joker (10♥)"


def test_a_typed_move_errors_in_words_and_the_hand_stays_put(new_page: Opener,
                                                              server: str) -> None:
    page = new_page()
    page.goto(f"/#/play/{table_against_bot(server)}")
    assert wait_turn_or_end(page)
    top = page.locator(".pile.discard .card").get_attribute("title") or ""
    code = page.locator(".pile.discard .card").get_attribute("data-card") or ""
    click_move(page, 'button[data-move="take"]')
    y = page.locator(".hand-cards").bounding_box()["y"]
    page.fill("input[name=move]", f"discard {top}")  # typed as shown: "10♦"
    page.press("input[name=move]", "Enter")
    error = page.locator(".error")
    error.wait_for()
    assert top in error.inner_text() and code not in error.inner_text().split()
    assert error.inner_text()[0].isupper()
    assert page.locator(".hand-cards").bounding_box()["y"] == y  # the hand did not jump
    # selecting a card clears the old error
    page.locator(".hand-cards button.card").first.click()
    assert page.locator(".error").count() == 0
    assert page.locator(".hand-cards").bounding_box()["y"] == y
    other = next(c for c in hand(page) if c != code)
    card = page.locator(f'.hand-cards button.card[data-card="{other}"]').first
    shown = card.get_attribute("title")
    before = version(page)
    # a redraw while the move is typed (here: a sync the server sends) keeps the text and
    # the focus (the page rebuilds its screen on every message)
    page.fill("input[name=move]", f"discard {shown}")
    page.evaluate("""() => {
        document.querySelector('.move-box input').dataset.old = 'yes';
        window.rummykitSocket.send({ type: 'sync' });
    }""")
    page.wait_for_function("() => !document.querySelector('.move-box input').dataset.old")
    assert page.input_value("input[name=move]") == f"discard {shown}"
    assert page.evaluate("() => document.activeElement.name") == "move"
    page.press("input[name=move]", "Enter")
    wait_past(page, before)
    assert hand(page).count(other) == 0
    assert page.input_value("input[name=move]") == ""  # played: the box is empty again
    assert page.errors == []  # type: ignore[attr-defined]


def test_dig_buttons_name_how_many_cards_and_the_log_lists_them(new_page: Opener,
                                                                server: str) -> None:
    page = new_page()
    page.goto("/")
    result = page.evaluate("""async () => {
        const w = await import("/js/words.js");
        const view = {discard: ["S2", "H9", "S2", "C4"]};  // two decks: two 2♠
        return {
            labels: ["take 2", "take 4"].map(m => w.actionLabel(m, view)),
            log: w.moveSentence("Ann", "take 3", {cards: ["C4", "S2", "H9"]}),
            mine: w.moveSentence("Ann", "take 3", {cards: ["C4", "S2", "H9"], yours: true}),
        };
    }""")
    assert result["labels"] == ["Take 2 cards, down to 2♠", "Take 4 cards, down to 2♠"]
    assert result["log"] == ("Ann digs 3 cards from the discard pile: 4♣ 2♠ 9♥ "
                             "(9♥ must go on the table this turn).")
    assert result["mine"].startswith("You dig 3 cards from the discard pile: 4♣ 2♠ 9♥")


# -- a phone ---------------------------------------------------------------------------------

def small_targets(page: Page) -> list[str]:
    """Controls under 44 x 44 px (a checkbox counts as its label; links inside running
    text are exempt)."""
    found: list[str] = page.evaluate("""() => [...document.querySelectorAll(
            'button, a.button, .lobby-head a, .my-tables a, select, input, summary, .topbar a')]
        .filter(el => el.offsetParent !== null)
        .map(el => [el.textContent.trim().slice(0, 20) || el.name,
                    (el.type === 'checkbox' ? el.closest('label') : el).getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44)
        .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    return found


def test_a_phone_has_44_pixel_targets_and_a_short_summary(browser: Browser, server: str,
                                                          paced: str, artifacts: Path) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 360, "height": 740},
                                  has_touch=True, is_mobile=True)
    context.set_default_timeout(15000)
    page = context.new_page()
    try:
        page.goto("/")
        page.wait_for_selector("#play-bots")
        page.click(".play-bots summary")
        page.click(".play-friends summary")
        assert small_targets(page) == []
        page.goto("/#/help/traditional")
        page.wait_for_selector(".help h2")
        assert small_targets(page) == []
        page.goto(f"/#/play/{table_against_bot(server)}")
        assert wait_turn_or_end(page)
        assert small_targets(page) == []
        page.screenshot(path=str(artifacts / "phone-table.png"), full_page=True)
        watch = context.new_page()
        # easy bots can draw a hand out for hundreds of turns (basic has no deadlock
        # rule): the valve at 120 turns bounds it to about 15 s at 50 ms a move
        table = bots_table(paced, target_score=1000, max_turns_per_hand=120)
        watch.goto(f"{paced}/#/watch/{table}")
        present(watch, ".hand-summary", 30000)
        height = watch.evaluate(SUMMARY)["height"]
        assert height <= 740, f"the summary is {height} px tall on a 740 px screen"
        watch.screenshot(path=str(artifacts / "phone-summary.png"))
    finally:
        context.close()


#: modules imported when their page or panel is opened, not at start
LAZY = {"account.js", "help.js", "hint.js", "leaderboard.js", "lobby.js", "replay.js"}


def test_the_tables_modules_are_preloaded_and_the_others_imported_late() -> None:
    """index.html names every module a table needs, for the browser to fetch at once
    (no import chain); the others are imported dynamically and nothing at start needs
    them."""
    page = (WEB_ROOT / "index.html").read_text()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="js/([\w.]+)">', page))
    modules = {p.name: p.read_text() for p in (WEB_ROOT / "js").glob("*.js")}
    assert preloaded == set(modules) - LAZY
    for name in preloaded:
        static = set(re.findall(r'^import .* from "\./([\w.]+)";$', modules[name], re.M))
        assert not static & LAZY, f"{name} imports {static & LAZY} at start"
    dynamic = r'import\(["`]\./([\w.${}]+)["`]\)'
    late = set(re.findall(dynamic, modules["main.js"] + modules["table.js"]))
    assert {"help.js", "lobby.js", "replay.js", "${name}.js"} <= late
    # nothing a Content-Security-Policy without 'unsafe-inline' would block
    assert "<script>" not in page and " style=" not in page
    assert not re.search(r"\son[a-z]+=", page)
