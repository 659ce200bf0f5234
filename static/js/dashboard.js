// The teacher's live dashboard and the projector screen. Both show numbered snapshots from the
// server (at most about a second stale); every button posts to one command endpoint.

import { gettext, ngettext, fmt, h as el, ask } from "./kit.js";
import { classView } from "./projector.js";

const T = {
  joinAt: gettext("Go to"), enter: gettext("and enter"),
  students: (n) => fmt(ngettext("%(n)s student joined", "%(n)s students joined", n), { n }),
  approve: gettext("Approve"), unapprove: gettext("Hide name"), rename: gettext("Rename"), remove: gettext("Remove"),
  renamePrompt: gettext("New nickname:"), cancel: gettext("Cancel"),
  approveAll: (n) => fmt(ngettext("Approve %(n)s waiting name", "Approve all %(n)s waiting names", n), { n }),
  unapprovedTitle: gettext("Some nicknames are not approved"),
  unapprovedStart: (n) => fmt(ngettext("%(n)s nickname is still waiting for your approval. Until you approve it, the projector shows its table and seat instead.",
    "%(n)s nicknames are still waiting for your approval. Until you approve them, the projector shows their table and seat instead.", n), { n }),
  approveAllStart: gettext("Approve all and start"), startAnyway: gettext("Start anyway"), backToList: gettext("Back to the list"), removeConfirm: (n) => fmt(gettext("Remove %(n)s from this lesson?"), { n }),
  ban: gettext("Turn tablet away"),
  banConfirm: (n) => fmt(gettext("Take %(n)s out and turn their tablet away for the rest of the lesson? A tablet whose browser data is cleared can join again as someone new: lock joining to keep everyone new out."), { n }),
  moveTo: gettext("Move to table"), table: (n) => fmt(gettext("Table %(n)s"), { n }), seat: (n) => fmt(gettext("Seat %(n)s"), { n }),
  start: gettext("Start the game"), pause: gettext("Pause"), resume: gettext("Resume"), park: gettext("Park until next lesson"),
  finish: gettext("Finish with bots"), endNow: gettext("End now"),
  finishConfirm: gettext("Every seat will be played to the end by a bot now. Continue?"),
  endConfirm: gettext("Stop every table where it stands, with partial scores?"),
  parkConfirm: gettext("Park the lesson? Timers stop; the code and seats are kept for next time."),
  needs: gettext("Needs you"), nothing: gettext("Nothing needs you right now."),
  alert: {asking: gettext("asks for help"), stuck: gettext("seems stuck"), offline: gettext("is offline"), idle: gettext("is idle"),
    finished: gettext("has finished"), claim: gettext("wants to move to another device"),
    seatless: gettext("joined late, and no bot keeps a seat for them"), more_time: gettext("asks for more time to react")},
  moreTime: gettext("More time to react"), giveTime: gettext("Give more time"), notNow: gettext("Not now"),
  waitingForYou: (n) => fmt(ngettext("%(n)s waiting for you", "%(n)s waiting for you", n), { n }),
  seatFor: (name) => fmt(gettext("Seat for %(name)s"), { name }),
  lateTables: (n) => fmt(ngettext("Open a new table for %(n)s late student", "Open a new table for %(n)s late students", n), { n }),
  clear: gettext("Done"), approveClaim: gettext("Approve move"),
  approveSeen: gettext("Approve: I have seen both tablets"), refuseClaim: gettext("Refuse move"),
  toBot: gettext("Hand to bot"), toStudent: gettext("Give back"), bot: gettext("bot"), online: gettext("online"), offline: gettext("offline"),
  waiting: gettext("Waiting for the first student…"),
  ended: gettext("Lesson ended"), standings: gettext("Final standings"), classRanks: gettext("Class ranking (bots not ranked)"),
  rank: gettext("Rank"), name: gettext("Name"), score: gettext("Score"),
  status: {lobby: gettext("Students joining"), playing: gettext("Playing"), paused: gettext("Paused"), parked: gettext("Parked"), ended: gettext("Ended")},
  loopbackTitle: gettext("Tablets cannot reach this address"),
  loopbackWhy: gettext("This computer is serving the lesson to itself only (localhost), so the link and the QR code open nothing on a tablet."),
  loopbackDo: gettext("Stop the server and start it for the classroom network with:"),
  checkTablet: gettext("Test a tablet before class"), checkWhy: gettext("(open this page on one tablet: it checks the connection and the screen)"),
  stormMoves: gettext("Storm moves"), stormConfirm: gettext("The storm will move at every table after a 10-second countdown. Continue?"),
  stormIn: (n) => fmt(gettext("The storm moves in %(n)s s"), { n }), stormLine: (s) => fmt(gettext("Storm: category %(category)s · round %(round)s played by every table"), { category: s.category ?? "–", round: s.round ?? "–" }),
  waitingTables: (n, t) => fmt(gettext("%(n)s of %(t)s tables have ended their turn"), { n, t }),
  damage: gettext("Damage (lower is better)"), botDamage: gettext("Policy bot, same storm"), team: gettext("Team"),
  stopped: gettext("stopped"),
  standIn: gettext("played by the stand-in"),
  stoppedAfter: (n) => fmt(ngettext("damage so far, after %(n)s storm move", "damage so far, after %(n)s storm moves", n), { n }),
  pendingName: gettext("(waiting for approval)"), live: gettext("Live"), reconnecting: gettext("Reconnecting…"), polling: gettext("Updating every few seconds"),
  move: gettext("Move"), moveName: (n) => fmt(gettext("Move %(n)s"), { n }), newAlert: (who, what) => fmt(gettext("%(who)s %(what)s."), { who, what }),
  atTable: (who, n) => fmt(gettext("%(who)s (table %(n)s)"), { who, n }),
};

