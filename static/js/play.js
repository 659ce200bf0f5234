// The student's device: one connection for every seat it holds, the lobby, and the game views.
// Live over a WebSocket; when the school network blocks or keeps dropping it, plain HTTP
// (POST the same action with the same id, long-poll for newer views). The server's full view
// always replaces what is shown: nothing is patched, so a lost message is healed by the next.
// The one exception is documented: an `others` message carries a seat's whole new `others` part
// (its tablemates' progress) for a view whose own part did not change, and replaces that part.

import { gettext, fmt, h as el, confirmChoice } from "./kit.js";
import { finishedEarly, meanwhilePanel } from "./meanwhile.js";

const T = {
  connecting: gettext("Connecting…"),
  reconnecting: gettext("Reconnecting…"),
  fallback: gettext("Slow mode: this network blocks live updates, so the page checks every few seconds."),
  offline: gettext("No connection. Your seat is kept: the page will reconnect by itself."),
  hello: (name) => fmt(gettext("Hi %(name)s!"), { name }),
  table: (n) => fmt(gettext("You are at table %(n)s."), { n }),
  waitStart: gettext("Wait for your teacher to start the game."),
  waitApprove: gettext("Your teacher will check your nickname before it appears on the board."),
  noTable: gettext("Your teacher is arranging the tables."),
  mates: gettext("At your table:"),
  bot: gettext("a bot"),
  you: gettext("you"),
  ended: gettext("This lesson has ended. Thank you for playing!"),
  parked: gettext("The lesson is parked until your teacher resumes it. Your seat is kept."),
  paused: gettext("Your teacher has paused the game."),
  rtt: (ms) => fmt(gettext("Connection: %(ms)s ms there and back"), { ms }),
  player: (n) => fmt(gettext("Player %(n)s"), { n }),
  seatTabs: gettext("Players on this tablet"),
  askTeacher: gettext("Ask the teacher"),
  asked: gettext("Teacher asked ✓ (tap to cancel)"),
  error: gettext("That did not work"),
  report: gettext("Open my report (what really happens in hurricanes)"),
  reportNote: gettext("Your report is ready a minute after your teacher ends the lesson. Keep this link."),
  moveAsked: gettext("Another tablet asks to carry on as you. Is it your new tablet?"),
  allowMove: gettext("Yes, it is mine: move me there"),
  refuseMove: gettext("No, it is not mine"),
  checkBefore: gettext("Questions before we play"),
  checkAfter: gettext("Questions after the game"),
  checkInvite: gettext("While you wait: answer a few short questions. They are not graded."),
  checkDone: gettext("Thank you: your answers are saved."),
};

const root = document.getElementById("play");
const cfg = root.dataset;
const sessionId = cfg.session;
const state = {
  lobby: null, views: {}, board: null, renderer: null, activeSeat: null,
  pending: null, awaiting: null, busy: false, mode: "connecting", notice: null, stamp: "", rtt: null,
  lobbyNode: null, askNode: null,  // the lobby and its "Ask the teacher" button, kept across updates
};
let ws = null, wsFailures = 0, lastHeard = 0, pollController = null, resendTimer = null;
const CATCH_UP_MS = 2000;  // how long an `others` message waits for the full view it goes with
const CATCH_UP_MAX_MS = 16000;  // the longest wait, after syncs that did not bring it
let catchUpTimer = null, catchUpMs = CATCH_UP_MS;

