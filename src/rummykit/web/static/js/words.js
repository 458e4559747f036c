// Moves, results and the deal's facts in plain words (for the move log, summaries and replays).

import { cardLabel, cardsLabel } from "./cards.js";

/** What the rule family says about the deal a view shows ("Contract: 2 sets", ...): the
 * server's facts, [{label, value}]. */
export function viewFacts(view) {
  return (view && view.facts) || [];
}

/** The facts as one clause: "contract: 2 sets". */
export function factsClause(view) {
  return viewFacts(view).map((f) => `${f.label.toLowerCase()}: ${f.value}`).join("; ");
}

/** A move in notation, in words: "draws from the stock", "melds 7♥ 8♥ 9♥", ... */
export function moveWords(move, { taken = null, cards = [] } = {}) {
  const words = move.trim().split(/\s+/);
  const [first, ...rest] = words;
  const keyword = first.replace(/:$/, ""); // "gin:" (big gin)
  switch (keyword) {
    case "draw":
      return "draws from the stock";
    case "take":
      if (rest.length === 0) {
        const top = taken || cards[0];
        return top ? `takes ${cardLabel(top)} from the discard pile` : "takes the top of the discard pile";
      }
      if (cards.length) {
        const dug = cards[cards.length - 1];
        return `digs ${rest[0]} cards from the discard pile: ${cardsLabel(cards)} (${cardLabel(dug)} must go on the table this turn)`;
      }
      return `digs the top ${rest[0]} cards of the discard pile${taken ? `, down to ${cardLabel(taken)}` : ""}`;
    case "meld": {
      const groups = rest.join(" ").split("/").map((g) => g.trim().split(/\s+/).filter(Boolean));
      const text = groups.map(cardsLabel).join(" and ");
      return groups.length > 1 ? `goes down with ${text}` : `melds ${text}`;
    }
    case "lay": {
      const [card, , number, end] = rest;
      return `lays ${cardLabel(card)} off on meld ${number}${end ? ` (${end} end)` : ""}`;
    }
    case "swap": {
      const [card, , number] = rest;
      return `swaps ${cardLabel(card)} for the joker in meld ${number}`;
    }
    case "discard":
      return `discards ${cardLabel(rest[0])}`;
    case "pass":
      return "passes";
    case "done":
      return "ends the show";
    case "knock":
    case "gin": {
      // "knock SK: G / G", "knock ??: G / G" (the card face down), "gin X: G / G",
      // big gin "gin: G / G"
      const [head, groups = ""] = move.split(":");
      const card = head.trim().split(/\s+/)[1];
      const shown = groups.split("/").map((g) => cardsLabel(g.trim().split(/\s+/).filter(Boolean))).filter(Boolean);
      const verb = keyword === "knock" ? "knocks" : card ? "goes gin" : "goes big gin";
      // the server writes "??" for a knock card the reader may not see yet
      const discard = card === "??" ? " (discarding face down)" : card ? ` with ${cardLabel(card)} face down` : "";
      return `${verb}${discard}${shown.length ? `, showing ${shown.join(" and ")}` : ""}`;
    }
    default:
      return move;
  }
}

const IMPERATIVE = { draws: "Draw", takes: "Take", digs: "Dig", melds: "Meld", lays: "Lay", swaps: "Swap", discards: "Discard", goes: "Go",
  passes: "Pass", ends: "End", knocks: "Knock" };

// how a hand ended, by the reasons of FORMATS.md §4.3 (knocking families)
const WIN_REASONS = { knock: "won the hand by knocking", gin: "went gin", big_gin: "went big gin", undercut: "undercut the knocker" };
const DRAW_REASONS = { dead_hand: "a dead hand at the wall", repeated_move: "the same discard was taken back twice", upcard_limit: "the upcard take limit", knock_tie: "the knock tied" };

/** A move as a button label, for the player: "Draw from the stock", ... */
export function actionLabel(move, view) {
  const top = view && view.discard.length ? view.discard[view.discard.length - 1] : null;
  const words = move.trim().split(/\s+/);
  if (words[0] === "take" && words.length === 1) {
    return top ? `Take ${cardLabel(top)}` : "Take";
  }
  if (words[0] === "take") {
    const n = Number(words[1]);
    const card = view ? view.discard[view.discard.length - n] : null;
    return `Take ${n} cards, down to ${card ? cardLabel(card) : "?"}`;
  }
  const [verb, ...others] = moveWords(move).split(" ");
  return [IMPERATIVE[verb] || verb, ...others].join(" ");
}

/** "Ann draws from the stock." or, for the viewer's own move, "You draw from the stock." */
export function moveSentence(name, move, { taken = null, yours = false, cards = [] } = {}) {
  const [verb, ...others] = moveWords(move, { taken, cards }).split(" ");
  const lead = yours ? ["You", (IMPERATIVE[verb] || verb).toLowerCase()] : [name, verb];
  return `${[...lead, ...others].join(" ")}.`;
}

/** How a hand ended, in words. */
export function resultWords(result, names) {
  if (!result) return "";
  const who = (seat) => names[seat] || `Seat ${seat + 1}`;
  switch (result.result) {
    case "win":
      if (WIN_REASONS[result.reason]) return `${who(result.winner)} ${WIN_REASONS[result.reason]}: ${result.scores[result.winner]} points.`;
      return `${who(result.winner)} went out${result.rummy ? " and went rummy (all at once)" : ""}.`;
    case "draw":
      if (DRAW_REASONS[result.reason]) return `The hand is drawn (${DRAW_REASONS[result.reason]}).`;
      if (result.reason === "blocked") return "Blocked: no card can be placed any more, every hand scores its cards.";
      return `The hand is drawn (${result.reason === "deadlock" ? "deadlock" : "the stock ran out"}).`;
    case "aborted":
      return "The hand was stopped at the turn limit.";
    default:
      return "The hand is not finished.";
  }
}

export function seatName(seats, seat) {
  const s = seats && seats[seat];
  return (s && s.name) || `Seat ${seat + 1}`;
}
