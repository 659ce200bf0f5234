// "Hurricane" (the resort game) renderer: one seat's view of the sea board, the outer board, the
// hurricane program's viewer window, the storm-plotting exercise, resorts and money. It computes no
// rule: every cost, damage figure, distance and position comes in the view or the board. Every render
// replaces what is shown; per-root memory keeps scroll, open <details>, focus and the plotted point.
// Safari 15 / Chrome 100: no build step, no syntax newer than ES2020.

import { h, svg, screenMemory, renderScreen, banner, countdown, askButton, sendAction, choiceButton, box, defRows,
  resultsTable } from "/static/js/kit.js";

const T = {
  yourTurn: "Your turn: roll the die",
  yourBuy: "Buy this resort?",
  yourOption: "Buy an option?",
  yourShelter: "Shelter: bring your yacht home?",
  plot: "Plot the storm on the grid",
  plotted: "Storm plotted — waiting for the others",
  waitSeat: (name) => `Waiting for ${name}`,
  paused: "Paused by your teacher",
  botPlaying: "A bot is playing for you…",
  gameOver: "The season is over",
  sending: "Sending…",
  timerLeft: (t) => `Turn ends in ${t}`,
  timerUp: "Time is up",
  round: (n, cap) => `Round ${n} of ${cap}`,
  askTeacher: "Ask the teacher",
  teacherAsked: "Teacher asked ✓",
  you: "You",
  seatName: (n) => `Player ${n + 1}`,
  money: (n) => (n < 0 ? "−$" : "$") + Math.abs(n).toLocaleString("en-US"),
  // map
  mapTitle: "Sea board",
  mapCaption: "The sea board: a grid of latitude (north) and longitude (west) every 2 degrees",
  north: (d) => `${d}°N`,
  west: (d) => `${d}°W`,
  cruiseport: "Cruiseport (start)",
  triangle: "Bermuda Triangle",
  legend: "How to read the board",
  legendItems: [
    "Blue squares are sea, green squares are land. Yachts sail only across sea, one square up, down, left or right.",
    "Circles are resorts with their number and colour letter: R red, B blue, G green, Y yellow. A number in a square under it is its owner.",
    "Boats are players' yachts. C is the cruiseport; the triangle is the Bermuda Triangle.",
    "The dashed line is the storm's track so far; the ring is the storm now, with its category.",
  ],
  colourLetter: { red: "R", blue: "B", green: "G", yellow: "Y" },
  colourName: { red: "red", blue: "blue", green: "green", yellow: "yellow" },
  // words
  wordsTitle: "The boards in words",
  wordsStorm: (lat, lon, cat) => `The storm is at ${lat}°N, ${lon}°W, category ${cat}.`,
  wordsNoStorm: "No storm on the board yet.",
  wordsSeat: (name, space, yacht) => `${name}: pawn on ${space}; yacht ${yacht}.`,
  yachtAtPort: "at the cruiseport",
  yachtDocked: (r) => `docked at ${r}`,
  yachtSailing: (r, n, t) => `sailing to ${r}, ${n} squares to go, ${t} turns left`,
  yachtTriangle: "in the Bermuda Triangle",
  yachtAt: (lat, lon) => `at ${lat}°N, ${lon}°W`,
  // outer board
  outerTitle: "Outer board",
  space: { start: "Start", h: "H: hurricane program", p: "P: buy an option", sb: "SB: special bulletin", bermuda: "Bermuda Triangle", shelter: "Shelter", resort: "Resort" },
  spaceShort: { start: "GO", h: "H", p: "P", sb: "SB", bermuda: "▲", shelter: "S" },
  spaceLabel: (i, name, who) => `Space ${i + 1}: ${name}${who ? "; here: " + who : ""}`,
  // program viewer
  viewerTitle: "Hurricane program",
  viewerLine: (n, total, side) => `Line ${n} of ${total} · side ${side}`,
  viewerRead: (lat, lon, kt, cat) => `N ${lat}°, W ${lon}°, ${kt} kt, SSS ${cat}`,
  viewerTs: "below hurricane strength",
  viewerNone: "No line read yet. Landing on H moves the program up one line.",
  viewerDone: (n) => `${n} of the lines read`,
  placedCount: (n, total) => `${n} of ${total} players have plotted it`,
  stormWas: (name, year) => `The storm was ${name} (${year}), from NOAA's best track.`,
  // plotting
  plotTitle: "Plot the storm",
  plotHelp: "Read north to the latitude, then west to the longitude (or tap the square on the map).",
  pickLat: "North latitude",
  pickLon: "West longitude",
  place: (lat, lon) => `Place the storm at ${lat}°N, ${lon}°W`,
  placeFirst: "Pick a latitude and a longitude first",
  yourPlot: (lat, lon) => `You plotted ${lat}°N, ${lon}°W.`,
  // actions
  actionsTitle: "What you can do",
  roll: "Roll the die",
  rollSail: "Roll and sail your yacht",
  sailing: (r, n, t) => `Your yacht must reach ${r}: ${n} squares by water, ${t} turn${t === 1 ? "" : "s"} left before you pay double.`,
  buy: (k) => (k === 0 ? "Buy, no options" : `Buy with ${k} option${k === 1 ? "" : "s"}`),
  buySub: (total, dmg) => `${total} · a category 3 would cost ${dmg}`,
  pass: "No, thanks",
  optionFor: (name) => `Option for ${name}`,
  optionSub: (cost, now, after) => `${cost} · category 3: ${now} → ${after}`,
  goHome: "Yes, yacht to the cruiseport",
  stay: "No, stay where it is",
  offerTitle: (name, colour) => `${name} (${colour})`,
  offerPrice: "Price",
  offerOption: "Each option",
  stormsHit: (n, total) => `Real storms that reached it: ${n} of ${total}`,
  noAction: "Nothing to do until your turn.",
  // resorts
  myTitle: "Your resorts",
  noneYet: "You own no resort yet.",
  optionNames: ["Kit", "Evacuation plan", "Seawall", "Reinforcement", "Insurance"],
  optionsHeld: (n) => `${n} of 5 options`,
  // players
  playersTitle: "Players",
  cash: "Cash",
  worth: "Worth",
  // events
  lastTitle: "What just happened",
  ev: {
    rolled: (who, n) => `${who} rolled ${n}.`,
    moved: (who, s) => `${who} moved to ${s}.`,
    bought: (who, r, k) => `${who} bought ${r} with ${k} option${k === 1 ? "" : "s"}.`,
    bonus: (who, c, amt) => `${who} owns every ${c} resort: bonus ${amt}.`,
    option_bought: (who, r, n) => `${who} bought an option for ${r} (${n} of 5).`,
    free_option: (who, r, n) => `${who} got a free option for ${r} (${n} of 5).`,
    lost_option: (who, r, n) => `${who} lost an option at ${r} (${n} left).`,
    paid_bank: (who, amt) => `${who} paid the bank ${amt}.`,
    must_sail: (who, r, n) => `${who} must sail to ${r}: ${n} squares by water.`,
    sailed: (who, r, n) => (n ? `${who} sailed toward ${r}: ${n} squares to go.` : `${who} reached ${r}.`),
    docked: (who, r, fee, dbl) => `${who} docked at ${r} and paid ${fee}${dbl ? " (double: five turns were up)" : ""}.`,
    mismanaged: (who, r, fee) => `${r} is mismanaged: ${who} paid its owner ${fee}.`,
    bulletin: (who, title, text) => `${who} drew a bulletin: ${title}. ${text}`,
    program_moved: (n) => `The hurricane program moves to line ${n}: everyone plots the storm.`,
    placed: (n) => `${n} player${n === 1 ? "" : "s"} plotted it exactly.`,
    storm: (lat, lon, kt, cat) => `The storm is at ${lat}°N, ${lon}°W, ${kt} knots, category ${cat}.`,
    damage: (who, r, cat, cost, saved) => `${r} (${who}) was hit at category ${cat}: damage ${cost}${saved ? `, options saved ${saved}` : ""}.`,
    bermuda: (who) => `${who} landed in the Bermuda Triangle and loses three turns.`,
    lost_turn: (who, n) => `${who} is in the Bermuda Triangle (${n} more turn${n === 1 ? "" : "s"}).`,
    left_triangle: (who) => `${who} is out of the Bermuda Triangle, at a Shelter.`,
    triangle_fine: (who, amt) => `The storm crossed the Bermuda Triangle: ${who} paid ${amt}.`,
    yacht_home: (who) => `${who} brought the yacht back to the cruiseport.`,
    cannot_afford: (who, r) => `${who} cannot afford ${r}.`,
    season_closing: "The last round is over: the rest of the program is read out.",
    season_over: "The storm has left the board: the season is over.",
    ended: "Your teacher ended the game.",
    passed: (who) => `${who} passed.`,
  },
  // results
  resultsTitle: "Final worth",
  resultsCaption: "Every player's worth: cash plus resort values",
  resultsHeads: ["Rank", "Player", "Worth", "Cash", "Resorts", "Damage", "Saved by options", "Exact plots"],
  endedEarly: "Your teacher ended the game early.",
  // teacher summary
  sumLine: (n, total, round) => `Program line ${n} of ${total} · round ${round}`,
  sumPlot: (n, total) => `Plotting the storm: ${n} of ${total} done`,
  sumNoView: "No game yet.",
};

