// The table screen: one seat's (or a spectator's) live view of a table. It connects,
// feeds the server's messages to a TableState, turns clicks, drags and keys into moves,
// and redraws.

import { actionBar, moveBox } from "./actions.js";
import { ApiError, api, serverPaths } from "./api.js";
import { meldsView, pilesView, playersView } from "./board.js";
import { fill, h } from "./dom.js";
import { handView } from "./hand.js";
import { hasKind, movesOntoMeld } from "./moves.js";
import { TableSocket } from "./socket.js";
import { forgetSeat, rememberSeat } from "./store.js";
import { summaryDialog } from "./summary.js";
import { TableState } from "./table_state.js";
import { STATUS_TEXT, sidePanels, topBar, turnText, waitingPanel } from "./table_view.js";

export class TableScreen {
  /** who: {token} (play a seat) or {table} (watch). */
  constructor(root, who) {
    this.root = root;
    this.who = who;
    this.state = new TableState(who.table || null, null);
    // what this screen shows, apart from the server's state
    this.selected = new Set(); // indices into the view's hand
    this.sortBy = localStorage.getItem("rummykit.sort") || "suit";
    this.showPile = false;
    this.showMelds = false;
    this.choice = null; // {card, moves}: a card that fits a meld in several ways
    this.voted = false;
    this.pending = null; // the ack id of the move in flight
    this.error = "";
    this.status = "connecting";
    this.hint = null; // {path, methods} of the server's hint endpoint, if it has one
    this.hintText = "";
    this.socket = null;
    this.stopped = false;
    this.onKey = (event) => this.key(event);
    this.onOnline = () => {
      if (this.status !== "open" && this.socket) this.socket.reconnect();
    };
  }

  get seat() {
    return this.state.seat;
  }

  get view() {
    return this.state.view;
  }

  get legal() {
    return this.state.legal;
  }

  async start() {
    fill(this.root, h("p.loading", {}, "Opening the table…"));
    let tableId = this.who.table || null;
    let seat = null;
    if (this.who.token) {
      try {
        const found = await api.seat(this.who.token);
        tableId = found.table;
        seat = found.seat;
        rememberSeat({ token: this.who.token, table: found.table, seat: found.seat, name: found.name });
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) {
          fill(this.root, h("div.panel", {}, h("h2", {}, "This seat link is not valid"),
            h("p", {}, error.message), h("a", { href: "#/" }, "Back to the lobby")));
          return;
        }
        // the server may be restarting: connect anyway, the socket retries
      }
    }
    this.state = new TableState(tableId, seat);
    try {
      // the seats' names, so that events missed while away are logged before a resync
      if (tableId) this.state.table = await api.table(tableId);
    } catch {
      // the sync brings it
    }
    const paths = await serverPaths();
    if (this.stopped) return;
    this.hint = this.who.token ? paths.find((p) => p.path.includes("hint")) || null : null;
    const seen = this.state.notes.version;
    this.socket = new TableSocket(this.who, {
      version: Number.isInteger(seen) ? seen : null,
      onMessage: (msg) => this.receive(msg),
      onStatus: (status) => this.setStatus(status),
    });
    window.addEventListener("online", this.onOnline);
    document.addEventListener("keydown", this.onKey);
    window.rummykitSocket = this.socket; // lets the tests drop the connection
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
    const before = this.view ? this.view.hand : [];
    const legalBefore = this.legal;
    switch (msg.type) {
      case "welcome":
        this.state.welcome(msg);
        break;
      case "sync":
        this.state.sync(msg);
        break;
      case "event":
        if (!this.state.event(msg)) return;
        if (msg.seat === this.seat) this.error = "";
        if (!this.state.over || !this.state.over.match.over) this.voted = false;
        break;
      case "seats":
        this.state.seats(msg);
        if (!this.view && this.socket) this.socket.send({ type: "sync" });
        break;
      case "ack":
        this.pending = null;
        break;
      case "error":
        if (msg.ack !== undefined && msg.ack !== null) this.pending = null;
        this.error = msg.code === "stale_version" ? "Someone moved first; try again." : msg.message;
        break;
      default:
        return;
    }
    if (this.legal !== legalBefore) {
      this.choice = null;
      this.hintText = "";
    }
    const after = this.view ? this.view.hand : [];
    if (before.join() !== after.join()) this.reselect(before, after);
    this.render();
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

  selectedCards() {
    return [...this.selected].sort((a, b) => a - b).map((i) => this.view.hand[i]);
  }

