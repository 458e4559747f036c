// What this browser remembers (localStorage): the player's name, the tables it sits at,
// each table's move log and score sheet. A resync brings the current hand's moves (sync.log)
// and every finished hand's points (match.hands); the notes keep the words of earlier hands
// and serve servers without those fields.

const KEY = "rummykit";

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

function save(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // storage full or disabled: the app still works, it only forgets
  }
}

export function playerName() {
  return load().name || "";
}

export function setPlayerName(name) {
  save({ ...load(), name });
}

/** Seats this browser holds: [{token, table, seat, name, rules, created}], newest first. */
export function mySeats() {
  return load().seats || [];
}

export function rememberSeat(entry) {
  const data = load();
  const seats = (data.seats || []).filter((s) => s.token !== entry.token);
  seats.unshift({ created: Date.now(), ...entry });
  save({ ...data, seats: seats.slice(0, 50) });
}

export function forgetSeat(token) {
  const data = load();
  save({ ...data, seats: (data.seats || []).filter((s) => s.token !== token) });
}

/** Notes kept across reloads per table and seat: {log, sheet, version (the last seen)}. */
export function tableNotes(key) {
  return (load().notes || {})[key] || { log: [], sheet: [] };
}

export function saveTableNotes(key, notes) {
  const data = load();
  const all = { ...(data.notes || {}) };
  delete all[key]; // re-inserted last: the oldest notes are dropped first
  all[key] = { log: notes.log.slice(-300), sheet: notes.sheet.slice(-60), version: notes.version };
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - 20))) delete all[old];
  save({ ...data, notes: all });
}
