// Tiny DOM helpers: build elements declaratively, empty and fill containers.

/**
 * h("button.primary", {onclick, type: "button"}, "Text", child, ...)
 * The tag may carry classes after dots, then an id after '#' ("button.primary#go"). Attributes whose name starts
 * with "on" are event listeners; `dataset` and `style` objects are merged; false/null
 * attributes are skipped; arrays of children are flattened.
 */
export function h(tag, attrs = {}, ...children) {
  const [withoutId, id] = tag.split("#");
  const [name, ...classes] = withoutId.split(".");
  const el = document.createElement(name || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset" || key === "style") {
      Object.assign(el[key], value);
    } else if (key === "class") {
      el.className = [el.className, value].filter(Boolean).join(" ");
    } else if (key in el && typeof value !== "string") {
      el[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : value);
    }
  }
  append(el, children);
  return el;
}

/** Append children (strings, nodes, nested arrays; null and false are skipped). */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace every child of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** A short-lived status line at the bottom of the screen. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const note = h(`div.toast.${kind}`, { role: kind === "error" ? "alert" : "status" }, text);
  box.append(note);
  setTimeout(() => note.remove(), kind === "error" ? 7000 : 3500);
}

/** Say something to screen readers (a polite live region outside the redrawn screen). */
export function announce(text) {
  const box = document.getElementById("announce");
  if (!box || !text) return;
  box.append(h("p", {}, text));
  while (box.childElementCount > 6) box.firstElementChild.remove();
}