const SEAT_COLOURS = ["#0b6fa4", "#b3261e", "#1f7a3a", "#7b3fa0"];
const RESORT_FILL = { red: "#d1495b", blue: "#2f6db5", green: "#3c9a5f", yellow: "#e8c547" };
const CAT_COLOURS = { 0: "#9fb4c2", 1: "#f2c14e", 2: "#f29e4c", 3: "#e8702a", 4: "#d1495b", 5: "#8e3b9c" };
const C = 40; // one sea square in SVG units
const PAD = 44; // room for the axis labels
const remember = screenMemory(() => ({ lat: null, lon: null }));

function lookups(board) {
  const resorts = {};
  for (const r of board.resorts) resorts[r.id] = r;
  return { resorts };
}

function who(ctx, seat) {
  return seat === ctx.seat ? T.you : T.seatName(seat);
}

function resortName(ctx, id) {
  return ctx.ix.resorts[id] ? ctx.ix.resorts[id].name : id;
}

function spaceName(ctx, index) {
  const s = ctx.board.outer[index];
  return s.resort ? resortName(ctx, s.resort) : T.space[s.kind];
}

export function render(root, board, message, controls) {
  const mem = remember(root);
  const view = message.view;
  const ctx = { root, board, ix: lookups(board), message, controls, view, mem, seat: message.seat };
  ctx.me = view.seats[message.seat] || null;
  ctx.over = message.status === "finished" || view.over;
  ctx.actions = view.actions || [];
  ctx.canAct = message.status === "playing" && !message.bot && !ctx.over && ctx.actions.length > 0;
  ctx.disabled = !ctx.canAct || Boolean(controls.busy);
  if (view.phase !== "track") { mem.lat = null; mem.lon = null; }
  const tone = bannerTone(ctx);
  renderScreen(root, mem, {
    prefix: "rs", pageClass: "rs rs--" + tone, busy: controls.busy, mapLabel: T.mapTitle,
    header: () => renderHeader(ctx, tone), map: () => renderMap(ctx), panel: () => renderPanel(ctx),
    announce: [bannerText(ctx)].concat(eventLines(ctx)).join(" "), version: message.version,
    countdown: { running: T.timerLeft, over: T.timerUp },
  });
  // The control that had focus is gone (a roll became a choice): focus the next sensible one.
  const active = document.activeElement;
  if (ctx.canAct && mem.focusKey && (!active || active === document.body)) {
    const next = root.querySelector(".rs-actions button:not([disabled])");
    if (next) next.focus({ preventScroll: true });
  }
}

