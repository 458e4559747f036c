// The end-of-hand summary: how the hand ended, everyone's cards, the points, and what
// comes next (the next hand, or the match result with a rematch).

import { cardFace } from "./cards.js";
import { h } from "./dom.js";
import { resultWords, seatName } from "./words.js";

/**
 * over: {view, match} of the event that ended the hand. actions: {onNext, onRematch,
 * onReplay, onLobby, canRematch, votes}.
 */
export function summaryDialog(over, seats, actions) {
  const { view, match } = over;
  const result = view.result;
  const names = view.hand_sizes.map((_, s) => seatName(seats, s));
  const rows = names.map((name, seat) => {
    const cards = (view.revealed && view.revealed[seat]) || [];
    const won = result.result === "win" && result.winner === seat;
    return h(`tr${won ? ".winner" : ""}`, {},
      h("th", { scope: "row" }, name, won ? h("span.badge.win", {}, result.rummy ? "rummy!" : "out") : null),
      h("td.revealed", { dataset: { seat: String(seat) } },
        cards.length ? cards.map((c) => cardFace(c, { small: true })) : h("span.muted", {}, "no cards")),
      h("td.num", {}, `${result.scores[seat] ? "+" : ""}${result.scores[seat]}`),
      h("td.num", {}, `${match.totals[seat]}`));
  });
  const matchOver = match.over;
  const winners = match.winners.map((s) => names[s]);
  const buttons = matchOver
    ? [
      actions.canRematch
        ? h("button.primary", { type: "button", onclick: actions.onRematch, disabled: actions.voted }, actions.voted ? "Waiting for the others…" : "Rematch")
        : null,
      h("button", { type: "button", onclick: actions.onReplay }, "Watch the replay"),
      h("button", { type: "button", onclick: actions.onLobby }, "Lobby"),
    ]
    : [h("button.primary", { type: "button", onclick: actions.onNext }, "Next hand")];
  return h("div.overlay", {},
    h("div.dialog", { role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-title" },
      h("h2#summary-title", {}, matchOver ? "Match over" : `Hand ${view.hand_number + 1} over`),
      h("p.result", {}, resultWords(result, names)),
      matchOver ? h("p.result.big", {}, winners.length ? `${winners.join(" and ")} won the match.` : "Nobody won the match.") : null,
      h("table.summary", {},
        h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Cards left"), h("th", {}, "Points this hand"), h("th", {}, "Total"))),
        h("tbody", {}, rows)),
      actions.votes && actions.votes.length && matchOver
        ? h("p.muted", {}, `Rematch votes: ${actions.votes.map((s) => names[s]).join(", ")}`) : null,
      h("div.buttons", {}, buttons)));
}
