// The replay viewer: step forwards and backwards through a finished match or an uploaded
// record, with every seat's cards face up.

import { api } from "./api.js";
import { cardBack, cardFace, cardLabel, sortCards } from "./cards.js";
import { fill, h } from "./dom.js";
import { uploadForm } from "./lobby.js";
import { capital, ruleTerms, ruleTitle } from "./rulesets.js";
import { factSpans } from "./table_view.js";
import { factsClause, moveSentence, resultWords } from "./words.js";

/** Load an uploaded replay with every seat's cards (?seat=all: one request). */
async function loadReplay(id) {
  const all = await api.replay(id, "all");
  if (all.frames.every((frame) => Array.isArray(frame.hands))) return all;
  // a server without ?seat=all: the public frames plus each seat's own frames
  const seats = await Promise.all(all.players.map((_, s) => api.replay(id, s)));
  const frames = all.frames.map((frame, i) => ({ ...frame, hands: seats.map((r) => r.frames[i].view.hand) }));
  return { ...all, frames };
}

export class ReplayScreen {
  /** source: {id} (an uploaded record) or {table, match} (a finished match). */
  constructor(root, source) {
    this.root = root;
    this.source = source;
    this.data = null;
    this.at = 0;
    this.onKey = (event) => this.key(event);
  }

  async start() {
    fill(this.root, h("p.loading", {}, "Loading the replay…"));
    try {
      if (this.source.id) {
        this.data = await loadReplay(this.source.id);
        this.recordUrl = `/api/replays/${encodeURIComponent(this.source.id)}/record`;
        this.recordName = `${this.source.id}.rummy.json`;
      } else {
        // a table's finished match, straight from the table (nothing to upload)
        const { table, match } = this.source;
        this.data = await api.matchReplay(table, match);
        this.recordUrl = `/api/tables/${encodeURIComponent(table)}/matches/${match}/record`;
        this.recordName = `${table}-${match}.rummy.json`;
      }
    } catch (error) {
      if (this.stopped) return;
      fill(this.root, h("main.panel", {}, h("h2", {}, "This replay cannot be shown"), h("p", {}, error.message),
        uploadForm(), h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
      return;
    }
    if (this.stopped) return;
    document.addEventListener("keydown", this.onKey);
    this.render();
  }

  stop() {
    this.stopped = true;
    document.removeEventListener("keydown", this.onKey);
  }

  key(event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -Infinity, End: Infinity, PageDown: "hand+", PageUp: "hand-" };
    const step = moves[event.key];
    if (step === undefined) return;
    event.preventDefault();
    if (step === "hand+" || step === "hand-") this.jumpHand(step === "hand+" ? 1 : -1);
    else this.go(this.at + step);
  }

  go(index) {
    const last = this.data.frames.length - 1;
    this.at = Math.max(0, Math.min(last, Number.isFinite(index) ? index : index > 0 ? last : 0));
    this.render();
  }

  jumpHand(direction) {
    const frames = this.data.frames;
    const hand = frames[this.at].hand_index;
    const target = direction > 0
      ? frames.findIndex((f) => f.hand_index > hand)
      : frames.findIndex((f) => f.hand_index === Math.max(0, hand - (frames[this.at].move ? 0 : 1)));
    this.go(target < 0 ? frames.length - 1 : target);
  }

  render() {
    const focused = document.activeElement && document.activeElement.getAttribute("aria-label");
    this.draw();
    const again = focused && this.root.querySelector(`.replay-controls [aria-label="${focused}"]`);
    if (again && !again.disabled) again.focus();
  }

  draw() {
    const { data } = this;
    const frame = data.frames[this.at];
    const v = frame.view;
    const names = data.players;
    const last = data.frames.length - 1;
    const facts = factsClause(v);
    const unit = capital(ruleTerms(data.rules).hand);
    const said = frame.move === null
      ? `${unit} ${frame.hand_index + 1} dealt by ${names[v.dealer]}${facts ? `; ${facts}` : ""}.`
      : moveSentence(names[frame.seat], frame.move, { taken: frame.move.startsWith("take") ? v.taken : null });
    const control = (label, text, action, disabled) => h("button", { type: "button", "aria-label": label, title: label, onclick: action, disabled }, text);
    const slider = h("input", { type: "range", min: "0", max: String(last), value: String(this.at), "aria-label": "Step" });
    slider.oninput = () => this.go(Number(slider.value));
    fill(this.root, h("main.replay", { dataset: { frame: String(this.at) } },
      h("header.topbar", {}, h("a.home", { href: "#/" }, "♠ rummykit"),
        h("span.title", {}, `Replay · ${ruleTitle(data.rules)}`),
        h("span.deal", {}, `${unit} ${frame.hand_index + 1}`), factSpans(v),
        h("a", { href: this.recordUrl, download: this.recordName }, "download record")),
      h("div.replay-controls", { role: "toolbar", "aria-label": "Replay controls" },
        control("Start", "Start", () => this.go(0), this.at === 0),
        control("Previous hand", "« Hand", () => this.jumpHand(-1), this.at === 0),
        control("Step back", "‹ Back", () => this.go(this.at - 1), this.at === 0),
        h("span.frame-no", {}, `${this.at} / ${last}`),
        control("Step forward", "Next ›", () => this.go(this.at + 1), this.at === last),
        control("Next hand", "Hand »", () => this.jumpHand(1), this.at === last),
        control("End", "End", () => this.go(last), this.at === last),
        slider),
      h("p.said", { role: "status" }, said),
      v.result ? h("p.result", {}, resultWords(v.result, names), ` Points: ${v.result.scores.map((p, s) => `${names[s]} ${p}`).join(", ")}.`) : null,
      h("div.replay-board", {},
        h("section.replay-seats", {}, names.map((name, s) => h(`div.replay-seat${v.to_move === s && !v.result ? ".to-move" : ""}`, { dataset: { seat: String(s) } },
          h("div.player-head", {}, h("strong", {}, name), v.dealer === s ? h("span.badge", {}, "dealer") : null,
            (v.down || []).includes(s) ? h("span.badge.down", {}, "down") : null,
            h("span.muted", {}, ` total ${frame.totals[s]}`)),
          h("div.replay-hand", {}, sortCards(frame.hands[s] || [], "suit").map(({ text }) => cardFace(text, { small: true })))))),
        h("section.centre", {},
          h("div.piles", {},
            h("div.pile-wrap", {}, v.stock_size ? cardBack() : h("div.card.empty"), h("span.pile-label", {}, `Stock ${v.stock_size}`)),
            h("div.pile-wrap", {}, v.discard.length ? cardFace(v.discard[v.discard.length - 1]) : h("div.card.empty"),
              h("span.pile-label", {}, `Discard ${v.discard.length}`))),
          h("div.melds", {}, v.table.length ? v.table.map((m) => h("div.meld", {},
            // a family's own melds may have no kind or owners (gin: the knocker's, laid-off cards marked)
            h("span.meld-head", {}, h("span.meld-number", {}, `${m.number}`), m.kind ? ` ${m.kind} · ${[...new Set(m.placed_by)].map((p) => names[p]).join(", ")}` : ""),
            h("span.meld-cards", {}, m.cards.map((c) => cardFace(c, { small: true, attrs: { title: cardLabel(c), class: (m.laid || []).includes(c) ? "laid" : "" } })))))
            : h("p.muted", {}, "No melds on the table.")))),
      h("p.muted", {}, "Keys: ← → step, Home/End, Page Up/Down by hand.")));
  }
}
