// The leaderboard (#/leaderboard): rated players and bots, best rating first. The rating is
// OpenSkill's conservative estimate (mu − 3 sigma): it rises as a player wins and as the
// system grows sure of them.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { me } from "./player.js";

export async function showLeaderboard(root) {
  const head = h("header.lobby-head", {}, h("h1", {}, h("a.home", { href: "#/" }, "♠ rummykit"), " · Leaderboard"));
  fill(root, h("main.lobby.leaderboard", {}, head, h("p.loading", {}, "Loading…")));
  let lines;
  try {
    lines = await api.leaderboard(100);
  } catch (error) {
    fill(root, h("main.lobby.leaderboard", {}, head, h("p.error", { role: "alert" }, `The leaderboard cannot be loaded: ${error.message}`)));
    return;
  }
  const player = await me();
  const mine = player ? player.id : null;
  fill(root, h("main.lobby.leaderboard", {}, head,
    h("section.panel", { "aria-labelledby": "board-title" },
      h("h2#board-title", {}, "Best players"),
      h("p.muted", {}, "Every finished match against people or bots counts; resigning or staying away counts as a loss. "
        + "The rating is a cautious estimate: it grows with wins and with the number of matches."),
      lines.length
        ? h("table.stats.leaders", {},
          h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Rated matches"].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, lines.map((l) => h(`tr${l.id === mine ? ".me" : ""}`, { dataset: { player: l.id } },
            h("td", {}, `${l.rank}`),
            h("td", {}, l.name, l.kind === "bot" ? h("span.badge", {}, "bot") : null, l.id === mine ? h("span.badge.you", {}, "you") : null),
            h("td", {}, l.rating.toFixed(1)),
            h("td", {}, `${l.rated}`)))))
        : h("p.muted", {}, "No rated matches yet."))));
}
