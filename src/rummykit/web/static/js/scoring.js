// How a rule set scores (RULES.md §1.11, §2.4, §3.1, §4.9) as far as the table needs it:
// the match's goal in words, each card's points, and the breakdown of a finished hand's
// points. The server's scores stay the truth; the breakdown explains them.

import { cardLabel, parseCard } from "./cards.js";

const TRADITIONAL_TARGETS = { 2: 100, 3: 150, 4: 200 };

/** The knobs the table needs, with the rule set's defaults under the table's options. */
export function scoringRules(rules, options = {}, players = 2) {
  const contract = rules === "contract";
  const aceMode = options.ace_mode || (contract ? "high_or_low" : "low");
  let target = options.target_score ?? (rules === "traditional" ? TRADITIONAL_TARGETS : 150);
  if (target && typeof target === "object") target = target[players] ?? target[String(players)] ?? null;
  return {
    penalty: (options.scoring || (contract ? "penalty" : "winner_collects")) === "penalty",
    fixedHands: (options.game_end || (contract ? "fixed_hands" : "target")) === "fixed_hands",
    target,
    hands: options.num_hands ?? (contract ? 7 : 10),
    acePoints: options.ace_points ?? (contract || aceMode === "high_or_low" ? 15 : 1),
    jokerPoints: options.joker_points ?? 15,
    rummyTimes: options.going_rummy_multiplier ?? (contract ? 1 : 2),
    drawEndsMatch: options.draw_ends_match ?? rules === "traditional",
    drawIsLoss: options.draw_counts_as_loss ?? rules === "traditional",
  };
}

/** "First to 150 points wins", "7 deals · lowest total wins", ... */
export function goalText(scoring) {
  const count = scoring.fixedHands ? `${scoring.hands} ${scoring.penalty ? "deals" : "hands"}` : null;
  if (scoring.penalty) return `${count || `Play to ${scoring.target}`} · lowest total wins`;
  return count ? `${count} · highest total wins` : `First to ${scoring.target} point${scoring.target === 1 ? "" : "s"} wins`;
}

/** The points one card counts when left in a hand. */
export function cardPoints(text, scoring) {
  const card = parseCard(text);
  if (card.joker) return scoring.jokerPoints;
  if (card.rank === "A") return scoring.acePoints;
  if ("TJQK".includes(card.rank)) return 10;
  return Number(card.rank);
}

/**
 * A finished hand's points explained, one line per seat: {seat, points, cards, text}
 * where `points` is the server's score and `text` says where it comes from.
 */
export function breakdown(view, scoring, names) {
  const result = view.result;
  const left = (seat) => (view.revealed && view.revealed[seat]) || [];
  const value = (seat) => left(seat).reduce((sum, c) => sum + cardPoints(c, scoring), 0);
  const sums = (seat) => left(seat).map((c) => `${cardLabel(c)} ${cardPoints(c, scoring)}`).join(" + ");
  return view.hand_sizes.map((_, seat) => {
    const points = result.scores[seat];
    let text;
    if (result.result === "win" && result.winner === seat) {
      if (scoring.penalty) text = "went out: no penalty";
      else {
        const others = view.hand_sizes.map((__, s) => s).filter((s) => s !== seat);
        const parts = others.map((s) => `${names[s]} ${value(s)}`);
        const total = others.reduce((sum, s) => sum + value(s), 0);
        text = `collects the cards left: ${parts.join(" + ")}${others.length > 1 ? ` = ${total}` : ""}`;
        if (result.rummy && scoring.rummyTimes > 1) text += `, × ${scoring.rummyTimes} for going rummy`;
      }
    } else if (scoring.penalty && points) {
      text = `penalty for the cards left: ${sums(seat)}`;
    } else if (result.result === "win") {
      text = left(seat).length ? `cards left worth ${value(seat)} (they count for the winner)` : "no cards left";
    } else {
      text = result.reason === "blocked" ? "no penalty" : "nobody scores in a drawn hand";
    }
    return { seat, points, cards: left(seat), text };
  });
}

/** A hand's points as the sheet shows them: "+18" for winnings, "23" for penalties. */
export function pointsText(points, scoring) {
  if (!points) return "0";
  return scoring.penalty ? `${points}` : `+${points}`;
}