// Who an alert is about, in the teacher's words: the nickname as typed, and its table.
const alertWho = (a) => (a.who == null ? T.table(a.table) : a.table ? T.atTable(a.who, a.table) : a.who);

const root = document.getElementById("dashboard");
const cfg = root.dataset;
const mode = cfg.mode;
let data = JSON.parse(document.getElementById("dashboard-initial").textContent);
let renderer = null, board = null, ws = null, failures = 0, pollTimer = null;

// What the last command answered when it was refused: shown above the controls (role=alert)
// until the next command, never in a browser pop-up.
let refusal = null, refusalFresh = false;

async function command(name, params = {}) {
  const body = new URLSearchParams(params);
  const response = await fetch(cfg.commandUrl + name, {
    method: "POST", credentials: "same-origin", body,
    headers: {"X-CSRFToken": cfg.csrf, "Accept": "application/json"},
  });
  const answer = await response.json().catch(() => ({ok: false, message: response.statusText}));
  refusal = answer.ok ? null : answer.message;
  refusalFresh = !answer.ok;
  await refresh();
  return answer.ok;
}

// Asks in the page first when the control says so ({confirm: text}); the going-ahead button
// repeats the control's own words ("End now"), so the answer is never a bare "OK".
async function confirmed(label, opts) {
  if (!opts.confirm) return true;
  return ask(opts.confirm, [{value: false, label: T.cancel}, {value: true, label, primary: !opts.class || !opts.class.includes("danger"),
    danger: !!(opts.class && opts.class.includes("danger"))}]);
}

// Every control carries a data-focus key (its command and what it acts on), so a new snapshot,
// which redraws the page, puts focus back where the teacher had it (render()).
// A toggle (opts.pressed true or false) says its state in aria-pressed and keeps its focus key
// (opts.focus) when its parameters change with that state.
const button = (label, name, params, opts = {}) => el("button", {
  type: "button", class: opts.class || "", "aria-label": opts.aria || null, disabled: opts.disabled || null,
  "aria-pressed": opts.pressed === undefined ? null : String(opts.pressed),
  "data-focus": opts.focus || `${name}:${JSON.stringify(params || {})}`,
  onclick: async () => {
    if (opts.before && !(await opts.before())) return;
    if (await confirmed(label, opts)) command(name, params);
  },
}, label);

