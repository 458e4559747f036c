// Cards in the notation of RULES.md §1.2 (suit first: H8, SA, DT; JK; JK=H6), their names
// in words, sorting, and how they are drawn (CSS and inline SVG, no images).

import { h } from "./dom.js";

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANKS = "A23456789TJQK";
const RANK_LABELS = { T: "10" };
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
// suit order for sorting by suit: alternate colours
const SUIT_ORDER = "SHCD";

/** {joker, suit, rank, declared} of a card's text; declared is the joker's identity. */
export function parseCard(text) {
  if (text.startsWith("JK")) {
    const declared = text.length > 3 ? text.slice(3) : null;
    return { joker: true, suit: null, rank: null, declared, text };
  }
  return { joker: false, suit: text[0], rank: text[1], declared: null, text };
}

/** The identity of a card in hand (a joker's declared card dropped). */
export function baseCard(text) {
  return text.startsWith("JK") ? "JK" : text;
}

export function rankLabel(rank) {
  return RANK_LABELS[rank] || rank;
}

/** "8♥", "10♠", "joker", "joker (6♥)" for a joker standing for 6♥. */
export function cardLabel(text) {
  const card = parseCard(text);
  if (card.joker) return card.declared ? `joker (${cardLabel(card.declared)})` : "joker";
  return `${rankLabel(card.rank)}${SUITS[card.suit]}`;
}

/** "eight of hearts" style, for screen readers. */
export function cardSpoken(text) {
  const card = parseCard(text);
  if (card.joker) return card.declared ? `joker standing for ${cardSpoken(card.declared)}` : "joker";
  return `${RANK_NAMES[card.rank] || card.rank} of ${SUIT_NAMES[card.suit]}`;
}

export function cardsLabel(cards) {
  return cards.map(cardLabel).join(" ");
}

function rankIndex(card) {
  return card.joker ? 99 : RANKS.indexOf(card.rank);
}

function suitIndex(card) {
  return card.joker ? 9 : SUIT_ORDER.indexOf(card.suit);
}

/** Sort key functions: "suit" (suit, then rank) or "rank" (rank, then suit). */
export function sortCards(cards, by) {
  const keyed = cards.map((text, index) => ({ text, index, card: parseCard(text) }));
  keyed.sort((a, b) => {
    const [x, y] = by === "rank"
      ? [[rankIndex(a.card), suitIndex(a.card)], [rankIndex(b.card), suitIndex(b.card)]]
      : [[suitIndex(a.card), rankIndex(a.card)], [suitIndex(b.card), rankIndex(b.card)]];
    return x[0] - y[0] || x[1] - y[1] || a.index - b.index;
  });
  return keyed.map((k) => ({ text: k.text, index: k.index }));
}

/** True when the card is red (hearts, diamonds; a joker standing for one). */
export function isRed(text) {
  const card = parseCard(text);
  const suit = card.joker ? (card.declared ? card.declared[0] : null) : card.suit;
  return suit === "H" || suit === "D";
}

const SVG = "http://www.w3.org/2000/svg";

function starSvg() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("joker-star");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M12 2l2.9 6.3 6.9.8-5.1 4.7 1.4 6.8L12 17.2 5.9 20.6l1.4-6.8L2.2 9.1l6.9-.8z");
  svg.append(path);
  return svg;
}

/**
 * A card face. `tag` is "div" for a picture, "button" for a card one can select.
 * The element carries data-card (its text) for tests and drag and drop.
 */
export function cardFace(text, { tag = "div", small = false, attrs = {} } = {}) {
  const card = parseCard(text);
  const classes = ["card", isRed(text) ? "red" : "black", small ? "small" : "", card.joker ? "joker" : ""]
    .filter(Boolean).join(".");
  const label = card.joker ? "★" : rankLabel(card.rank);
  const pip = card.joker ? starSvg() : SUITS[card.suit];
  const corner = h("span.corner", { "aria-hidden": "true" },
    h("span.rank", {}, label), h("span.suit", {}, card.joker ? "" : SUITS[card.suit]));
  const centre = h("span.pip", { "aria-hidden": "true" }, pip);
  const declared = card.declared
    ? h("span.declared", { "aria-hidden": "true" }, `= ${cardLabel(card.declared)}`) : null;
  // a picture of a card is an image to assistive technology; a button names its card
  const role = tag === "button" ? null : "img";
  return h(`${tag}.${classes}`, { role, "aria-label": cardSpoken(text), title: cardLabel(text), dataset: { card: text }, ...attrs },
    corner, centre, declared);
}

/** The back of a card (the stock, an opponent's hidden cards). */
export function cardBack({ small = false, attrs = {} } = {}) {
  return h(`div.card.back${small ? ".small" : ""}`, { "aria-hidden": "true", ...attrs });
}