function bannerTone(ctx) {
  const { message, view } = ctx;
  if (ctx.over) return "over";
  if (message.status === "paused") return "paused";
  if (message.bot) return "bot";
  if (ctx.canAct) return view.phase === "track" ? "storm" : "turn";
  return "wait";
}

function bannerText(ctx) {
  const { view } = ctx;
  const tone = bannerTone(ctx);
  if (tone === "over") return T.gameOver;
  if (tone === "paused") return T.paused;
  if (tone === "bot") return T.botPlaying;
  if (view.phase === "track") return ctx.canAct ? T.plot : T.plotted;
  if (ctx.canAct) return { roll: T.yourTurn, buy: T.yourBuy, option: T.yourOption, shelter: T.yourShelter }[view.phase] || T.yourTurn;
  return T.waitSeat(T.seatName(view.turn));
}

function renderHeader(ctx, tone) {
  const { view, message, controls } = ctx;
  const extra = [h("span", { class: "rs-round", text: T.round(view.round, view.round_cap) })];
  if (controls.busy && ctx.canAct) extra.push(h("span", { class: "rs-busy", text: T.sending }));
  if (message.timer && ctx.canAct && message.status === "playing") extra.push(countdown("rs", message.timer, T.timerLeft, T.timerUp));
  const ask = ctx.over ? null : askButton("rs", controls, T.askTeacher, T.teacherAsked, false);
  return banner("rs", "header", tone, bannerText(ctx), extra, ask);
}

