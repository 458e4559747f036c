// The lobby: your name, one-click play against the computer, a table for friends with a
// link per seat, your running tables, the open tables, your statistics, and record upload.

import { rename, statsInto } from "./account.js";
import { ApiError, api } from "./api.js";
import { fill, h, toast } from "./dom.js";
import { forgetSeat, mySeats, playerName, rememberSeat, setPlayerName } from "./store.js";
import { ruleSet, ruleSets, ruleTitle } from "./rulesets.js";

const LEVELS = ["easy", "medium", "hard", "expert", "greedy", "careless", "random"];
const LEVEL_TEXT = { easy: "easy", medium: "medium", hard: "hard", expert: "expert", greedy: "greedy bot", careless: "careless bot", random: "random bot" };

/** Your name, or a stand-in: "You" at a table of bots, "Host" for friends to see. */
function nameOrDefault(friends = false) {
  return playerName() || (friends ? "Host" : "You");
}

function select(name, values, chosen, label, labels = {}) {
  return h("label", {}, `${label} `, h("select", { name },
    values.map((v) => h("option", { value: String(v), selected: String(v) === String(chosen) }, labels[v] || String(v)))));
}

function range(lo, hi) {
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

/** The input of one option the rule set offers (GET /api/rule-sets): a checkbox, a
 * choice, a preset (a choice setting several knobs) or a number; left as it is, it sends
 * nothing (the rule set's default holds). */
function optionInput(option) {
  const attrs = { name: option.knob, dataset: { knob: option.knob, kind: option.kind, default: JSON.stringify(option.default) }, title: option.help || null };
  if (option.kind === "preset") {
    attrs.dataset.sets = JSON.stringify(option.sets);
    return h("label", {}, `${option.label} `, h("select", attrs, option.choices.map((c, i) =>
      h("option", { value: String(i), selected: c === option.default }, String(c)))));
  }
  if (option.kind === "bool") {
    return h("label.check", {}, h("input", { type: "checkbox", checked: !!option.default, ...attrs }), ` ${option.label}`);
  }
  if (option.kind === "choice") {
    return h("label", {}, `${option.label} `, h("select", attrs, option.choices.map((c) =>
      h("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(option.default) }, c === null ? "no limit" : String(c)))));
  }
  return h("label", {}, `${option.label} `, h("input", {
    type: "number", size: "6", placeholder: option.default === null || typeof option.default === "object" ? "default" : String(option.default),
    min: option.minimum === null ? null : String(option.minimum), max: option.maximum === null ? null : String(option.maximum), ...attrs,
  }));
}

/** What an option's input sends: its value in JSON form (a preset: the options it
 * sets), or undefined for the default. */
function optionValue(input) {
  if (input.dataset.kind === "preset") {
    const sets = JSON.parse(input.dataset.sets)[Number(input.value)];
    return sets && Object.keys(sets).length ? sets : undefined;
  }
  const fallback = JSON.parse(input.dataset.default);
  if (input.dataset.kind === "bool") return input.checked === !!fallback ? undefined : input.checked;
  if (input.dataset.kind === "choice") {
    const value = JSON.parse(input.value);
    return JSON.stringify(value) === JSON.stringify(fallback) ? undefined : value;
  }
  return input.value === "" ? undefined : Number(input.value);
}

/** A form section: rule set, player count, per-seat choice, options. */
class SetupForm {
  constructor({ friends }) {
    this.friends = friends;
    this.rules = null; // the server's first rule set until one is chosen
    this.players = 2;
    this.seats = []; // per other seat: "friend" or a bot level
    this.friendNames = []; // per other seat: the friend's name, if typed
    this.el = h("div.setup");
    this.render();
  }

  /** The bot levels of the chosen rule set (its family's bots), the common order first. */
  levels() {
    const chosen = ruleSet(this.rules);
    const offered = chosen && Array.isArray(chosen.bots) && chosen.bots.length ? chosen.bots : LEVELS;
    return [...LEVELS.filter((l) => offered.includes(l)), ...offered.filter((l) => !LEVELS.includes(l))];
  }

  seatChoice(i) {
    const chosen = ruleSet(this.rules);
    const levels = this.levels();
    const kept = this.seats[i] && (this.seats[i] === "friend" || levels.includes(this.seats[i])) ? this.seats[i] : null;
    return kept || (this.friends ? "friend" : (chosen && chosen.default_bot) || "medium");
  }

  render() {
    const sets = ruleSets();
    if (!ruleSet(this.rules) && sets.length) this.rules = sets[0].name;
    const chosen = ruleSet(this.rules);
    const [lo, hi] = chosen ? chosen.players : [2, 2];
    this.players = Math.min(hi, Math.max(lo, this.players));
    const titles = Object.fromEntries(sets.map((r) => [r.name, r.terms.title]));
    const rulesSel = select("rules", sets.map((r) => r.name), this.rules, "Rules", titles);
    rulesSel.querySelector("select").onchange = (e) => { this.keep(); this.rules = e.target.value; this.render(); };
    const playersSel = select("players", range(lo, hi), this.players, "Players");
    playersSel.querySelector("select").onchange = (e) => { this.keep(); this.players = Number(e.target.value); this.render(); };
    const seatRows = range(1, this.players - 1).map((i) => {
      const values = this.friends ? ["friend", ...this.levels()] : this.levels();
      const labels = { friend: "a friend (gets a link)", ...LEVEL_TEXT };
      const row = select(`seat${i}`, values, this.seatChoice(i - 1), `Seat ${i + 1}`, labels);
      row.classList.add("seat-choice");
      if (!this.friends) return row;
      const name = h("input", {
        type: "text", name: `friend${i}`, maxlength: "40", size: "10", placeholder: `Friend ${i}`,
        value: this.friendNames[i - 1] || "", "aria-label": `Name of the friend at seat ${i + 1}`,
        hidden: this.seatChoice(i - 1) !== "friend",
      });
      row.querySelector("select").addEventListener("change", (e) => { name.hidden = e.target.value !== "friend"; });
      return h("div.seat-row", {}, row, name);
    });
    const opts = (chosen ? chosen.options : []).map(optionInput);
    fill(this.el,
      h("div.row", {}, rulesSel, playersSel),
      h("div.row.seats", {}, seatRows),
      h("details.options", {}, h("summary", {}, "Options"), h("div.row", {}, opts)));
  }

  keep() {
    this.seats = [...this.el.querySelectorAll(".seat-choice select")].map((s) => s.value);
    this.friendNames = [...this.el.querySelectorAll("input[name^=friend]")].map((i) => i.value.trim());
  }

  /** The POST /api/tables body; seat 0 is you. */
  spec(myName) {
    this.keep();
    const options = {};
    for (const input of this.el.querySelectorAll(".options [data-knob]")) {
      const value = optionValue(input);
      if (value === undefined) continue;
      if (input.dataset.kind === "preset") Object.assign(options, value);
      else options[input.dataset.knob] = value;
    }
    const seats = [{ kind: "human", name: myName }];
    this.seats.slice(0, this.players - 1).forEach((choice, i) => {
      const name = this.friendNames[i] || `Friend ${i + 1}`;
      seats.push(choice === "friend" ? { kind: "human", name } : { kind: "bot", level: choice });
    });
    return { rules: this.rules, options, seats };
  }
}

function seatUrl(token) {
  return `${location.origin}${location.pathname}#/play/${token}`;
}

function copyButton(text) {
  return h("button.link", {
    type: "button",
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
        toast("Link copied.");
      } catch {
        toast("Copy the link by hand: select it.", "error");
      }
    },
  }, "copy");
}

async function createTable(form, { friends, out, created: onCreated }) {
  const name = nameOrDefault(friends);
  let created;
  try {
    created = await api.createTable(form.spec(name));
  } catch (error) {
    toast(error.message, "error");
    return;
  }
  const { table, tokens } = created;
  for (const t of tokens) {
    if (t.seat === 0) rememberSeat({ token: t.token, table: table.id, seat: 0, name: t.name, rules: table.rules });
  }
  const mine = tokens.find((t) => t.seat === 0);
  if (onCreated) onCreated();
  if (!friends) {
    location.hash = `#/play/${mine.token}`;
    return;
  }
  const watch = `${location.origin}${location.pathname}#/watch/${table.id}`;
  fill(out, h("div.links", { "aria-live": "polite" },
    h("p", {}, "Send each friend the link of their seat (it is their key: keep it private). "
      + "The first hand is dealt now; a seat whose player has not arrived after a while is "
      + "played by a bot until they open their link."),
    h("ul", {}, tokens.map((t) => h("li", { dataset: { seat: String(t.seat) } },
      h("strong", {}, `Seat ${t.seat + 1} (${t.name}): `),
      h("a.seat-link", { href: seatUrl(t.token) }, seatUrl(t.token)), " ", copyButton(seatUrl(t.token))))),
    h("p", {}, h("strong", {}, "Spectators: "), h("a.watch-link", { href: watch }, watch), " ", copyButton(watch)),
    h("p", {}, h("a.button.primary", { href: `#/play/${mine.token}` }, "Sit down at my seat"))));
}

async function tableRows(box) {
  const seats = mySeats();
  if (!seats.length) {
    fill(box, h("p.muted", {}, "No tables yet."));
    return;
  }
  const rows = await Promise.all(seats.map(async (s) => {
    try {
      return { s, table: await api.table(s.table) };
    } catch (error) {
      return { s, table: null, gone: error instanceof ApiError && error.status === 404 };
    }
  }));
  fill(box, h("ul.my-tables", {}, rows.map(({ s, table, gone }) => {
    if (gone) {
      forgetSeat(s.token);
      return null;
    }
    const status = table ? table.status : "unknown";
    const match = table && table.match;
    const who = table ? table.seats.map((x) => x.name || "open").join(", ") : "";
    return h("li", { dataset: { table: s.table } },
      h("a", { href: `#/play/${s.token}` }, `${table || s.rules ? ruleTitle(table ? table.rules : s.rules) : "Table"}`),
      h("span.muted", {}, ` ${who} · ${status}${match ? ` · match ${match.number + 1}, hands ${match.hands_played}` : ""}`),
      status === "over" && match ? [" ", h("a", { href: `#/replay/table/${s.table}/${match.number}` }, "replay")] : null,
      " ", h("button.link", { type: "button", onclick: () => { forgetSeat(s.token); tableRows(box); } }, "forget"));
  })));
}

/** " · 3 deals" for a table whose options set the match's length, in its rule set's
 * words; nothing otherwise. */
function lengthNote(t) {
  const count = t.options && t.options.num_hands;
  const chosen = ruleSet(t.rules);
  const terms = chosen ? chosen.terms : { hand: "hand", hands: "hands" };
  return count ? ` · ${count} ${count === 1 ? terms.hand : terms.hands}` : "";
}

async function openTables(box) {
  let tables = [];
  try {
    tables = await api.tables();
  } catch {
    fill(box, h("p.muted", {}, "The lobby cannot be loaded."));
    return;
  }
  const open = tables.filter((t) => t.status === "waiting" && t.seats.some((s) => s.controller === "open"));
  const playing = tables.filter((t) => t.status === "playing").slice(0, 10);
  fill(box,
    open.length ? h("ul", {}, open.map((t) => h("li", {}, `${ruleTitle(t.rules)}${lengthNote(t)} · ${t.seats.map((s) => s.name || "open").join(", ")} `,
      h("button.link", { type: "button", onclick: () => join(t.id) }, "join")))) : h("p.muted", {}, "No table is waiting for players."),
    playing.length ? h("p", {}, "Being played: ", playing.map((t) => [h("a", { href: `#/watch/${t.id}` }, `${ruleTitle(t.rules)}${lengthNote(t)} (${t.seats.map((s) => s.name).join(", ")})`), " "])) : null);
}

async function join(tableId) {
  try {
    const seat = await api.join(tableId, nameOrDefault(true));
    rememberSeat({ token: seat.token, table: tableId, seat: seat.seat, name: seat.name });
    location.hash = `#/play/${seat.token}`;
  } catch (error) {
    toast(error.message, "error");
  }
}

/** The upload form of the replay viewer (also used on its own page). */
export function uploadForm() {
  const input = h("input", { type: "file", accept: ".json,application/json", "aria-label": "Record file (.rummy.json)" });
  input.onchange = async () => {
    const file = input.files[0];
    if (!file) return;
    try {
      const created = await api.uploadReplay(await file.text());
      location.hash = `#/replay/${created.id}`;
    } catch (error) {
      toast(`This record cannot be replayed: ${error.message}`, "error");
    }
  };
  return h("label.upload", {}, "Watch a record (.rummy.json): ", input);
}

export function showLobby(root) {
  const nameInput = h("input", { type: "text", name: "name", value: playerName(), maxlength: "40", placeholder: "Your name", autocomplete: "nickname" });
  const statsBox = h("div");
  nameInput.onchange = async () => { setPlayerName(nameInput.value.trim()); await rename(nameInput.value.trim()); statsInto(statsBox); };
  const botForm = new SetupForm({ friends: false });
  const friendForm = new SetupForm({ friends: true });
  const friendOut = h("div");
  const tablesBox = h("div", {}, h("p.muted", {}, "Loading…"));
  const openBox = h("div", {}, h("p.muted", {}, "Loading…"));
  fill(root, h("main.lobby", {},
    h("header.lobby-head", {}, h("h1", {}, h("span.logo", { "aria-hidden": "true" }, "♠♥"), " rummykit"),
      h("a.help-link", { href: "#/help" }, "Rules and help"),
      h("a.help-link", { href: "#/leaderboard" }, "Leaderboard"),
      h("label.name", {}, "Your name ", nameInput)),
    h("section.panel.play-bots", { "aria-labelledby": "bots-title" },
      h("h2#bots-title", {}, "Play against the computer"),
      botForm.el,
      h("button.primary.big#play-bots", { type: "button", onclick: () => createTable(botForm, { friends: false }) }, "Play against the computer")),
    h("section.panel.play-friends", { "aria-labelledby": "friends-title" },
      h("h2#friends-title", {}, "Play with friends"),
      friendForm.el,
      h("button.primary#create-friends", { type: "button", onclick: () => createTable(friendForm, { friends: true, out: friendOut, created: () => tableRows(tablesBox) }) }, "Create the table"),
      friendOut),
    h("section.panel", { "aria-labelledby": "mine-title" }, h("h2#mine-title", {}, "Your tables"), tablesBox),
    h("section.panel", { "aria-labelledby": "open-title" }, h("h2#open-title", {}, "Open tables"), openBox),
    h("section.panel", { "aria-labelledby": "stats-title" }, h("h2#stats-title", {}, "You"), statsBox),
    h("section.panel", { "aria-labelledby": "replay-title" }, h("h2#replay-title", {}, "Replays"), uploadForm())));
  tableRows(tablesBox);
  openTables(openBox);
  statsInto(statsBox);
}
