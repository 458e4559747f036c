// Leaving a match, seen at the table: the countdown while a seat's player is away, the
// word that a player resigned or stayed away too long (to the others, and to that player
// when they come back), and the resign confirmation.

import { h } from "./dom.js";
import { seatName } from "./words.js";

function secondsLeft(until) {
  return Math.max(0, Math.ceil(until - Date.now() / 1000));
}

function countdownText(name, until, botPlays) {
  const left = secondsLeft(until);
  return `${name} is away: resigns in ${left} s unless back (${botPlays ? "a bot plays meanwhile" : "their turns wait"}).`;
}

/** The lines about seats that are away or left, for this viewer (`seat`: null for a
 * spectator). */
export function absenceNotes(table, seat) {
  const lines = [];
  for (const s of table.seats) {
    const name = seatName(table.seats, s.seat);
    if (s.seat === seat && s.left) {
      lines.push(h("p.left-notice.mine", { role: "status" }, s.left === "resigned"
        ? "You resigned this match: it counts as a loss. A bot plays your seat for the others; its moves show as “Your bot”."
        : "You were away longer than the grace period, so you resigned this match: it counts as a loss. A bot has played your seat since then; its moves show as “Your bot”."));
    } else if (s.left) {
      lines.push(h("p.left-notice", { dataset: { seat: String(s.seat) } }, s.left === "resigned"
        ? `${name} resigned: a bot plays their seat.`
        : `${name} was away too long and resigned: a bot plays their seat.`));
    } else if (s.away_until && s.seat !== seat) {
      const bot = s.controller === "bot" ? "yes" : "";
      lines.push(h("p.away", { role: "timer", "aria-live": "off", dataset: { seat: String(s.seat), until: String(s.away_until), name, bot } },
        countdownText(name, s.away_until, bot)));
    }
  }
  return lines.length ? h("div.absence", {}, lines) : null;
}

/** Count the shown countdowns down (called every second). */
export function tickCountdowns(root) {
  for (const el of root.querySelectorAll(".away[data-until]")) {
    el.textContent = countdownText(el.dataset.name, Number(el.dataset.until), el.dataset.bot);
  }
}

/** "Resign this match?" with Keep playing (focused first) and Resign. */
export function resignDialog({ onResign, onCancel }) {
  return h("div.overlay", { onclick: (e) => { if (e.target === e.currentTarget) onCancel(); } },
    h("div.dialog.resign", { role: "alertdialog", "aria-modal": "true", "aria-labelledby": "resign-title", "aria-describedby": "resign-text" },
      h("h2#resign-title", {}, "Resign this match?"),
      h("p#resign-text", {}, "It counts as a loss in your record and rating. A bot plays your seat for the others until the match ends."),
      h("div.buttons", {},
        h("button.primary#keep-playing", { type: "button", onclick: onCancel }, "Keep playing"),
        h("button.danger#confirm-resign", { type: "button", onclick: onResign }, "Resign"))));
}
