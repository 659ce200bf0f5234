// The renderer kit: what every game screen has, so a scenario's renderer
// (scenarios/<key>/static/renderer.js) writes only what is its
// own. DOM building (h, svg), the screen skeleton (banner, map column, scrolling panel, live
// region), the turn countdown, "ask the teacher", action buttons and the confirmation they ask
// for, the map frame with pan/zoom and its tools, boxes, definition lists and results tables,
// and per-root render memory (scroll, open <details>, focus). Refusals are the transport's
// (play.js shows them above the screen). Class names are `<prefix>-<part>`, so each renderer's
// stylesheet keeps its own look. Safari 15 / Chrome 100: no build step, no syntax newer than ES2020.

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
    if (key.startsWith("on")) on(el, key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// An element's handlers (attrs `onX`, or on()) are held beside it, one per event type, and run
// through one listener that calls whichever the element holds now: when a render patches the
// screen (renderScreen), an element kept on screen takes the new render's handlers, so a tap
// never runs one that closed over an older view.
const handlers = new WeakMap();

function dispatch(event) {
  const handler = (handlers.get(this) || {})[event.type];
  if (handler) handler.call(this, event);
}

function listen(el, types) {
  for (const type of types) el.addEventListener(type, dispatch, type === "wheel" ? { passive: false } : undefined);
}

/** Sets el's handler for events of type (replacing the one it had for that type). */
export function on(el, type, handler) {
  let own = handlers.get(el);
  if (!own) handlers.set(el, (own = {}));
  own[type] = handler;
  listen(el, [type]);
}

// ---- patching the screen ----------------------------------------------------------------------
// A new render changes only what changed on the screen: a text node takes the new words, an
// element of the same tag and data-key stays and takes the new one's attributes, handlers and
// (in turn) children, anything else is replaced. What stays is not built, laid out and painted
// again (a tablet draws a frame for every move at its table), keeps focus and a screen reader's
// place, and does not start its animations again.

// a new render's element -> the element on screen that took its place (onScreen)
const kept = new WeakMap();

/** The node on screen for a node of the latest render: itself, or the one it was patched into. */
export function onScreen(node) {
  return kept.get(node) || node;
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType === Node.TEXT_NODE) return true;
  return a.nodeType === Node.ELEMENT_NODE && a.namespaceURI === b.namespaceURI && a.tagName === b.tagName &&
    a.getAttribute("data-key") === b.getAttribute("data-key");
}

function adopt(shown, next) {
  if (shown.nodeType === Node.TEXT_NODE) {
    if (shown.data !== next.data) shown.data = next.data;
    return;
  }
  // A hit area keeps the radius, and a label the size, fitted to the zoom shown (fitHitAreas and
  // fitLabels fit them again after the render).
  const fitted = (attr) => (attr.localName === "r" && shown.hasAttribute("data-hit"))
    || (attr.localName === "transform" && shown.hasAttribute("data-label"));
  for (const attr of [...shown.attributes]) {
    if (fitted(attr)) continue;
    if (!next.hasAttributeNS(attr.namespaceURI, attr.localName)) shown.removeAttributeNS(attr.namespaceURI, attr.localName);
  }
  for (const attr of next.attributes) {
    if (fitted(attr)) continue;
    if (shown.getAttributeNS(attr.namespaceURI, attr.localName) !== attr.value) shown.setAttributeNS(attr.namespaceURI, attr.name, attr.value);
  }
  const own = handlers.get(next) || {};
  handlers.set(shown, own);
  listen(shown, Object.keys(own));
  kept.set(next, shown);
  patch(shown, [...next.childNodes]);
}

/** Makes parent's children the nodes of next, keeping every node it can (see above). Nodes pair
 *  in order; where one appears or goes (a note, a button offered only on one's turn), the nodes
 *  after it still pair with their own kind instead of each being replaced. A node of the screen
 *  that the new render reuses (the live region) stays itself and is never paired. */
function patch(parent, next) {
  const shown = [...parent.childNodes];
  const reused = new Set(next.filter((node) => node.parentNode === parent));
  let i = 0; // the first shown node not yet kept, replaced or dropped
  next.forEach((node, n) => {
    const was = shown[i];
    if (was === node) {
      i += 1;
    } else if (!was) {
      parent.append(node);
    } else if (!reused.has(was) && sameKind(was, node)) {
      adopt(was, node);
      i += 1;
    } else if (reused.has(was) || next.slice(n + 1).some((later) => !reused.has(later) && sameKind(was, later))) {
      parent.insertBefore(node, was); // a node that appeared: what is shown pairs with a later one
    } else {
      const pair = laterPair(shown, i, node, reused);
      if (pair < 0) {
        parent.replaceChild(node, was);
      } else {
        for (; i < pair; i += 1) shown[i].remove(); // nodes that went
        adopt(shown[pair], node);
      }
      i += 1;
    }
  });
  for (const extra of shown.slice(i)) if (extra.parentNode === parent && !reused.has(extra)) extra.remove();
}

