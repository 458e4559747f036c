// A hint in words: the server's one-line advice (GET /api/tables/{id}/hint), a button to
// play it, and the search's candidates as a small table instead of raw columns.

import { h } from "./dom.js";
import { humanize } from "./notation.js";
import { actionLabel } from "./words.js";

// "   1. draw   50%         +1.3           16" (a move, its win rate, points, simulations)
const CANDIDATE = /^\s*\d+\.\s+(.+?)\s+(\d+%)\s+([+-]?[\d.]+)\s+(\d+)\s*$/;

/** {move, win, points, games} per candidate line; other lines are kept as notes. */
export function readHintLines(lines) {
  const candidates = [];
  const notes = [];
  for (const line of lines) {
    const m = CANDIDATE.exec(line);
    if (m) candidates.push({ move: m[1], win: m[2], points: m[3], games: Number(m[4]) });
    else if (!/^\s*move\s+win\b/.test(line) && !/^Recommended:/.test(line)) notes.push(line);
  }
  return { candidates, notes };
}

/** hint: {move, text, lines}; on: {play(move)|null}; view: for the move's words. */
export function hintView(hint, view, legal, on) {
  const { candidates, notes } = readHintLines(hint.lines || []);
  const playable = hint.move && legal.includes(hint.move) && on.play;
  return h("section.hint", { "aria-label": "Hint", "aria-live": "polite" },
    h("p.hint-text", {}, hint.text ? humanize(hint.text) : "No hint available."),
    playable ? h("button.primary", { type: "button", onclick: () => on.play(hint.move), dataset: { key: "hint:play" } },
      `Play it: ${actionLabel(hint.move, view)}`) : null,
    candidates.length || notes.length ? h("details.hint-details", {}, h("summary", {}, "How it was worked out"),
      candidates.length ? h("table.hint-table", {},
        h("thead", {}, h("tr", {}, ["Move", "Games won", "Points a hand", "Games simulated"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, candidates.map((c) => h("tr", {}, h("td", {}, actionLabel(c.move, view)),
          h("td.num", {}, c.win), h("td.num", {}, c.points), h("td.num", {}, `${c.games}`))))) : null,
      notes.map((line) => h("p.hint-note", {}, humanize(line.trim().replace("deadwood", "unmatched cards"))))) : null);
}
