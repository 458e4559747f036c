// The end of a hand: how it ended, the melds it left on the table, everyone's cards and
// where each seat's points come from, the totals against the goal. A hand within a match
// is a panel beside the next hand (which is already being played); the end of the match
// is a dialog with the rematch.

import { cardFace } from "./cards.js";
import { h } from "./dom.js";
import { breakdown, goalText, pointsText } from "./scoring.js";
import { capital } from "./rulesets.js";
import { resultWords, seatName } from "./words.js";

function handReport(over, seats, scoring) {
  const { view, match } = over;
  const names = view.hand_sizes.map((_, s) => seatName(seats, s));
  const lines = breakdown(view, scoring, names);
  const rows = lines.map((line) => {
    const won = view.result.result === "win" && view.result.winner === line.seat;
    return h(`tr${won ? ".winner" : ""}`, { dataset: { seat: String(line.seat) } },
      h("th", { scope: "row" }, names[line.seat], won ? h("span.badge.win", {}, view.result.rummy ? "rummy!" : "out") : null),
      h("td.left", {},
        h("span.revealed", { dataset: { seat: String(line.seat) } },
          line.cards.length ? line.cards.map((c) => cardFace(c, { small: true })) : h("span.muted", {}, "no cards")),
        h("span.why", {}, line.text)),
      h("td.num.points", {}, pointsText(line.points, scoring)),
      h("td.num", {}, `${match.totals[line.seat]}`));
  });
  const melds = view.table.length
    ? h("div.final-melds", { "aria-label": "Melds on the table at the end of the hand" },
      view.table.map((m) => h("span.final-meld", { dataset: { number: String(m.number) } },
        h("span.meld-number", {}, `${m.number}`), m.cards.map((c) => cardFace(c, { small: true })))))
    : h("p.muted", {}, "No melds were on the table.");
  return [
    h("p.result", {}, resultWords(view.result, names)),
    h("h3", {}, "Melds on the table"), melds,
    h("table.summary", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Cards left"),
        h("th", { scope: "col" }, scoring.penalty ? "Penalty" : "Points"), h("th", { scope: "col" }, "Total"))),
      h("tbody", {}, rows)),
    h("p.goal", {}, goalText(scoring)),
  ];
}

/** The finished hand, beside the next one: actions {onClose, report} (report: a family
 * face's own account of the hand, in place of the common one). */
export function handPanel(over, seats, scoring, actions) {
  const { view } = over;
  return h("section.hand-summary.panel", { "aria-labelledby": "hand-summary-title", dataset: { hand: String(view.hand_number) } },
    h("div.summary-head", {}, h("h2#hand-summary-title", {}, `${capital(scoring.terms.hand)} ${view.hand_number + 1} over`),
      h("button", { type: "button", onclick: actions.onClose, dataset: { key: "summary:close" } }, "Hide")),
    (actions.report || handReport)(over, seats, scoring));
}

/**
 * The match is over: a dialog. actions: {onRematch, onReplay, onLobby, canRematch,
 * voted, votes, report}.
 */
export function summaryDialog(over, seats, scoring, actions) {
  const { view, match } = over;
  const names = view.hand_sizes.map((_, s) => seatName(seats, s));
  const winners = match.winners.map((s) => names[s]);
  const buttons = [
    actions.canRematch
      ? h("button.primary", { type: "button", onclick: actions.onRematch, disabled: actions.voted }, actions.voted ? "Waiting for the others…" : "Rematch")
      : null,
    h("button", { type: "button", onclick: actions.onReplay }, "Watch the replay"),
    h("button", { type: "button", onclick: actions.onLobby }, "Lobby"),
  ];
  return h("div.overlay", {},
    h("div.dialog", { role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-title" },
      h("h2#summary-title", {}, "Match over"),
      h("p.result.big", {}, winners.length ? `${winners.join(" and ")} won the match.` : "Nobody won the match."),
      !winners.length && view.result.result === "draw" && scoring.drawEndsMatch
        ? h("p.why-over", {}, `Under these rules a drawn hand ends the match with no winner${scoring.drawIsLoss ? ", and it counts as a lost match for every player" : ""}.`)
        : null,
      h("h3", {}, `The last ${scoring.terms.hand} (${scoring.terms.hand} ${view.hand_number + 1})`),
      (actions.report || handReport)(over, seats, scoring),
      actions.votes && actions.votes.length
        ? h("p.muted", {}, `Rematch votes: ${actions.votes.map((s) => names[s]).join(", ")}`) : null,
      h("div.buttons", {}, buttons)));
}
