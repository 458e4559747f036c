// Cards and moves typed by a player, read the way the table writes them: "10♦", "♦10",
// "10d", "dT", "T♦" and "D10" all mean DT; "joker", "jk" or "★" a joker; "JK=10♥" a joker
// standing for 10♥. normalizeMove turns a typed move into FORMATS.md §1's notation, and
// humanize rewrites the notation inside the server's messages into card symbols.

import { cardLabel } from "./cards.js";

const SUIT_OF = {
  s: "S", h: "H", d: "D", c: "C",
  "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
};
const RANK_OF = { 10: "T", 1: "A", t: "T", a: "A", j: "J", q: "Q", k: "K" };
const KEYWORDS = new Set(["draw", "take", "meld", "lay", "on", "swap", "discard", "low", "high", "/",
  "pass", "knock", "gin", "done", ":"]);
const JOKER = /^(jk|joker|jo|★|\*)$/i;
const SUIT_CHARS = "SHDCshdc♠♥♦♣♤♡♢♧";
const RANK_PART = "10|[2-9]|[1ATJQKatjqk]";
const SUIT_FIRST = new RegExp(`^([${SUIT_CHARS}])(${RANK_PART})$`, "u");
const RANK_FIRST = new RegExp(`^(${RANK_PART})([${SUIT_CHARS}])$`, "u");

function rankOf(text) {
  return RANK_OF[text.toLowerCase()] || text;
}

/** The notation of one typed card ("10♦" → "DT"), or null when it is no card. */
export function parseTypedCard(text) {
  const word = text.trim();
  if (JOKER.test(word)) return "JK";
  const [joker, ...declared] = word.split("=");
  if (declared.length === 1 && JOKER.test(joker)) {
    const card = parseTypedCard(declared[0]);
    return card && card !== "JK" ? `JK=${card}` : null;
  }
  let m = SUIT_FIRST.exec(word);
  if (m) return `${SUIT_OF[m[1].toLowerCase()] || SUIT_OF[m[1]]}${rankOf(m[2])}`;
  m = RANK_FIRST.exec(word);
  if (m) return `${SUIT_OF[m[2].toLowerCase()] || SUIT_OF[m[2]]}${rankOf(m[1])}`;
  return null;
}

/**
 * A typed move in the server's notation: keywords lower-cased, cards rewritten, numbers
 * after "take" and "on" kept. Words that are neither are passed on unchanged, so that
 * the server's refusal quotes what was typed.
 */
export function normalizeMove(text) {
  const words = text.trim().replace(/\s*\/\s*/g, " / ").replace(/\s*:\s*/g, " : ").split(/\s+/).filter(Boolean);
  return words.map((word, i) => {
    const lower = word.toLowerCase();
    if (KEYWORDS.has(lower)) return lower;
    const before = i > 0 ? words[i - 1].toLowerCase() : "";
    if (/^\d+$/.test(word) && (before === "take" || before === "on")) return word;
    return parseTypedCard(word) || word;
  }).join(" ");
}

const CARD_TOKEN = /\bJK=[SHDC][A2-9TJQK]\b|\bJK\b|\b[SHDC][A2-9TJQK]\b/g;

/** A server message with its cards in symbols: "cannot discard D3" → "Cannot discard 3♦". */
export function humanize(text) {
  const shown = String(text).replace(CARD_TOKEN, (card) => cardLabel(card));
  return shown.charAt(0).toUpperCase() + shown.slice(1);
}
