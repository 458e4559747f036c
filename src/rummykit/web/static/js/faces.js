// The family faces the table draws by the view's `kind` (the server's wire module of a
// family with its own hand names it): a face has board(screen), report(over, seats),
// key(screen, key) and commonMoves(legal, view) (the moves the common action bar offers).
// Views without a kind are the draw-and-discard table's (table.js).

import * as gin from "./gin_table.js";

const FACES = { gin };

/** The face of a view, or null for the common table. */
export function faceOf(view) {
  return (view && view.kind && FACES[view.kind]) || null;
}
