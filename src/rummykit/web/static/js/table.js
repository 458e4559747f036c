// The table screen: one seat's (or a spectator's) live view of a table. It holds the
// state the server sends, turns clicks, drags and keys into moves, and redraws.

import { actionBar, moveBox } from "./actions.js";
import { ApiError, api, serverPaths } from "./api.js";
import { pilesView, meldsView, playersView } from "./board.js";
import { cardLabel } from "./cards.js";
import { fill, h, toast } from "./dom.js";
import { handView } from "./hand.js";
import { hasKind, movesOntoMeld } from "./moves.js";
import { scoreSheet } from "./sheet.js";
import { TableSocket } from "./socket.js";
import { rememberSeat, saveTableNotes, tableNotes } from "./store.js";
import { summaryDialog } from "./summary.js";
import { RULE_NAMES, contractText, moveSentence, resultWords, seatName } from "./words.js";

const STATUS_TEXT = { connecting: "connecting…", open: "connected", reconnecting: "reconnecting…", closed: "disconnected" };

export class TableScreen {
  /** who: {token} (play a seat) or {table} (watch). */
  constructor(root, who) {
    this.root = root;
    this.who = who;
    this.tableId = who.table || null;
    this.seat = null;
    this.table = null;
    this.view = null;
    this.legal = [];
    this.selected = new Set();
    this.sortBy = localStorage.getItem("rummykit.sort") || "suit";
    this.showPile = false;
    this.showMelds = false;
    this.choice = null;
    this.over = null;
    this.voted = false;
    this.pending = null;
    this.error = "";
    this.status = "connecting";
    this.notes = { log: [], sheet: [] };
    this.hintPath = null;
    this.hintText = "";
    this.socket = null;
    this.stopped = false;
    this.onKey = (event) => this.key(event);
    this.onOnline = () => {
      if (this.status !== "open" && this.socket) this.socket.reconnect();
    };
  }