/** The first shown node after the i-th that pairs with node, short of one the new render reuses:
 *  its index, or -1. */
function laterPair(shown, i, node, reused) {
  for (let j = i + 1; j < shown.length && !reused.has(shown[j]); j += 1) if (sameKind(shown[j], node)) return j;
  return -1;
}

// ---- language ---------------------------------------------------------------------------------
// Every string a person reads goes through these. The page loads Django's JavaScript catalogue
// (/jsi18n/, in this tablet's language) before any module; a renderer writes each string as
// gettext("…") with %(name)s placeholders filled by fmt(), and `manage.py makemessages -d djangojs`
// collects them into its folder's locale/ (README, "Add a language"). Without a catalogue (the
// renderer harnesses) they read as written, in English.

const catalogue = globalThis.django && globalThis.django.gettext ? globalThis.django : null;

/** The string in the page's language. */
export function gettext(text) {
  return catalogue ? catalogue.gettext(text) : text;
}

/** The string in the page's language, where the same English means another thing elsewhere:
 *  pgettext("road", "open") is "abierta" (a road) where a bridge is "abierto". */
export function pgettext(context, text) {
  return catalogue ? catalogue.pgettext(context, text) : text;
}

/** The singular or plural form for `n`, by the page's language's own plural rule. */
export function ngettext(one, many, n) {
  return catalogue ? catalogue.ngettext(one, many, n) : (n === 1 ? one : many);
}

