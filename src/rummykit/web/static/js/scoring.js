// How a rule set scores (RULES.md §1.11, §2.4, §3.1, §4.9) as far as the table needs it:
// the match's goal in words, each card's points, and the breakdown of a finished hand's
// points. The server's scores stay the truth; the breakdown explains them.

import { cardLabel, parseCard } from "./cards.js";
import { ruleSet, ruleTerms } from "./rulesets.js";

/** The knobs the table needs: the rule set's preset knobs (from the server) under the
 * table's options, and the words of its family. */
export function scoringRules(rules, options = {}, players = 2) {
  const knobs = { ...((ruleSet(rules) || {}).knobs || {}), ...options };
  let target = knobs.target_score ?? null;
  if (target && typeof target === "object") target = target[players] ?? target[String(players)] ?? null;
  return {
    penalty: knobs.scoring === "penalty",
    fixedHands: knobs.game_end === "fixed_hands",
    target,
    hands: knobs.num_hands,
    acePoints: knobs.ace_points ?? (knobs.ace_mode === "high_or_low" ? 15 : 1),
    jokerPoints: knobs.joker_points ?? 15,
    rummyTimes: knobs.going_rummy_multiplier ?? 1,
    drawEndsMatch: !!knobs.draw_ends_match,
    drawIsLoss: !!knobs.draw_counts_as_loss,
    terms: ruleTerms(rules),
  };
}

/** "First to 150 points wins", "7 deals · lowest total wins", ... */
export function goalText(scoring) {
  const count = scoring.fixedHands ? `${scoring.hands} ${scoring.hands === 1 ? scoring.terms.hand : scoring.terms.hands}` : null;
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

/** Up to this many cards left, the breakdown names each card; beyond, it counts values. */
const SPELLED_OUT = 6;

/**
 * A finished hand's points explained, one line per seat: {seat, points, cards, text}
 * where `points` is the server's score and `text` says where it comes from.
 */
export function breakdown(view, scoring, names) {
  const result = view.result;
  const left = (seat) => (view.revealed && view.revealed[seat]) || [];
  const value = (seat) => left(seat).reduce((sum, c) => sum + cardPoints(c, scoring), 0);
  // each card with its points; a long hand as counts of each value (it fits a phone)
  const sums = (seat) => {
    const cards = left(seat);
    if (cards.length <= SPELLED_OUT) return cards.map((c) => `${cardLabel(c)} ${cardPoints(c, scoring)}`).join(" + ");
    const counts = new Map();
    for (const c of cards) counts.set(cardPoints(c, scoring), (counts.get(cardPoints(c, scoring)) || 0) + 1);
    const parts = [...counts].sort((a, b) => b[0] - a[0]).map(([points, n]) => `${n} × ${points}`);
    return `${parts.join(" + ")} = ${value(seat)}`;
  };
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
