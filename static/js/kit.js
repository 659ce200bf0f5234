// Small pieces every scenario renderer (scenarios/<key>/static/renderer.js) shares: DOM building, clock
// text, per-root render memory (scroll, open <details>, focus), countdown ticking and SVG
// pan/zoom. Safari 15 / Chrome 100: no build step, no syntax newer than ES2020.

const SVGNS = "http://www.w3.org/2000/svg";

// ---- DOM building -----------------------------------------------------------------------------

/** An HTML element: attrs `onX` add listeners, `text` sets textContent, true is an empty
 * attribute and null/undefined/false leave it out; children may be nested arrays, strings or nodes. */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, with the same attrs and children as h(). */
export function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVGNS, tag), attrs, children);
}

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// ---- time -------------------------------------------------------------------------------------

/** Seconds as "m:ss", rounded up and never below 0:00. */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// ---- per-root memory --------------------------------------------------------------------------

/** A lookup `(root) => mem` that makes each root's memory with `init()` on first use and keeps
 * it for as long as the root lives. Each renderer has its own. */
export function rootMemory(init) {
  const memory = new WeakMap();
  return (root) => {
    let mem = memory.get(root);
    if (!mem) {
      mem = init();
      memory.set(root, mem);
    }
    return mem;
  };
}

/** Before a render: note the scroll of every [data-scroll], which details[data-key] are open,
 * and the data-key of the focused element (mem.scroll, mem.open, mem.focusKey). */
export function saveUiState(root, mem) {
  for (const el of root.querySelectorAll("[data-scroll]")) mem.scroll[el.dataset.scroll] = el.scrollTop;
  for (const el of root.querySelectorAll("details[data-key]")) mem.open[el.dataset.key] = el.open;
  const active = document.activeElement;
  if (active && root.contains(active) && active.dataset && active.dataset.key) mem.focusKey = active.dataset.key;
}

/** After a render: put back the scroll positions and, unless focus has moved elsewhere on the
 * page, the focus. (Open details are restored by the renderer from mem.open as it builds.) */
export function restoreUiState(root, mem) {
  for (const el of root.querySelectorAll("[data-scroll]")) {
    const top = mem.scroll[el.dataset.scroll];
    if (top) el.scrollTop = top;
  }
  const active = document.activeElement;
  if (mem.focusKey && (!active || active === document.body || root.contains(active))) {
    const el = root.querySelector(`[data-key="${CSS.escape(mem.focusKey)}"]`);
    if (el && !el.disabled) el.focus({ preventScroll: true });
  }
}

// ---- countdowns -------------------------------------------------------------------------------

/** One interval per root (kept in mem.tick) that calls update(el) each second for every
 * [data-deadline] element; it stops itself once the root leaves the page. */
export function startTicking(root, mem, update) {
  if (mem.tick) return;
  mem.tick = setInterval(() => {
    if (!root.isConnected) {
      clearInterval(mem.tick);
      mem.tick = null;
      return;
    }
    for (const el of root.querySelectorAll("[data-deadline]")) update(el);
  }, 1000);
}

/** Writes a countdown to el's data-deadline: running(clock) while time is left, else over;
 * soonClass is on under 30 seconds. */
export function setCountdown(el, running, over, soonClass) {
  const left = (Date.parse(el.dataset.deadline) - Date.now()) / 1000;
  el.textContent = left > 0 ? running(clockText(left)) : over;
  el.classList.toggle(soonClass, left < 30);
}

// ---- SVG pan and zoom -------------------------------------------------------------------------
// Pan and zoom change only the viewBox kept in mem.box, so they survive re-renders. `limits`:
//   world: [x, y, w, h] the map's extent (the view may not leave it by more than 3/4 of a view);
//   minWidth, maxWidth: how far in and out the view may zoom (viewBox width);
//   alignY: 0.5 for preserveAspectRatio ...YMid, 0 for ...YMin;
//   onZoom(map, box): optional, called after each zoom.

function toSvgPoint(map, box, clientX, clientY, alignY) {
  const rect = map.getBoundingClientRect();
  const scale = Math.min(rect.width / box[2], rect.height / box[3]);
  const ox = (rect.width - box[2] * scale) / 2, oy = alignY ? (rect.height - box[3] * scale) * alignY : 0;
  return { x: box[0] + (clientX - rect.left - ox) / scale, y: box[1] + (clientY - rect.top - oy) / scale, scale };
}

function clampBox(box, world) {
  box[0] = Math.min(world[0] + world[2] - box[2] / 4, Math.max(world[0] - box[2] * 0.75, box[0]));
  box[1] = Math.min(world[1] + world[3] - box[3] / 4, Math.max(world[1] - box[3] * 0.75, box[1]));
}

/** Zooms mem.box by factor (below 1 zooms in) about point (SVG units; the centre if null). */
export function zoomAt(mem, map, limits, factor, point) {
  const box = mem.box;
  const w = Math.min(limits.maxWidth, Math.max(limits.minWidth, box[2] * factor));
  const f = w / box[2];
  const cx = point ? point.x : box[0] + box[2] / 2, cy = point ? point.y : box[1] + box[3] / 2;
  mem.box = [cx - (cx - box[0]) * f, cy - (cy - box[1]) * f, w, box[3] * f];
  clampBox(mem.box, limits.world);
  map.setAttribute("viewBox", mem.box.join(" "));
  if (limits.onZoom) limits.onZoom(map, mem.box);
}

/** Wheel and ctrl-wheel zoom, one-finger/mouse drag pans (after 8 px, setting mem.dragged so
 * a click handler can ignore the release), two-finger pinch zooms. */
export function attachPanZoom(mem, map, limits) {
  const pointers = new Map();
  let travel = 0;
  const at = (x, y) => toSvgPoint(map, mem.box, x, y, limits.alignY);
  map.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoomAt(mem, map, limits, Math.exp(e.deltaY * (e.ctrlKey ? 0.01 : 0.0015)), at(e.clientX, e.clientY));
  }, { passive: false });
  map.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    mem.dragged = false;
    travel = 0;
  });
  map.addEventListener("pointermove", (e) => {
    const prev = pointers.get(e.pointerId);
    if (!prev) return;
    const box = mem.box;
    if (pointers.size === 1) {
      const { scale } = at(e.clientX, e.clientY);
      const dx = e.clientX - prev.x, dy = e.clientY - prev.y;
      travel += Math.abs(dx) + Math.abs(dy);
      if (travel > 8) {
        mem.dragged = true;
        box[0] -= dx / scale;
        box[1] -= dy / scale;
        clampBox(box, limits.world);
        map.setAttribute("viewBox", box.join(" "));
      }
    } else if (pointers.size === 2) {
      const other = [...pointers.entries()].filter(([id]) => id !== e.pointerId).map(([, p]) => p)[0];
      const before = Math.hypot(prev.x - other.x, prev.y - other.y);
      const after = Math.hypot(e.clientX - other.x, e.clientY - other.y);
      mem.dragged = true;
      if (before > 0 && after > 0) zoomAt(mem, map, limits, before / after, at((e.clientX + other.x) / 2, (e.clientY + other.y) / 2));
    }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  });
  const end = (e) => { pointers.delete(e.pointerId); };
  map.addEventListener("pointerup", end);
  map.addEventListener("pointercancel", end);
  map.addEventListener("pointerleave", end);
}