/** `text` with each %(name)s replaced by params[name]. */
export function fmt(text, params) {
  return text.replace(/%\((\w+)\)[sd]/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** The page's language (its <html lang>). */
export function pageLanguage() {
  return document.documentElement.lang || "en";
}

const numberFormats = new Map();

/** The page's language's Intl.NumberFormat with these options, made once: making one costs far
 * more than using it, and a screen writes many numbers at every render. */
export function numberFormat(options = {}) {
  const lang = pageLanguage();
  const key = `${lang} ${JSON.stringify(options)}`;
  if (!numberFormats.has(key)) numberFormats.set(key, new Intl.NumberFormat(lang, options));
  return numberFormats.get(key);
}

/** A number as the page's language writes it (1,200 / 1.200). */
export function num(n) {
  return numberFormat().format(Number(n));
}

const MONEY = { style: "currency", currency: "USD", currencyDisplay: "narrowSymbol", minimumFractionDigits: 0, maximumFractionDigits: 0 };

/** Whole US dollars as the page's language writes them ($1,200 / 1200 $ / $ 1.200). */
export function money(n) {
  return numberFormat(MONEY).format(n);
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

/** The memory every screen keeps per root (pan/zoom box, scroll, open details, focus, live
 * region, ticker), with the renderer's own fields from extra(). */
export function screenMemory(extra) {
  return rootMemory(() => Object.assign(
    { box: null, scroll: {}, open: {}, focusKey: null, live: null, tick: null }, extra ? extra() : {}));
}

/** Before a render: note the scroll of every [data-scroll], which details[data-key] are open,
 * and the data-key of the focused element (mem.scroll, mem.open, mem.focusKey). While focus
 * only waits on the banner ([data-focus-hold], see restoreUiState) the key it came from is kept. */
export function saveUiState(root, mem) {
  for (const el of root.querySelectorAll("[data-scroll]")) mem.scroll[el.dataset.scroll] = [el.scrollTop, el.scrollLeft];
  for (const el of root.querySelectorAll("details[data-key]")) mem.open[el.dataset.key] = el.open;
  const active = document.activeElement;
  if (!active || !root.contains(active) || !active.dataset) return;
  if (active.dataset.key) {
    mem.focusKey = active.dataset.key;
    mem.focusHeld = false;
  } else if (active.hasAttribute("data-focus-hold")) {
    mem.focusHeld = true;
  }
}

/** Asks the next render to move focus on to the next sensible control (see restoreUiState)
 * rather than keep it where it is: after a choice that opens more choices, for example. */
export function focusOnwards(mem) {
  mem.onwards = true;
}

// Whether the student last used keys (not a finger or a mouse): moved focus is scrolled into
// view only for them, so a tap never makes the screen jump.
let keyboardUser = false;
if (typeof document !== "undefined") {
  document.addEventListener("keydown", () => { keyboardUser = true; }, true);
  document.addEventListener("pointerdown", () => { keyboardUser = false; }, true);
}

function usable(el) {
  return el && !el.disabled && el.getAttribute("aria-disabled") !== "true" && el.getClientRects().length > 0;
}

/** The next sensible control after an action: the first usable [data-focus-next] the renderer
 * marked (the question just asked, the choices just opened), else the control that had focus if
 * it is still there, else the first usable `<prefix>-act` button, else the banner title (which
 * holds focus, [data-focus-hold], until the server's answer brings the buttons back). */
function nextFocus(root, prefix, same) {
  const marked = [...root.querySelectorAll("[data-focus-next]")].find(usable);
  if (marked) return marked;
  if (usable(same)) return same;
  const act = prefix ? [...root.querySelectorAll(`.${prefix}-act`)].find(usable) : null;
  return act || root.querySelector("[data-focus-hold]");
}

/** After a render: put back the scroll positions and, unless focus has moved elsewhere on the
 * page, the focus. A render never drops focus to the page: the control that had it, if it is
 * still there and usable; after an action (focus was held on the banner while the buttons
 * were disabled) or when that control went away, the next sensible one (nextFocus). (Open
 * details are restored by the renderer from mem.open as it builds.) */
export function restoreUiState(root, mem, prefix) {
  for (const el of root.querySelectorAll("[data-scroll]")) {
    const [top, left] = mem.scroll[el.dataset.scroll] || [0, 0];
    if (top) el.scrollTop = top;
    if (left) el.scrollLeft = left;
  }
  const active = document.activeElement;
  if (!(mem.focusKey || mem.focusHeld) || !(!active || active === document.body || root.contains(active))) return;
  const same = mem.focusKey ? root.querySelector(`[data-key="${CSS.escape(mem.focusKey)}"]`) : null;
  const onwards = mem.focusHeld || mem.onwards;
  mem.onwards = false;
  const target = !onwards && usable(same) ? same : nextFocus(root, prefix, same);
  if (!target) return;
  const moved = target !== same;
  mem.focusHeld = target.hasAttribute("data-focus-hold");
  if (!mem.focusHeld && target.dataset.key) mem.focusKey = target.dataset.key;
  if (target !== document.activeElement) target.focus({ preventScroll: true });
  if (moved && keyboardUser && target.scrollIntoView) target.scrollIntoView({ block: "nearest" });
}

// ---- countdowns -------------------------------------------------------------------------------

/** How long before a turn timer's bot plays the screen warns (WCAG 2.2.1: warn, offer more time). */
export const WARN_SECONDS = 20;

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
 * a click handler can ignore the release), two-finger pinch zooms. The handlers act on the map
 * on screen (the event's currentTarget) and keep the pointers in mem, so a drag goes on across a
 * render that patched the map. */
export function attachPanZoom(mem, map, limits) {
  if (!mem.pointers) mem.pointers = new Map();
  const pointers = mem.pointers;
  const at = (shown, x, y) => toSvgPoint(shown, mem.box, x, y, limits.alignY);
  on(map, "wheel", (e) => {
    e.preventDefault();
    zoomAt(mem, e.currentTarget, limits, Math.exp(e.deltaY * (e.ctrlKey ? 0.01 : 0.0015)), at(e.currentTarget, e.clientX, e.clientY));
  });
  on(map, "pointerdown", (e) => {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    mem.dragged = false;
    mem.travel = 0;
  });
  on(map, "pointermove", (e) => {
    const shown = e.currentTarget;
    const prev = pointers.get(e.pointerId);
    if (!prev) return;
    const box = mem.box;
    if (pointers.size === 1) {
      const { scale } = at(shown, e.clientX, e.clientY);
      const dx = e.clientX - prev.x, dy = e.clientY - prev.y;
      mem.travel += Math.abs(dx) + Math.abs(dy);
      if (mem.travel > 8) {
        mem.dragged = true;
        box[0] -= dx / scale;
        box[1] -= dy / scale;
        clampBox(box, limits.world);
        shown.setAttribute("viewBox", box.join(" "));
      }
    } else if (pointers.size === 2) {
      const other = [...pointers.entries()].filter(([id]) => id !== e.pointerId).map(([, p]) => p)[0];
      const before = Math.hypot(prev.x - other.x, prev.y - other.y);
      const after = Math.hypot(e.clientX - other.x, e.clientY - other.y);
      mem.dragged = true;
      if (before > 0 && after > 0) zoomAt(mem, shown, limits, before / after, at(shown, (e.clientX + other.x) / 2, (e.clientY + other.y) / 2));
    }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  });
  const end = (e) => { pointers.delete(e.pointerId); };
  on(map, "pointerup", end);
  on(map, "pointercancel", end);
  on(map, "pointerleave", end);
}

// ---- the screen skeleton ----------------------------------------------------------------------

/** Replaces what root shows with one game screen: `<prefix>` page (class pageClass, aria-busy)
 * holding the header, then the map column and the scrolling panel; keeps scroll, open details
 * and focus across renders (moving focus on after an action, see restoreUiState), announces
 * `announce` (a string or a list of sentences: what this version changed) in the screen's one
 * polite live region when the message version changed, and ticks every countdown (countdowns
 * are never live regions; say "time is nearly up" once through `announce` instead). header, map and panel are functions, called in
 * that order after the old screen's state is noted (so they may read mem.open). */
export function renderScreen(root, mem, screen) {
  if (heldByPress(root, mem, screen)) return;
  const p = screen.prefix;
  saveUiState(root, mem);
  const page = h("div", { class: screen.pageClass, "aria-busy": screen.busy ? "true" : "false" },
    screen.header(),
    h("div", { class: `${p}-body` },
      h("section", { class: `${p}-mapcol`, "aria-label": screen.mapLabel }, screen.map()),
      h("div", { class: `${p}-panel`, "data-scroll": "panel" }, screen.panel())));
  // A live region whose words come with it is not spoken: a new region goes in empty and its
  // first words follow a moment later (the first "Your turn" of a game is heard).
  const fresh = !mem.live || !mem.live.isConnected;
  if (!mem.live) mem.live = h("div", { class: "visually-hidden", role: "status", "aria-live": "polite", "data-live-region": "" });
  root.classList.add(`${p}-root`);
  patch(root, [page, mem.live]);
  restoreUiState(root, mem, p);
  if (!mem.started && root.isConnected) {
    // The game's first screen: focus goes to the game (the lobby it replaced took focus with it),
    // to its first choice, else the banner, unless the student is elsewhere on the page already.
    mem.started = true;
    const active = document.activeElement;
    if (!active || active === document.body) {
      const target = nextFocus(root, p, null);
      if (target) {
        mem.focusHeld = target.hasAttribute("data-focus-hold");
        if (target.dataset.key) mem.focusKey = target.dataset.key;
        target.focus({ preventScroll: true });
      }
    }
  }
  if (fresh && root.isConnected) {
    const version = screen.version, text = screen.announce;
    mem.lastVersion = version;
    setTimeout(() => {
      if (mem.lastVersion !== version) return; // a newer screen has spoken since
      mem.lastVersion = undefined;
      announce(mem, text, version);
    }, 150);
  } else {
    announce(mem, screen.announce, screen.version);
  }
  titlePage(root, p);
  const { running, over, warn } = screen.countdown;
  startTicking(root, mem, (el) => {
    setCountdown(el, running, over, `${p}-countdown--soon`);
    // The countdown itself is never a live region; a bot about to play is said once, 20 s before.
    const left = (Date.parse(el.dataset.deadline) - Date.now()) / 1000;
    for (const more of root.querySelectorAll(`[data-more-time="${CSS.escape(el.dataset.deadline)}"]`)) more.hidden = !(left > 0 && left <= WARN_SECONDS);
    if (warn && left > 0 && left <= WARN_SECONDS && mem.warned !== el.dataset.deadline) {
      mem.warned = el.dataset.deadline;
      if (mem.live) mem.live.textContent = warn(clockText(left));
    }
  });
}

// A button redrawn while a finger or the space bar is down on it gets no click when released:
// the tap would be lost (another seat's move redraws every tablet). So a screen that arrives
// mid-press waits for the release (or PRESS_HOLD_MS at most: a finger resting on a button), and
// is dropped if the tap the release makes draws a newer one first.
const PRESS_HOLD_MS = 5000;

function heldByPress(root, mem, screen) {
  if (!mem.pressWatch) {
    mem.pressWatch = true;
    const release = () => {
      if (!mem.pressed) return;
      mem.pressed = false;
      clearTimeout(mem.pressTimer);
      setTimeout(() => {
        const held = mem.heldScreen;
        mem.heldScreen = null;
        if (held) renderScreen(root, mem, held);
      }, 0); // after the click the release is part of
    };
    const press = (event) => {
      if (!(event.target instanceof Element) || !event.target.closest("button")) return;
      mem.pressed = true;
      clearTimeout(mem.pressTimer);
      mem.pressTimer = setTimeout(release, PRESS_HOLD_MS);
    };
    root.addEventListener("pointerdown", press);
    root.addEventListener("keydown", (event) => { if (event.key === " ") press(event); });
    for (const type of ["pointerup", "pointercancel", "keyup"]) document.addEventListener(type, release, true);
  }
  if (mem.pressed) {
    mem.heldScreen = screen;
    return true;
  }
  mem.heldScreen = null; // a newer screen: one held from before must not follow it
  return false;
}

// The page's own title ("Play · Stormwise"), as the template wrote it.
const pageTitle = typeof document !== "undefined" ? document.title : "";

/** The tab's title says the game's state: the banner's words, then the page's own title, so a
 * screen reader's window list and a switch back to the tab tell whose move it is. */
function titlePage(root, prefix) {
  const title = root.querySelector(`.${prefix}-banner-title`);
  if (!title || !root.isConnected || !root.closest("#play")) return;
  const words = title.textContent.trim();
  const wanted = words ? `${words} · ${pageTitle}` : pageTitle;
  if (document.title !== wanted) document.title = wanted;
}

// ---- the turn timer's bot ---------------------------------------------------------------------

/** Whether this version's move of the seat's own (ownMoved: the renderer saw its own part move
 * on since the version before) was the turn timer's bot's rather than the student's: the seat's
 * timer was running in the message before, the student chose nothing since (sendAction with
 * mem notes a choice) and the seat is not handed to a bot. The renderer then says botMoved
 * ("a bot moved for you") before the move's own words. Call once per render. */
export function timerMoved(mem, message, ownMoved) {
  const moved = Boolean(ownMoved && mem.timerWas && !mem.acted && !message.bot);
  if (ownMoved) mem.acted = false;
  mem.timerWas = message.timer || null;
  return moved;
}

/** The kit's words for the turn timer, the same on every screen. */
export const TIMER = {
  botIn: (t) => fmt(gettext("A bot plays for you in %(t)s"), { t }),
  botNow: gettext("A bot is about to play for you"),
  botWarn: (t) => fmt(gettext("A bot plays for you in %(t)s unless you choose. Press \"More time\" if you need it."), { t }),
  botMoved: gettext("The turn timer ran out: a bot moved for you."),
  moreTime: gettext("More time"),
  moreTimeSaid: gettext("You asked for more time."),
};

/** Says `text` (a string, or a list of sentences joined) in mem.live, the screen's one polite
 * live region, once per version: the renderer passes only what this version changed (new
 * events, a new banner), so the same words from a later move are said again. An empty text
 * says nothing and leaves the last announcement in place for a screen reader's review. */
export function announce(mem, text, version) {
  const words = (Array.isArray(text) ? text.filter(Boolean).join(" ") : text || "").trim();
  if (version !== mem.lastVersion && words && mem.live) {
    // The same words again are changed by a no-break space, so screen readers say them again.
    mem.live.textContent = mem.live.textContent === words ? words + "\u00a0" : words;
  }
  mem.lastVersion = version;
}

/** The turn banner: what this seat should do now in words (title), its tone as a class
 * (`<prefix>-banner--<tone>`: turn, wait, bot, paused, over…), then the round, timer and notes
 * in `extra`, and the ask-the-teacher button. tag: "header" when the banner is the screen's
 * whole header. */
export function banner(prefix, tag, tone, title, extra, ask) {
  return h(tag, { class: `${prefix}-banner ${prefix}-banner--${tone}` },
    h("strong", { class: `${prefix}-banner-title`, tabindex: "-1", "data-focus-hold": true, text: title }), ...extra, ask);
}

/** The turn timer: counts down to deadline (ISO time) as running("m:ss"), then shows over.
 * With `more` ({ controls, label, said }) and a transport that offers controls.moreTime, a
 * "More time" button shows in the last WARN_SECONDS (the screen's tick shows it); pressing it
 * asks the server to push the seat's deadline back and says `said` in the live region. */
export function countdown(prefix, deadline, running, over, more) {
  const el = h("span", { class: `${prefix}-countdown`, "data-deadline": deadline });
  setCountdown(el, running, over, `${prefix}-countdown--soon`);
  if (!more || !more.controls || !more.controls.moreTime) return el;
  const left = (Date.parse(deadline) - Date.now()) / 1000;
  const button = h("button", {
    type: "button", class: `${prefix}-more-time`, "data-key": "more-time", "data-more-time": deadline, hidden: left > WARN_SECONDS,
    onclick: (e) => {
      const live = e.currentTarget.closest(`.${prefix}-root`);
      Promise.resolve(more.controls.moreTime()).catch(() => {});
      const region = live ? live.querySelector("[data-live-region]") : null;
      if (region && more.said) region.textContent = more.said;
    },
  }, more.label);
  return [el, button];
}

/** "Ask the teacher": a toggle the transport answers (controls.askTeacher). Once asked it says
 * so and stays pressed (aria-pressed) until the student presses it again to cancel or the
 * teacher clears it; it is never disabled by asking, so focus stays on it and a second Enter
 * cancels rather than landing on a game move. `disabled`: the game is over. */
export function askButton(prefix, controls, label, disabled) {
  const asking = Boolean(controls.asking);
  return h("button", {
    type: "button", class: `${prefix}-ask` + (asking ? " is-asked" : ""), "data-key": "ask", "aria-pressed": asking ? "true" : "false",
    disabled: disabled, text: asking ? gettext("Teacher asked ✓ (tap to cancel)") : label,
    onclick: () => { Promise.resolve(controls.askTeacher()).catch(() => {}); }, // the transport reports failures
  });
}

// ---- choices ----------------------------------------------------------------------------------

/** Asks once before an irreversible choice (leave home, choose a destination, end a turn
 * with cards still playable): a promise of true to go ahead (at once without `text`). */
export function confirmChoice(text) {
  if (!text) return Promise.resolve(true);
  return ask(text, [{ value: false, label: gettext("Cancel") }, { value: true, label: gettext("Yes, go ahead"), primary: true }]);
}

/** An in-page question (never the browser's confirm(), which a tablet may block or show off
 * screen): a modal alert dialog over the page with its own buttons, each `{value, label,
 * primary, danger}`. Focus moves to the last button (the one that goes ahead, as the browser's
 * dialog did) and stays inside; Escape or the first button answers its value; focus goes
 * back where it was. Resolves with the chosen value. */
export function ask(text, buttons, title, input) {
  return new Promise((resolve) => {
    const back = document.activeElement;
    // A live screen may redraw while the question is open: focus then goes back to the same
    // control drawn afresh (by its data-key or data-focus), or into the same screen.
    const backKey = back && back.dataset ? (back.dataset.key || back.dataset.focus) : null;
    const backRoot = back && back.closest ? back.closest("#play, #board-root, main") : null;
    const id = `sw-ask-${Date.now().toString(36)}`;
    // With `input` ({value}) the dialog holds one text field: the going-ahead button answers its text.
    const field = input ? h("input", { type: "text", id: `${id}-input`, class: "sw-ask-input", value: input.value || "",
      "aria-labelledby": `${id}-text`, autocomplete: "off",
      onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); close(field.value); } } }) : null;
    const close = (value) => {
      overlay.remove();
      document.removeEventListener("keydown", onKey, true);
      const live = (el) => el && el.isConnected && !el.disabled && typeof el.focus === "function";
      let target = live(back) ? back : null;
      if (!target && backKey) {
        target = document.querySelector(`[data-key="${CSS.escape(backKey)}"]:not([disabled]), [data-focus="${CSS.escape(backKey)}"]:not([disabled])`);
      }
      if (!target && backRoot && backRoot.isConnected) {
        target = backRoot.querySelector("button:not([disabled]), [data-focus-hold], [tabindex='-1']");
        if (!target) { backRoot.setAttribute("tabindex", "-1"); target = backRoot; }
      }
      if (target) target.focus({ preventScroll: true });
      resolve(value);
    };
    const choices = buttons.map((b) => h("button", {
      type: "button", class: `sw-ask-button${b.primary ? " primary" : ""}${b.danger ? " danger" : ""}`,
      "data-ask": String(b.value), onclick: () => close(field && b.value === true ? field.value : b.value),
    }, b.label));
    const dialog = h("div", { class: "sw-ask", role: "alertdialog", "aria-modal": "true",
      "aria-labelledby": title ? `${id}-title` : `${id}-text`, "aria-describedby": title ? `${id}-text` : null },
      title ? h("h2", { id: `${id}-title`, class: "sw-ask-title", text: title }) : null,
      h("p", { id: `${id}-text`, class: "sw-ask-text", text }), field,
      h("div", { class: "sw-ask-buttons" }, choices));
    const overlay = h("div", { class: "sw-ask-backdrop" }, dialog);
    function onKey(event) {
      if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); close(buttons[0].value); return; }
      if (event.key !== "Tab") return;
      const first = field || choices[0], last = choices[choices.length - 1];
      if (!dialog.contains(document.activeElement)) { event.preventDefault(); last.focus(); }
      else if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
      else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
    }
    document.addEventListener("keydown", onKey, true);
    document.body.append(overlay);
    if (field) { field.focus(); field.select(); } else choices[choices.length - 1].focus();
  });
}

