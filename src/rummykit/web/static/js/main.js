// The router: #/ lobby, #/play/TOKEN a seat, #/watch/TABLE a spectator,
// #/replay/ID an uploaded record, #/replay/table/TABLE/N a finished match, #/help/RULES
// the rules and help.

import { showHelp } from "./help.js";
import { showLobby } from "./lobby.js";
import { ReplayScreen } from "./replay.js";
import { TableScreen } from "./table.js";

const root = document.getElementById("app");
let screen = null;

function route() {
  if (screen && screen.stop) screen.stop();
  screen = null;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  const [page, a, b, c] = parts;
  window.scrollTo(0, 0);
  if (page === "play" && a) screen = new TableScreen(root, { token: a });
  else if (page === "watch" && a) screen = new TableScreen(root, { table: a });
  else if (page === "replay" && a === "table" && b) screen = new ReplayScreen(root, { table: b, match: Number(c || 0) });
  else if (page === "replay" && a) screen = new ReplayScreen(root, { id: a });
  if (page === "help") {
    document.title = "Rules and help · rummykit";
    showHelp(root, a);
    return;
  }
  if (screen) {
    document.title = page === "replay" ? "Replay · rummykit" : "Table · rummykit";
    screen.start();
  } else {
    document.title = "rummykit";
    showLobby(root);
  }
}

window.addEventListener("hashchange", route);
route();
