// This browser's player (docs/protocol.md, Players): GET /api/me makes an anonymous one on
// the first visit and sets its HttpOnly session cookie (the page never sees the secret);
// the reply's CSRF token goes with every write (api.js asks for it here). A session that
// expired is replaced by a new guest's: the reply says why once (`expired`), kept here
// until this browser signs in again; a write refused for a lost session asks again.

import { api, onSessionLost, useCsrf } from "./api.js";
import { toast } from "./dom.js";

let current = null; // the last /api/me reply
let loading = null;
let expired = null; // why this browser's last session expired, until it signs in

function fetchMe() {
  return api.me().then((found) => { note(found); current = found; return found; }, () => null);
}

function note(found) {
  if (found && found.expired) expired = found.expired;
  if (found && found.account) expired = null;
}

/** Why this browser's session expired ("idle", "lifetime", "guest_idle"), or null. */
export function expiry() {
  return expired;
}

/** What a player whose session expired is told. */
export function expiryText(reason) {
  if (reason === "guest_idle") return "Your guest session had gone unused too long: this browser plays as a new guest.";
  const why = reason === "lifetime" ? "you signed in too long ago" : "it went unused too long";
  return `Your sign-in expired (${why}): you play as a guest now. Sign in again to go on with your record; the matches you play meanwhile come along.`;
}

/** The player, fetched once; `fresh` asks again (after the request under way, whose reply
 * sets the cookie: two first requests at once would make two players). */
export function me({ fresh = false } = {}) {
  if (!loading) loading = fetchMe();
  else if (fresh) loading = loading.then(() => fetchMe());
  const mine = loading;
  mine.then((found) => { if (!found && loading === mine) loading = null; }); // failed: ask again next time
  return mine;
}

/** Take a reply that describes the player (sign-up, sign-in, rename). */
export function adopt(found) {
  note(found);
  current = found;
  loading = Promise.resolve(found);
  return found;
}

/** The player as last known, or null. */
export function known() {
  return current;
}

useCsrf(async () => {
  const found = current || await me();
  return found ? found.csrf : "";
});

// a write refused with no_session: the session expired or was revoked elsewhere; the
// fresh /api/me gives this browser a guest session (and says why), then the write is retried
onSessionLost(async () => {
  const found = await me({ fresh: true });
  if (found && found.expired) toast(expiryText(found.expired));
  return Boolean(found);
});