/** Sends a legal action through the transport, which asks `confirm` first (confirmChoice),
 * then shows any refusal above the screen and renders the answer. With the screen's `mem`, it
 * notes that the student chose (see timerMoved). */
export function sendAction(controls, action, confirm, mem) {
  if (mem) mem.acted = true; // the next move of the seat's own is the student's (timerMoved)
  Promise.resolve(controls.act(action, { confirm: confirm || null })).catch(() => {});
}

/** A big choice button: label and an optional smaller sub line; `name` is the choice said in
 * full ("Drive to the gas station"), read after the visible words from a visually hidden span,
 * so the accessible name always contains the visible label (WCAG 2.5.3); `key` keeps focus
 * across renders, `next` marks it as where focus goes after an action (restoreUiState). */
export function choiceButton(prefix, opts) {
  return h("button", {
    type: "button", class: `${prefix}-act` + (opts.cls ? " " + opts.cls : ""), "data-key": opts.key,
    "data-focus-next": opts.next || null, disabled: opts.disabled, onclick: opts.onclick,
  }, h("span", { class: `${prefix}-act-main`, text: opts.label }), opts.sub ? h("span", { class: `${prefix}-act-sub`, text: opts.sub }) : null,
  opts.name ? h("span", { class: "visually-hidden", text: ` (${opts.name})` }) : null);
}

