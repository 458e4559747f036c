"""The rule sets the web app offers come from the server's registry (issue 17 item 2):
``GET /api/rule-sets`` over real HTTP, then the lobby, the options and the rules pages in
Chromium built from it, with no copy of rules data in the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rummykit.core.knobs import json_value
from rummykit.core.rules import Rules
from rummykit.variants.registry import all_rule_set_names, variant_for
from web_helpers import Opener, api, browser, needs_browser, new_page, server

pytestmark = needs_browser
__all__ = ["browser", "new_page", "server"]  # fixtures used by name

STATIC = Path(__file__).parents[1] / "src" / "rummykit" / "web" / "static"


def _knob(rules: Any, knob: str) -> Any:
    return json_value(rules, knob) if isinstance(rules, Rules) else getattr(rules, knob)


def test_the_endpoint_lists_every_registered_rule_set(server: str) -> None:
    """Every registered rule set, the gin family's too (issue 18: the web app hosts it)."""
    sets = api(server, "GET", "/api/rule-sets")
    assert [s["name"] for s in sets] == list(all_rule_set_names())
    assert {"gin", "oklahoma"} <= {s["name"] for s in sets}
    for entry in sets:
        family = variant_for(entry["name"])
        rules = family.preset(entry["name"])
        terms = family.terms(rules)
        assert entry["family"] == family.name
        low, high = entry["players"]
        rules.check_players(low)
        rules.check_players(high)
        assert entry["terms"] == {"title": terms.title, "hand": terms.hand,
                                  "hands": terms.hands, "score": terms.score,
                                  "lowest_wins": terms.lowest_wins, "match": terms.match,
                                  "down": terms.down, "meld_owners": terms.meld_owners}
        assert entry["help"] == family.help_text(rules) and entry["help"]
        assert [o["knob"] for o in entry["options"]] == [o.knob for o in family.options(rules)]
        for option in entry["options"]:
            assert option["kind"] in ("bool", "int", "choice", "preset")
            if option["kind"] == "preset":  # choices[i] sets sets[i]; the default nothing
                assert len(option["sets"]) == len(option["choices"])
                assert option["sets"][option["choices"].index(option["default"])] == {}
                for chosen in option["sets"]:
                    family.rules_from_options(entry["name"], chosen)
                continue
            assert option["sets"] == []
            if option["kind"] != "int":  # an int option may show "no limit" as 0
                assert option["default"] == _knob(rules, option["knob"])
            if option["kind"] == "choice":
                assert option["default"] in option["choices"]
        assert entry["knobs"]["target_score"] == _knob(rules, "target_score")
        assert entry["default_bot"] in entry["bots"]
    titles = {s["name"]: s["terms"]["title"] for s in sets}
    assert len(set(titles.values())) == len(titles)  # every rule set has its own title


#: the scripts that read move notation, where ``gin`` is a move's keyword (FORMATS.md §4.1:
#: ``gin X: ...``), not the rule set
NOTATION_SCRIPTS = {"notation.js", "words.js"}
MOVE_KEYWORDS = {"gin"}


def test_the_app_keeps_no_list_of_rule_sets() -> None:
    """The names of the rule sets appear in no script of the app (they come from the API),
    but for a move keyword that is also a rule set's name, in the notation's scripts."""
    for script in sorted((STATIC / "js").glob("*.js")):
        text = script.read_text("utf-8")
        for name in all_rule_set_names():
            if name in MOVE_KEYWORDS and script.name in NOTATION_SCRIPTS:
                continue
            assert f'"{name}"' not in text and f"'{name}'" not in text, (script.name, name)