  async start() {
    fill(this.root, h("p.loading", {}, "Opening the table…"));
    if (this.who.token) {
      try {
        const seat = await api.seat(this.who.token);
        this.tableId = seat.table;
        this.seat = seat.seat;
        rememberSeat({ token: this.who.token, table: seat.table, seat: seat.seat, name: seat.name });
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) {
          fill(this.root, h("div.panel", {}, h("h2", {}, "This seat link is not valid"),
            h("p", {}, error.message), h("a", { href: "#/" }, "Back to the lobby")));
          return;
        }
        // the server may be restarting: connect anyway, the socket retries
      }
    }
    this.notes = this.tableId ? tableNotes(this.tableId) : { log: [], sheet: [] };
    try {
      // the seats' names, so that events missed while away can be logged before a resync
      this.table = await api.table(this.tableId);
    } catch {
      this.table = null; // the sync brings it
    }
    const paths = await serverPaths();
    if (this.stopped) return;
    this.hintPath = this.who.token ? paths.find((p) => p.includes("hint")) || null : null;
    this.socket = new TableSocket(this.who, {
      version: Number.isInteger(this.notes.version) ? this.notes.version : null,
      onMessage: (msg) => this.receive(msg),
      onStatus: (status) => this.setStatus(status),
    });
    window.addEventListener("online", this.onOnline);
    document.addEventListener("keydown", this.onKey);
    window.rummykitSocket = this.socket; // for the tests: simulate a dropped connection
    this.socket.connect();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.onOnline);
    document.removeEventListener("keydown", this.onKey);
    if (this.socket) this.socket.close();
  }

  // -- messages from the server ------------------------------------------------------

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.tableId = msg.table;
        this.seat = msg.seat;
        if (!this.notes.log.length) this.notes = tableNotes(msg.table);
        break;
      case "sync":
        this.table = msg.table;
        this.setView(msg.view, msg.legal);
        if (this.notes.version !== undefined && msg.version > this.notes.version + 1) {
          this.note("… (moves made while you were away are not listed)", msg.version);
        }
        if (!this.notes.log.length && msg.view) {
          const contract = contractText(msg.table.rules, msg.table.options, msg.view.hand_number);
          this.note(`Hand ${msg.view.hand_number + 1}, dealt by ${this.names()[msg.view.dealer]}${contract ? `; contract: ${contract}` : ""}.`, msg.version, "deal");
        }
        this.notes.version = msg.version;
        if (msg.view && msg.view.result && msg.table.status === "over") {
          this.over = { view: msg.view, match: msg.table.match };
        }
        break;
      case "event":
        this.applyEvent(msg);
        break;
      case "seats":
        if (this.table) Object.assign(this.table, { seats: msg.seats, rematch_votes: msg.rematch_votes });
        if (!this.view && this.socket) this.socket.send({ type: "sync" });
        break;
      case "ack":
        this.pending = null;
        break;
      case "error":
        if (msg.ack !== undefined && msg.ack !== null) this.pending = null;
        this.error = msg.message;
        if (msg.code === "stale_version") this.error = "Someone moved first; try again.";
        break;
      default:
        return;
    }
    this.render();
  }

  applyEvent(msg) {
    if (!this.table) return;
    const names = this.names();
    this.table.match = msg.match;
    this.table.version = msg.version;
    if (msg.kind === "deal") {
      const contract = contractText(this.table.rules, this.table.options, msg.view.hand_number);
      this.note(`Hand ${msg.view.hand_number + 1} dealt by ${names[msg.view.dealer]}${contract ? `; contract: ${contract}` : ""}.`, msg.version, "deal");
      if (this.over && this.over.match.over && msg.match.number > this.over.match.number) {
        this.over = null; // the rematch started
        this.voted = false;
      }
      this.table.status = "playing";
    } else {
      const taken = msg.move.startsWith("take") ? msg.view.taken : null;
      const yours = msg.seat === this.seat;
      this.note(moveSentence(names[msg.seat], msg.move, { taken, yours }), msg.version, yours ? "mine" : "");
    }
    if (msg.view.result) {
      this.note(resultWords(msg.view.result, names), msg.version, "result");
      const row = { match: msg.match.number, hand: msg.view.hand_number, scores: msg.view.result.scores };
      this.notes.sheet = this.notes.sheet.filter((r) => r.match !== row.match || r.hand !== row.hand);
      this.notes.sheet.push(row);
      this.over = { view: msg.view, match: msg.match };
      if (msg.match.over) this.table.status = "over";
    }
    this.notes.version = msg.version;
    this.setView(msg.view, msg.legal);
    if (msg.seat === this.seat) this.error = "";
    saveTableNotes(this.tableId, this.notes);
  }

  setView(view, legal) {
    const before = this.view ? this.view.hand : [];
    this.view = view;
    this.legal = legal || [];
    this.choice = null;
    this.hintText = "";
    if (!view || before.join() !== view.hand.join()) this.reselect(before, view ? view.hand : []);
  }

  /** Keep the selected cards selected when the hand changes (by identity). */
  reselect(before, after) {
    const wanted = [...this.selected].map((i) => before[i]).filter(Boolean);
    this.selected = new Set();
    for (const card of wanted) {
      const at = after.findIndex((c, i) => c === card && !this.selected.has(i));
      if (at >= 0) this.selected.add(at);
    }
  }

  note(text, version, kind = "") {
    this.notes.log.push({ text, version, kind });
  }

  setStatus(status) {
    this.status = status;
    if (status === "open") this.pending = null; // a move lost with a dropped connection
    const pill = this.root.querySelector(".conn");
    if (pill) {
      pill.dataset.status = status;
      pill.textContent = STATUS_TEXT[status];
    } else {
      this.render();
    }
  }

  // -- what the player does ----------------------------------------------------------

  names() {
    const n = this.view ? this.view.hand_sizes.length : (this.table ? this.table.seats.length : 0);
    return Array.from({ length: n }, (_, s) => seatName(this.table && this.table.seats, s));
  }

  selectedCards() {
    return [...this.selected].sort((a, b) => a - b).map((i) => this.view.hand[i]);
  }

  play(text) {
    if (this.seat === null) return;
    if (this.pending !== null) return;
    const id = this.socket.move(text);
    if (id === null) {
      this.error = "Not connected: the move was not sent.";
    } else {
      this.pending = id;
      this.error = "";
      if (!text.startsWith("draw") && !text.startsWith("take")) this.selected = new Set();
    }
    this.showMelds = false;
    this.render();
  }

  toggle(index) {
    this.select(index, !this.selected.has(index));
  }

  select(index, on) {
    if (on) this.selected.add(index);
    else this.selected.delete(index);
    this.choice = null;
    this.refreshSelection();
  }

  clearSelection() {
    this.selected = new Set();
    this.refreshSelection();
  }

  onStock() {
    if (this.seat !== null) this.play("draw");
  }

  onDiscardPile() {
    if (this.seat === null || !this.view) return;
    const cards = this.selectedCards();
    if (this.view.phase === "draw" || hasKind(this.legal, "take")) {
      this.play("take");
    } else if (cards.length === 1) {
      this.play(`discard ${cards[0]}`);
    } else {
      this.flash(cards.length ? "Select just one card to discard." : "Select the card to discard first.");
    }
  }

  onMeld(number, card = null) {
    if (this.seat === null) return;
    const cards = card ? [card] : this.selectedCards();
    if (cards.length !== 1) {
      this.flash("Select one card, then click the meld to lay it off (or drag the card onto the meld).");
      return;
    }
    const moves = movesOntoMeld(this.legal, cards[0], number);
    if (moves.length === 1) this.play(moves[0].text);
    else if (moves.length > 1) {
      this.choice = { card: cards[0], moves };
      this.render();
    } else this.play(`lay ${cards[0]} on ${number}`); // the server says why not
  }

  onDrop(card, target, index) {
    if (target.dataset.drop === "meld") this.onMeld(Number(target.dataset.number), card);
    else if (target.dataset.drop === "discard") {
      this.selected = new Set([index]);
      this.play(`discard ${card}`);
    }
  }

  /** Keys: D draw, T take, S sort, Escape clears the selection or closes the summary. */
  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || !this.view) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const k = event.key.toLowerCase();
    if (k === "escape") {
      if (this.over && !this.over.match.over) this.over = null;
      else this.selected = new Set();
      this.render();
    } else if (k === "d" && this.legal.includes("draw")) this.play("draw");
    else if (k === "t" && this.legal.includes("take")) this.play("take");
    else if (k === "s") {
      this.sortBy = this.sortBy === "suit" ? "rank" : "suit";
      localStorage.setItem("rummykit.sort", this.sortBy);
      this.render();
    } else return;
    event.preventDefault();
  }

  async askHint() {
    try {
      const url = this.hintPath.replace(/\{[^}]*table[^}]*\}/, encodeURIComponent(this.tableId))
        .replace(/\{[^}]*token[^}]*\}/, encodeURIComponent(this.who.token));
      const response = await fetch(url, { headers: { "X-Seat-Token": this.who.token } });
      const data = await response.json();
      this.hintText = data.text || (data.lines && data.lines.join("\n")) || data.move || JSON.stringify(data);
    } catch {
      this.hintText = "No hint available.";
    }
    this.render();
  }

  flash(text) {
    this.error = text;
    this.render();
  }

  vote() {
    this.socket.send({ type: "rematch" });
    this.voted = true;
    this.render();
  }

  // -- drawing -----------------------------------------------------------------------

  render() {
    if (this.stopped) return; // the player went elsewhere; late messages draw nothing
    const focusKey = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.key : null;
    const logBox = this.root.querySelector(".log-list");
    const atBottom = !logBox || logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
    fill(this.root, this.screen());
    const newLog = this.root.querySelector(".log-list");
    if (newLog && atBottom) newLog.scrollTop = newLog.scrollHeight;
    const dialog = this.root.querySelector(".dialog");
    if (dialog && !dialog.contains(document.activeElement)) {
      const first = dialog.querySelector("button.primary:not([disabled])") || dialog.querySelector("button");
      if (first) first.focus();
      return;
    }
    if (focusKey) {
      const again = this.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  }

  refreshSelection() {
    for (const card of this.root.querySelectorAll(".hand-cards button.card")) {
      const on = this.selected.has(Number(card.dataset.index));
      card.classList.toggle("selected", on);
      card.setAttribute("aria-pressed", on ? "true" : "false");
    }
    const bar = this.root.querySelector(".actions");
    if (bar) bar.replaceWith(this.actions());
  }

  screen() {
    if (!this.table) {
      return h("div.table-screen", {}, this.topBar(), h("p.loading", {}, "Waiting for the table…"));
    }
    const body = this.view ? this.board() : this.table.status !== "waiting"
      ? h("p.loading", {}, "Joining the table…")
      : h("div.panel.waiting", {}, h("h2", {}, "Waiting for players"),
        h("p", {}, "The first hand is dealt as soon as every seat is taken."),
        this.seatList());
    const overlay = this.over
      ? summaryDialog(this.over, this.table.seats, {
        onNext: () => { this.over = null; this.render(); },
        onRematch: () => this.vote(),
        onReplay: () => { location.hash = `#/replay/table/${this.tableId}/${this.over.match.number}`; },
        onLobby: () => { location.hash = "#/"; },
        canRematch: this.seat !== null,
        voted: this.voted || (this.table.rematch_votes || []).includes(this.seat),
        votes: this.table.rematch_votes,
      })
      : null;
    // data-version and data-legal let scripts (and the tests) follow the table
    return h("div.table-screen", { dataset: { version: String(this.table.version), legal: JSON.stringify(this.legal) } },
      this.topBar(),
      h("div.table-grid", {}, body, this.side()),
      overlay);
  }

  topBar() {
    const t = this.table;
    const v = this.view;
    const contract = t && v ? contractText(t.rules, t.options, v.hand_number) : null;
    return h("header.topbar", {},
      h("a.home", { href: "#/", "aria-label": "Lobby" }, "♠ rummykit"),
      t ? h("span.title", {}, RULE_NAMES[t.rules] || t.rules) : null,
      v ? h("span.deal", {}, `Hand ${v.hand_number + 1} · dealer ${seatName(t.seats, v.dealer)}`) : null,
      contract ? h("span.contract", {}, `Contract: ${contract}`) : null,
      this.seat === null ? h("span.badge", {}, "spectator") : null,
      h("span.conn", { dataset: { status: this.status }, role: "status" }, STATUS_TEXT[this.status]));
  }

  board() {
    const v = this.view;
    const mine = this.seat !== null && v.to_move === this.seat && !v.result;
    const state = {
      view: v, table: this.table, showPile: this.showPile,
      canDraw: mine && hasKind(this.legal, "draw"), canTake: mine && hasKind(this.legal, "take"),
    };
    return h("main.board", {},
      playersView(state),
      h("div.centre", {},
        pilesView(state, {
          onStock: () => this.onStock(),
          onDiscardPile: () => this.onDiscardPile(),
          onTogglePile: () => { this.showPile = !this.showPile; this.render(); },
        }),
        meldsView(state, { onMeld: (n) => this.onMeld(n) })),
      h("p.turn", { role: "status", dataset: { mine: mine ? "yes" : "no" } }, this.turnText(mine)),
      this.error ? h("p.error", { role: "alert" }, this.error) : null,
      this.hintText ? h("pre.hint", {}, this.hintText) : null,
      this.seat !== null ? this.actions() : null,
      this.seat !== null ? this.handPanel() : null);
  }

  turnText(mine) {
    const v = this.view;
    if (v.result) return resultWords(v.result, this.names());
    if (this.table.status === "waiting") return "Waiting for players to join.";
    if (!mine) {
      const who = seatName(this.table.seats, v.to_move);
      return this.seat === null ? `${who} to play.` : `Waiting for ${who}…`;
    }
    if (this.pending !== null) return "Sending your move…";
    if (v.phase === "draw") {
      const top = v.discard.length ? cardLabel(v.discard[v.discard.length - 1]) : null;
      return `Your turn: draw from the stock${top ? ` or take ${top} from the discard pile` : ""}.`;
    }
    return "Your turn: meld or lay off if you like, then discard.";
  }

  actions() {
    return actionBar({
      view: this.view, legal: this.legal, selectedCards: this.selectedCards(),
      showMelds: this.showMelds, choice: this.choice,
    }, {
      move: (text) => this.play(text),
      toggleMelds: () => { this.showMelds = !this.showMelds; this.render(); },
      clear: () => this.clearSelection(),
      hint: this.hintPath ? () => this.askHint() : null,
    });
  }

  handPanel() {
    const sorter = (by, label) => h("button.link", {
      type: "button", "aria-pressed": this.sortBy === by ? "true" : "false",
      onclick: () => { this.sortBy = by; localStorage.setItem("rummykit.sort", by); this.render(); },
    }, label);
    const cards = handView(this.view.hand, {
      sortBy: this.sortBy, selected: this.selected,
      onToggle: (i) => this.toggle(i),
      onSelect: (i, on) => this.select(i, on),
      onDrop: (card, target, index) => this.onDrop(card, target, index),
    });
    for (const card of cards.children) card.dataset.key = `card:${card.dataset.index}`;
    return h("section.hand", { "aria-label": "Your hand" },
      h("div.hand-head", {}, h("strong", {}, `Your hand (${this.view.hand.length})`,
        this.view.down.includes(this.seat) ? h("span.badge.down", {}, "you are down") : null),
        h("span.sort", {}, "Sort: ", sorter("suit", "by suit"), " ", sorter("rank", "by rank"))),
      cards,
      moveBox((text) => this.play(text), this.legal.length > 0),
      h("p.keys", {}, "Keys: ← → move between cards, Space selects, D draws, T takes, S sorts, Esc clears."));
  }

  side() {
    const t = this.table;
    const log = this.notes.log.slice(-150);
    return h("aside.side", {},
      h("section.panel", { "aria-label": "Score sheet" }, scoreSheet(this.notes.sheet, t.seats, t.match)),
      h("section.panel.log", { "aria-label": "Moves" }, h("h2", {}, "Moves"),
        h("ol.log-list", {}, log.map((e) => h(`li${e.kind ? `.${e.kind}` : ""}`, {}, e.text)))),
      h("section.panel", { "aria-label": "Share" }, h("h2", {}, "Share"),
        h("p", {}, "Spectator link: ", h("a.watch-link", { href: `#/watch/${t.id}` }, `${location.origin}/#/watch/${t.id}`)),
        this.view ? null : null));
  }

  seatList() {
    return h("ul.seat-list", {}, this.table.seats.map((s) => h("li", {},
      `${s.seat + 1}. ${s.name || "open seat"} `, h("span.muted", {}, s.kind === "bot" ? `(bot, ${s.level})` : s.controller === "open" ? "(waiting)" : s.connected ? "(here)" : ""))));
  }
}
