// This browser's player (docs/protocol.md, Players): GET /api/me makes an anonymous one on
// the first visit and sets its HttpOnly session cookie (the page never sees the secret);
// the reply's CSRF token goes with every write (api.js asks for it here).

import { api, useCsrf } from "./api.js";

let current = null; // the last /api/me reply
let loading = null;

function fetchMe() {
  return api.me().then((found) => { current = found; return found; }, () => null);
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
