// The router: #/ lobby, #/play/TOKEN a seat, #/watch/TABLE a spectator,
// #/replay/ID an uploaded record, #/replay/table/TABLE/N a finished match, #/help/RULES
// the rules and help.

// The table is what a player opens most (a seat's link), so only its modules load up
// front (index.html preloads them); the lobby, the replay viewer and the help pages are
// imported when they are opened.

import { loadRuleSets } from "./rulesets.js";
import { TableScreen } from "./table.js";

const root = document.getElementById("app");
let screen = null;
let routed = 0; // the latest route: a page imported late gives way to a newer one

async function route() {
  if (screen && screen.stop) screen.stop();
  screen = null;
  const turn = ++routed;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  const [page, a, b, c] = parts;
  window.scrollTo(0, 0);
  if (page === "play" && a) screen = new TableScreen(root, { token: a });
  else if (page === "watch" && a) screen = new TableScreen(root, { table: a });
  if (screen) {
    document.title = "Table · rummykit";
    screen.start();
    return;
  }
  if (page === "replay" && a) {
    const { ReplayScreen } = await import("./replay.js");
    if (turn !== routed) return;
    screen = new ReplayScreen(root, a === "table" && b ? { table: b, match: Number(c || 0) } : { id: a });
    document.title = "Replay · rummykit";
    screen.start();
  } else if (page === "help") {
    const { showHelp } = await import("./help.js");
    if (turn !== routed) return;
    document.title = "Rules and help · rummykit";
    showHelp(root, a);
  } else {
    const { showLobby } = await import("./lobby.js");
    if (turn !== routed) return;
    document.title = "rummykit";
    showLobby(root);
  }
}

window.addEventListener("hashchange", route);
loadRuleSets().then(route);
