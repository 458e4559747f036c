// The table screen: one seat's (or a spectator's) live view of a table. It connects,
// feeds the server's messages to a TableState, turns clicks, drags and keys into moves,
// and redraws.

import { absenceNotes, resignDialog, tickCountdowns } from "./absence.js";
import { actionBar, moveBox } from "./actions.js";
import { ApiError, api, serverPaths } from "./api.js";
import { meldsView, pilesView, playersView } from "./board.js";
import { cardLabel, cardsLabel } from "./cards.js";
import { announce, fill, h } from "./dom.js";
import { faceOf } from "./faces.js";
import { handView } from "./hand.js";
import { hasKind, movesOntoMeld, offeredMoves } from "./moves.js";
import { humanize } from "./notation.js";
import { me } from "./player.js";
import { TableSocket } from "./socket.js";
import { forgetSeat, mySeats, rememberSeat } from "./store.js";
import { handPanel, summaryDialog } from "./summary.js";
import { TableState } from "./table_state.js";
import { STATUS_TEXT, sidePanels, tableScoring, topBar, turnText, waitingPanel } from "./table_view.js";
import { moveWords, resultWords } from "./words.js";

/** The cards of `after` that are not in `before` (as multisets). */
function added(before, after) {
  const left = [...before];
  return after.filter((card) => {
    const at = left.indexOf(card);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

/** The numbers of the melds that are new or changed between two views' tables. */
function changedMelds(before, after) {
  const old = new Map((before ? before.table : []).map((m) => [m.number, m.cards.join()]));
  return after.table.filter((m) => old.get(m.number) !== m.cards.join()).map((m) => m.number);
}

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
    this.showHelp = false;
    this.choice = null; // {card, moves}: a card that fits a meld in several ways
    this.ginKnock = null; // a family face's open choice (gin: the knock discard chosen)
    this.voted = false;
    this.pending = null; // {id, text, version}: the move in flight
    this.lostMove = null; // {text, version}: a move the connection lost, to send again
    this.error = "";
    this.notice = null; // {text, at}: a passing word (shown for a few seconds)
    this.failed = null; // {title, text}: the table cannot be shown at all
    this.status = "connecting";
    this.hint = null; // {path, methods} of the server's hint endpoint, if it has one
    this.hintAsked = false;
    this.modules = {}; // help.js and hint.js, imported when first needed
    this.hintData = null; // the last hint: {move, text, lines}
    this.freshCards = []; // the cards just drawn or taken (marked in the hand)
    this.drawnAnim = false; // animate them at the next redraw
    this.anim = null; // {seat, kind, melds}: another seat's move, animated once
    this.focusAt = 0; // the hand position that holds the Tab stop
    this.socket = null;
    this.confirmResign = false; // the resign confirmation is open
    this.ticker = null; // counts the away seats' countdowns down
    this.stopped = false;
    this.onKey = (event) => this.key(event);
    this.onFocus = (event) => {
      const card = event.target.closest && event.target.closest(".hand-cards button.card");
      if (card) this.focusAt = Number(card.dataset.position);
    };
  }

  get seat() {
    return this.state.seat;
  }

  get view() {
    return this.state.view;
  }

  get legal() {
    return this.state.left() ? [] : this.state.legal; // a seat that left moves no more
  }

  async start() {
    fill(this.root, h("p.loading", {}, "Opening the table…"));
    let tableId = this.who.table || null;
    let seat = null;
    if (this.who.token) {
      const known = mySeats().find((s) => s.token === this.who.token);
      if (known) {
        tableId = known.table;
        seat = known.seat;
      } else {
        // a link this browser has not opened before: no notes to resume from, so the
        // socket need not wait; the seat is remembered for the lobby meanwhile
        this.rememberLink();
      }
    }
    if (this.stopped) return;
    this.state = new TableState(tableId, seat);
    const seen = this.state.notes.version;
    if (tableId && Number.isInteger(seen)) {
      // back after a while: the seats' names first, so that missed events are logged
      try {
        this.state.table = await api.table(tableId);
      } catch {
        // the sync brings it
      }
    }
    await me(); // the browser's player first: the seat becomes theirs at the hello
    if (this.stopped) return;
    this.ticker = setInterval(() => tickCountdowns(this.root), 1000);
    this.socket = new TableSocket(this.who, {
      version: Number.isInteger(seen) ? seen : null,
      onMessage: (msg) => this.receive(msg),
      onStatus: (status) => this.setStatus(status),
      onLost: () => this.lost(),
    });
    document.addEventListener("keydown", this.onKey);
    this.root.addEventListener("focusin", this.onFocus);
    window.rummykitSocket = this.socket; // lets the tests drop the connection
    this.socket.connect();
  }

  /** Look up a seat link's table and seat (for the lobby's list of tables). */
  async rememberLink() {
    try {
      const found = await api.seat(this.who.token);
      rememberSeat({ token: this.who.token, table: found.table, seat: found.seat, name: found.name });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
        this.fail("This seat link is not valid", `${error.message}. Check that the whole link was copied.`);
      }
      // otherwise the server may be restarting: the socket retries
    }
  }

  /** Is there a Hint endpoint? Asked once the table is drawn (the OpenAPI document is
   * not needed to start). */
  async findHint() {
    if (this.hintAsked || !this.who.token) return;
    this.hintAsked = true;
    const found = await serverPaths();
    if (this.stopped) return;
    this.hint = found.find((p) => p.path.includes("hint")) || null;
    if (this.hint && this.view) this.render();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.ticker);
    document.removeEventListener("keydown", this.onKey);
    this.root.removeEventListener("focusin", this.onFocus);
    if (this.socket) this.socket.close();
  }

  /** The table cannot be shown (a mistyped link): say so, with the way back. */
  fail(title, text) {
    this.failed = { title, text };
    if (this.socket) this.socket.close();
    fill(this.root, h("main.panel.failed", { role: "alert" }, h("h2", {}, title), h("p", {}, text),
      h("p", {}, h("a.button", { href: "#/" }, "Back to the lobby"))));
  }

  // -- messages from the server ------------------------------------------------------

  receive(msg) {
    if (this.failed) return;
    const before = this.view ? this.view.hand : [];
    const viewBefore = this.view;
    const legalBefore = this.legal;
    const wasMyTurn = this.state.myTurn();
    switch (msg.type) {
      case "welcome":
        this.state.welcome(msg);
        break;
      case "sync":
        this.state.sync(msg);
        break;
      case "event":
        if (!this.state.event(msg)) return;
        if (msg.seat === this.seat && this.seat !== null) this.pending = null; // made: its ack follows
        this.error = "";
        this.afterEvent(msg, before, viewBefore);
        if (!this.state.over || !this.state.over.match.over) this.voted = false;
        break;
      case "seats":
        this.state.seats(msg);
        if (!this.view && this.socket) this.socket.send({ type: "sync" });
        else this.resendLost();
        break;
      case "ack":
        this.pending = null;
        break;
      case "error":
        if (msg.ack === undefined || msg.ack === null) {
          if (msg.code === "unknown_table") {
            this.fail("No such table", `There is no table "${this.who.table || ""}". Check the spectator link: it may be mistyped or cut short.`);
            return;
          }
          if (msg.code === "bad_token") {
            this.fail("This seat link is not valid", `${humanize(msg.message)}. Check that the whole link was copied.`);
            return;
          }
        }
        this.pending = null; // a refusal, with or without the move's ack id (too_large, rate_limited)
        this.error = msg.code === "stale_version" ? "Someone moved first; try again." : humanize(msg.message);
        break;
      default:
        return;
    }
    if (this.legal !== legalBefore) {
      this.choice = null;
      this.hintData = null;
    }
    const after = this.view ? this.view.hand : [];
    if (before.join() !== after.join()) this.reselect(before, after);
    if (!wasMyTurn && this.state.myTurn()) announce("Your turn.");
    this.render();
    if (this.view) setTimeout(() => this.findHint(), 0);
  }

  /** What an event changes beyond the state: marks, animations, announcements. */
  afterEvent(msg, handBefore, viewBefore) {
    if (msg.kind === "deal") {
      this.freshCards = [];
      announce(`Hand ${msg.view.hand_number + 1} is dealt.`);
      return;
    }
    const mine = msg.seat === this.seat;
    const kind = msg.move.split(/\s+/)[0];
    const sentence = this.state.notes.log[this.state.notes.log.length - 1];
    if (mine) {
      if (kind === "draw" || kind === "take") {
        this.freshCards = added(handBefore, msg.view.hand);
        this.drawnAnim = true; // slides in once; the "new" mark stays for the turn
        const what = kind === "draw" ? `You drew ${cardsLabel(this.freshCards)}.` : sentence && sentence.text;
        announce(what);
      } else if (kind === "discard") this.freshCards = [];
    } else {
      if (sentence) announce(sentence.text);
      this.anim = { seat: msg.seat, kind, melds: changedMelds(viewBefore, msg.view) };
    }
    if (msg.view.result) announce(resultWords(msg.view.result, this.state.names()));
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
    const before = this.status;
    this.status = status;
    if (this.failed) return;
    if (before === "open" && (status === "reconnecting" || status === "offline")) announce(`Connection lost: ${STATUS_TEXT[status]}`);
    if (status === "open" && (before === "reconnecting" || before === "offline")) announce("Connected again.");
    const pill = this.root.querySelector(".conn");
    if (pill) {
      pill.dataset.status = status;
      pill.textContent = STATUS_TEXT[status];
    } else {
      this.render();
    }
  }

  /** The connection died: a move in flight is kept to be sent again. */
  lost() {
    if (this.pending !== null) {
      this.lostMove = { text: this.pending.text, version: this.pending.version };
      this.pending = null;
    }
    if (this.lostMove) {
      this.error = `The connection was lost: your move (${moveWords(this.lostMove.text)}) will be sent again when it is back.`;
      this.render();
    }
  }

  /** Back online (the server has sent what was missed): send a lost move again if the
   * table has not changed since, else say what happened to it. */
  resendLost() {
    const lost = this.lostMove;
    if (!lost) return;
    this.lostMove = null;
    const mine = this.state.notes.log.some((e) => e.kind === "mine" && e.version > lost.version);
    if (mine) {
      this.error = "";
      this.notice = { text: "Your move reached the server before the connection was lost.", at: Date.now() };
    } else if (this.state.table && this.state.table.version === lost.version && this.state.myTurn()) {
      this.notice = { text: "Back online: your move was sent again.", at: Date.now() };
      this.play(lost.text);
      return;
    } else {
      this.error = `Your move (${moveWords(lost.text)}) was not made: the table changed while you were offline. Play again.`;
    }
    this.render();
  }

  // -- what the player does ----------------------------------------------------------

  selectedCards() {
    return [...this.selected].sort((a, b) => a - b).map((i) => this.view.hand[i]);
  }

  play(text) {
    if (this.seat === null) return;
    if (this.pending !== null) {
      this.flash("Your last move is still on its way; try again in a moment.");
      return;
    }
    const version = this.state.table ? this.state.table.version : 0;
    if (this.state.over && !this.state.over.match.over) this.state.over = null; // the next hand has begun
    const id = this.socket.move(text);
    if (id === null) {
      this.lostMove = { text, version };
      this.error = `You are offline: your move (${moveWords(text)}) will be sent when the connection is back.`;
    } else {
      this.pending = { id, text, version };
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

  /** The selected cards, or else the card that has the focus. */
  keyCards() {
    const cards = this.selectedCards();
    if (cards.length) return cards;
    const focused = document.activeElement && document.activeElement.closest
      ? document.activeElement.closest(".hand-cards button.card") : null;
    return focused ? [this.view.hand[Number(focused.dataset.index)]] : [];
  }

  /** M: meld the selected cards (or show the possible melds). */
  keyMeld() {
    const melds = offeredMoves(this.legal, this.selectedCards()).filter((m) => m.kind === "meld");
    if (melds.length === 1) this.play(melds[0].text);
    else if (melds.length > 1) {
      this.choice = { card: null, moves: melds };
      this.render();
    } else if (hasKind(this.legal, "meld")) {
      this.showMelds = true;
      this.flash("These cards make no meld: the possible melds are listed.");
    } else this.flash("No meld is possible now.");
  }

  /** L: lay the selected card off (on the only meld it fits, or ask where). */
  keyLay() {
    const cards = this.keyCards();
    if (cards.length !== 1) {
      this.flash("Select one card to lay off.");
      return;
    }
    const moves = offeredMoves(this.legal, cards).filter((m) => m.kind === "lay" || m.kind === "swap");
    if (moves.length === 1) this.play(moves[0].text);
    else if (moves.length > 1) {
      this.choice = { card: cards[0], moves };
      this.render();
    } else this.flash(`${cardLabel(cards[0])} fits no meld on the table.`);
  }

  /** X: discard the selected (or focused) card. */
  keyDiscard() {
    const cards = this.keyCards();
    if (cards.length !== 1) this.flash(cards.length ? "Select just one card to discard." : "Select the card to discard first.");
    else this.play(`discard ${cards[0]}`);
  }

  /** Keys (see the help): D draw, T take, M meld, L lay off, X discard, H hint, S sort,
   * ? help, Escape closes a panel or clears the selection. */
  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || !this.view || this.failed) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const k = event.key.toLowerCase();
    const mine = this.state.myTurn() && this.pending === null;
    if (k === "escape") {
      if (this.confirmResign) this.confirmResign = false;
      else if (this.showHelp) this.showHelp = false;
      else if (this.state.over && !this.state.over.match.over) this.state.over = null;
      else this.selected = new Set();
      this.render();
    } else if (k === "?") {
      if (this.showHelp) {
        this.showHelp = false;
        this.render();
      } else this.openHelp();
    } else if (this.showHelp) {
      return;
    } else if (k === "d" && mine && this.legal.includes("draw")) this.play("draw");
    else if (k === "t" && mine && this.legal.includes("take")) this.play("take");
    else if (k === "m" && mine) this.keyMeld();
    else if (k === "l" && mine) this.keyLay();
    else if (k === "x" && mine) this.keyDiscard();
    else if (k === "h" && mine && this.hint) this.askHint();
    else if (k === "s") this.sort(this.sortBy === "suit" ? "rank" : "suit");
    else if (mine && faceOf(this.view) && faceOf(this.view).key(this, k)) return event.preventDefault();
    else return;
    event.preventDefault();
  }

  sort(by) {
    this.sortBy = by;
    localStorage.setItem("rummykit.sort", by);
    this.render();
  }

  /** Import a module the table needs only now and then ("help", "hint"). */
  async module(name) {
    if (!this.modules[name]) this.modules[name] = await import(`./${name}.js`);
    return this.modules[name];
  }

  async openHelp() {
    await this.module("help");
    this.showHelp = true;
    this.render();
  }

  async askHint() {
    await this.module("hint");
    try {
      const url = this.hint.path.replace(/\{[^}]*table[^}]*\}/, encodeURIComponent(this.state.tableId))
        .replace(/\{[^}]*token[^}]*\}/, encodeURIComponent(this.who.token));
      const method = this.hint.methods.includes("get") ? "GET" : "POST";
      const response = await fetch(url, { method, headers: { "X-Seat-Token": this.who.token } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const data = await response.json();
      // GET /api/tables/{id}/hint: {move, text (one line in words), lines (the search's findings)}
      this.hintData = { move: data.move || null, text: data.text || "", lines: Array.isArray(data.lines) ? data.lines : [] };
    } catch {
      this.hintData = { move: null, text: "No hint available.", lines: [] };
    }
    this.render();
  }

  flash(text) {
    this.error = text;
    this.render();
  }

  /** Leave the seat: a bot plays it; back within the grace period, the seat is yours
   * again, else you have resigned. */
  leave() {
    const playing = this.state.table && this.state.table.status === "playing" && !this.state.left();
    const text = playing
      ? "Leave the table? A bot plays your seat meanwhile; if you are not back soon, you resign and the match counts as a loss."
      : "Leave the table?";
    if (!window.confirm(text)) return;
    this.socket.send({ type: "leave" });
    if (!playing) forgetSeat(this.who.token); // in play: the lobby lists it, to come back
    location.hash = "#/";
  }

  /** Resign the match, once confirmed: a loss; the seat's bot plays on for the others. */
  resign() {
    this.confirmResign = false;
    this.socket.send({ type: "resign" });
    this.render();
  }

  canResign() {
    const t = this.state.table;
    return this.seat !== null && t && t.status === "playing" && !this.state.left();
  }

  vote() {
    this.socket.send({ type: "rematch" });
    this.voted = true;
    this.render();
  }

  // -- drawing -----------------------------------------------------------------------

  render() {
    if (this.stopped || this.failed) return; // late messages draw nothing
    const active = document.activeElement;
    const focusKey = active && active.dataset ? active.dataset.key : null;
    const hadFocus = active && active !== document.body && this.root.contains(active);
    const logBox = this.root.querySelector(".log-list");
    const atBottom = !logBox || logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
    const typing = this.root.querySelector(".move-box input");
    const typed = typing ? [typing.value, typing.selectionStart, typing.selectionEnd] : null;
    fill(this.root, this.screen());
    const box = this.root.querySelector(".move-box input");
    if (box && typed && typed[0]) { // a redraw (a bot's move) keeps a move being typed
      box.value = typed[0];
      box.setSelectionRange(typed[1], typed[2]);
    }
    document.title = `${this.state.myTurn() ? "Your turn · " : ""}rummykit`;
    const newLog = this.root.querySelector(".log-list");
    if (newLog && atBottom) newLog.scrollTop = newLog.scrollHeight;
    const dialog = this.root.querySelector(".dialog");
    if (dialog && !dialog.contains(document.activeElement)) {
      const first = dialog.querySelector("button.primary:not([disabled])") || dialog.querySelector("button");
      if (first) first.focus();
      return;
    }
    const again = focusKey ? this.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) : null;
    if (again) again.focus();
    else if (hadFocus) {
      // the focused button or card went away (a discard, a move played): back to the hand
      const card = this.root.querySelector(".hand-cards button.card[tabindex='0']");
      if (card) card.focus();
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
    if (this.error) {
      this.error = ""; // an old error is not about the new selection
      const old = this.root.querySelector(".messages .error");
      if (old) old.remove();
    }
    const bar = this.root.querySelector(".actions");
    if (bar) bar.replaceWith(this.actions());
  }

  screen() {
    const { table } = this.state;
    const top = topBar(this.state, this.status, {
      onLeave: this.seat !== null ? () => this.leave() : null,
      onResign: this.canResign() ? () => { this.confirmResign = true; this.render(); } : null,
      onHelp: table ? () => this.openHelp() : null,
    });
    if (!table) {
      return h("div.table-screen", {}, top, h("p.loading", {}, "Waiting for the table…"));
    }
    let body;
    if (this.view) body = this.board();
    else if (table.status === "waiting") body = waitingPanel(table);
    else body = h("p.loading", {}, "Joining the table…");
    // data-version and data-legal let scripts (and the tests) follow the table
    return h("div.table-screen", { dataset: { version: String(table.version), legal: JSON.stringify(this.legal) } },
      top,
      h("div.table-grid", {}, body, sidePanels(this.state)),
      this.matchOver(),
      this.helpDialog(),
      this.confirmResign && this.canResign()
        ? resignDialog({ onResign: () => this.resign(), onCancel: () => { this.confirmResign = false; this.render(); } }) : null);
  }

  helpDialog() {
    if (!this.showHelp || !this.modules.help) return null;
    const close = () => { this.showHelp = false; this.render(); };
    return h("div.overlay", { onclick: (e) => { if (e.target === e.currentTarget) close(); } },
      h("div.dialog.help", { role: "dialog", "aria-modal": "true", "aria-label": "Rules and help" },
        h("div.buttons", {}, h("button.primary", { type: "button", onclick: close }, "Close")),
        this.modules.help.helpContent(this.state.table.rules)));
  }

  matchOver() {
    const { over, table } = this.state;
    if (!over || !over.match.over) return null;
    const face = faceOf(over.view);
    return summaryDialog(over, table.seats, tableScoring(table), {
      report: face ? face.report : null,
      onRematch: () => this.vote(),
      onReplay: () => { location.hash = `#/replay/table/${table.id}/${over.match.number}`; },
      onLobby: () => { location.hash = "#/"; },
      canRematch: this.seat !== null,
      voted: this.voted || (table.rematch_votes || []).includes(this.seat),
      votes: table.rematch_votes,
    });
  }

  lastHand() {
    const { over, table } = this.state;
    if (!over || over.match.over) return null;
    const face = faceOf(over.view);
    return handPanel(over, table.seats, tableScoring(table), {
      report: face ? face.report : null,
      onClose: () => { this.state.over = null; this.render(); },
    });
  }

  board() {
    const face = faceOf(this.view);
    if (face) return face.board(this);
    const v = this.view;
    const mine = this.state.myTurn();
    const anim = this.anim;
    this.anim = null; // animated once
    const shown = {
      view: v, table: this.state.table, showPile: this.showPile, anim,
      canDraw: mine && hasKind(this.legal, "draw"), canTake: mine && hasKind(this.legal, "take"),
    };
    return h("main.board", {},
      this.lastHand(),
      playersView(shown),
      h("div.centre", {},
        pilesView(shown, {
          onStock: () => this.onStock(),
          onDiscardPile: () => this.onDiscardPile(),
          onTogglePile: () => { this.showPile = !this.showPile; this.render(); },
        }),
        meldsView(shown, { onMeld: (n) => this.onMeld(n) })),
      absenceNotes(this.state.table, this.seat),
      h("p.turn", { dataset: { mine: mine ? "yes" : "no" } }, turnText(this.state, this.pending !== null)),
      this.seat !== null ? this.handPanel() : null,
      this.messages());
  }

  /** Errors, notices and the hint, below the hand (the hand does not move when they come). */
  messages() {
    const notice = this.notice && Date.now() - this.notice.at < 6000 ? this.notice.text : "";
    return h("div.messages", {},
      this.error ? h("p.error", { role: "alert" }, this.error) : null,
      notice ? h("p.notice", { role: "status" }, notice) : null,
      this.hintData && this.modules.hint ? this.modules.hint.hintView(this.hintData, this.view, this.legal, { play: (m) => this.play(m) }) : null);
  }

  actions() {
    const face = faceOf(this.view);
    return actionBar({
      view: this.view, legal: face ? face.commonMoves(this.legal, this.view) : this.legal, selectedCards: this.selectedCards(),
      showMelds: this.showMelds, choice: this.choice,
    }, {
      move: (text) => this.play(text),
      toggleMelds: () => { this.showMelds = !this.showMelds; this.render(); },
      clear: () => this.clearSelection(),
      hint: this.hint ? () => this.askHint() : null,
    });
  }

  /** Indices of the hand that hold the cards just drawn. */
  freshIndices() {
    const fresh = new Set();
    for (const card of this.freshCards) {
      const at = this.view.hand.findIndex((c, i) => c === card && !fresh.has(i));
      if (at >= 0) fresh.add(at);
    }
    return fresh;
  }

  handPanel() {
    const sorter = (by, label) => h("button.link", {
      type: "button", "aria-pressed": this.sortBy === by ? "true" : "false", onclick: () => this.sort(by),
      dataset: { key: `sort:${by}` },
    }, label);
    const cards = handView(this.view.hand, {
      sortBy: this.sortBy, selected: this.selected, fresh: this.freshIndices(), focusAt: this.focusAt,
      animate: this.drawnAnim,
      onToggle: (i) => this.toggle(i),
      onSelect: (i, on) => this.select(i, on),
      onDrop: (card, target, index) => this.onDrop(card, target, index),
    });
    this.drawnAnim = false;
    // cards keep the focus across redraws by identity (the nth copy of a card)
    const seen = {};
    for (const card of cards.children) {
      seen[card.dataset.card] = (seen[card.dataset.card] || 0) + 1;
      card.dataset.key = `card:${card.dataset.card}:${seen[card.dataset.card]}`;
    }
    return h("section.hand", { "aria-label": "Your hand" },
      h("div.hand-head", {}, h("strong", {}, `Your hand (${this.view.hand.length})`,
        (this.view.down || []).includes(this.seat) ? h("span.badge.down", {}, "you are down") : null),
      h("span.sort", {}, "Sort: ", sorter("suit", "by suit"), " ", sorter("rank", "by rank"))),
      cards,
      this.state.left() ? null : [this.actions(), moveBox((text) => this.play(text), this.legal.length > 0)],
      h("p.keys", {}, "Keys: ← → cards, Space selects, D draw, T take, M meld, L lay off, X discard, H hint, S sort, ? rules, Esc clear."));
  }
}
