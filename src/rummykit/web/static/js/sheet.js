// The score sheet: one row per finished hand (points it added), then the match totals.

import { h } from "./dom.js";
import { goalText, pointsText } from "./scoring.js";
import { capital } from "./rulesets.js";
import { seatName } from "./words.js";

/** match: the server's Match, whose `hands` holds every finished hand's result; rows:
 * [{match, hand, scores}] as noted by this browser, for servers without `hands`;
 * scoring: scoringRules() of the table (penalties are shown without a plus). */
export function scoreSheet(rows, seats, match, scoring) {
  const n = match ? match.totals.length : seats.length;
  const names = Array.from({ length: n }, (_, s) => seatName(seats, s));
  const fromServer = match && Array.isArray(match.hands)
    ? match.hands.map((r, hand) => ({ match: match.number, hand, scores: r.scores })) : null;
  const current = fromServer || (match ? rows.filter((r) => r.match === match.number) : []);
  const missing = match ? match.hands_played - current.length : 0;
  return h("table.sheet", {},
    h("caption", {}, match ? `Match ${match.number + 1} · hands played: ${match.hands_played}` : "Scores"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, capital(scoring.terms.hand)), names.map((name) => h("th", { scope: "col" }, name)))),
    h("tbody", {},
      missing > 0 ? h("tr.muted", {}, h("td", { colspan: String(n + 1) }, `${missing} earlier ${missing === 1 ? scoring.terms.hand : scoring.terms.hands} not seen here`)) : null,
      current.map((row) => h("tr", {}, h("th", { scope: "row" }, `${row.hand + 1}`),
        row.scores.map((points) => h("td", {}, pointsText(points, scoring)))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, scoring.penalty ? "Penalty total" : "Total"),
      (match ? match.totals : names.map(() => 0)).map((t, s) =>
        h(`td${match && match.winners.includes(s) ? ".winner" : ""}`, {}, `${t}`))),
      h("tr.goal", {}, h("td", { colspan: String(n + 1) }, goalText(scoring)))));
}
