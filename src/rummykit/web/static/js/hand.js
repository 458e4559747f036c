// The player's hand: cards sorted by suit or rank, selected by click, keyboard or by
// sweeping the pointer across them; a card dragged out of the hand is dropped on a meld
// (lay off) or on the discard pile (discard).

import { cardFace, sortCards } from "./cards.js";
import { h } from "./dom.js";

const MOVE_THRESHOLD = 6;

/**
 * Render `hand` (card texts) into a new element. The hand is one stop of the Tab key
 * (the card at `opts.focusAt`, a position in the sorted row); arrows move between cards.
 * opts: {sortBy, selected: Set of indices, fresh: Set of indices (just drawn), animate
 *        (slide the fresh cards in), focusAt,
 *        onToggle(index), onSelect(index, on), onDrop(card, target)}; target is the
 *        element with data-drop under the pointer.
 */
export function handView(hand, opts) {
  const row = h("div.hand-cards", { role: "group", "aria-label": "Your hand" });
  const order = sortCards(hand, opts.sortBy);
  const stop = Math.max(0, Math.min(order.length - 1, opts.focusAt || 0));
  const fresh = opts.fresh || new Set();
  order.forEach(({ text, index }, position) => {
    const selected = opts.selected.has(index);
    const isNew = fresh.has(index);
    const card = cardFace(text, {
      tag: "button",
      attrs: {
        type: "button",
        class: [selected ? "selected" : "", isNew ? "fresh" : "", isNew && opts.animate ? "arriving" : ""].filter(Boolean).join(" "),
        "aria-pressed": selected ? "true" : "false",
        tabindex: position === stop ? "0" : "-1",
        dataset: { card: text, index: String(index), position: String(position) },
      },
    });
    if (isNew) {
      card.setAttribute("aria-label", `${card.getAttribute("aria-label")}, just drawn`);
      card.append(h("span.new-mark", { "aria-hidden": "true" }, "new"));
    }
    card.addEventListener("click", (event) => {
      if (card.dataset.suppressClick) {
        delete card.dataset.suppressClick;
        event.preventDefault();
        return;
      }
      opts.onToggle(index);
    });
    card.addEventListener("keydown", (event) => arrowKeys(event, row));
    card.addEventListener("pointerdown", (event) => startPointer(event, card, row, opts));
    row.append(card);
  });
  return row;
}

function arrowKeys(event, row) {
  const cards = [...row.querySelectorAll("button.card")];
  const at = cards.indexOf(event.target);
  const step = { ArrowLeft: -1, ArrowRight: 1, Home: -at, End: cards.length - 1 - at }[event.key];
  if (step === undefined || at < 0) return;
  event.preventDefault();
  const next = cards[Math.max(0, Math.min(cards.length - 1, at + step))];
  for (const c of cards) c.tabIndex = c === next ? 0 : -1;
  next.focus();
}

function handCardAt(x, y, row) {
  const el = document.elementFromPoint(x, y);
  const card = el && el.closest("button.card");
  return card && row.contains(card) ? card : null;
}

function dropTargetAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el ? el.closest("[data-drop]") : null;
}

function startPointer(event, card, row, opts) {
  if (event.button !== 0) return;
  const start = { x: event.clientX, y: event.clientY };
  const index = Number(card.dataset.index);
  let mode = null; // null (a click), "sweep" or "drag"
  let sweepOn = true;
  let ghost = null;
  let target = null;

  const mark = (el) => {
    if (!el.classList.contains("selected") === sweepOn) opts.onSelect(Number(el.dataset.index), sweepOn);
  };
  const highlight = (next) => {
    if (target === next) return;
    if (target) target.classList.remove("drop-hover");
    target = next;
    if (target) target.classList.add("drop-hover");
  };

  const move = (ev) => {
    const dx = ev.clientX - start.x;
    const dy = ev.clientY - start.y;
    // sideways onto another card: sweep-select; up or down out of the row: drag
    if (mode === null && Math.hypot(dx, dy) > MOVE_THRESHOLD) {
      const over = handCardAt(ev.clientX, ev.clientY, row);
      if (over && over !== card && Math.abs(dy) < 30) {
        mode = "sweep";
        sweepOn = !card.classList.contains("selected");
        mark(card);
      } else if (Math.abs(dy) >= 20) {
        mode = "drag";
        ghost = card.cloneNode(true);
        ghost.classList.add("ghost");
        ghost.removeAttribute("data-index");
        document.body.append(ghost);
        card.classList.add("dragging");
      }
    }
    if (mode === "sweep") {
      const over = handCardAt(ev.clientX, ev.clientY, row);
      if (over) mark(over);
    } else if (mode === "drag") {
      ghost.style.left = `${ev.clientX}px`;
      ghost.style.top = `${ev.clientY}px`;
      highlight(dropTargetAt(ev.clientX, ev.clientY));
    }
  };

  const up = (ev) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    if (mode !== null) card.dataset.suppressClick = "1";
    if (mode === "drag") {
      if (ghost) ghost.remove();
      card.classList.remove("dragging");
      highlight(null);
      const dropOn = ev.type === "pointerup" ? dropTargetAt(ev.clientX, ev.clientY) : null;
      if (dropOn) opts.onDrop(card.dataset.card, dropOn, index);
    }
    // a click after a sweep or drag is swallowed; clear the flag if no click follows
    setTimeout(() => delete card.dataset.suppressClick, 0);
  };

  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
}
