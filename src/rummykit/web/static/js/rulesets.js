// The rule sets the server offers (GET /api/rule-sets, built from its registry of rule
// families): names, titles, words, options, preset knobs and the rules for players. The
// app keeps no copy of its own: main.js loads them once before the first page.

import { api } from "./api.js";

let loaded = null;
let byName = new Map();

/** Fetch the rule sets once (later calls share the first); resolves to the list. */
export function loadRuleSets() {
  if (!loaded) {
    loaded = api.ruleSets().then((sets) => {
      byName = new Map(sets.map((s) => [s.name, s]));
      return sets;
    }, () => {
      loaded = null; // try again next time
      return [];
    });
  }
  return loaded;
}

/** Every rule set, in the server's order (empty until loaded). */
export function ruleSets() {
  return [...byName.values()];
}

/** One rule set by name, or null. */
export function ruleSet(name) {
  return byName.get(name) || null;
}

/** A rule set's title ("Basic Rummy"), or its name when the server does not know it. */
export function ruleTitle(name) {
  const set = byName.get(name);
  return set ? set.terms.title : name;
}

/** What one hand of the rule set is called: {hand: "deal", hands: "deals", ...}. */
export function ruleTerms(name) {
  const set = byName.get(name);
  return set ? set.terms : { title: name, hand: "hand", hands: "hands", score: "points", lowest_wins: false, match: "match", down: "", meld_owners: true };
}

/** "deal" as "Deal". */
export function capital(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}