// ---- panel pieces -----------------------------------------------------------------------------

/** A titled panel box: section.<prefix>-box.<prefix>-<cls>, labelled by its h2 (id `idPart`). */
export function box(prefix, cls, idPart, title, ...children) {
  const id = `${prefix}-${idPart}-title`;
  return h("section", { class: `${prefix}-box ${prefix}-${cls}`, "aria-labelledby": id },
    h("h2", { id, text: title }), ...children);
}

/** A definition list's rows, each [term, value] (value: text or nodes) in its own div. */
export function defRows(rows) {
  return rows.map(([term, value]) => h("div", {}, h("dt", { text: term }),
    value instanceof Node || Array.isArray(value) ? h("dd", {}, value) : h("dd", { text: String(value) })));
}

/** A card's or role's real-world basis. A fact checked against a primary source (grade O) is told
 * as what really happened; a secondary or unverified one (S, U) as "reported", never as plain
 * fact, and the source always shows beside it (a link where the content has an address). The
 * words come from the renderer's own catalogue (T: factChecked, factReported, factSource,
 * factReportedBy), so they translate with the rest. */
export function basisBlock(basis, T, cls) {
  if (!basis || !basis.text) return null;
  const reported = basis.grade !== "O";
  // the sources are English: on a Spanish or Dutch page a screen reader reads their names in English
  const english = /^en\b/.test(document.documentElement.lang || "en") ? {} : { lang: "en" };
  const source = basis.url
    ? h("a", { ...english, href: basis.url, target: "_blank", rel: "noopener noreferrer", text: basis.source })
    : h("span", { ...english, text: basis.source });
  return h("div", { class: "fact-basis " + (cls || "") + (reported ? " is-reported" : ""), "data-grade": basis.grade || "" },
    h("p", {}, h("strong", { text: reported ? T.factReported : T.factChecked }), " ", basis.text),
    h("p", { class: "fact-source" }, reported ? T.factReportedBy : T.factSource, " ", source));
}