// --- Teacher ------------------------------------------------------------------------------------

// A server that listens on this computer only gives addresses no tablet can open: say so in
// large type, with the one command that serves the class, before anyone scans the QR code.
function loopbackWarning(big) {
  if (!data.loopback) return null;
  return el("section", {class: `card loopback-warning${big ? " big" : ""}`, role: "alert"},
    el("h2", {}, T.loopbackTitle),
    el("p", {}, T.loopbackWhy),
    el("p", {}, T.loopbackDo, " ", el("code", {class: "serve-command"}, data.serve_command)));
}

function checkLink() {
  return el("p", {class: "check-link"}, el("a", {href: data.check_url, target: "_blank", rel: "noopener"}, T.checkTablet),
    " ", el("span", {class: "muted"}, T.checkWhy));
}

function joinPanel(big) {
  return el("section", {class: `card join-panel${big ? " big" : ""}`},
    el("div", {},
      el("p", {class: "join-line"}, `${T.joinAt} `, el("strong", {}, data.join_url.replace(/\/join\/.*$/, "/join")), ` ${T.enter}`),
      el("p", {class: "join-code", "aria-label": fmt(gettext("Code %(code)s"), { code: data.code.split("").join(" ") })}, data.code)),
    el("img", {src: cfg.qrUrl, alt: fmt(gettext("QR code for %(url)s"), { url: data.join_url }), class: "qr", width: big ? 300 : 180, height: big ? 300 : 180}));
}

function roster() {
  const list = el("ul", {class: "roster"});
  const tables = data.tables.map((t) => t.number);
  for (const p of data.participants) {
    const where = data.tables.find((t) => t.seats.some((s) => s.participant === p.id));
    // Choosing a table moves nobody: the Move button does, so arrow keys can browse the list.
    const select = el("select", {"aria-label": `${T.moveTo}: ${p.name}`, "data-focus": `move-table:${p.id}`,
      onchange: (e) => { chosen[`move-table:${p.id}`] = e.target.value; }},
      ...[...tables, tables.length + 1].map((n) => el("option", {value: n, selected: where && where.number === n ? true : null}, T.table(n))));
    const move = el("button", {type: "button", "aria-label": `${T.moveName(p.name)}`, "data-focus": `move:${p.id}`,
      onclick: () => { delete chosen[`move-table:${p.id}`]; command("move", {participant: p.id, table: select.value}); }}, T.move);
    // during play a name waiting for approval is approved in the panel at the top (waitingPanel)
    const approval = p.approved ? button(T.unapprove, "unapprove", {participant: p.id}, {aria: `${T.unapprove}: ${p.name}`})
      : data.status === "lobby" ? button(T.approve, "approve", {participant: p.id}, {class: "primary", aria: `${T.approve}: ${p.name}`}) : null;
    list.append(el("li", {class: "roster-row"},
      el("span", {class: "name"}, p.name, p.players > 1 ? ` ×${p.players}` : "",
        p.approved ? null : el("span", {class: "badge warn"}, T.pendingName)),
      el("span", {class: "row-actions"},
        approval,
        el("button", {type: "button", "aria-label": `${T.rename}: ${p.name}`, "data-focus": `rename:${p.id}`, onclick: async () => {
          const name = await ask(T.renamePrompt, [{value: false, label: T.cancel}, {value: true, label: T.rename, primary: true}],
            null, {value: p.name});
          if (name) command("rename", {participant: p.id, nickname: name});
        }}, T.rename),
        button(T.remove, "remove", {participant: p.id}, {class: "danger", aria: `${T.remove}: ${p.name}`, confirm: T.removeConfirm(p.name)}),
        button(T.ban, "ban", {participant: p.id}, {class: "danger", aria: `${T.ban}: ${p.name}`, confirm: T.banConfirm(p.name)}),
        data.status === "lobby" ? el("span", {class: "move-to"}, select, move) : null,
        p.late && p.approved && data.kept_seats.length ? keptSeatMove(p) : null)));
  }
  return list;
}

