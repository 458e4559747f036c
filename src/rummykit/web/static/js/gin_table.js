// The gin table (the face of the views of kind gin, RULES.md §6): the opponent, the
// stock and the discard pile, the first-upcard offer, the knock with its arrangement
// chosen among the legal ones, the show (the knocker's melds with the lay-offs marked,
// the defender's melds, done), the deadwood of your hand, the game's score sheet
// (target, boxes, game bonus; Hollywood's three games) and the end-of-hand report.
// Everything shown comes from the seat's gin view the server sent.

import { cardBack, cardFace, cardLabel, cardsLabel } from "./cards.js";
import { h } from "./dom.js";
import { pilesView } from "./board.js";
import { hasKind } from "./moves.js";
import { seatName } from "./words.js";

const REASONS = {
  knock: "won by knocking", gin: "went gin", big_gin: "went big gin", undercut: "undercut the knocker",
  dead_hand: "dead hand at the wall: nobody scores", repeated_move: "drawn: the same discard was taken back twice",
  upcard_limit: "drawn: the upcard take limit was reached", knock_tie: "drawn: the knock tied", max_turns: "stopped at the turn limit",
};

const KNOCKED = { knock: "knocked", gin: "went gin", big_gin: "big gin" };

/** A knock move's parts: {verb, card, groups}; card null in big gin or when face down. */
export function parseKnock(move) {
  const [head, rest = ""] = move.split(":");
  const [verb, card = null] = head.trim().split(/\s+/);
  const groups = rest.split("/").map((g) => g.trim().split(/\s+/).filter(Boolean)).filter((g) => g.length);
  return { verb, card, groups };
}

/** How a finished gin hand ended, in words. */
export function ginResultWords(result, names, view) {
  if (!result) return "";
  const who = (seat) => names[seat] || `Seat ${seat + 1}`;
  const why = REASONS[result.reason] || result.reason || "";
  if (result.result === "win") {
    const points = result.scores[result.winner];
    const knocker = view && view.knocker !== null && view.knocker !== result.winner ? ` (${who(view.knocker)} knocked)` : "";
    return `${who(result.winner)} ${why}${knocker}: ${points} point${points === 1 ? "" : "s"}.`;
  }
  return `The hand is ${why.startsWith("drawn") || why.startsWith("dead") ? why : `over: ${why}`}.`;
}

function group(cards, { laid = [], label = "" } = {}) {
  return h("span.gin-group", { "aria-label": `${label}${cardsLabel(cards)}${laid.length ? `; laid off: ${cardsLabel(laid)}` : ""}` },
    cards.map((c) => cardFace(c, { small: true, attrs: { class: laid.includes(c) ? "laid" : "", title: laid.includes(c) ? `${cardLabel(c)}, laid off` : cardLabel(c) } })));
}

/** A hand as melds and deadwood: {melds, deadwood, deadwood_value}. */
function arranged(hand, title) {
  return h("div.gin-arranged", {},
    h("span.gin-label", {}, title),
    hand.melds.map((m) => group(m, { label: "meld " })),
    hand.deadwood.length ? h("span.gin-deadwood", {}, "deadwood ", group(hand.deadwood, { label: "deadwood " }), ` = ${hand.deadwood_value}`)
      : h("span.gin-deadwood", {}, "no deadwood"));
}

/** Your hand's best arrangement in words: "Your deadwood: 12 · melds 7♦ 8♦ 9♦ · loose 2♣ K♥". */
function ownWords(hand) {
  const melds = hand.melds.length ? ` · melds ${hand.melds.map(cardsLabel).join(", ")}` : " · no melds yet";
  const after = hand.after_discard === null || hand.after_discard === undefined ? "" : ` (${hand.after_discard} after your best discard)`;
  return [h("strong", {}, `Your deadwood: ${hand.deadwood_value}${after}`), melds,
    hand.deadwood.length ? ` · unmatched ${cardsLabel(hand.deadwood)}` : ""];
}