/** The results table: caption, column heads, then rows of cells (the first a row header);
 * rows with `me` are marked is-me. */
export function resultsTable(cls, caption, heads, rows) {
  return h("table", { class: cls },
    h("caption", { text: caption }),
    h("thead", {}, h("tr", {}, heads.map((x) => h("th", { scope: "col", text: x })))),
    h("tbody", {}, rows.map((row) => h("tr", { class: row.me ? "is-me" : "" },
      row.cells.map((cell, i) => (i === 1 ? h("th", { scope: "row", text: cell }) : h("td", { text: cell })))))));
}

// ---- the map frame ----------------------------------------------------------------------------

/** The map with its text alternative and tools: zoom in, out and back to `home` (the whole
 * map), the renderer's `extra` buttons, and the legend. Pan and zoom as attachPanZoom; with
 * the keyboard, the map itself takes focus (one tab stop) and arrow keys pan it, + and − zoom
 * and 0 shows the whole map. `desc` is the map's full text alternative: a string or a list of
 * sentences (what is around me, what I can do from here, closures and odds, the others), put in
 * a visually hidden block the map is described by. The map's own shapes and glyphs should be
 * aria-hidden: the text alternative and the panel's buttons say it all. Hit areas
 * (`[data-hit]` circles, their radius in map units in data-r) grow so they stay at least 44 px
 * across at any zoom, and labels (`[data-label]` groups, see fitLabels) so their words stay at
 * least 12 px high; then `arrange(map, box)`, if given, may move labels apart. */