// The seats bots keep for late arrivals, the one given by default first (the one kept longest).
function keptSeatSelect(p) {
  const key = `kept-seat:${p.id}`;
  return el("select", {"aria-label": T.seatFor(p.name), "data-focus": key, onchange: (e) => { chosen[key] = e.target.value; }},
    ...data.kept_seats.map((s) => el("option", {value: s.id}, `${T.table(s.table)}, ${T.seat(s.seat + 1)}`)));
}

// A late student already playing can be given another seat a bot keeps: theirs goes back to a bot.
function keptSeatMove(p) {
  const select = keptSeatSelect(p);
  return el("span", {class: "move-to"}, select, el("button", {type: "button", "aria-label": T.moveName(p.name),
    "data-focus": `late-seat:${p.id}`, onclick: () => {
      delete chosen[`kept-seat:${p.id}`]; command("late-seat", {participant: p.id, seat: select.value});
    }}, T.move));
}

// Names waiting for the teacher's approval during play, at the top of the dashboard and never
// folded away: approving a late student seats them at a seat a bot keeps (the teacher may pick it).
function waitingPanel() {
  const waiting = data.participants.filter((p) => !p.approved);
  if (!waiting.length || data.status === "lobby" || data.status === "ended") return null;
  const list = el("ul", {class: "roster"});
  for (const p of waiting) {
    const select = p.late && !p.seated && data.kept_seats.length ? keptSeatSelect(p) : null;
    list.append(el("li", {class: "roster-row"}, el("span", {class: "name"}, p.name, p.players > 1 ? ` ×${p.players}` : ""),
      el("span", {class: "row-actions"}, select,
        el("button", {type: "button", class: "primary", "aria-label": `${T.approve}: ${p.name}`, "data-focus": `approve:${p.id}`,
          onclick: () => {
            const picked = chosen[`kept-seat:${p.id}`];
            delete chosen[`kept-seat:${p.id}`];
            command("approve", picked ? {participant: p.id, seat: picked} : {participant: p.id});
          }}, T.approve))));
  }
  return el("section", {class: "card waiting", "aria-label": T.waitingForYou(waiting.length)},
    el("h2", {}, `${T.waitingForYou(waiting.length)}: ${T.approve}`), list, waiting.length > 1 ? approveAll() : null);
}

function controls() {
  const s = data.status;
  const bar = el("div", {class: "controls", role: "group", "aria-label": gettext("Lesson controls")});
  if (s === "lobby") bar.append(button(T.start, "start", {}, {class: "primary big", disabled: !data.participants.length, before: startChecked}));
  if (s === "playing") bar.append(button(T.pause, "pause"));
  if (s === "paused" || s === "parked") bar.append(button(T.resume, "resume", {}, {class: "primary"}));
  if (s === "playing" || s === "paused") bar.append(button(T.park, "park", {}, {confirm: T.parkConfirm}));
  if (s === "playing" && data.storm) {
    bar.append(button(T.stormMoves, "storm-moves", {}, {class: "primary", confirm: T.stormConfirm, disabled: !!data.storm.deadline}));
  }
  if (s !== "lobby" && s !== "ended") {
    bar.append(button(T.finish, "finish-bots", {}, {confirm: T.finishConfirm}),
      button(T.endNow, "end-now", {}, {class: "danger", confirm: T.endConfirm}));
  }
  return bar;
}

