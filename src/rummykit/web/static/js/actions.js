// The action bar: buttons for the legal moves that fit the selected cards (and nothing
// else), the list of possible melds, and a box to type a move in notation.

import { cardLabel } from "./cards.js";
import { h } from "./dom.js";
import { meldMoves, offeredMoves } from "./moves.js";
import { normalizeMove } from "./notation.js";
import { actionLabel } from "./words.js";

const MAX_LISTED_MELDS = 40;

/**
 * state: {view, legal, selectedCards, showMelds, choice}; on: {move(text), toggleMelds(),
 * clear(), hint()|null}.
 */
export function actionBar(state, on) {
  const { view, legal, selectedCards } = state;
  const offered = offeredMoves(legal, selectedCards);
  const button = (m, primary = false) => h(`button.action${primary ? ".primary" : ""}`, {
    type: "button", dataset: { move: m.text, key: `move:${m.text}` }, onclick: () => on.move(m.text),
  }, actionLabel(m.text, view));
  const draws = offered.filter((m) => m.kind === "draw" || (m.kind === "take" && m.count === 1));
  const digs = offered.filter((m) => m.kind === "take" && m.count > 1);
  const plays = offered.filter((m) => ["meld", "lay", "swap"].includes(m.kind));
  const discards = offered.filter((m) => m.kind === "discard");
  const melds = meldMoves(legal);
  const rows = [];
  if (draws.length) rows.push(h("div.action-row", {}, draws.map((m) => button(m, true))));
  if (digs.length) {
    rows.push(h("details.digs", {}, h("summary", {}, `Dig into the discard pile (${digs.length} choices)`),
      h("p.dig-rule", {}, "A dig takes a card deeper in the pile and every card above it. The "
        + "deepest card taken must go on the table this turn (in a meld or laid off) before you discard."),
      h("div.action-row", {}, digs.map((m) => button(m)))));
  }
  if (state.choice) {
    rows.push(h("div.action-row", {}, h("span.muted", {}, state.choice.card ? `Where does ${cardLabel(state.choice.card)} go?` : "Which meld?"),
      state.choice.moves.map((m) => button(m, true))));
  }
  if (plays.length || discards.length) {
    rows.push(h("div.action-row", {}, plays.map((m) => button(m, true)), discards.map((m) => button(m, true))));
  }
  const playing = legal.some((t) => t.startsWith("discard") || t.startsWith("meld") || t.startsWith("lay"));
  if (playing && !plays.length && !discards.length) {
    const tip = selectedCards.length === 0
      ? "Select a card to discard or lay off, or cards to meld."
      : selectedCards.length < 3 ? "Select one card to discard or lay off, or three or more to meld."
        : "These cards do not make a legal meld.";
    rows.push(h("p.tip", {}, tip));
  }
  const tools = [];
  if (melds.length) {
    tools.push(h("button.link", { type: "button", onclick: on.toggleMelds, dataset: { key: "tool:melds" }, "aria-expanded": state.showMelds ? "true" : "false" },
      `${state.showMelds ? "Hide" : "Show"} possible melds (${melds.length})`));
  }
  if (selectedCards.length) tools.push(h("button.link", { type: "button", onclick: on.clear, dataset: { key: "tool:clear" } }, "Clear selection"));
  if (on.hint && legal.length) tools.push(h("button.link", { type: "button", onclick: on.hint, dataset: { key: "tool:hint" } }, "Hint (H)"));
  if (tools.length) rows.push(h("div.action-tools", {}, tools));
  if (state.showMelds && melds.length) {
    rows.push(h("div.action-row.meld-list", {}, melds.slice(0, MAX_LISTED_MELDS).map((m) => button(m))));
  }
  return h("div.actions", { role: "group", "aria-label": "Your moves" }, rows);
}

/** A small form to type any move (cards as the table writes them, or in notation,
 * any case); normalizeMove reads it and the server judges it. */
export function moveBox(onMove, enabled) {
  const input = h("input", {
    type: "text", name: "move", placeholder: "e.g. meld 7♥ 8♥ 9♥ or discard 10d", autocomplete: "off",
    spellcheck: false, "aria-label": "Type a move", disabled: !enabled, maxlength: "300",
    dataset: { key: "move-box" }, // a redraw gives the focus back
  });
  return h("form.move-box", {
    onsubmit: (event) => {
      event.preventDefault();
      const text = normalizeMove(input.value);
      input.value = ""; // before the move: its redraw keeps what the box holds
      if (text) onMove(text);
    },
  }, input, h("button", { type: "submit", disabled: !enabled }, "Play"));
}
