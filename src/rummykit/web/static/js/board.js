// The shared part of the table: the other players, the stock and discard pile, and the
// numbered melds with who placed them.

import { cardBack, cardFace, cardLabel } from "./cards.js";
import { h } from "./dom.js";
import { ruleTerms } from "./rulesets.js";
import { seatName } from "./words.js";

/** The players around the table (everyone but the viewer), in seat order after it. */
export function playersView(state) {
  const { view, table } = state;
  const n = view.hand_sizes.length;
  const first = view.seat === null ? 0 : view.seat + 1;
  const seats = [];
  for (let k = 0; k < n; k += 1) {
    const seat = (first + k) % n;
    if (seat !== view.seat) seats.push(seat);
  }
  return h("section.players", { "aria-label": "Players" }, seats.map((seat) => playerBox(state, seat)));
}

function playerBox(state, seat) {
  const { view, table } = state;
  const info = (table.seats || [])[seat] || {};
  const count = view.hand_sizes[seat];
  const known = view.known[seat] || [];
  const toMove = view.to_move === seat && !view.result;
  const moved = state.anim && state.anim.seat === seat ? `.moved-${state.anim.kind}` : "";
  const badges = [
    view.dealer === seat ? h("span.badge", { title: "Dealer" }, "dealer") : null,
    view.down.includes(seat) ? h("span.badge.down", {}, "down") : null,
    info.controller === "bot" && info.kind === "human" ? h("span.badge.warn", {}, "bot plays") : null,
    info.kind === "human" && info.controller !== "open"
      ? h(`span.dot${info.connected ? ".on" : ""}`, { title: info.connected ? "connected" : "not connected" }) : null,
  ];
  const backs = h("div.backs", { "aria-hidden": "true" },
    Array.from({ length: Math.min(count, 14) }, () => cardBack({ small: true })));
  return h(`div.player${toMove ? ".to-move" : ""}${moved}`, { dataset: { seat: String(seat) } },
    h("div.player-head", {}, h("strong", {}, seatName(table.seats, seat)), badges),
    h("div.player-count", { dataset: { count: String(count) } }, `${count} card${count === 1 ? "" : "s"}`),
    backs,
    known.length ? h("div.known", {}, "holds from the pile: ", known.map(cardLabel).join(" ")) : null);
}

/**
 * The stock and the discard pile. handlers: {onStock(), onDiscardPile(), onTogglePile()};
 * the discard pile is also a drop target for a dragged card. state.anim ({seat, kind,
 * melds}: the move just made by another seat) marks what moved, for the animations.
 */
export function pilesView(state, handlers) {
  const { view } = state;
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const stock = h("button.pile.stock", {
    type: "button", onclick: handlers.onStock,
    "aria-label": `Stock, ${view.stock_size} cards${state.canDraw ? ": draw" : ""}`,
    class: state.canDraw ? "can" : "",
  }, view.stock_size ? cardBack() : h("div.card.empty"), h("span.pile-count", {}, `${view.stock_size}`));
  const discard = h("button.pile.discard", {
    type: "button", onclick: handlers.onDiscardPile, dataset: { drop: "discard" },
    "aria-label": top ? `Discard pile, top card ${cardLabel(top)}` : "Discard pile, empty",
    class: state.canTake ? "can" : "",
  }, top ? cardFace(top, { attrs: { class: state.anim && state.anim.kind === "discard" ? "arrived" : "" } }) : h("div.card.empty"),
  h("span.pile-count", {}, `${view.discard.length}`));
  const whole = state.showPile
    ? h("div.whole-pile", { "aria-label": "The whole discard pile, top last" },
      view.discard.map((c) => cardFace(c, { small: true })))
    : null;
  return h("section.piles", { "aria-label": "Stock and discard pile" },
    h("div.pile-wrap", {}, stock, h("span.pile-label", {}, "Stock")),
    h("div.pile-wrap", {}, discard, h("span.pile-label", {}, "Discard"),
      h("button.link", { type: "button", onclick: handlers.onTogglePile, "aria-expanded": state.showPile ? "true" : "false" },
        state.showPile ? "hide pile" : "whole pile")),
    whole);
}

/** The melds on the table, numbered as in "lay X on N"; each is a drop target. */
export function meldsView(state, handlers) {
  const { view, table } = state;
  if (!view.table.length) return h("section.melds.empty", { "aria-label": "Melds" }, h("p.muted", {}, "No melds on the table yet."));
  return h("section.melds", { "aria-label": "Melds" }, view.table.map((meld) => {
    // where melds belong to nobody (traditional, RULES.md §3.1) no owners are shown
    const owners = ruleTerms(table.rules).meld_owners ? [...new Set(meld.placed_by)].map((s) => seatName(table.seats, s)) : [];
    const fresh = state.anim && state.anim.melds.includes(meld.number);
    return h(`button.meld${fresh ? ".fresh" : ""}`, {
      type: "button", dataset: { drop: "meld", number: String(meld.number) },
      onclick: () => handlers.onMeld(meld.number),
      "aria-label": `Meld ${meld.number}, ${meld.kind}: ${meld.cards.map(cardLabel).join(" ")}${owners.length ? `; placed by ${owners.join(", ")}` : ""}`,
    },
    h("span.meld-head", {}, h("span.meld-number", {}, `${meld.number}`), ` ${meld.kind}${owners.length ? ` · ${owners.join(", ")}` : ""}`),
    h("span.meld-cards", {}, meld.cards.map((c, i) => cardFace(c, {
      small: true, attrs: { title: owners.length ? `${cardLabel(c)} placed by ${seatName(table.seats, meld.placed_by[i])}` : cardLabel(c) },
    }))));
  }));
}