  play(text) {
    if (this.seat === null || this.pending !== null) return;
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
      this.play(`discard ${cards[0]}`); // even an illegal one: the server says why
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
      if (this.state.over && !this.state.over.match.over) this.state.over = null;
      else this.selected = new Set();
      this.render();
    } else if (k === "d" && this.legal.includes("draw")) this.play("draw");
    else if (k === "t" && this.legal.includes("take")) this.play("take");
    else if (k === "s") this.sort(this.sortBy === "suit" ? "rank" : "suit");
    else return;
    event.preventDefault();
  }

  sort(by) {
    this.sortBy = by;
    localStorage.setItem("rummykit.sort", by);
    this.render();
  }

  async askHint() {
    try {
      const url = this.hint.path.replace(/\{[^}]*table[^}]*\}/, encodeURIComponent(this.state.tableId))
        .replace(/\{[^}]*token[^}]*\}/, encodeURIComponent(this.who.token));
      const method = this.hint.methods.includes("get") ? "GET" : "POST";
      const response = await fetch(url, { method, headers: { "X-Seat-Token": this.who.token } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const data = await response.json();
      // GET /api/tables/{id}/hint: {move, text (one line in words), lines (the search's findings)}
      const lines = Array.isArray(data.lines) ? data.lines : [];
      this.hintText = [data.text || data.move || "", ...lines].filter(Boolean).join("\n") || JSON.stringify(data);
    } catch {
      this.hintText = "No hint available.";
    }
    this.render();
  }

  flash(text) {
    this.error = text;
    this.render();
  }

  /** Leave the seat: a bot plays it until this link is opened again. */
  leave() {
    if (!window.confirm("Leave the table? A bot plays your seat until you open its link again.")) return;
    this.socket.send({ type: "leave" });
    forgetSeat(this.who.token);
    location.hash = "#/";
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
    document.title = `${this.state.myTurn() ? "Your turn · " : ""}rummykit`;
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

  /** After a selection change: mark the cards in place (a sweep is under way) and
   * rebuild only the action bar. */
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
    const { table } = this.state;
    if (!table) {
      return h("div.table-screen", {}, topBar(this.state, this.status), h("p.loading", {}, "Waiting for the table…"));
    }
    let body;
    if (this.view) body = this.board();
    else if (table.status === "waiting") body = waitingPanel(table);
    else body = h("p.loading", {}, "Joining the table…");
    // data-version and data-legal let scripts (and the tests) follow the table
    return h("div.table-screen", { dataset: { version: String(table.version), legal: JSON.stringify(this.legal) } },
      topBar(this.state, this.status, this.seat !== null ? () => this.leave() : null),
      h("div.table-grid", {}, body, sidePanels(this.state)),
      this.summary());
  }

  summary() {
    const { over, table } = this.state;
    if (!over) return null;
    return summaryDialog(over, table.seats, {
      onNext: () => { this.state.over = null; this.render(); },
      onRematch: () => this.vote(),
      onReplay: () => { location.hash = `#/replay/table/${table.id}/${over.match.number}`; },
      onLobby: () => { location.hash = "#/"; },
      canRematch: this.seat !== null,
      voted: this.voted || (table.rematch_votes || []).includes(this.seat),
      votes: table.rematch_votes,
    });
  }

  board() {
    const v = this.view;
    const mine = this.state.myTurn();
    const shown = {
      view: v, table: this.state.table, showPile: this.showPile,
      canDraw: mine && hasKind(this.legal, "draw"), canTake: mine && hasKind(this.legal, "take"),
    };
    return h("main.board", {},
      playersView(shown),
      h("div.centre", {},
        pilesView(shown, {
          onStock: () => this.onStock(),
          onDiscardPile: () => this.onDiscardPile(),
          onTogglePile: () => { this.showPile = !this.showPile; this.render(); },
        }),
        meldsView(shown, { onMeld: (n) => this.onMeld(n) })),
      h("p.turn", { role: "status", dataset: { mine: mine ? "yes" : "no" } }, turnText(this.state, this.pending !== null)),
      this.error ? h("p.error", { role: "alert" }, this.error) : null,
      this.hintText ? h("pre.hint", {}, this.hintText) : null,
      this.seat !== null ? this.actions() : null,
      this.seat !== null ? this.handPanel() : null);
  }

  actions() {
    return actionBar({
      view: this.view, legal: this.legal, selectedCards: this.selectedCards(),
      showMelds: this.showMelds, choice: this.choice,
    }, {
      move: (text) => this.play(text),
      toggleMelds: () => { this.showMelds = !this.showMelds; this.render(); },
      clear: () => this.clearSelection(),
      hint: this.hint ? () => this.askHint() : null,
    });
  }

  handPanel() {
    const sorter = (by, label) => h("button.link", {
      type: "button", "aria-pressed": this.sortBy === by ? "true" : "false", onclick: () => this.sort(by),
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
}
