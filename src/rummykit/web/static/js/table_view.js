// Drawing the table screen's frame from a TableState: the top bar, the line that says
// whose turn it is, the side panels (score sheet, move log, share link), the seat list
// of a table still waiting for players.

import { cardLabel } from "./cards.js";
import { h } from "./dom.js";
import { goalText, scoringRules } from "./scoring.js";
import { scoreSheet } from "./sheet.js";
import { capital, ruleTitle } from "./rulesets.js";
import { resultWords, seatName, viewFacts } from "./words.js";

export const STATUS_TEXT = {
  connecting: "connecting…", open: "connected", reconnecting: "connection lost: reconnecting…",
  offline: "offline: waiting for the network…", closed: "disconnected",
};

/** The table's scoring knobs (goal, penalties), from its rule set and options. */
export function tableScoring(table) {
  return scoringRules(table.rules, table.options || {}, table.seats.length);
}

/** The deal's facts as the top bar shows them: "Contract: 2 sets". */
export function factSpans(view) {
  return viewFacts(view).map((f) => h("span.fact", { dataset: { fact: f.label.toLowerCase() } }, `${f.label}: ${f.value}`));
}

/** Rule set, deal, dealer, the deal's facts (its contract...), the goal, role, the
 * connection's state, the rules button; onLeave for players. */
export function topBar(state, status, { onLeave = null, onHelp = null } = {}) {
  const t = state.table;
  const v = state.view;
  const scoring = t ? tableScoring(t) : null;
  const unit = capital(scoring ? scoring.terms.hand : "hand");
  const deal = v && scoring && scoring.fixedHands ? `${unit} ${v.hand_number + 1} of ${scoring.hands}` : v ? `${unit} ${v.hand_number + 1}` : null;
  return h("header.topbar", {},
    h("a.home", { href: "#/", "aria-label": "Lobby" }, "♠ rummykit"),
    t ? h("span.title", {}, ruleTitle(t.rules)) : null,
    v ? h("span.deal", {}, `${deal} · dealer ${seatName(t.seats, v.dealer)}`) : null,
    scoring ? h("span.goal", {}, goalText(scoring)) : null,
    v ? factSpans(v) : null,
    state.seat === null ? h("span.badge", {}, "spectator") : null,
    h("span.conn", { dataset: { status }, role: "status" }, STATUS_TEXT[status]),
    onHelp ? h("button.link.help-button", { type: "button", onclick: onHelp, "aria-haspopup": "dialog", dataset: { key: "top:help" } }, "Rules") : null,
    onLeave ? h("button.link.leave", { type: "button", onclick: onLeave }, "Leave") : null);
}

/** Whose turn it is, and what this seat may do now. */
export function turnText(state, pending) {
  const v = state.view;
  if (v.result) return resultWords(v.result, state.names());
  if (state.table.status === "waiting") return "Waiting for players to join.";
  if (!state.myTurn()) {
    const who = seatName(state.table.seats, v.to_move);
    return state.seat === null ? `${who} to play.` : `Waiting for ${who}…`;
  }
  if (pending) return "Sending your move…";
  if (v.phase === "draw") {
    const top = v.discard.length ? cardLabel(v.discard[v.discard.length - 1]) : null;
    return `Your turn: draw from the stock${top ? ` or take ${top} from the discard pile` : ""}.`;
  }
  const dug = state.dugCard();
  if (dug && v.hand.includes(dug)) {
    return `Your turn: ${cardLabel(dug)}, the card you dug for, must go on the table (meld or lay off) before you discard.`;
  }
  if (v.taken) return `Your turn: meld or lay off if you like, then discard (not ${cardLabel(v.taken)}, just taken).`;
  return "Your turn: meld or lay off if you like, then discard.";
}

/** Score sheet, move log and the spectator link. */
export function sidePanels(state) {
  const t = state.table;
  const log = state.notes.log.slice(-150);
  const watch = `${location.origin}${location.pathname}#/watch/${t.id}`;
  return h("aside.side", {},
    h("section.panel", { "aria-label": "Score sheet" }, scoreSheet(state.notes.sheet, t.seats, t.match, tableScoring(t))),
    h("section.panel.log", { "aria-label": "Moves" }, h("h2", {}, "Moves"),
      h("ol.log-list", { tabindex: "0", "aria-label": "Moves, oldest first" }, log.map((e) => h(`li${e.kind ? `.${e.kind}` : ""}`, {}, e.text)))),
    h("section.panel", { "aria-label": "Share" }, h("h2", {}, "Share"),
      h("p", {}, "Spectator link: ", h("a.watch-link", { href: `#/watch/${t.id}` }, watch))));
}

/** A table still waiting for players: who sits where. */
export function waitingPanel(table) {
  return h("div.panel.waiting", {}, h("h2", {}, "Waiting for players"),
    h("p", {}, "The first hand is dealt as soon as every seat is taken."),
    h("ul.seat-list", {}, table.seats.map((s) => h("li", {},
      `${s.seat + 1}. ${s.name || "open seat"} `,
      h("span.muted", {}, s.kind === "bot" ? `(bot, ${s.level})` : s.controller === "open" ? "(waiting)" : s.connected ? "(here)" : "")))));
}