export function mapFrame(prefix, mem, map, opts) {
  const { home, labels } = opts;
  const own = opts.limits.onZoom;
  const fit = (m, box) => { fitHitAreas(m, box); fitLabels(m, box); if (opts.arrange) opts.arrange(m, box); };
  const limits = { ...opts.limits, onZoom: (m, box) => { if (own) own(m, box); fit(m, box); } };
  attachPanZoom(mem, map, limits);
  if (own) own(map, mem.box);
  // the map on screen once this render is on the page (its hit areas and labels need its size)
  requestAnimationFrame(() => fit(onScreen(map), mem.box));
  const zoom = (factor) => () => { zoomAt(mem, onScreen(map), limits, factor, null); };
  const reset = () => {
    mem.box = home.slice();
    onScreen(map).setAttribute("viewBox", mem.box.join(" "));
    limits.onZoom(onScreen(map), mem.box);
  };
  map.setAttribute("tabindex", "0");
  map.setAttribute("data-key", "map");
  on(map, "keydown", (e) => {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (step) {
      e.preventDefault();
      mem.box[0] += step[0] * mem.box[2] * 0.15;
      mem.box[1] += step[1] * mem.box[3] * 0.15;
      clampBox(mem.box, limits.world);
      e.currentTarget.setAttribute("viewBox", mem.box.join(" "));
    } else if (e.key === "+" || e.key === "=") { e.preventDefault(); zoom(1 / 1.4)(); }
    else if (e.key === "-" || e.key === "_") { e.preventDefault(); zoom(1.4)(); }
    else if (e.key === "0") { e.preventDefault(); reset(); }
  });
  const tool = (label, key, onclick, text) => h("button", { type: "button", "aria-label": label, title: label, "data-key": key, onclick },
    h("span", { "aria-hidden": "true", text }));
  const legend = opts.legend;
  const desc = Array.isArray(opts.desc) ? opts.desc.filter(Boolean) : [opts.desc];
  return h("div", { class: `${prefix}-mapwrap` },
    h("div", { class: `${prefix}-mapframe` }, map),
    h("div", { id: opts.descId, class: "visually-hidden" }, desc.map((line) => h("p", { text: line }))),
    h("div", { class: `${prefix}-maptools` },
      tool(labels.zoomIn, "zoom-in", zoom(1 / 1.4), "+"),
      tool(labels.zoomOut, "zoom-out", zoom(1.4), "−"),
      tool(labels.zoomReset, "zoom-reset", reset, "⤢"),
      ...(opts.extra || []),
      h("details", { class: `${prefix}-legend`, "data-key": "legend", open: mem.open.legend || null },
        h("summary", { "aria-label": legend.showTitle ? null : legend.title, title: legend.title, "data-key": "legend-summary" },
          h("span", { class: `${prefix}-legend-icon`, "aria-hidden": "true", text: "?" }),
          legend.showTitle ? h("span", { class: `${prefix}-legend-text`, text: legend.title }) : null),
        h("ul", {}, legend.items.map((x) => h("li", { text: x }))))));
}

