// The in-app rules and help: one page per rule set, its text from the server (each rule
// family writes its own rules for players, GET /api/rule-sets), and how to play in this
// app (mouse, touch, keys, typing moves). Shown as its own page (#/help/NAME) and inside
// the table (the Rules button, or "?").

import { h } from "./dom.js";
import { ruleSet, ruleSets } from "./rulesets.js";

const section = (title, ...paragraphs) => h("section.help-part", {}, h("h3", {}, title),
  paragraphs.map((p) => (Array.isArray(p) ? h("ul", {}, p.map((item) => h("li", {}, item))) : h("p", {}, p))));

const APP_HELP = () => section("Playing in this app",
  ["Click or tap cards to select them; sweep across several to select them all. The buttons "
    + "offer only the moves the rules allow with the selected cards.",
    "Drag a card onto a meld to lay it off, or onto the discard pile to discard it.",
    "Keys: ← → move between your cards, Space selects, D draws, T takes the discard, M melds "
    + "the selected cards, L lays the selected card off, X discards it, H asks for a hint, "
    + "S sorts, ? shows this help, Esc clears the selection or closes a panel.",
    "You can also type a move: draw, take, meld 7♥ 8♥ 9♥, lay 10♦ on 2, discard Q♠. "
    + "Cards can be typed as 10♦, 10d, D10, DT or T♦; a joker as joker, JK or ★ "
    + "(JK=10♥ for a joker standing for 10♥).",
    "If the connection drops, the app says so and reconnects by itself; a move that did not "
    + "reach the server is sent again, or you are told it failed."]);

/** A rule set's text as paragraphs: a blank line separates them, line breaks stay. */
function rulesText(text) {
  return h("div.rules-text", {}, text.split(/\n\s*\n/).map((p) => h("p", {}, p)));
}

/** The rules of one rule set and the app's help, as elements. */
export function helpContent(name) {
  const set = ruleSet(name) || ruleSets()[0];
  if (!set) return [h("p.muted", {}, "The rules cannot be loaded."), APP_HELP()];
  return [h("h2", {}, `${set.terms.title}: the rules`), rulesText(set.help), APP_HELP()];
}

/** The help page: #/help or #/help/NAME. */
export function showHelp(root, name) {
  const sets = ruleSets();
  const chosen = (ruleSet(name) || sets[0] || {}).name;
  root.replaceChildren(h("main.help-page", {},
    h("header.lobby-head", {}, h("h1", {}, "Rules and help"), h("a.button", { href: "#/" }, "Back to the lobby")),
    h("nav.help-tabs", { "aria-label": "Rule sets" }, sets.map((s) => h("a.button", {
      href: `#/help/${s.name}`, "aria-current": s.name === chosen ? "page" : false,
    }, s.terms.title))),
    h("article.panel.help", {}, helpContent(chosen))));
}
