"""Gin in the browser (Chromium through Playwright, a real ``rummykit serve``): a person's
play against a bot by clicks only — the first-upcard offer, draws, discards, a knock with
its arrangement chosen, the defender's show with lay-offs and ``done``, the end-of-hand
report with both hands and the score sheet — a whole game to its end with the rematch, the
stored record checked by ``rummykit replay --check``, and axe on the gin table."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from rummykit.core.cards import parse_card
from rummykit.variants.gin.deadwood import min_deadwood
from test_web_a11y import axe_source, serious
from web_helpers import (
    HAND_OVER,
    MATCH_OVER,
    Opener,
    api,
    browser,
    create_table,
    hand,
    legal,
    needs_browser,
    new_page,
    server,
    version,
    wait_past,
)

pytestmark = needs_browser
__all__ = ["axe_source", "browser", "new_page", "server"]  # fixtures used by name

MINE = '.turn[data-mine="yes"]'


def mask(cards: list[str]) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << parse_card(card)
    return bits


def best_discard(cards: list[str], allowed: list[str]) -> tuple[str, int]:
    """The discard that leaves the least deadwood (a person's reckoning), and that deadwood."""
    held = mask(cards)
    scored = [(min_deadwood(held & ~(1 << parse_card(c))), -parse_card(c) % 13, c)
              for c in allowed]
    value, _, card = min(scored)
    return card, value


def discard_top(page: Page) -> str | None:
    top = page.locator(".pile.discard .card[data-card]")
    return top.get_attribute("data-card") if top.count() else None


@dataclass
class Played:
    """What a person's game went through."""

    hands: int = 0
    my_moves: int = 0
    my_knocks: int = 0
    other_arrangement: int = 0
    shows: int = 0
    lay_offs: int = 0
    reports: int = 0
    seconds: float = 0.0
    results: list[str] = field(default_factory=list)


def click_and_wait(page: Page, selector: str) -> None:
    before = version(page)
    page.click(selector)
    wait_past(page, before)


def close_report(page: Page, played: Played) -> None:
    """Read the end-of-hand report (both hands, the sheet), then hide it."""
    panel = page.locator(".hand-summary")
    if panel.count():
        assert panel.locator(".gin-summary .revealed").count() == 2
        assert panel.locator(".gin-sheet").count() == 1
        played.reports += 1
        played.results.append(panel.locator(".result").inner_text())
        panel.locator("button[data-key='summary:close']").click()


def take_turn(page: Page, played: Played, choose_other: bool) -> None:
    """One decision of the seat, by clicks, the way a person reads the table."""
    moves = legal(page)
    cards = hand(page)
    top = discard_top(page)
    if "pass" in moves:  # the offer, or the wall
        keep = "take" in moves and top is not None and (
            page.locator(".board.gin").get_attribute("data-phase") == "wall"
            or best_discard([*cards, top], cards)[1] < min_deadwood(mask(cards)) - 4)
        click_and_wait(page, '.gin-actions button[data-move="take"]' if keep
                       else '.gin-actions button[data-move="pass"]')
    elif "draw" in moves:
        take = "take" in moves and top is not None and \
            best_discard([*cards, top], cards)[1] < min_deadwood(mask(cards)) - 3
        click_and_wait(page, ".pile.discard" if take else ".pile.stock")
    elif "done" in moves:
        played.shows += 1
        shown = page.locator(".gin-show").inner_text()
        assert "face down" in shown and "Discarded face down" not in shown  # still hidden
        while True:  # lay off what fits, then meld, then done
            lay = page.locator('.gin-actions button[data-move^="lay"]')
            if not lay.count():
                break
            click_and_wait(page, '.gin-actions button[data-move^="lay"] >> nth=0')
            played.lay_offs += 1
        click_and_wait(page, '.gin-actions button[data-move="done"]')
    elif page.locator(".gin-knocks button").count():
        page.locator(".gin-knocks button").first.focus()  # by keyboard: Enter opens it
        page.keyboard.press("Enter")
        choices = page.locator(".gin-arrangements .gin-choice button")
        assert choices.count() >= 1
        assert page.locator(".gin-arrangements .gin-group").count() >= 1  # melds shown
        first = choices.first.get_attribute("data-move")
        assert page.evaluate("document.activeElement.dataset.move") == first  # focus moved
        pick = 1 if choose_other and choices.count() > 1 else 0
        played.other_arrangement += pick
        played.my_knocks += 1
        before = version(page)
        if pick:
            choices.nth(pick).click()
        else:
            page.keyboard.press("Enter")
        wait_past(page, before)
    else:
        allowed = [m.split()[1] for m in moves if m.startswith("discard")]
        card, _ = best_discard(cards, allowed)
        before = version(page)
        page.locator(f'.hand-cards button.card[data-card="{card}"]').first.click()
        page.click(f'.actions button[data-move="discard {card}"]')
        wait_past(page, before)
    played.my_moves += 1


def play_game(page: Page, *, until_knock_and_show: bool = False,
              limit: float = 600.0) -> Played:
    """Play the table on ``page`` like a person until the game ends (or, if asked, until
    this seat has knocked once and shown once)."""
    played = Played()
    started = time.monotonic()
    while time.monotonic() - started < limit:
        page.wait_for_selector(f"{MINE}, {HAND_OVER}")
        if page.locator(MATCH_OVER).count():
            break
        close_report(page, played)
        if until_knock_and_show and played.my_knocks and played.shows:
            break
        if page.locator(MINE).count():
            take_turn(page, played, choose_other=played.my_knocks % 2 == 1)
    played.seconds = time.monotonic() - started
    return played


def gin_table(server: str, level: str = "easy", target: int = 100) -> tuple[str, str]:
    seats = [{"kind": "human", "name": "Tess"}, {"kind": "bot", "level": level}]
    created = create_table(server,
                           {"rules": "gin", "seats": seats, "options": {"target_score": target}})
    return created["tokens"][0]["token"], created["table"]["id"]


def test_the_lobby_offers_gin_oklahoma_and_hollywood(new_page: Opener) -> None:
    page = new_page()
    page.goto("/")
    form = page.locator(".play-bots")
    form.locator("select[name=rules]").wait_for()
    form.locator("select[name=rules]").select_option("gin")
    assert form.locator("select[name=players] option").all_inner_texts() == ["2"]
    levels = form.locator(".seat-choice select option").evaluate_all(
        "els => els.map(e => e.value)")
    assert "greedy" in levels and "medium" in levels
    form.locator("summary").first.click()
    assert form.locator('[data-knob="hollywood"]').count() == 1
    form.locator("select[name=rules]").select_option("oklahoma")
    assert form.locator('[data-knob="oklahoma_spade_double"]').count() == 1
    page.goto("/#/help/gin")  # the rules page, from the family's help text
    page.wait_for_selector(".help h2")
    assert "Gin Rummy" in page.locator(".help h2").first.inner_text()
    assert "knock" in page.locator(".help").inner_text().lower()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_gin_hand_through_knock_and_show_in_the_browser(new_page: Opener, server: str,
                                                          tmp_path: Path) -> None:
    token, _ = gin_table(server, "easy", target=400)
    page = new_page()
    page.goto(f"/#/play/{token}")
    page.wait_for_selector(f"{MINE} >> xpath=.. >> button[data-key='tool:hint']")
    page.keyboard.press("h")  # a hint from the gin search, in words, with its move to play
    page.wait_for_selector(".hint button[data-key='hint:play']", timeout=60000)
    assert page.locator(".hint .hint-text").inner_text()
    played = play_game(page, until_knock_and_show=True, limit=400)
    assert played.my_knocks >= 1, played
    assert played.shows >= 1, played
    assert played.reports >= 1, played
    # the score sheet and the move log speak gin
    log = page.locator(".log-list").inner_text()
    assert "knocks" in log or "goes gin" in log
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_whole_gin_game_in_the_browser_with_rematch_and_record(
        new_page: Opener, server: str, tmp_path: Path) -> None:
    token, table_id = gin_table(server, "easy", target=100)
    page = new_page()
    page.goto(f"/#/play/{token}")
    played = play_game(page, limit=900)
    dialog = page.locator(MATCH_OVER)
    assert dialog.count() == 1, played
    assert dialog.locator(".gin-summary .revealed").count() == 2
    assert dialog.locator(".gin-sheet").count() == 1
    played.hands = api(server, "GET", f"/api/tables/{table_id}")["match"]["hands_played"]
    print(f"\nwhole gin game to 100 in the browser: {played}")
    (tmp_path / "played.json").write_text(json.dumps(played.__dict__))
    with urllib.request.urlopen(f"{server}/api/tables/{table_id}/matches/0/record") as reply:
        record = reply.read().decode()
    path = tmp_path / "game.rummy.json"
    path.write_text(record)
    checked = subprocess.run([sys.executable, "-m", "rummykit.cli.main", "replay", "--check",
                              str(path)], capture_output=True, text=True, timeout=120,
                             check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    viewer = new_page()  # the replay viewer steps through the finished game
    viewer.goto(f"/#/replay/table/{table_id}/0")
    viewer.wait_for_selector(".replay .replay-seat")
    viewer.keyboard.press("End")
    viewer.wait_for_selector(".replay p.result")
    assert viewer.locator(".replay-seat").count() == 2
    assert viewer.errors == []  # type: ignore[attr-defined]
    before = version(page)
    dialog.locator("button.primary").click()  # rematch: the bot agrees at once
    wait_past(page, before)
    page.wait_for_selector(f"{MINE}, .turn")
    assert page.locator(MATCH_OVER).count() == 0
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_gin_table_passes_axe(new_page: Opener, server: str, axe_source: str) -> None:
    token, _ = gin_table(server, "easy", target=400)
    page = new_page()
    page.goto(f"/#/play/{token}")
    page.wait_for_selector(MINE)
    assert serious(page, axe_source) == []
    played = play_game(page, until_knock_and_show=False, limit=5)
    assert played.seconds >= 0
    # the knock choice and the show, when they come, pass too
    found: dict[str, Any] = {}
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(found) < 2:
        page.wait_for_selector(f"{MINE}, {HAND_OVER}")
        if page.locator(".gin-knocks button").count() and "knock" not in found:
            page.locator(".gin-knocks button").first.click()
            found["knock"] = serious(page, axe_source)
            page.click("button[data-key='knock:cancel']")
        if page.locator(".hand-summary").count() and "report" not in found:
            found["report"] = serious(page, axe_source)
        if page.locator(MINE).count():
            take_turn(page, Played(), choose_other=False)
        else:
            close_report(page, Played())
    assert found, "no knock or report came in time"
    assert all(v == [] for v in found.values()), found


def test_a_spectator_watches_a_gin_table_of_bots(new_page: Opener, server: str) -> None:
    seats = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]
    created = create_table(server, {"rules": "oklahoma", "seats": seats,
                                    "options": {"hollywood": True}})
    page = new_page()
    page.goto(f"/#/watch/{created['table']['id']}")
    page.wait_for_selector(".board.gin")
    assert page.locator(".board.gin .player").count() == 2  # both seats, face down
    assert page.locator(".hand-cards").count() == 0  # a spectator holds no hand
    assert page.locator(".gin-limit").count() == 1  # Oklahoma: the hand's knock limit
    page.wait_for_selector(f"{HAND_OVER}", timeout=60000)
    report = page.locator(HAND_OVER).first
    assert report.locator(".gin-summary .revealed").count() == 2
    assert report.locator(".gin-sheet tbody tr").count() == 3  # Hollywood's three games
    assert page.errors == []  # type: ignore[attr-defined]