function newId() {
  // Plain http on a classroom LAN has no crypto.randomUUID; getRandomValues works everywhere.
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function wsUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/play/${sessionId}/`;
}

// --- Incoming ----------------------------------------------------------------------------------

function applyView(message) {
  const held = state.views[message.seat];
  if (!held || message.version >= held.version) state.views[message.seat] = message;
  const waiting = state.awaiting;
  if (waiting && message.seat === waiting.seat && message.version >= waiting.version) {
    state.awaiting = null;
    state.busy = false;
    clearTimeout(resendTimer);
  }
}

function applyOthers(message) {
  // A tablemate moved and left this seat's own view as it was: only the view's new `others`
  // part comes, with the message fields of a view, and replaces the `others` part held here.
  // If the view held is older than the one it goes with, the newer one is on its way (another
  // server process may have sent it a moment later): wait for it, and ask for a sync only if
  // it never comes. Returns whether the seat's view changed (if not, nothing is redrawn).
  const held = state.views[message.seat];
  if (!held || held.version < message.built) {
    waitForView(message.seat, message.built);
    return false;
  }
  if (message.version < held.version) return false;
  const {others, built, type, ...fields} = message;
  applyView({...held, ...fields, type: "view", view: {...held.view, others}});
  return true;
}

function waitForView(seat, built) {
  // One wait at a time, so tablemates' progress arriving every second neither puts the sync off
  // for ever nor sends one each. On a busy server a sync may itself be slow: each one that did
  // not bring the view doubles the next wait, and a view that came in time resets it.
  if (catchUpTimer) return;
  catchUpTimer = setTimeout(() => {
    catchUpTimer = null;
    const now = state.views[seat];
    if (now && now.version >= built) {
      catchUpMs = CATCH_UP_MS;
      return;
    }
    catchUpMs = Math.min(2 * catchUpMs, CATCH_UP_MAX_MS);
    resync();
  }, catchUpMs);
}

function handle(message) {
  lastHeard = Date.now();
  switch (message.type) {
    case "lobby":
      state.lobby = message;
      if (state.activeSeat === null && message.seats.length) state.activeSeat = message.seats[0];
      break;
    case "view":
      applyView(message);
      break;
    case "others":
      if (!applyOthers(message)) return;  // older than the view held, or the view it goes with is on its way
      break;
    case "state":
      state.stamp = message.stamp;
      handle(message.lobby);
      message.views.forEach(applyView);
      break;
    case "ok":
      if (state.pending && message.id === state.pending.id) {
        // Keep the buttons disabled until the view this move produced has arrived, so the next
        // tap is never chosen from the old one.
        const seat = state.pending.seat;
        settle();
        const held = state.views[seat];
        if (!held || held.version < message.version) {
          state.busy = true;
          state.awaiting = {seat, version: message.version};
          resendTimer = setTimeout(resync, 3000);
          return;  // the screen stays as it is, its buttons held, until that view arrives
        }
      }
      break;
    case "error":
      if (message.code === "unavailable" && state.pending && message.id === state.pending.id) {
        // Nothing was applied; keep the tap and let the resend timer try the same id again.
        state.notice = message.message;
        break;
      }
      if (message.view) applyView(message.view);
      if (!state.pending || message.id === state.pending.id || !message.id) {
        if (state.pending && message.id === state.pending.id) settle();
        state.notice = message.message || T.error;
      }
      break;
    case "pong":
      // This tablet's round trip (real-time games are fair only if it is known; see the lobby).
      if (typeof message.t === "number") state.rtt = Date.now() - message.t;
      break;
    default:
      return;
  }
  render();
}

function settle() {
  state.pending = null;
  state.busy = false;
  clearTimeout(resendTimer);
}

function resync() {
  // The view for an acknowledged move went missing (channel layers deliver at most once).
  if (state.mode === "live" && ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({type: "sync"}));
  else abortPoll();
  state.awaiting = null;
  state.busy = false;
  render();
}

// --- Outgoing ----------------------------------------------------------------------------------

function sendFrame(frame) {
  if (state.mode === "live" && ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify(frame));
    return;
  }
  if (state.mode === "fallback") postFrame(frame);
  // otherwise it waits: a reconnect resends the pending action with the same id
}

async function postFrame(frame) {
  try {
    const response = await fetch(cfg.actUrl, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": cfg.csrf},
      body: JSON.stringify(frame),
    });
    handle(await response.json());
    abortPoll();
  } catch (err) {
    setTimeout(() => { if (state.pending && state.pending.id === frame.id) postFrame(frame); }, 2000);
  }
}

async function act(seat, action, options = {}) {
  if (state.busy) return false;
  if (options.confirm && !(await confirmChoice(options.confirm))) return false;
  if (state.busy) return false;
  const view = state.views[seat];
  state.notice = null;
  state.pending = {type: "act", id: newId(), seat, version: view ? view.version : 0, action};
  state.busy = true;
  // Sent before the screen is drawn again: a render that fails must not keep the tap unsent.
  sendFrame(state.pending);
  armResend();
  render();
  return true;
}

function armResend() {
  // An answer lost with a dropped socket: send the same id again; the server applies it once.
  clearTimeout(resendTimer);
  resendTimer = setTimeout(() => {
    if (!state.pending) return;
    sendFrame(state.pending);
    armResend();
  }, 6000);
}

function askTeacher() {
  const asking = !(state.lobby && state.lobby.asking);
  if (state.lobby) state.lobby.asking = asking;
  render();
  const frame = {type: "ask_teacher", asking};
  if (state.mode === "fallback") postFrame(frame); else if (ws && ws.readyState === 1) ws.send(JSON.stringify(frame));
  return Promise.resolve(asking);
}

function answerMove(allow) {
  // Another device asked to carry on as this student: only this tablet (or the teacher, looking
  // at both) lets it. Allowed, this tablet is signed out of the lesson by the server.
  if (state.lobby) state.lobby.move_asked = false;
  render();
  const frame = {type: "move", allow};
  if (state.mode === "fallback") postFrame(frame); else if (ws && ws.readyState === 1) ws.send(JSON.stringify(frame));
}

function moveBox() {
  return el("section", {class: "card move-asked", role: "alertdialog", "aria-live": "assertive"},
    el("p", {class: "lead"}, T.moveAsked),
    el("button", {type: "button", class: "button", onclick: () => answerMove(true)}, T.allowMove),
    " ",
    el("button", {type: "button", class: "button primary", onclick: () => answerMove(false)}, T.refuseMove));
}

function moreTime(seat) {
  // The seat's turn timer pushed back (shown only in its last seconds); the server sends the
  // view with the new deadline, or a refusal that the notice shows.
  const frame = {type: "more_time", seat};
  if (state.mode === "fallback") postFrame(frame); else if (ws && ws.readyState === 1) ws.send(JSON.stringify(frame));
  return Promise.resolve(true);
}

// --- Connection ----------------------------------------------------------------------------------

function connect() {
  let opened = false;
  try { ws = new WebSocket(wsUrl()); } catch (err) { return onClosed(false); }
  ws.onopen = () => {
    opened = true;
    wsFailures = 0;
    state.mode = "live";
    abortPoll();
    lastHeard = Date.now();
    ws.send(JSON.stringify({type: "ping", t: Date.now()}));  // the round trip, shown on the lobby at once
    if (state.pending) sendFrame(state.pending);
    render();
  };
  ws.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (err) { return; }  // not a frame of ours
    handle(message);  // a drawing error surfaces in the console instead of vanishing
  };
  ws.onclose = (event) => onClosed(opened, event.code);
}

function onClosed(opened, code) {
  ws = null;
  if (code === 4403) { location.href = "/join"; return; }
  // A socket that could not open while the device is offline says nothing about the network
  // blocking sockets: only failures while online count toward slow mode.
  wsFailures = opened ? 1 : navigator.onLine === false ? Math.max(wsFailures, 1) : wsFailures + 1;
  if (wsFailures >= 3) {
    // The network will not hold a socket: play on over HTTP, and try the socket again later.
    if (state.mode !== "fallback") { state.mode = "fallback"; startPolling(); render(); }
    setTimeout(connect, 30000);
    return;
  }
  if (state.mode !== "fallback") state.mode = "reconnecting";
  render();
  const delay = Math.min(8000, 500 * 2 ** wsFailures) * (0.75 + Math.random() / 2);
  setTimeout(connect, delay);
}

setInterval(() => {
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({type: "ping", t: Date.now()}));
    if (Date.now() - lastHeard > 45000) ws.close();  // a silent half-open socket
  }
}, 15000);

async function pollLoop() {
  while (state.mode === "fallback") {
    pollController = new AbortController();
    try {
      const response = await fetch(`${cfg.pollUrl}?since=${encodeURIComponent(state.stamp)}`,
        {credentials: "same-origin", signal: pollController.signal});
      if (response.status === 403) { location.href = "/join"; return; }
      // Polling faster than the device's limit: wait a moment rather than ask again at once.
      if (response.status === 429) { await new Promise((r) => setTimeout(r, 1000)); continue; }
      handle(await response.json());
    } catch (err) {
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

function startPolling() { state.stamp = ""; pollLoop(); }
// Ends the long-poll in flight: the loop asks again at once (or stops, once the socket is live).
function abortPoll() { if (pollController) pollController.abort(); }

// --- Screen --------------------------------------------------------------------------------------

function statusBar() {
  const bar = document.getElementById("connection");
  const text = {connecting: T.connecting, reconnecting: T.reconnecting, fallback: T.fallback}[state.mode];
  bar.textContent = text || "";
  bar.hidden = !text;
  bar.className = `connection ${state.mode}`;
  // The notice is an alert: written only when its words change, so a screen drawn again (a
  // tablemate's move) never says an old refusal again.
  const notice = document.getElementById("notice");
  if (notice.textContent !== (state.notice || "")) notice.textContent = state.notice || "";
  if (notice.hidden !== !state.notice) notice.hidden = !state.notice;
}

function lobbyScreen(lobby) {
  const box = el("section", {class: "card lobby", "aria-live": "polite"},
    el("h1", {}, T.hello(lobby.nickname)));
  if (lobby.status === "ended") { box.append(el("p", {class: "lead"}, T.ended)); return box; }
  if (lobby.status === "parked") box.append(el("p", {class: "lead"}, T.parked));
  box.append(el("p", {class: "lead"}, lobby.table ? T.table(lobby.table) : T.noTable));
  if (lobby.mates.length) {
    const list = el("ul", {class: "mates", "aria-label": T.mates});
    lobby.mates.forEach((m) => list.append(el("li", {}, m.you ? `${m.name} (${T.you})` : (m.bot ? T.bot : (m.name || "…")))));
    box.append(el("p", {}, T.mates), list);
  }
  if (lobby.status === "lobby") box.append(el("p", {}, T.waitStart));
  if (lobby.check && lobby.check.phase === "before") {
    // The before-check is part of the lobby: answered while the class joins, closed at the start.
    box.append(lobby.check.to_answer
      ? el("p", {class: "check-invite"}, T.checkInvite, " ",
        el("a", {class: "button primary big", href: lobby.check.url}, T.checkBefore))
      : el("p", {class: "muted"}, T.checkDone));
  }
  if (!lobby.approved) box.append(el("p", {class: "muted"}, T.waitApprove));
  return box;
}

function seatNames(lobby) {
  // Seat number -> nickname for renderers ("Ben was faster"): only the nicknames the lobby
  // already shows (the teacher approved them; never a full name); bots and hidden names are
  // left out, so the renderer says "Player N". Seats one tablet holds share a nickname, so
  // those also carry their player number.
  const names = {};
  const shared = lobby.mates.filter((m) => m.you).length > 1;
  lobby.mates.forEach((m) => {
    if (m.name && !m.bot) names[m.seat] = m.you && shared ? `${m.name} · ${T.player(m.seat + 1)}` : m.name;
  });
  return names;
}

function askButton() {
  // One button for the page's life, changed in place: a new one at each lobby update (or at its
  // own press) would take the student's focus with the old one and drop it to the page.
  const asking = !!(state.lobby && state.lobby.asking);
  const button = state.askNode || (state.askNode = el("button", {type: "button", onclick: askTeacher}));
  button.className = `ask${asking ? " asking" : ""}`;
  button.setAttribute("aria-pressed", String(asking));
  if (button.textContent !== (asking ? T.asked : T.askTeacher)) button.textContent = asking ? T.asked : T.askTeacher;
  return button;
}

function lobbyInPlace(fresh) {
  // The lobby drawn again into the one shown: only the parts whose words changed are replaced, so
  // focus on a link that stays (the knowledge check) stays, and the live region says what is new
  // (a classmate who joined), not the whole lobby again.
  const shown = state.lobbyNode;
  if (!shown) return (state.lobbyNode = fresh);
  const parts = [...fresh.children];
  parts.forEach((part, i) => {
    const old = shown.children[i];
    if (!old) shown.append(part);
    else if (old.outerHTML !== part.outerHTML) old.replaceWith(part);
  });
  while (shown.children.length > parts.length) shown.lastElementChild.remove();
  return shown;
}

function place(main, wanted) {
  // Shows `wanted` in `main`, in order, without moving a node that is shown already (a node moved
  // loses focus to the page).
  [...main.children].forEach((node) => { if (!wanted.includes(node)) node.remove(); });
  let at = main.firstElementChild;
  wanted.forEach((node) => {
    if (node === at) at = at.nextElementSibling;
    else main.insertBefore(node, at);
  });
}

function checkLink(lobby) {
  // The page's link to the knowledge check follows the lobby's live phase: the before-check
  // while the table waits, nothing during play, the after-check once the teacher opens it.
  const link = document.getElementById("check-link");
  if (!link) return;
  const check = lobby.check;
  link.hidden = !check;
  if (!check) return;
  link.textContent = check.phase === "after" ? T.checkAfter : T.checkBefore;
  link.href = check.url;
  link.classList.toggle("primary", !!check.to_answer);
}

function technicalDetails() {
  // The round trip goes under "Details" (folded: a child has no use for it; whoever helps with
  // the Wi-Fi opens it), written in place so an open disclosure stays open.
  const rtt = document.querySelector("#tech-details .rtt");
  if (!rtt || state.rtt == null) return;
  rtt.textContent = T.rtt(state.rtt);
  rtt.hidden = false;
}

function render() {
  statusBar();
  technicalDetails();
  if (state.lobby) checkLink(state.lobby);
  const main = document.getElementById("screen");
  const lobby = state.lobby;
  if (!lobby) return;
  const seats = lobby.seats.filter((s) => state.views[s]);
  const asked = lobby.move_asked ? moveBox() : null;
  if (!seats.length || !state.renderer || !state.board || lobby.status === "lobby") {
    place(main, [asked, lobbyInPlace(lobbyScreen(lobby)), askButton()].filter(Boolean));
    return;
  }
  if (!seats.includes(state.activeSeat)) state.activeSeat = seats[0];
  let tabs = null;
  if (seats.length > 1) {
    tabs = el("div", {class: "seat-tabs", role: "tablist", "aria-label": T.seatTabs});
    seats.forEach((seat) => {
      const view = state.views[seat].view;
      const mine = view.actions && view.actions.length && state.views[seat].status === "playing";
      tabs.append(el("button", {type: "button", role: "tab", "aria-selected": String(seat === state.activeSeat),
        onclick: () => { state.activeSeat = seat; render(); }}, T.player(seat + 1) + (mine ? " •" : "")));
    });
  }
  let holder = document.getElementById(`seat-${state.activeSeat}`);
  if (!holder) holder = el("div", {id: `seat-${state.activeSeat}`, class: "seat-view"});
  const over = seats.some((s) => state.views[s].status === "finished") || lobby.status === "ended";
  // The report link, once shown, is the same node at every render after (a new one would
  // re-insert the screen and drop focus to the page).
  const report = !over ? null : main.querySelector(":scope > .report-link") || el("p", {class: "card report-link"},
    el("a", {class: "button primary big", href: `/play/${sessionId}/my-report`, target: "_blank", rel: "noopener"}, T.report),
    el("span", {class: "muted"}, " ", T.reportNote));
  // A game over while the lesson plays: something that teaches comes first, above the game's end.
  const meanwhile = meanwhilePanel(cfg.meanwhileUrl, finishedEarly(lobby, state.views, seats));
  const wanted = [asked, tabs, meanwhile, holder, report].filter(Boolean);
  if (main.children.length !== wanted.length || wanted.some((node, i) => main.children[i] !== node)) {
    // What is shown already stays in place (a node moved loses focus to the page): the report
    // link that comes with the game's end is added after the screen, not around it.
    const shown = [...main.children];
    if (shown.length < wanted.length && shown.every((node, i) => node === wanted[i])) main.append(...wanted.slice(shown.length));
    else main.replaceChildren(...wanted);
  }
  // The screen is drawn once it is on the page, so its live region's first words ("Your turn")
  // are spoken and its first render can put focus in the game.
  const seat = state.activeSeat;
  state.renderer.render(holder, state.board, state.views[seat], {
    act: (action, options) => act(seat, action, options),
    busy: state.busy || lobby.status !== "playing",
    askTeacher, asking: !!lobby.asking, rtt: state.rtt,
    names: seatNames(lobby),
    moreTime: () => moreTime(seat),
  });
  if (lobby.status === "paused" || lobby.status === "parked") {
    state.notice = lobby.status === "paused" ? T.paused : T.parked;
    statusBar();
  } else if (state.notice === T.paused || state.notice === T.parked) {
    // Resumed: the pause notice goes (the game screen's live region says whose move it is).
    state.notice = null;
    statusBar();
  }
}

async function start() {
  const [renderer, board] = await Promise.all([
    import(cfg.rendererUrl),
    fetch(cfg.boardUrl, {credentials: "same-origin"}).then((r) => r.json()),
  ]);
  state.renderer = renderer;
  state.board = board;
  render();
}

document.addEventListener("visibilitychange", () => {
  // A tablet waking from sleep: check the socket at once instead of waiting for the heartbeat.
  if (document.visibilityState === "visible" && ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({type: "sync"}));
  }
});

if (cfg.forceFallback === "1") { state.mode = "fallback"; startPolling(); } else { connect(); }
start();