/** The knock and the show, public once a seat knocked. */
function showView(view, seats) {
  if (view.knocker === null) return null;
  const knocker = seatName(seats, view.knocker);
  const mine = view.knocker === view.seat;
  const first = view.knock_melds.length;
  return h("section.gin-show.panel", { "aria-label": "The knock" },
    h("h2", {}, `${mine ? "You" : knocker} ${view.knock_kind === "knock" ? "knocked" : view.knock_kind === "big_gin" ? "went big gin" : "went gin"}`),
    h("div.gin-melds", {}, view.table.slice(0, first).map((m) => h("div.gin-meld", { dataset: { number: String(m.number) } },
      h("span.meld-number", {}, `${m.number}`), group(m.cards, { laid: m.laid, label: `meld ${m.number}: ` }),
      m.laid.length ? h("span.laid-note", {}, `laid off: ${cardsLabel(m.laid)}`) : null))),
    h("p.gin-knocker-deadwood", {}, view.knocker_deadwood.length
      ? [`${mine ? "Your" : `${knocker}'s`} deadwood: `, group(view.knocker_deadwood, { label: "deadwood " }), ` = ${view.knocker_deadwood_value}`]
      : "No deadwood."),
    view.face_down ? h("p.muted", {}, `Discarded face down: ${cardLabel(view.face_down)}`) : h("p.muted", {}, "The knock card lies face down."),
    view.table.length > first ? h("div.gin-melds.defender", {}, h("span.gin-label", {}, "Defender's melds"),
      view.table.slice(first).map((m) => group(m.cards, { label: "defender meld " }))) : null);
}

function opponentBox(view, table) {
  const seat = view.seat === null ? 1 : 1 - view.seat;
  const seats = view.seat === null ? [0, 1] : [seat];
  return h("section.players", { "aria-label": "Players" }, seats.map((s) => {
    const count = view.hand_sizes[s];
    return h(`div.player${view.to_move === s && !view.result ? ".to-move" : ""}`, { dataset: { seat: String(s) } },
      h("div.player-head", {}, h("strong", {}, seatName(table.seats, s)), view.dealer === s ? h("span.badge", {}, "dealer") : null),
      h("div.player-count", { dataset: { count: String(count) } }, `${count} card${count === 1 ? "" : "s"}`),
      h("div.backs", { "aria-hidden": "true" }, Array.from({ length: count }, () => cardBack({ small: true }))),
      view.known[s].length ? h("div.known", {}, "holds from the pile: ", cardsLabel(view.known[s])) : null);
  }));
}

/** What the seat may do now, in words. */
function turnWords(screen) {
  const { view, state } = screen;
  const names = state.names();
  if (view.result) return ginResultWords(view.result, names, view);
  if (!state.myTurn()) {
    const who = seatName(state.table.seats, view.to_move);
    if (view.phase === "show" && state.seat !== null) return `Waiting for ${who} to lay off and finish the show…`;
    return state.seat === null ? `${who} to play.` : `Waiting for ${who}…`;
  }
  if (screen.pending) return "Sending your move…";
  const top = view.discard.length ? cardLabel(view.discard[view.discard.length - 1]) : null;
  switch (view.phase) {
    case "offer": return `Your turn: take the first upcard ${top} or pass.`;
    case "draw": return `Your turn: draw from the stock${hasKind(screen.legal, "take") ? ` or take ${top}` : ""}.`;
    case "discard": return `Your turn: discard a card${view.knocks.length ? ", or knock" : ""}${view.taken ? ` (not ${cardLabel(view.taken)}, just taken)` : ""}.`;
    case "wall": return `Two cards are left in the stock: pass (a dead hand)${hasKind(screen.legal, "take") ? ` or take ${top} and knock` : ""}.`;
    case "wall_knock": return "Knock now: choose the card to discard face down.";
    case "show": return view.knock_kind === "knock"
      ? "Your show: lay cards off onto the knocker's melds, meld your own, then press Done."
      : "Your show: meld your cards if you like, then press Done.";
    default: return "Your turn.";
  }
}

function button(screen, move, label, primary = false) {
  return h(`button.action${primary ? ".primary" : ""}`, { type: "button", dataset: { move, key: `move:${move}` }, onclick: () => screen.play(move) }, label);
}

/** A knock offer's key: its discard, or "big" for big gin. */
function knockKey(offer) {
  return offer.card || "big";
}

/** The knock: one button per knock discard; once chosen, its arrangements to pick from. */
function knockPanel(screen) {
  const { view } = screen;
  if (!view.knocks.length || !screen.state.myTurn()) return null;
  const chosen = view.knocks.find((k) => knockKey(k) === screen.ginKnock) || null;
  if (!chosen) {
    return h("div.action-row.gin-knocks", { role: "group", "aria-label": "Knock" },
      h("span.muted", {}, "Knock:"),
      view.knocks.map((k) => h("button.action", {
        type: "button", dataset: { knock: knockKey(k), key: `knock:${knockKey(k)}` },
        onclick: () => { screen.ginKnock = knockKey(k); screen.render(); },
      }, k.card ? `${k.choices[0].deadwood ? "Knock" : "Gin"}: discard ${cardLabel(k.card)} face down…` : "Big gin…")));
  }
  return h("div.gin-arrangements", { role: "group", "aria-label": "Choose the melds to show" },
    h("p", {}, chosen.card ? `Knock with ${cardLabel(chosen.card)} face down. Show which melds?` : "Big gin: show which melds?"),
    chosen.choices.map((c, i) => {
      const parts = parseKnock(c.move);
      return h("div.gin-choice", {},
        // the first choice takes over the knock button's key: the focus moves onto it
        h("button.action.primary", { type: "button", dataset: { move: c.move, key: i === 0 ? `knock:${knockKey(chosen)}` : `move:${c.move}` }, onclick: () => { screen.ginKnock = null; screen.play(c.move); } },
          `${c.deadwood ? "Knock" : "Gin"}${i === 0 ? " (best)" : ""}, deadwood ${c.deadwood}`),
        parts.groups.map((g) => group(g, { label: "meld " })));
    }),
    h("button.link", { type: "button", dataset: { key: "knock:cancel" }, onclick: () => { screen.ginKnock = null; screen.render(); } }, "Cancel"));
}

/** The gin-only moves: the offer and the wall (take, pass), lay-offs, melds and done. */
function ginActions(screen) {
  const { view, legal } = screen;
  if (!screen.state.myTurn()) return null;
  const rows = [];
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  if (legal.includes("pass")) {
    rows.push(h("div.action-row", {},
      legal.includes("take") ? button(screen, "take", `Take ${cardLabel(top)}`, true) : null,
      button(screen, "pass", view.phase === "wall" ? "Pass (dead hand)" : "Pass", !legal.includes("take"))));
  }
  if (view.phase === "show") {
    const lays = legal.filter((m) => m.startsWith("lay"));
    const melds = legal.filter((m) => m.startsWith("meld"));
    rows.push(h("div.action-row", {},
      lays.map((m) => {
        const [, card, , number] = m.split(/\s+/);
        return button(screen, m, `Lay off ${cardLabel(card)} on meld ${number}`);
      }),
      melds.map((m) => button(screen, m, `Meld ${cardsLabel(m.split(/\s+/).slice(1).filter((w) => w !== "/"))}`)),
      legal.includes("done") ? button(screen, "done", "Done", true) : null));
  }
  if (rows.length && screen.hint && !commonMoves(legal, view).length) {
    // the common bar is empty (the offer, the wall, the show): the hint is offered here
    rows.push(h("div.action-tools", {}, h("button.link", { type: "button", onclick: () => screen.askHint(), dataset: { key: "tool:hint" } }, "Hint (H)")));
  }
  return rows.length ? h("div.actions.gin-actions", { role: "group", "aria-label": "Gin moves" }, rows) : null;
}

/** The game's score sheet: per game the points, the hands won (boxes) and the target. */
export function ginSheet(sheet, seats) {
  if (!sheet) return null;
  const names = [0, 1].map((s) => seatName(seats, s));
  const games = sheet.games.map((g, i) => h("tr", {}, h("th", { scope: "row" }, sheet.hollywood ? `Game ${i + 1}` : "Game"),
    [0, 1].map((s) => h(`td${g.winner === s ? ".winner" : ""}`, {}, `${g.scores[s]} (${g.entries[s]} box${g.entries[s] === 1 ? "" : "es"})`)),
    h("td", {}, g.final ? `settled ${g.final.totals.join(" – ")}${g.final.shutout ? ", shutout" : ""}` : g.over ? "over" : "playing")));
  return h("table.sheet.gin-sheet", {},
    h("caption", {}, sheet.single_hand ? "One hand" : `To ${sheet.target}; box ${sheet.box_bonus} a hand won; game bonus ${sheet.game_bonus}${sheet.hollywood ? "; Hollywood: three games" : ""}`),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), names.map((n) => h("th", { scope: "col" }, n)), h("th", { scope: "col" }, ""))),
    h("tbody", {}, games),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "Total"), sheet.totals.map((t, s) =>
      h(`td${sheet.winners.includes(s) ? ".winner" : ""}`, {}, `${sheet.final ? sheet.final.totals[s] : t}`)), h("td", {}, ""))));
}