def test_the_lobby_offers_what_the_registry_says(new_page: Opener, server: str) -> None:
    sets = {s["name"]: s for s in api(server, "GET", "/api/rule-sets")}
    page = new_page()
    page.goto("/")
    form = page.locator(".play-bots")
    form.locator("select[name=rules]").wait_for()
    offered = form.locator("select[name=rules] option")
    assert [offered.nth(i).get_attribute("value") for i in range(offered.count())] \
        == list(sets)
    assert [offered.nth(i).inner_text() for i in range(offered.count())] \
        == [s["terms"]["title"] for s in sets.values()]
    for name, entry in sets.items():
        form.locator("select[name=rules]").select_option(name)
        low, high = entry["players"]
        counts = form.locator("select[name=players] option")
        assert [int(counts.nth(i).inner_text()) for i in range(counts.count())] \
            == list(range(low, high + 1))
        knobs = form.locator(".options [data-knob]")
        assert [knobs.nth(i).get_attribute("data-knob") for i in range(knobs.count())] \
            == [o["knob"] for o in entry["options"]]
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_table_gets_the_options_chosen_in_the_lobby(new_page: Opener, server: str) -> None:
    sets = {s["name"]: s for s in api(server, "GET", "/api/rule-sets")}
    name, option = next((n, o) for n, s in sets.items() for o in s["options"]
                        if o["kind"] == "bool")
    page = new_page()
    page.goto("/")
    form = page.locator(".play-bots")
    form.locator("select[name=rules]").select_option(name)
    form.locator("summary").click()
    box = form.locator(f".options input[data-knob={option['knob']}]")
    box.set_checked(not option["default"])
    page.click("#play-bots")
    page.wait_for_selector(".hand-cards button.card")
    token = page.evaluate("() => location.hash.split('/').pop()")
    table = api(server, "GET", f"/api/tables/{api(server, 'GET', f'/api/seats/{token}')['table']}")
    assert table["rules"] == name
    assert table["options"][option["knob"]] is (not option["default"])
    title = page.locator(".topbar .title").inner_text()
    assert title == sets[name]["terms"]["title"]
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_table_plays_the_deals_chosen_in_the_lobby(new_page: Opener, server: str) -> None:
    """A preset option (contract's ``Deals``) sets every knob of its choice: a house game
    of the last three contracts, shown as deal 1 of 3 with deal 5's contract."""
    contract = next(s for s in api(server, "GET", "/api/rule-sets") if s["name"] == "contract")
    option = next(o for o in contract["options"] if o["knob"] == "deals")
    choice = "3 (from 2 sets + 1 run)"
    page = new_page()
    page.goto("/")
    form = page.locator(".play-bots")
    form.locator("select[name=rules]").select_option("contract")
    form.locator("summary").click()
    form.locator(".options select[data-knob=deals]").select_option(label=choice)
    page.click("#play-bots")
    page.wait_for_selector(".hand-cards button.card")
    token = page.evaluate("() => location.hash.split('/').pop()")
    table = api(server, "GET", f"/api/tables/{api(server, 'GET', f'/api/seats/{token}')['table']}")
    assert table["options"] == option["sets"][option["choices"].index(choice)]
    assert table["options"]["num_hands"] == 3
    page.wait_for_function("() => document.body.innerText.includes('2 sets + 1 run')")
    text = page.locator("body").inner_text()
    assert "1 of 3" in text
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_open_tables_say_a_house_games_length(new_page: Opener, server: str) -> None:
    """A table waiting for a friend shows its number of deals when its options set it."""
    options = {"contract_schedule": [[1, 2], [0, 3]], "num_hands": 2, "hand_size": [12, 12]}
    api(server, "POST", "/api/tables", {"rules": "contract", "options": options, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]})
    page = new_page()
    page.goto("/")
    entry = page.locator("li", has_text="Ann, open")
    entry.first.wait_for()
    assert entry.first.inner_text().startswith("Contract Rummy · 2 deals · Ann, open")
    api(server, "POST", "/api/tables", {"rules": "contract", "options": {"deals": 1}, "seats": [
        {"kind": "human", "name": "Bea"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]})
    page.reload()
    one = page.locator("li", has_text="Bea, open")
    one.first.wait_for()
    assert one.first.inner_text().startswith("Contract Rummy · 1 deal · Bea, open")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_rules_pages_are_the_families_texts(new_page: Opener, server: str) -> None:
    sets = api(server, "GET", "/api/rule-sets")
    page = new_page()
    page.goto("/#/help")
    tabs = page.locator(".help-tabs a")
    tabs.first.wait_for()
    assert [tabs.nth(i).inner_text() for i in range(tabs.count())] \
        == [s["terms"]["title"] for s in sets]
    for entry in sets:
        page.goto(f"/#/help/{entry['name']}")
        page.wait_for_selector(f".help h2:has-text('{entry['terms']['title']}')")
        shown = page.locator(".help .rules-text").inner_text()
        first_line = entry["help"].splitlines()[0]
        assert first_line in shown
        assert page.locator(".help-tabs a[aria-current=page]").inner_text() \
            == entry["terms"]["title"]
    assert page.errors == []  # type: ignore[attr-defined]
