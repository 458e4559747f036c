// The in-app rules and help: one page per rule family (what you play for, a turn, melds,
// scoring), and how to play in this app (mouse, touch, keys, typing moves). Shown as its
// own page (#/help/basic) and inside the table (the Rules button, or "?").

import { h } from "./dom.js";
import { RULE_NAMES } from "./words.js";

const FAMILIES = ["basic", "traditional", "contract"];

const section = (title, ...paragraphs) => h("section.help-part", {}, h("h3", {}, title),
  paragraphs.map((p) => (Array.isArray(p) ? h("ul", {}, p.map((item) => h("li", {}, item))) : h("p", {}, p))));

const MELDS = section("Melds",
  "A meld is either a set or a run, laid face up on the table.",
  ["A set: three or four cards of one rank, such as 7♠ 7♥ 7♣.",
    "A run: three or more cards in a row of one suit, such as 4♦ 5♦ 6♦ 7♦."],
  "Laying off means adding one of your cards to a meld that is already on the table, "
  + "yours or anyone's: 8♦ or 3♦ onto 4♦ 5♦ 6♦ 7♦. Melds are numbered on the table; "
  + "that number is the N of \"lay 8♦ on N\".");

const TURN = section("Your turn",
  ["Draw first: the top card of the stock (face down) or the top card of the discard pile (face up).",
    "Then, if you can and want to, put melds down and lay cards off.",
    "End the turn by discarding one card face up. A card you took from the discard pile "
    + "this turn cannot be thrown straight back."]);

const PAGES = {
  basic: () => [
    h("p.lead", {}, "Get rid of all your cards before anyone else by melding them. The player "
      + "who goes out collects points for every card still held by the others."),
    section("The deal", "Two to six players. With two players each gets 10 cards, with three or four "
      + "7 cards, with five or six 6 cards. The rest forms the stock; one card is turned up to start "
      + "the discard pile. Aces are low (A 2 3 is a run, Q K A is not) unless the table chose "
      + "\"aces high or low\"."),
    TURN, MELDS,
    section("Going out and scoring",
      "You go out when your last card leaves your hand, by a meld, a lay-off or the discard. "
      + "The hand ends at once.",
      ["The winner scores the points of all cards left in the other hands: number cards their "
        + "number, J Q K 10 each, an ace 1 (15 when aces are high or low).",
        "Going rummy (going out in one turn without having put any card on the table before) doubles it.",
        "Everybody else scores nothing for the hand."],
      "The first player to reach the target (150 points unless the table set another) wins the match. "
      + "If the stock runs out, the discard pile except its top card is shuffled into a new stock."),
  ],
  traditional: () => [
    h("p.lead", {}, "The classic game, as in basic rummy but with a few differences: aces are "
      + "always low, and a stuck hand ends the match."),
    section("The deal", "Two to four players: 10 cards each with two players, 7 with three or four."),
    TURN, MELDS,
    section("Scoring and the end of the match",
      ["The player who goes out collects the points left in the other hands (J Q K 10, ace 1, "
        + "others their number); going rummy doubles them.",
        "The match goes to 100 points with two players, 150 with three and 200 with four.",
        "When the stock runs out the first time, the whole discard pile is shuffled into a new "
        + "stock. If it runs out a second time, the hand is drawn.",
        "If every player holds a single card and no card anywhere can be laid off, the hand is "
        + "drawn too."],
      "A drawn hand ends the match without a winner, and it counts as a lost match for everyone."),
  ],
  contract: () => [
    h("p.lead", {}, "Seven deals, each with a contract: the melds you must put down together "
      + "before you may meld or lay off anything else. Points are penalties: the lowest total "
      + "after the seventh deal wins."),
    section("Players and cards", "Three to eight players, two decks and a joker (three decks and "
      + "two jokers from five players). Deals one to four give 10 cards, deals five to seven 12."),
    section("The contracts",
      ["Deal 1: two sets. Deal 2: a set and a run. Deal 3: two runs.",
        "Deal 4: three sets. Deal 5: two sets and a run. Deal 6: a set and two runs.",
        "Deal 7: three runs using every card in your hand at once, with no discard."],
      "Sets use different suits. The runs of one contract are of different suits. The current "
      + "contract is shown at the top of the table."),
    section("Going down",
      "Going down is one move that lays out exactly the contract. After that, in the same "
      + "turn or later, you may lay cards off on any meld, but you may not start new melds in "
      + "that deal."),
    section("Drawing and digging",
      "You draw the stock's top card or the discard pile's top card as usual, or you may dig: "
      + "pick a card deeper in the discard pile and take it together with every card above it.",
      "The card you dug for must go onto the table in that same turn (in your contract or as a "
      + "lay-off) before you discard. The app lists each dig by how many cards it takes and "
      + "reminds you which card must be placed."),
    section("Jokers",
      "A joker stands for any card you name when you place it; in a run it takes the run's "
      + "suit and the rank of its place. Once you are down (from the turn after), you may swap "
      + "the natural card for a joker in a run and must then place the joker again that turn. "
      + "Jokers in sets stay there."),
    section("Scoring",
      ["When someone goes out, every other player adds the points left in their own hand as "
        + "a penalty: 2 to 10 their number, J Q K 10, an ace 15, a joker 15.",
        "The player who went out adds nothing.",
        "If the table locks up (everyone down and no card can be laid off any more), everyone "
        + "adds the points in their hand and the next deal starts."],
      "After deal seven the lowest total wins. The score sheet shows penalty points without a plus sign."),
  ],
};

const APP_HELP = () => section("Playing in this app",
  ["Click or tap cards to select them; sweep across several to select them all. The buttons "
    + "offer only the moves the rules allow with the selected cards.",
    "Drag a card onto a meld to lay it off, or onto the discard pile to discard it.",
    "Keys: ← → move between your cards, Space selects, D draws, T takes the discard, M melds "
    + "the selected cards, L lays the selected card off, X discards it, H asks for a hint, "
    + "S sorts, ? shows this help, Esc clears the selection or closes a panel.",
    "You can also type a move: draw, take, meld 7♥ 8♥ 9♥, lay 10♦ on 2, discard Q♠. "
    + "Cards can be typed as 10♦, 10d, D10, DT or T♦; a joker as joker, JK or ★ "
    + "(JK=10♥ for a joker standing for 10♥).",
    "If the connection drops, the app says so and reconnects by itself; a move that did not "
    + "reach the server is sent again, or you are told it failed."]);

/** The rules of one family and the app's help, as elements. */
export function helpContent(family) {
  const rules = PAGES[family] ? family : "basic";
  return [h("h2", {}, `${RULE_NAMES[rules]}: the rules`), PAGES[rules](), APP_HELP()];
}

/** The help page: #/help or #/help/FAMILY. */
export function showHelp(root, family) {
  const rules = FAMILIES.includes(family) ? family : "basic";
  root.replaceChildren(h("main.help-page", {},
    h("header.lobby-head", {}, h("h1", {}, "Rules and help"), h("a.button", { href: "#/" }, "Back to the lobby")),
    h("nav.help-tabs", { "aria-label": "Rule families" }, FAMILIES.map((f) => h("a.button", {
      href: `#/help/${f}`, "aria-current": f === rules ? "page" : false,
    }, RULE_NAMES[f]))),
    h("article.panel.help", {}, helpContent(rules))));
}