/** The end of a hand: both hands arranged, the knock and show, the points, the sheet. */
export function report(over, seats) {
  const { view } = over;
  const names = [0, 1].map((s) => seatName(seats, s));
  const hands = view.revealed || [];
  const outcome = view.outcome || {};
  return [
    h("p.result", {}, ginResultWords(view.result, names, view)),
    view.multiplier > 1 ? h("p.muted", {}, "Spade upcard: this hand's points are doubled.") : null,
    h("table.summary.gin-summary", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Hand"),
        h("th", { scope: "col" }, "Deadwood counted"), h("th", { scope: "col" }, "Points"))),
      h("tbody", {}, hands.map((hand, s) => h(`tr${view.result.winner === s ? ".winner" : ""}`, { dataset: { seat: String(s) } },
        h("th", { scope: "row" }, names[s], outcome.knocker === s ? h("span.badge", {}, KNOCKED[view.knock_kind] || "knocked") : null),
        h("td.left", {}, h("span.revealed", { dataset: { seat: String(s) } }, arranged(hand, ""))),
        h("td.num", {}, outcome.deadwood ? `${outcome.deadwood[s]}` : "–"),
        h("td.num.points", {}, `${view.result.scores[s] ? `+${view.result.scores[s]}` : "0"}`))))),
    showView(view, seats),
    ginSheet(view.sheet, seats),
  ];
}

