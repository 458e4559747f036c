// The server's HTTP API (docs/protocol.md §2). Every call resolves to JSON or throws an
// ApiError carrying the server's code and message.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Where writes get the player's CSRF token (player.js sets it). */
let csrfSource = null;
export function useCsrf(source) {
  csrfSource = source;
}

/** What to do when a write is refused for want of a live session (player.js sets it):
 * resolves true when a new session was opened, and the write is then tried once more. */
let sessionLost = null;
export function onSessionLost(handler) {
  sessionLost = handler;
}

async function call(method, path, options = {}) {
  try {
    return await attempt(method, path, options);
  } catch (error) {
    // (not signing out: a lost session is signed out already)
    if (error instanceof ApiError && error.code === "no_session" && method !== "GET"
        && path !== "/api/account/signout" && sessionLost && !options.retried
        && await sessionLost()) {
      return attempt(method, path, { ...options, retried: true });
    }
    throw error;
  }
}

async function attempt(method, path, { body, token, raw = false } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  if (method !== "GET" && csrfSource) {
    const csrf = await csrfSource();
    if (csrf) headers["X-CSRF-Token"] = csrf;
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError("network", "the server cannot be reached", 0);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || "http", err.message || `HTTP ${response.status}`, response.status);
  }
  return raw ? text : data;
}

export const api = {
  createTable: (spec) => call("POST", "/api/tables", { body: spec }),
  tables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  join: (id, name) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, { body: { name } }),
  leave: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { token }),
  seat: (token) => call("GET", `/api/seats/${encodeURIComponent(token)}`),
  stats: (name) => call("GET", `/api/stats/${encodeURIComponent(name)}`),
  matchRecord: (id, n) =>
    call("GET", `/api/tables/${encodeURIComponent(id)}/matches/${n}/record`, { raw: true }),
  uploadReplay: (recordText) => call("POST", "/api/replays", { body: recordText }),
  replay: (id, seat) =>
    call("GET", `/api/replays/${encodeURIComponent(id)}${seat === null ? "" : `?seat=${seat}`}`),
  /** A finished match of a table, every seat's cards in each frame (409 while in play). */
  matchReplay: (id, n) => call("GET", `/api/tables/${encodeURIComponent(id)}/matches/${n}/replay?seat=all`),
  ruleSets: () => call("GET", "/api/rule-sets"),
  openapi: () => call("GET", "/api/openapi.json"),
  resign: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/resign`, { token }),
  me: () => call("GET", "/api/me"),
  rename: (name) => call("PUT", "/api/me/name", { body: { name } }),
  signUp: (name, password) => call("POST", "/api/account/signup", { body: { name, password } }),
  signIn: (name, password) => call("POST", "/api/account/signin", { body: { name, password } }),
  signOut: () => call("POST", "/api/account/signout"),
  player: (id) => call("GET", `/api/players/${encodeURIComponent(id)}`),
  leaderboard: (limit = 50) => call("GET", `/api/leaderboard?limit=${limit}`),
};

/** The paths the server offers, [{path, methods}] (to switch optional features on, e.g.
 * hints, when a server has them). */
let pathsPromise = null;
export function serverPaths() {
  if (!pathsPromise) {
    pathsPromise = api.openapi().then(
      (doc) => Object.entries(doc.paths || {}).map(([path, ops]) => ({ path, methods: Object.keys(ops) })),
      () => []);
  }
  return pathsPromise;
}
