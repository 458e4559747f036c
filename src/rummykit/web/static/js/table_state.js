// What the server told us about one table, kept from its messages (docs/protocol.md §3):
// the table, our view and legal moves, the hand just over, and the notes this browser
// keeps (the move log in words and the score sheet). No DOM here.

import { capital, ruleTerms } from "./rulesets.js";
import { saveTableNotes, tableNotes } from "./store.js";
import { factsClause, moveSentence, resultWords, seatName } from "./words.js";

/** The cards a take or a dig picked up, read from the discard pile before it (top last). */
function takenCards(move, before) {
  const words = move.split(/\s+/);
  if (words[0] !== "take" || !before || before.discard.length === 0) return [];
  const n = words[1] ? Number(words[1]) : 1;
  return before.discard.slice(-n).reverse();
}

export class TableState {
  constructor(tableId, seat) {
    this.tableId = tableId;
    this.seat = seat; // null: a spectator
    this.table = null;
    this.view = null;
    this.legal = [];
    this.over = null; // {view, match} of the event that ended the last hand
    this.lastMove = null; // {seat, move, version, cards, before}: the last move seen, for animations
    this.dig = null; // the card this seat dug for this turn (it must go on the table)
    this.notes = tableId ? tableNotes(this.notesKey()) : { log: [], sheet: [] };
  }

  /** Notes are kept per table and per seat (a spectator's words differ from a player's). */
  notesKey() {
    return `${this.tableId}:${this.seat === null ? "watch" : this.seat}`;
  }

  names() {
    const n = this.view ? this.view.hand_sizes.length : (this.table ? this.table.seats.length : 0);
    return Array.from({ length: n }, (_, s) => seatName(this.table && this.table.seats, s));
  }

  welcome(msg) {
    if (msg.table !== this.tableId || msg.seat !== this.seat) {
      this.tableId = msg.table;
      this.seat = msg.seat;
      this.notes = tableNotes(this.notesKey());
    }
  }

  sync(msg) {
    this.table = msg.table;
    this.view = msg.view;
    this.legal = msg.legal || [];
    this.fillLog(msg);
    if (msg.view && msg.view.result && msg.table.status === "over") {
      this.over = { view: msg.view, match: msg.table.match };
    }
    this.notes.version = msg.version;
    this.save();
  }

  /** Log what a resync tells: the current hand's moves (msg.log, docs/protocol.md §3)
   * after the last version this browser logged. Only moves of an earlier hand missed
   * while away are lost; a fresh browser logs the whole current hand. */
  fillLog(msg) {
    const seen = Number.isInteger(this.notes.version) ? this.notes.version : null;
    if (!msg.view || (seen !== null && msg.version <= seen)) return;
    const moves = Array.isArray(msg.log) ? msg.log : [];
    // the hand's deal is the event just before its first move (or the last event)
    const dealt = moves.length ? moves[0].version - 1 : msg.version;
    if (seen === null ? !this.notes.log.length : seen < dealt) {
      if (seen !== null && seen < dealt - 1) {
        this.note("… (moves of an earlier hand made while you were away are not listed)", dealt);
      }
      this.noteDeal(msg.view, dealt, "Hand {n}, dealt by {dealer}");
    }
    const names = this.names();
    moves.forEach((m, i) => {
      if (seen !== null && m.version <= seen) return;
      // a take picks up the card the move before discarded (the upcard is not in the log)
      const before = i > 0 ? moves[i - 1].move : "";
      const taken = m.move === "take" && before.startsWith("discard ") ? before.slice(8) : null;
      const yours = m.seat === this.seat;
      this.note(moveSentence(names[m.seat], m.move, { taken, yours }), m.version, yours ? "mine" : "");
    });
  }

  /** Apply a versioned event; false when it cannot be applied yet (no table known). */
  event(msg) {
    if (!this.table) return false;
    const names = this.names();
    this.table.match = msg.match;
    this.table.version = msg.version;
    if (msg.kind === "deal") {
      this.dig = null;
      this.noteDeal(msg.view, msg.version, "Hand {n} dealt by {dealer}");
      if (this.over && this.over.match.over && msg.match.number > this.over.match.number) {
        this.over = null; // the rematch started
      }
      this.table.status = "playing";
    } else {
      const taken = msg.move.startsWith("take") ? msg.view.taken : null;
      const yours = msg.seat === this.seat;
      const cards = takenCards(msg.move, this.view);
      this.lastMove = { seat: msg.seat, move: msg.move, version: msg.version, cards, before: this.view };
      if (yours && /^take \d/.test(msg.move)) this.dig = cards[cards.length - 1] || null;
      if (yours && msg.move.startsWith("discard")) this.dig = null;
      this.note(moveSentence(names[msg.seat], msg.move, { taken, yours, cards }), msg.version, yours ? "mine" : "");
    }
    if (msg.view.result) {
      this.note(resultWords(msg.view.result, names), msg.version, "result");
      const row = { match: msg.match.number, hand: msg.view.hand_number, scores: msg.view.result.scores };
      this.notes.sheet = this.notes.sheet.filter((r) => r.match !== row.match || r.hand !== row.hand);
      this.notes.sheet.push(row);
      this.over = { view: msg.view, match: msg.match };
      if (msg.match.over) this.table.status = "over";
    }
    this.view = msg.view;
    this.legal = msg.legal || [];
    this.notes.version = msg.version;
    this.save();
    return true;
  }

  seats(msg) {
    if (this.table) Object.assign(this.table, { seats: msg.seats, rematch_votes: msg.rematch_votes });
  }

  noteDeal(view, version, pattern) {
    const names = this.names();
    const facts = factsClause(view);
    const unit = capital(ruleTerms(this.table.rules).hand);
    const text = pattern.replace("Hand", unit).replace("{n}", String(view.hand_number + 1)).replace("{dealer}", names[view.dealer]);
    this.note(`${text}${facts ? `; ${facts}` : ""}.`, version, "deal");
  }

  note(text, version, kind = "") {
    this.notes.log.push({ text, version, kind });
  }

  save() {
    if (this.tableId) saveTableNotes(this.notesKey(), this.notes);
  }

  /** The card this seat dug for this turn, while the turn lasts. */
  dugCard() {
    return this.myTurn() ? this.dig : null;
  }

  /** True when it is this seat's turn in a hand being played. */
  myTurn() {
    return this.seat !== null && this.view !== null && this.view.to_move === this.seat && !this.view.result;
  }
}
