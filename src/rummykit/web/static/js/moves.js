// Reading the legal moves the server sends (FORMATS.md §1) against the cards the player
// selected: which buttons to offer. The server's list is the only source of legality.

import { baseCard } from "./cards.js";

/** {kind, text, cards, number, end, count} of a move in canonical notation. */
export function parseMove(text) {
  const words = text.trim().split(/\s+/);
  const kind = words[0];
  const move = { kind, text, cards: [], number: null, end: null, count: 1 };
  if (kind === "take" && words[1]) move.count = Number(words[1]);
  if (kind === "meld") move.cards = words.slice(1).filter((w) => w !== "/");
  if (kind === "lay" || kind === "swap") {
    move.cards = [words[1]];
    move.number = Number(words[3]);
    move.end = words[4] || null;
  }
  if (kind === "discard") move.cards = [words[1]];
  return move;
}

function key(cards) {
  return cards.map(baseCard).sort().join(" ");
}

/**
 * The legal moves worth a button, given the selected cards (texts, duplicates allowed):
 * [{move, kind}] in the server's order. Draw and take always; melds whose cards are exactly
 * the selection; with one card selected, its lay-offs, swaps and discard.
 */
export function offeredMoves(legal, selected) {
  const chosen = key(selected);
  const one = selected.length === 1 ? baseCard(selected[0]) : null;
  return legal.map(parseMove).filter((m) => {
    switch (m.kind) {
      case "draw":
      case "take":
        return true;
      case "meld":
        return selected.length >= 3 && key(m.cards) === chosen;
      case "lay":
      case "swap":
      case "discard":
        return one !== null && baseCard(m.cards[0]) === one;
      default:
        return false;
    }
  });
}

/** The legal meld moves (to list them when the selection matches none). */
export function meldMoves(legal) {
  return legal.map(parseMove).filter((m) => m.kind === "meld");
}

/** The legal moves that put `card` on meld `number` (lay-off, possibly with an end; swap). */
export function movesOntoMeld(legal, card, number) {
  return legal.map(parseMove).filter((m) => (m.kind === "lay" || m.kind === "swap")
    && m.number === number && baseCard(m.cards[0]) === baseCard(card));
}

/** True when the legal moves include a kind ("draw", "discard", ...). */
export function hasKind(legal, kind) {
  return legal.some((text) => text.startsWith(kind));
}