// ---- the sea board --------------------------------------------------------------------------

function xy(sea, lat, lon) {
  return [PAD + sea.lons.indexOf(lon) * C + C / 2, sea.lats.indexOf(lat) * C + C / 2];
}

function renderMap(ctx) {
  const { board, view, mem } = ctx;
  const sea = board.sea;
  const width = PAD + sea.lons.length * C;
  const height = sea.lats.length * C + 28;
  const parts = [];
  const plotting = ctx.canAct && !ctx.disabled && view.phase === "track";
  sea.rows.forEach((row) => {
    sea.lons.forEach((lon, i) => {
      const [x, y] = xy(sea, row.lat, lon);
      // While plotting, tapping a square picks both coordinates (the buttons beside do the same by keyboard).
      const pick = plotting ? () => { mem.lat = row.lat; mem.lon = lon; render(ctx.root, ctx.board, ctx.message, ctx.controls); } : null;
      parts.push(svg("rect", { class: (row.land[i] === "#" ? "rs-land" : "rs-sea") + (plotting ? " is-pickable" : ""),
        x: x - C / 2, y: y - C / 2, width: C, height: C, onclick: pick }));
    });
    const [, y] = xy(sea, row.lat, sea.lons[0]);
    parts.push(svg("text", { class: "rs-axis", x: PAD - 4, y: y + 5, "text-anchor": "end" }, T.north(row.lat)));
  });
  sea.lons.forEach((lon, i) => {
    if (i % 2 === 0) parts.push(svg("text", { class: "rs-axis", x: PAD + i * C + C / 2, y: sea.lats.length * C + 20, "text-anchor": "middle" }, T.west(lon)));
  });
  const [px, py] = xy(sea, sea.cruiseport[0], sea.cruiseport[1]);
  parts.push(svg("g", { class: "rs-port" }, svg("rect", { x: px - C / 2 + 1, y: py - C / 2 + 1, width: 16, height: 16, rx: 3 }),
    svg("text", { x: px - C / 2 + 9, y: py - C / 2 + 14 }, "C")));
  const [tx, ty] = xy(sea, sea.triangle[0], sea.triangle[1]);
  parts.push(svg("path", { class: "rs-triangle", d: `M${tx} ${ty - 15} L${tx + 15} ${ty + 12} L${tx - 15} ${ty + 12} Z` }));
  for (const r of board.resorts) {
    const [x, y] = xy(sea, r.lat, r.lon);
    const state = view.resorts.find((v) => v.id === r.id);
    parts.push(svg("g", { class: "rs-resort" },
      svg("circle", { cx: x, cy: y, r: 15, fill: RESORT_FILL[r.colour] }),
      svg("text", { x, y: y + 5 }, `${T.colourLetter[r.colour]}${Number(r.id.slice(1))}`),
      state && state.owner !== null ? svg("g", { class: "rs-owner" },
        svg("rect", { x: x + 4, y: y + 4, width: 18, height: 18, rx: 3, fill: SEAT_COLOURS[state.owner % 4] }),
        svg("text", { x: x + 13, y: y + 18 }, String(state.owner + 1))) : null));
  }
  const revealed = view.program.revealed;
  if (revealed.length > 1) {
    parts.push(svg("polyline", { class: "rs-track", points: revealed.map((l) => xy(sea, l.lat, l.lon).join(",")).join(" ") }));
  }
  if (view.disk) {
    const last = revealed[revealed.length - 1];
    const [x, y] = xy(sea, view.disk[0], view.disk[1]);
    parts.push(svg("g", { class: "rs-disk" }, svg("circle", { cx: x, cy: y, r: 19, fill: CAT_COLOURS[last ? last.category : 0] }),
      svg("text", { x, y: y + 6 }, String(last ? last.category : 0))));
  }
  if (view.my_track || (mem.lat !== null && mem.lon !== null)) {
    const [lat, lon] = view.my_track || [mem.lat, mem.lon];
    const [x, y] = xy(sea, lat, lon);
    parts.push(svg("g", { class: "rs-plot" }, svg("circle", { cx: x, cy: y, r: 17 }), svg("path", { d: `M${x - 10} ${y} H${x + 10} M${x} ${y - 10} V${y + 10}` })));
  }
  view.seats.forEach((s) => {
    const [x, y] = xy(sea, s.yacht[0], s.yacht[1]);
    const dx = (s.seat % 2) * 14 - 7;
    const dy = Math.floor(s.seat / 2) * 12 - 14;
    parts.push(svg("g", { class: "rs-yacht" + (s.seat === ctx.seat ? " is-me" : "") },
      svg("path", { d: `M${x + dx - 9} ${y + dy} h18 l-4 7 h-10 Z`, fill: SEAT_COLOURS[s.seat % 4] }),
      svg("text", { x: x + dx, y: y + dy - 2 }, String(s.seat + 1))));
  });
  const map = svg("svg", { class: "rs-map", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": T.mapCaption }, parts);
  return h("div", { class: "rs-mapwrap" }, h("div", { class: "rs-mapframe" }, map),
    h("details", { class: "rs-legend", "data-key": "legend", open: Boolean(mem.open.legend) }, h("summary", { text: T.legend }),
      h("ul", {}, T.legendItems.map((t) => h("li", { text: t })))),
    renderWords(ctx));
}

function renderWords(ctx) {
  const { view } = ctx;
  const last = view.program.revealed[view.program.revealed.length - 1];
  const lines = [last ? T.wordsStorm(last.lat, last.lon, last.category) : T.wordsNoStorm];
  for (const s of view.seats) {
    let yacht;
    if (s.in_triangle) yacht = T.yachtTriangle;
    else if (s.sail_to) yacht = T.yachtSailing(resortName(ctx, s.sail_to), s.squares_left, s.sail_turns_left);
    else if (s.docked) yacht = T.yachtDocked(resortName(ctx, s.docked));
    else if (s.yacht[0] === ctx.board.sea.cruiseport[0] && s.yacht[1] === ctx.board.sea.cruiseport[1]) yacht = T.yachtAtPort;
    else yacht = T.yachtAt(s.yacht[0], s.yacht[1]);
    lines.push(T.wordsSeat(who(ctx, s.seat), spaceName(ctx, s.pawn), yacht));
  }
  return h("details", { class: "rs-words", "data-key": "words", open: Boolean(ctx.mem.open.words) }, h("summary", { text: T.wordsTitle }),
    h("ul", {}, lines.map((t) => h("li", { text: t }))));
}

// ---- the panel ------------------------------------------------------------------------------

function renderPanel(ctx) {
  const parts = [];
  if (ctx.over) parts.push(renderResults(ctx));
  parts.push(renderViewer(ctx));
  if (!ctx.over) parts.push(renderActions(ctx));
  parts.push(renderLast(ctx), renderMine(ctx), renderPlayers(ctx), renderOuter(ctx));
  return parts;
}

function act(ctx, action) {
  if (ctx.disabled) return;
  sendAction(ctx.controls, action, null);
}

function button(ctx, action, opts) {
  return choiceButton("rs", { ...opts, key: opts.key || JSON.stringify(action), disabled: ctx.disabled || opts.off,
    onclick: () => (opts.onclick ? opts.onclick() : act(ctx, action)) });
}

function renderViewer(ctx) {
  const p = ctx.view.program;
  const line = p.current || p.revealed[p.revealed.length - 1];
  const body = [];
  if (line) {
    body.push(h("p", { class: "rs-viewer-n", text: T.viewerLine(line.number, p.lines_total, p.side) }),
      h("p", { class: "rs-viewer-line" }, h("span", { class: "rs-cat", style: `background:${CAT_COLOURS[line.category]}`, "aria-hidden": "true", text: String(line.category) }),
        " ", h("strong", { text: T.viewerRead(line.lat, line.lon, line.wind, line.category) }),
        line.category === 0 ? h("span", { class: "rs-muted", text: " · " + T.viewerTs }) : null));
  } else {
    body.push(h("p", { class: "rs-muted", text: T.viewerNone }));
  }
  if (ctx.view.phase === "track") body.push(h("p", { class: "rs-muted", text: T.placedCount(ctx.view.tracked.length, ctx.view.seats.length) }));
  if (p.storm) body.push(h("p", { class: "rs-storm-name", text: T.stormWas(p.storm.name, p.storm.year) }));
  return box("rs", "viewer", "viewer", T.viewerTitle, ...body);
}

function renderActions(ctx) {
  const { view, mem } = ctx;
  const items = [];
  if (!ctx.actions.length) {
    items.push(h("p", { class: "rs-muted", text: T.noAction }));
    if (view.my_track) items.push(h("p", { text: T.yourPlot(view.my_track[0], view.my_track[1]) }));
    return box("rs", "actions", "actions", T.actionsTitle, ...items);
  }
  if (view.phase === "track") {
    const pick = (kind, value) => () => { mem[kind] = value; render(ctx.root, ctx.board, ctx.message, ctx.controls); };
    const lats = ctx.board.sea.lats;
    const lons = ctx.board.sea.lons;
    const chosen = mem.lat !== null && mem.lon !== null;
    items.push(h("p", { class: "rs-muted", text: T.plotHelp }),
      h("fieldset", { class: "rs-pick" }, h("legend", { text: T.pickLat }),
        lats.map((lat) => h("button", { type: "button", class: "rs-coord", "data-key": `lat-${lat}`, "aria-pressed": mem.lat === lat ? "true" : "false",
          disabled: ctx.disabled, onclick: pick("lat", lat), text: T.north(lat) }))),
      h("fieldset", { class: "rs-pick" }, h("legend", { text: T.pickLon }),
        lons.map((lon) => h("button", { type: "button", class: "rs-coord", "data-key": `lon-${lon}`, "aria-pressed": mem.lon === lon ? "true" : "false",
          disabled: ctx.disabled, onclick: pick("lon", lon), text: T.west(lon) }))),
      button(ctx, { type: "track", lat: mem.lat, lon: mem.lon }, { key: "place", cls: "rs-place", off: !chosen,
        label: chosen ? T.place(mem.lat, mem.lon) : T.placeFirst }));
    return box("rs", "actions", "actions", T.plotTitle, ...items);
  }
  if (view.offer) {
    const o = view.offer;
    const r = ctx.ix.resorts[o.resort];
    items.push(h("p", { class: "rs-offer" }, h("strong", { text: T.offerTitle(r.name, T.colourName[r.colour]) })),
      h("dl", { class: "rs-dl" }, defRows([[T.offerPrice, T.money(o.price)], [T.offerOption, T.money(o.option)]])),
      h("p", { class: "rs-muted", text: T.stormsHit(r.storms_hit, ctx.board.storms_in_deck) }));
  }
  if (ctx.me && ctx.me.sail_to) {
    items.push(h("p", { class: "rs-sailing", text: T.sailing(resortName(ctx, ctx.me.sail_to), ctx.me.squares_left, ctx.me.sail_turns_left) }));
  }
  for (const a of ctx.actions) {
    if (a.type === "roll") items.push(button(ctx, a, { label: ctx.me && ctx.me.sail_to ? T.rollSail : T.roll, cls: "rs-primary" }));
    else if (a.type === "buy") {
      const c = view.offer.choices[a.options];
      items.push(button(ctx, a, { label: T.buy(a.options), sub: T.buySub(T.money(c.total), T.money(c.damage[2])) }));
    } else if (a.type === "option") {
      const u = (view.upgrades || []).find((x) => x.resort === a.resort);
      items.push(button(ctx, a, { label: T.optionFor(resortName(ctx, a.resort)),
        sub: u ? T.optionSub(T.money(u.cost), T.money(u.damage_now[2]), T.money(u.damage_after[2])) : null }));
    } else if (a.type === "pass") items.push(button(ctx, a, { label: T.pass }));
    else if (a.type === "return") items.push(button(ctx, a, { label: T.goHome }));
    else if (a.type === "stay") items.push(button(ctx, a, { label: T.stay }));
  }
  return box("rs", "actions", "actions", T.actionsTitle, h("div", { class: "rs-buttons" }, items));
}

function eventLines(ctx) {
  const out = [];
  const money = T.money;
  for (const e of ctx.view.events || []) {
    const w = e.seat !== undefined ? who(ctx, e.seat) : "";
    const r = e.resort ? resortName(ctx, e.resort) : "";
    const f = T.ev[e.type];
    if (!f) continue;
    if (typeof f === "string") { out.push(f); continue; }
    switch (e.type) {
      case "rolled": out.push(f(w, e.die)); break;
      case "moved": out.push(f(w, spaceName(ctx, e.space))); break;
      case "bought": out.push(f(w, r, e.options)); break;
      case "bonus": out.push(f(w, T.colourName[e.colour], money(e.amount))); break;
      case "option_bought": case "free_option": case "lost_option": out.push(f(w, r, e.held)); break;
      case "paid_bank": case "triangle_fine": out.push(f(w, money(e.amount))); break;
      case "must_sail": out.push(f(w, r, e.squares)); break;
      case "sailed": out.push(f(w, r, e.left)); break;
      case "docked": out.push(f(w, r, money(e.fee), e.double)); break;
      case "mismanaged": out.push(f(w, r, money(e.fee))); break;
      case "bulletin": {
        const card = ctx.board.bulletins.find((b) => b.id === e.card);
        out.push(f(w, card.title, card.text)); break;
      }
      case "program_moved": out.push(f(e.line)); break;
      case "placed": out.push(f(e.exact.length)); break;
      case "storm": out.push(f(e.lat, e.lon, e.wind, e.category)); break;
      case "damage": out.push(f(who(ctx, e.seat), r, e.category, money(e.cost), e.saved ? money(e.saved) : "")); break;
      case "lost_turn": out.push(f(w, e.left)); break;
      default: out.push(f(w));
    }
  }
  return out;
}

function renderLast(ctx) {
  const lines = eventLines(ctx);
  return box("rs", "last", "last", T.lastTitle, lines.length ? h("ul", { class: "rs-events" }, lines.map((t) => h("li", { text: t })))
    : h("p", { class: "rs-muted", text: "—" }));
}

function optionChips(n) {
  return h("ul", { class: "rs-chips", "aria-label": T.optionsHeld(n) }, T.optionNames.map((name, i) =>
    h("li", { class: i < n ? "is-held" : "" }, h("span", { "aria-hidden": "true", text: i < n ? "✓ " : "– " }), name)));
}

function renderMine(ctx) {
  const mine = ctx.view.resorts.filter((r) => r.owner === ctx.seat);
  if (!mine.length) return box("rs", "mine", "mine", T.myTitle, h("p", { class: "rs-muted", text: T.noneYet }));
  return box("rs", "mine", "mine", T.myTitle, h("ul", { class: "rs-mine-list" }, mine.map((r) => {
    const info = ctx.ix.resorts[r.id];
    return h("li", {}, h("strong", { text: `${T.colourLetter[info.colour]}${Number(r.id.slice(1))} ${info.name}` }),
      " ", h("span", { class: "rs-muted", text: T.optionsHeld(r.held) }), optionChips(r.held));
  })));
}

function renderPlayers(ctx) {
  return box("rs", "players", "players", T.playersTitle, h("ul", { class: "rs-players-list" }, ctx.view.seats.map((s) =>
    h("li", { class: s.seat === ctx.seat ? "is-me" : "" },
      h("span", { class: "rs-dot", style: `background:${SEAT_COLOURS[s.seat % 4]}`, "aria-hidden": "true", text: String(s.seat + 1) }),
      h("strong", { text: who(ctx, s.seat) }), " ",
      h("span", { text: `${T.cash} ${T.money(s.cash)} · ${T.worth} ${T.money(s.worth)}` })))));
}

function renderOuter(ctx) {
  const { board, view } = ctx;
  return box("rs", "outer", "outer", T.outerTitle, h("ol", { class: "rs-outer-list" }, board.outer.map((s) => {
    const here = view.seats.filter((p) => p.pawn === s.index);
    const name = s.resort ? resortName(ctx, s.resort) : T.space[s.kind];
    const r = s.resort ? ctx.ix.resorts[s.resort] : null;
    const owner = r ? view.resorts.find((x) => x.id === s.resort).owner : null;
    return h("li", { class: "rs-space" + (r ? " rs-space--" + r.colour : ""), "aria-label": T.spaceLabel(s.index, name, here.map((p) => who(ctx, p.seat)).join(", ")) },
      h("span", { class: "rs-space-k", "aria-hidden": "true", text: r ? `${T.colourLetter[r.colour]}${Number(s.resort.slice(1))}` : T.spaceShort[s.kind] }),
      owner !== null && owner !== undefined ? h("span", { class: "rs-space-owner", "aria-hidden": "true", style: `background:${SEAT_COLOURS[owner % 4]}`, text: String(owner + 1) }) : null,
      h("span", { class: "rs-pawns", "aria-hidden": "true" }, here.map((p) => h("span", { class: "rs-pawn", style: `background:${SEAT_COLOURS[p.seat % 4]}`, text: String(p.seat + 1) }))));
  })));
}

function renderResults(ctx) {
  const rows = (ctx.message.results || []).slice().sort((a, b) => a.rank - b.rank);
  return h("section", { class: "rs-box rs-results", "aria-labelledby": "rs-results-title" },
    h("h2", { id: "rs-results-title", text: T.resultsTitle }),
    ctx.view.ended ? h("p", { class: "rs-muted", text: T.endedEarly }) : null,
    resultsTable("rs-table", T.resultsCaption, T.resultsHeads, rows.map((r) => ({ me: r.seat === ctx.seat, cells: [
      String(r.rank), who(ctx, r.seat), T.money(r.score), T.money(r.breakdown.cash), String(r.breakdown.resorts.length),
      T.money(r.breakdown.damage), T.money(r.breakdown.saved_by_options), `${r.breakdown.exact} / ${r.breakdown.tracked}`] }))));
}

// ---- teacher dashboard card -----------------------------------------------------------------

export function summary(board, teacherView, table) {
  const v = teacherView;
  if (!v || !v.program) return h("p", { class: "rs-muted", text: T.sumNoView });
  const names = {};
  for (const s of (table && table.seats) || []) names[s.seat] = s.name || null;
  return h("div", { class: "rs-summary" },
    h("p", { text: T.sumLine(v.program.read, v.program.lines_total, v.round) }),
    v.phase === "track" ? h("p", { text: T.sumPlot(v.tracked.length, v.seats.length) }) : null,
    h("ul", {}, v.seats.map((s) => h("li", { text: `${T.seatName(s.seat)}${names[s.seat] ? " " + names[s.seat] : ""}: ${T.worth} ${T.money(s.worth)}` }))));
}
