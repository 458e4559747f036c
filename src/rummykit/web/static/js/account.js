// Who you are: the lobby's panel (your record and rating, signed in or not) and the
// account page (#/account): sign up to keep your record across devices, sign in, sign out.

import { api } from "./api.js";
import { fill, h, toast } from "./dom.js";
import { adopt, expiry, expiryText, me } from "./player.js";
import { playerName } from "./store.js";
import { ruleTitle } from "./rulesets.js";

/** Your results per rule set, and your rating. */
export function recordView(player) {
  const rules = Object.entries(player.rules || {});
  return h("div.record", {},
    h("p", {}, "Rating ", h("strong.rating", {}, player.rated ? player.rating.toFixed(1) : "not rated yet"),
      player.rated ? h("span.muted", {}, ` (${player.rated} rated match${player.rated === 1 ? "" : "es"})`) : null,
      " · ", h("a", { href: "#/leaderboard" }, "leaderboard")),
    rules.length
      ? h("table.stats", {}, h("thead", {}, h("tr", {}, ["Rules", "Played", "Won", "Lost"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, rules.map(([r, s]) => h("tr", {}, h("td", {}, ruleTitle(r)), h("td", {}, `${s.played}`), h("td", {}, `${s.won}`), h("td", {}, `${s.lost}`)))))
      : h("p.muted", {}, "No finished matches yet."));
}

/** Why this browser plays as a guest again, when its session expired (else null). */
function expiredNotice() {
  const reason = expiry();
  return reason ? h("p.notice#session-expired", { role: "status" }, expiryText(reason)) : null;
}

/** The lobby's "You" panel: who you play as, your record; links to sign up or in. */
export async function statsInto(box) {
  let player = await me({ fresh: true });
  const typed = playerName();
  if (player && typed && player.name !== typed) { // a name typed before players existed
    await rename(typed);
    player = await me();
  }
  if (!player) {
    fill(box, h("p.muted", {}, "Your record cannot be loaded."));
    return;
  }
  fill(box,
    player.account ? null : expiredNotice(),
    h("p.who", {}, player.account
      ? ["Signed in as ", h("strong", {}, player.account), ". ", h("a", { href: "#/account" }, "Account")]
      : ["You play as a guest: this browser keeps your record. ", h("a#account-link", { href: "#/account" }, "Sign up or sign in"), " to keep it on every device."]),
    recordView(player));
}

/** Keep the name typed in the lobby as your display name (others see it; it is not a key). */
export async function rename(name) {
  if (!name) return;
  try {
    adopt(await api.rename(name));
  } catch (error) {
    toast(error.message, "error");
  }
}

function credentialsForm(id, title, submit, onDone) {
  const error = h("p.error", { role: "alert", hidden: true });
  const name = h("input", { type: "text", name: "name", required: true, minlength: "3", maxlength: "30", autocomplete: "username", id: `${id}-name` });
  const password = h("input", { type: "password", name: "password", required: true, minlength: "8", maxlength: "200",
    autocomplete: id === "signup" ? "new-password" : "current-password", id: `${id}-password` });
  const form = h(`form.account-form#${id}`, {
    onsubmit: async (event) => {
      event.preventDefault();
      error.hidden = true;
      try {
        onDone(adopt(await submit(name.value.trim(), password.value)));
      } catch (failed) {
        error.textContent = failed.message;
        error.hidden = false;
      }
    },
  },
  h("h2", {}, title),
  h("label", { for: `${id}-name` }, "Name"), name,
  h("label", { for: `${id}-password` }, "Password"), password,
  h("button.primary", { type: "submit" }, title),
  error);
  return form;
}

/** The account page. */
export async function showAccount(root) {
  const player = await me({ fresh: true });
  const again = () => showAccount(root);
  const head = h("header.lobby-head", {}, h("h1", {}, h("a.home", { href: "#/" }, "♠ rummykit"), " · Account"));
  if (!player) {
    fill(root, h("main.lobby.account", {}, head, h("p.error", { role: "alert" }, "The server cannot be reached.")));
    return;
  }
  const body = player.account
    ? h("section.panel", { "aria-labelledby": "acct-title" },
      h("h2#acct-title", {}, `Signed in as ${player.account}`),
      recordView(player),
      h("button#sign-out", {
        type: "button",
        onclick: async () => {
          try {
            await api.signOut();
          } catch (error) {
            if (error.code !== "no_session") { // no_session: expired, so signed out already
              toast(error.message, "error");
              return;
            }
          }
          await me({ fresh: true });
          toast("Signed out: this browser plays as a new guest.");
          again();
        },
      }, "Sign out"))
    : [expiredNotice(), h("section.panel", { "aria-labelledby": "guest-title" },
      h("h2#guest-title", {}, "You play as a guest"),
      h("p", {}, "This browser keeps your record under a secret cookie. Sign up to keep the same "
        + "record and rating on every device: the matches you played here come with you."),
      recordView(player)),
    h("div.account-forms", {},
      h("section.panel", {}, credentialsForm("signup", "Sign up", api.signUp, () => { toast("Signed up: your record is kept."); again(); })),
      h("section.panel", {}, credentialsForm("signin", "Sign in", api.signIn, (found) => {
        toast(found.merged ? "Signed in: the matches you played here as a guest are now your account's." : "Signed in.");
        again();
      })))];
  fill(root, h("main.lobby.account", {}, head, body));
}