/** Keys beyond the common ones: P pass, K knock (the selected card, or the first), F done. */
export function key(screen, k) {
  const { legal } = screen;
  if (k === "p" && legal.includes("pass")) screen.play("pass");
  else if (k === "f" && legal.includes("done")) screen.play("done");
  else if (k === "k" && screen.view.knocks.length) {
    const cards = screen.selectedCards();
    const found = screen.view.knocks.find((o) => cards.length === 1 && o.card === cards[0]) || screen.view.knocks[0];
    screen.ginKnock = knockKey(found);
    screen.render();
  } else return false;
  return true;
}

/** The common action bar's moves: draw, take from the pile and discard (the gin panel
 * has the offer, the wall, knocks and the show). */
export function commonMoves(legal, view) {
  return legal.filter((m) => m === "draw" || m.startsWith("discard") || (m === "take" && view.phase === "draw"));
}

/** The whole board of a gin view. */
export function board(screen) {
  const { view, state } = screen;
  const mine = state.myTurn();
  const shown = { view, table: state.table, showPile: screen.showPile, anim: null,
    canDraw: mine && hasKind(screen.legal, "draw"), canTake: mine && hasKind(screen.legal, "take") };
  if (!view.knocks.some((k) => knockKey(k) === screen.ginKnock)) screen.ginKnock = null;
  return h("main.board.gin", { dataset: { phase: view.phase } },
    screen.lastHand(),
    opponentBox(view, state.table),
    h("div.centre", {},
      pilesView(shown, {
        onStock: () => screen.onStock(),
        onDiscardPile: () => screen.onDiscardPile(),
        onTogglePile: () => { screen.showPile = !screen.showPile; screen.render(); },
      }),
      h("p.gin-limit", { dataset: { limit: String(view.knock_limit) } },
        view.knock_limit ? `Knock with ${view.knock_limit} or less deadwood` : "Gin only: no knocking this hand",
        view.multiplier > 1 ? h("span.badge", {}, `points × ${view.multiplier} (spade upcard)`) : null),
      showView(view, state.table.seats)),
    h("p.turn", { dataset: { mine: mine ? "yes" : "no" } }, turnWords(screen)),
    ginActions(screen),
    knockPanel(screen),
    view.own ? h("p.gin-own", {}, ownWords(view.own)) : null,
    state.seat !== null ? screen.handPanel() : null,
    state.seat !== null ? h("p.keys", {}, "Gin keys: P pass, K knock (the selected card), F done (end the show).") : null,
    h("details.gin-sheet-box", {}, h("summary", {}, "Game score sheet"), ginSheet(view.sheet, state.table.seats)),
    screen.messages());
}