// Starting with nicknames still waiting asks first: go back to the list, approve them all and
// start, or start anyway (the projector then shows their table and seat instead).
async function startChecked() {
  const waiting = data.participants.filter((p) => !p.approved).length;
  if (!waiting) return true;
  // "Start anyway" has the focus, as Start alone did: approving names takes the teacher's own tap.
  const choice = await ask(T.unapprovedStart(waiting), [
    {value: "back", label: T.backToList}, {value: "approve", label: T.approveAllStart, primary: true},
    {value: "anyway", label: T.startAnyway}], T.unapprovedTitle);
  if (choice === "approve") return command("approve-all");
  return choice === "anyway";
}

function approveAll() {
  const waiting = data.participants.filter((p) => !p.approved).length;
  return waiting ? button(T.approveAll(waiting), "approve-all", {}, {class: "primary"}) : null;
}

function alerts() {
  const box = el("section", {class: "card alerts", "aria-label": T.needs}, el("h2", {}, T.needs));
  if (!data.alerts.length) { box.append(el("p", {class: "muted"}, T.nothing)); return box; }
  const list = el("ul", {});
  for (const a of data.alerts) {
    const who = alertWho(a);
    list.append(el("li", {class: `alert ${a.kind}`}, el("strong", {}, who), ` ${T.alert[a.kind]} `,
      a.kind === "asking" ? button(T.clear, "clear-ask", {participant: a.participant}, {aria: `${T.clear}: ${who}`}) : null,
      // a student's request for more time to react: one tap gives it, or keeps what they have
      a.kind === "more_time" ? button(T.giveTime, "allow", {seat: a.seat, ms: a.ms}, {class: "primary", aria: `${T.giveTime}: ${who}`}) : null,
      a.kind === "more_time" ? button(T.notNow, "allow", {seat: a.seat, ms: a.keep}, {aria: `${T.notNow}: ${who}`}) : null,
      // while the student's first tablet is online they allow the move on it, or the teacher
      // approves having seen both tablets side by side
      a.kind === "claim" ? button(a.online ? T.approveSeen : T.approveClaim, "approve-move",
        a.online ? {participant: a.participant, seen_both: "1"} : {participant: a.participant},
        {class: "primary", aria: `${a.online ? T.approveSeen : T.approveClaim}: ${who}`}) : null,
      a.kind === "claim" ? button(T.refuseClaim, "refuse-move", {participant: a.participant}, {aria: `${T.refuseClaim}: ${who}`}) : null));
  }
  box.append(list);
  const late = data.alerts.filter((a) => a.kind === "seatless").length;
  if (late) box.append(button(T.lateTables(late), "late-tables", {}, {class: "primary"}));
  return box;
}

// A table's game status in the teacher's words (a finished game is said as "Ended").
function tableStatus(status) {
  return {playing: T.status.playing, paused: T.status.paused, finished: T.status.ended}[status] || status;
}

function tableCard(table) {
  const summary = table.summary;
  const card = el("article", {class: "card table-card", "aria-label": T.table(table.number)},
    el("h3", {}, T.table(table.number), summary ? el("span", {class: `badge ${summary.status === "finished" ? "ok" : ""}`}, tableStatus(summary.status)) : null),
    table.subtitle ? el("p", {class: "table-subtitle"}, table.subtitle) : null);
  const seats = el("ul", {class: "seats"});
  // an engine with reaction allowances (Tornado Alert!): each student's "More time to react", one tap
  const allowance = summary && summary.status !== "finished" && data.status !== "ended" && summary.view ? summary.view.allowance : null;
  for (const s of table.seats) {
    const who = s.name || T.bot;
    const more = allowance && s.name ? allowance.seats[s.seat] >= allowance.more : false;
    seats.append(el("li", {},
      el("span", {class: `dot ${s.name ? (s.online ? "on" : "off") : "bot"}`, "aria-hidden": "true"}),
      `${T.seat(s.seat + 1)}: ${who}`,
      s.name && !s.online ? el("span", {class: "visually-hidden"}, ` (${T.offline})`) : null,
      s.bot && s.name ? el("span", {class: "badge"}, T.bot) : null,
      s.stand_in ? el("span", {class: "badge stand-in"}, T.standIn) : null,
      s.name && data.status !== "ended" && summary && summary.status !== "finished"
        ? (s.bot ? button(T.toStudent, "to-student", {seat: s.id}, {aria: `${T.toStudent}: ${who}`})
                 : button(T.toBot, "to-bot", {seat: s.id}, {aria: `${T.toBot}: ${who}`}))
        : null,
      allowance && s.name ? button(more ? `${T.moreTime} ✓` : T.moreTime, "allow", {seat: s.id, ms: more ? allowance.class : allowance.more},
        {aria: `${T.moreTime}: ${who}`, pressed: more, focus: `allow:${s.id}`}) : null));
  }
  card.append(seats);
  if (summary && renderer && renderer.summary) {
    const body = renderer.summary(board, summary.view, table);
    const holder = el("div", {class: "summary"});
    if (typeof body === "string") holder.innerHTML = body; else holder.append(body);
    card.append(holder);
  }
  return card;
}