/** Grows every `[data-hit]` circle of the map so it is at least 44 CSS px across at the zoom
 * shown (its data-r, in map units, is the smallest radius). */
export function fitHitAreas(map, box) {
  const scale = shownScale(map, box);
  if (!scale) return;
  for (const hit of map.querySelectorAll("[data-hit]")) {
    const r = String(Math.max(Number(hit.dataset.r) || 0, 22 / scale));
    if (hit.getAttribute("r") !== r) hit.setAttribute("r", r);
  }
}

/** The smallest size, in CSS px, of a map's words on screen. */
export const LABEL_PX = 12;

// For a map's arrange step (fitLabels' ``arrange``), which places labels where they cover least: a
// drawn element's box on screen (weighed, for what matters less to cover), how much two boxes
// cover of each other, and how much of a box lies outside the map's frame.
export function screenBox(el, weight = 1) {
  const r = el.getBoundingClientRect();
  return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, weight };
}

export function overlapArea(a, b) {
  return Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
}

export function outsideArea(r, frame) {
  return (r.right - r.left) * (r.bottom - r.top) - overlapArea(r, frame);
}

/** Grows every `[data-label]` group of the map (a label with the shape behind it, drawn around
 * the group's origin: its parent places it) so the smallest of its shown words is at least
 * LABEL_PX high on screen at the zoom shown; zoomed in far enough, it is as the renderer drew
 * it. The whole map on a tablet is small, and its words would shrink with it. */
export function fitLabels(map, box) {
  const scale = shownScale(map, box);
  if (!scale) return;
  for (const label of map.querySelectorAll("[data-label]")) {
    const sizes = [...label.querySelectorAll("text")].map((t) => getComputedStyle(t))
      .filter((s) => s.display !== "none").map((s) => parseFloat(s.fontSize));
    const grow = sizes.length ? Math.max(1, LABEL_PX / (Math.min(...sizes) * scale)) : 1;
    const transform = grow > 1 ? `scale(${Math.ceil(grow * 1000) / 1000})` : "";
    if ((label.getAttribute("transform") || "") !== transform) label.setAttribute("transform", transform);
  }
}

/** CSS px per map unit of a map shown whole in its box (preserveAspectRatio "meet"); 0 before
 * it is laid out. */
function shownScale(map, box) {
  const rect = map.getBoundingClientRect();
  return rect.width && rect.height ? Math.min(rect.width / box[2], rect.height / box[3]) : 0;
}