function standings(big) {
  const st = data.standings;
  if (!st.final) return null;
  const box = el("section", {class: `card standings${big ? " big" : ""}`}, el("h2", {id: "standings-title"}, T.classRanks));
  const teams = !!st.lower_is_better;
  const round = (x) => String(Math.round(x * 10) / 10);
  const table = el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, T.rank), el("th", {}, teams ? T.team : T.name),
    el("th", {}, T.table("")), el("th", {}, teams ? T.damage : T.score), teams ? el("th", {}, T.botDamage) : null)));
  const body = el("tbody");
  for (const row of st.class) {
    // The projector (big) shows only nicknames the teacher approved; the server sends both.
    const name = big ? row.projected : row.name;
    // A team stopped before its storm passed is not ranked: its damage is only what the storm did
    // so far, shown beside the policy bot's after as many storm moves.
    const stopped = teams && row.stopped;
    // A seat the stand-in played is not ranked, nor credited with the stand-in's points.
    const standIn = !teams && row.stand_in;
    body.append(el("tr", {class: stopped ? "stopped" : standIn ? "stand-in" : ""},
      el("td", {}, stopped ? T.stopped : standIn ? "–" : String(row.class_rank)), el("td", {}, name || ""), el("td", {}, String(row.table)),
      el("td", {}, standIn ? T.standIn : round(row.score), stopped ? el("small", {}, ` (${T.stoppedAfter(row.stopped_after)})`) : null),
      teams ? el("td", {}, round(row.bot_score)) : null));
  }
  table.append(body);
  // on a narrow screen the table scrolls in its own region, not the page
  box.append(el("div", {class: "table-scroll", role: "region", tabindex: "0", "aria-labelledby": "standings-title"}, table));
  return box;
}

function stormLine() {
  const storm = data.storm;
  if (!storm || data.status === "lobby") return null;
  const left = storm.deadline ? Math.max(0, Math.ceil((Date.parse(storm.deadline) - Date.now()) / 1000)) : null;
  // Not a live region: its countdown changes twice a second. The storm's countdown is said once
  // in the dashboard's live region (announceChanges).
  return el("p", {class: "storm-line"}, T.stormLine(storm), " · ",
    T.waitingTables(storm.waiting_tables, data.tables.length),
    left !== null ? el("strong", {class: "countdown", "data-deadline": storm.deadline}, ` · ${T.stormIn(left)}`) : null);
}

setInterval(() => {
  for (const node of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.ceil((Date.parse(node.dataset.deadline) - Date.now()) / 1000));
    node.textContent = ` · ${T.stormIn(left)}`;
  }
}, 500);

function teacherView() {
  const parts = [el("p", {class: "status-line"}, el("span", {class: "badge"}, T.status[data.status]),
    " ", T.students(data.participants.length)),
    refusal ? el("p", {class: "message error", role: refusalFresh ? "alert" : null}, refusal) : null, waitingPanel(), controls(), stormLine()];
  refusalFresh = false;  // said once; later snapshots redraw it without saying it again
  if (data.status === "lobby") {
    parts.push(loopbackWarning(false), checkLink());
    parts.push(el("div", {class: "lobby-grid"}, joinPanel(false),
      el("section", {class: "card"}, el("h2", {}, T.students(data.participants.length)), approveAll(),
        data.participants.length ? roster() : el("p", {class: "muted"}, T.waiting))));
    parts.push(el("section", {class: "grid tables"}, ...data.tables.map(tableCard)));
    return parts;
  }
  if (data.status !== "ended") parts.push(alerts());
  const st = standings(false);
  if (st) parts.push(st);
  parts.push(el("section", {class: "grid tables"}, ...data.tables.map(tableCard)));
  parts.push(el("details", {class: "card", "data-focus-open": "roster", open: openDetails.roster || null},
    el("summary", {"data-focus": "roster-summary"}, T.students(data.participants.length)), roster()));
  return parts;
}

// --- Projector ----------------------------------------------------------------------------------

function screenView() {
  if (data.status === "lobby") {
    const names = el("ul", {class: "screen-names"});
    data.participants.filter((p) => p.approved).forEach((p) => names.append(el("li", {}, p.name)));
    return [loopbackWarning(true), joinPanel(true), el("section", {class: "card"}, el("h2", {}, T.students(data.participants.length)), names)];
  }
  const st = standings(true);
  if (st) return [el("h1", {}, data.status === "ended" ? T.ended : T.standings), st];
  // During play: the class view (projector.js), the storm's class step and its map where there is one.
  return [data.status !== "playing" ? el("p", {class: "badge warn big"}, T.status[data.status]) : null,
    ...classView(data, cfg.qrUrl), stormLine(), classStorm()].filter(Boolean);
}

let stormHolder = null;

function classStorm() {
  // A game with a class step (a shared storm) on the projector: the map of the table furthest behind, so the class
  // sees only storm moves every table has played, step by step as the tablets do.
  if (!data.storm || !renderer || !board) return null;
  const views = data.tables.filter((t) => t.summary).map((t) => t.summary);
  if (!views.length) return null;
  const behind = views.reduce((a, b) => ((b.view.round || 0) < (a.view.round || 0) ? b : a));
  stormHolder = stormHolder || el("div", {class: "screen-storm", "aria-label": gettext("The class's storm")});
  renderer.render(stormHolder, board, {...behind, seat: null},
    {act: () => Promise.resolve(false), busy: true, askTeacher: () => Promise.resolve(false), asking: false});
  return stormHolder;
}

const openDetails = {};
const chosen = {};  // tables picked in "Move to table" lists and not yet moved to, by data-focus key
let live = null, seenAlerts = null, seenStorm = null;

// One polite live region for the teacher: each new alert ("Ana asks for help") and the storm's
// countdown starting, once each; nothing on the first snapshot.
function announceChanges() {
  if (!live) {
    live = el("div", {class: "visually-hidden", role: "status", "aria-live": "polite"});
    root.append(live);
  }
  const alertsNow = new Map((data.alerts || []).map((a) => [`${a.kind}:${a.participant || ""}:${a.table || ""}`, a]));
  const said = [];
  if (seenAlerts) for (const [key, a] of alertsNow) if (!seenAlerts.has(key)) said.push(T.newAlert(alertWho(a), T.alert[a.kind] || a.kind));
  const stormAt = data.storm && data.storm.deadline ? data.storm.deadline : null;
  if (stormAt && seenStorm !== null && stormAt !== seenStorm) {
    said.push(T.stormIn(Math.max(0, Math.ceil((Date.parse(stormAt) - Date.now()) / 1000))) + ".");
  }
  seenAlerts = new Set(alertsNow.keys());
  seenStorm = stormAt || "";
  if (said.length) live.textContent = said.join(" ");
}

// A snapshot changes only what changed on the page: a node equal to the one shown stays (so a
// screen reader keeps its place and focus stays put), an element of the same kind with the same
// attributes keeps itself and has its children patched in turn, anything else is replaced. Equal
// attributes mean equal controls: each button's command and what it acts on are in its
// data-focus and aria-label.
function sameShell(a, b) {
  if (a.nodeType !== 1 || b.nodeType !== 1 || a.tagName !== b.tagName || a.attributes.length !== b.attributes.length) return false;
  if (a.matches("select, input, textarea")) return false; // their values are the snapshot's
  for (const attr of b.attributes) if (a.getAttribute(attr.name) !== attr.value) return false;
  return true;
}

function patch(parent, next) {
  const old = [...parent.childNodes];
  next.forEach((node, i) => {
    const was = old[i];
    if (was === node || (was && was.isEqualNode(node))) return;
    if (was && sameShell(was, node)) { patch(was, [...node.childNodes]); return; }
    if (was) parent.replaceChild(node, was); else parent.append(node);
  });
  for (const extra of old.slice(next.length)) if (!next.includes(extra) && extra.parentNode === parent) extra.remove();
}

function render() {
  const holder = document.getElementById("board-root");
  // A snapshot redraws the page: keep the focused control (by its data-focus key) and open
  // details, and if the focused control went away, focus its section's heading, never the page.
  const active = document.activeElement;
  const focusKey = active && holder.contains(active) && active.dataset ? active.dataset.focus : null;
  for (const d of holder.querySelectorAll("details[data-focus-open]")) openDetails[d.dataset.focusOpen] = d.open;
  patch(holder, (mode === "screen" ? screenView() : teacherView()).filter(Boolean));
  for (const select of holder.querySelectorAll("select[data-focus]")) {
    if (chosen[select.dataset.focus] !== undefined) select.value = chosen[select.dataset.focus];
  }
  if (mode !== "screen") announceChanges();
  if (!focusKey || (document.activeElement && document.activeElement !== document.body)) return;
  const again = holder.querySelector(`[data-focus="${CSS.escape(focusKey)}"]:not([disabled])`);
  const fallback = holder.querySelector(".controls button:not([disabled])") || holder.querySelector("h2");
  const target = again || fallback;
  if (target) {
    if (!again && target.tagName === "H2") target.setAttribute("tabindex", "-1");
    target.focus({preventScroll: true});
  }
}

function setConnection(text) {
  const bar = document.getElementById("connection");
  bar.textContent = text || "";
  bar.hidden = !text;
}

// --- Updates ------------------------------------------------------------------------------------

async function refresh() {
  try {
    const response = await fetch(cfg.jsonUrl, {credentials: "same-origin"});
    if (response.ok) { data = await response.json(); render(); }
  } catch (err) { /* next tick */ }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${scheme}//${location.host}/ws/sessions/${cfg.session}/`);
  ws.onopen = () => { failures = 0; clearInterval(pollTimer); pollTimer = null; setConnection(""); };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "dashboard" && (!data.seq || message.seq > data.seq || message.seq === 1)) { data = message; render(); }
  };
  ws.onclose = (event) => {
    // 4403: this teacher signed out or changed password; reloading shows sign-in, not the names.
    if (event.code === 4403) { location.reload(); return; }
    failures += 1;
    if (failures >= 3 && !pollTimer) { pollTimer = setInterval(refresh, 2000); setConnection(T.polling); }
    else if (!pollTimer) setConnection(T.reconnecting);
    setTimeout(connect, Math.min(10000, 500 * 2 ** failures));
  };
}

setInterval(() => { if (ws && ws.readyState === 1) ws.send('{"type":"ping"}'); }, 20000);

(async () => {
  render();
  try {
    [renderer, board] = await Promise.all([
      import(cfg.rendererUrl),
      fetch(cfg.boardUrl, {credentials: "same-origin"}).then((r) => r.json()),
    ]);
  } catch (err) { renderer = null; }
  render();
  connect();
})();
