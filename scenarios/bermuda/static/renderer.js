// "Bermuda Triangle" renderer: one seat's view of the sea grid, its fleet, the cloud and the cone
// of every place the spinner could send it next. It computes no rule: the legal moves (with where
// each stops and why, and the cone's count there), the cloud's cells, the cone and the ports'
// decks all come in the view or the board. Every render replaces what is shown; per-root memory
// keeps pan/zoom, scroll, open <details>, focus and the ship picked on the map.
// Safari 15 / Chrome 100: no build step, no syntax newer than ES2020.

import { gettext, ngettext, fmt, money, h, svg, screenMemory, renderScreen, banner, countdown, askButton, sendAction, choiceButton, box, defRows,
  basisBlock, resultsTable, mapFrame, timerMoved, TIMER, screenBox, overlapArea, outsideArea } from "/static/js/kit.js";

// Every visible string, in one catalogue, through the page language's gettext.
// Tablemates' nicknames the teacher approved (play.js passes them; bots and hidden names
// are not there), so the screen says "Ana" rather than "Player 2".
let tablemates = {};

const T = {
  yourTurn: (roll) => fmt(gettext("Your turn: you rolled %(roll)s. Pick a ship, then where it sails."), { roll }),
  waitTurn: (name) => fmt(gettext("Waiting for %(name)s"), { name }),
  waitOthers: gettext("You have moved: waiting for the others, then the spinner moves the cloud"),
  paused: gettext("Paused by your teacher"),
  botPlaying: gettext("A bot is playing for you…"),
  gameOver: gettext("The voyage is over"),
  sending: gettext("Sending…"),
  round: (n, of) => fmt(gettext("Round %(n)s of %(of)s"), { n, of }),
  target: (t) => fmt(gettext("First to %(target)s of freight wins"), { target: T.money(t) }),
  askTeacher: gettext("Ask the teacher"),
  player: (n) => tablemates[n] || fmt(gettext("Fleet %(n)s"), { n: n + 1 }),
  playerYou: (n) => fmt(gettext("Fleet %(n)s (you)"), { n: n + 1 }),
  mapTitle: gettext("Sea map: ports, paths, ships, the cloud and its cone"),
  mapDesc: gettext("The sea between Miami, Bermuda and Puerto Rico as a grid of dots. The same facts are listed in words beside the map."),
  zoomIn: gettext("Zoom in"), zoomOut: gettext("Zoom out"), zoomReset: gettext("Show the whole sea"),
  legend: gettext("How to read the map"),
  legendItems: [
    gettext("Squares are ports, with the value of their top freight card. Miami is the Home Port (bonus cards)."),
    gettext("Small circles on the lines are spaces where ships sail. Ships show their fleet number."),
    gettext("The cloud: ⊗ cells are its magnets (a ship there is caught), grey cells are pushed aside. No ship may sail under it."),
    gettext("The cloud: ⊗ cells are its core and grey cells its winds. A ship under any of them is caught: it loses its cargo and its fleet pays salvage. No ship may sail under it."),
    gettext("Hatched cells are the cone: where the cloud's magnets could sweep at the next spin. The number is in how many of the 16 spinner sectors."),
    gettext("Dark hatching is the forecast cone: the cloud's path stays inside it about two spins in three, not always. Light hatching is the margin around it that careful captains keep clear of too (the mariner's 1-2-3 rule)."),
    gettext("A picked ship's destinations are marked with a ring and a letter; the same moves are buttons in the panel."),
  ],
  movesTitle: gettext("Your moves"),
  noMove: gettext("No ship of yours can move."),
  shipName: (id) => fmt(gettext("Ship %(n)s"), { n: Number(id.slice(2)) + 1 }),
  fleetShip: (seat, id) => fmt(gettext("%(ship)s of %(fleet)s"), { ship: T.shipName(id), fleet: T.player(seat) }),
  sailTo: (place) => fmt(gettext("Sail to %(place)s"), { place }),
  sailOn: (n, port) => fmt(ngettext("Sail %(n)s space toward %(port)s", "Sail %(n)s spaces toward %(port)s", n), { n, port }),
  docks: (gain) => (gain ? fmt(gettext("docks and takes a %(value)s card"), { value: T.money(gain) }) : gettext("docks (no cards left there)")),
  stop: { cloud: gettext("stops short: the cloud is in the way"), full: gettext("stops short: the port is full"),
    two_own: gettext("stops short: two of your ships are already there") },
  coneRisk: (n, of) => (n ? fmt(gettext("in the cone: swept in %(n)s of %(of)s spins"), { n, of }) : gettext("outside the cone")),
  coneShort: (n, of) => (n ? fmt(gettext("cone %(n)s/%(of)s"), { n, of }) : gettext("safe")),
  // editions 2-4 drew a fixed margin: outside it was lower risk, not none (the storm leaves the
  // cone about one spin in three, and most lost ships were caught outside it); edition 5 draws
  // the margin from the storm's reach, so outside it nothing is caught at the next spin
  zone: [gettext("outside the cone and its margin: lower risk, not no risk"), gettext("in the margin: the cloud can still reach it"), gettext("in the cone: the cloud's likeliest path")],
  zoneShort: [gettext("lower risk, not no risk"), gettext("margin"), gettext("cone")],
  zoneReach: gettext("out of the cloud's reach at the next spin"),
  zoneReachShort: gettext("out of reach this spin"),
  shortHaul: gettext("a short haul: the cargo aboard pays half"),
  forecastCount: (cone, margin) => fmt(gettext("%(cone)s dots are in the forecast cone and %(margin)s more in its margin. The cloud leaves the cone about one spin in three."), { cone, margin }),
  yourInDanger: (names) => (names.length ? fmt(gettext("Your ships in the cone or its margin: %(ships)s."), { ships: names.join(", ") }) : gettext("None of your ships is in the cone or its margin.")),
  spaceOn: (a, b, i) => fmt(gettext("at sea between %(a)s and %(b)s (space %(i)s)"), { a, b, i }),
  cargo: (v) => (v ? fmt(gettext("carrying %(value)s"), { value: T.money(v) }) : gettext("hold empty")),
  lost: gettext("caught by the cloud"),
  dangerTitle: gettext("Danger map"),
  dangerNow: (letter, x, y) => fmt(gettext("The cloud is on dot %(x)s, %(y)s with “%(letter)s” on the notch."), { letter, x: x + 1, y: y + 1 }),
  dangerPattern: gettext("Its pattern now (⊗ magnets catch, ○ pushes aside, ● the locator):"),
  coneCount: (n) => fmt(ngettext("%(n)s dot is in the cone for the next spin.", "%(n)s dots are in the cone for the next spin.", n), { n }),
  yourInCone: (names) => (names.length ? fmt(gettext("Your ships in the cone: %(ships)s."), { ships: names.join(", ") }) : gettext("None of your ships is in the cone.")),
  hanging: (n) => fmt(ngettext("%(n)s caught ship hangs from the cloud.", "%(n)s caught ships hang from the cloud.", n), { n }),
  spinner: gettext("The spinner: each of its 16 sectors is equally likely."),
  dirWord: { N: gettext("north"), S: gettext("south"), E: gettext("east"), W: gettext("west") },
  sector: (s) => (s.count === null
    ? fmt(gettext("%(letter)s: to the %(direction)s edge"), { letter: s.letter, direction: T.dirWord[s.direction] })
    : fmt(ngettext("%(letter)s: %(n)s dot %(direction)s", "%(letter)s: %(n)s dots %(direction)s", s.count),
      { letter: s.letter, n: s.count, direction: T.dirWord[s.direction] })),
  lastSpin: gettext("Last spin:"),
  lastSail: (seat, ship, place) => fmt(gettext("%(fleet)s sailed %(ship)s to %(place)s."), { fleet: T.player(seat), ship: T.shipName(ship), place }),
  lastSailSea: (seat, ship, a, b, i) => fmt(gettext("%(fleet)s sailed %(ship)s out to sea between %(a)s and %(b)s (space %(i)s)."),
    { fleet: T.player(seat), ship: T.shipName(ship), a, b, i }),
  // the student's own move, said to them
  youSail: (ship, place) => fmt(gettext("You sailed %(ship)s to %(place)s."), { ship: T.shipName(ship), place }),
  youSailSea: (ship, a, b, i) => fmt(gettext("You sailed %(ship)s out to sea between %(a)s and %(b)s (space %(i)s)."),
    { ship: T.shipName(ship), a, b, i }),
  yourShip: (id) => fmt(gettext("your %(ship)s"), { ship: T.shipName(id) }),
  allPatterns: gettext("The danger map: the cloud's pattern for every letter"),
  patternOf: (letter) => fmt(gettext("With %(letter)s on the notch"), { letter }),
  patternName: (letter, cap, push) => fmt(gettext("With %(letter)s on the notch: %(cap)s magnet dots catch, %(push)s dots push"), { letter, cap, push }),
  whereAll: gettext("Where every ship is"),
  yourCards: gettext("Your cards:"),
  noCards: gettext("No cards yet."),
  cardWords: (c) => (c.aboard
    ? fmt(gettext("%(kind)s %(value)s (aboard %(ship)s)"), { kind: T.kinds[c.kind], value: T.money(c.value), ship: T.shipName(c.aboard) })
    : fmt(gettext("%(kind)s %(value)s"), { kind: T.kinds[c.kind], value: T.money(c.value) })),
  spinSaid: (sector, letter) => fmt(gettext("The spinner landed on %(sector)s. The cloud turned to %(letter)s and moved."), { sector, letter }),
  spinCaught: (ships) => fmt(gettext("It caught %(ships)s."), { ships }),
  spinNoCatch: gettext("It caught no ship."),
  spinLifted: gettext("It reached the edge and was lifted: its caught ships are lost, and it starts again in the centre."),
  fleetsTitle: gettext("Fleets"),
  fleetRow: (f) => fmt(ngettext("%(held)s held · %(lost)s lost · %(afloat)s of 4 ships afloat · %(into)s of %(moves)s move into the cone",
    "%(held)s held · %(lost)s lost · %(afloat)s of 4 ships afloat · %(into)s of %(moves)s moves into the cone", f.moves),
  { held: T.money(f.freight), lost: T.money(f.lost_freight), afloat: f.afloat, into: f.into_cone, moves: f.moves }),
  salvageRow: (paid, owed) => (owed ? fmt(gettext("salvage paid %(paid)s, %(owed)s still owed"), { paid: T.money(paid), owed: T.money(owed) })
    : fmt(gettext("salvage paid %(paid)s"), { paid: T.money(paid) })),
  portsTitle: gettext("Ports"),
  portRow: (kind, top, left, ships, cap) => fmt(gettext("%(kind)s: %(cards)s (%(left)s left) · %(ships)s of %(cap)s berths taken"),
    { kind, cards: top === null ? gettext("no cards left") : fmt(gettext("top card %(value)s"), { value: T.money(top) }), left, ships, cap }),
  underCloud: gettext("under the cloud"),
  kinds: { sugar: gettext("Sugar"), oil: gettext("Oil"), bananas: gettext("Bananas"), lumber: gettext("Lumber"),
    home: gettext("Home Port bonus"), bonus: gettext("Home Port bonus") },
  learnTitle: gettext("What real mariners do"),
  factChecked: gettext("Checked fact:"), factReported: gettext("Reported:"), factSource: gettext("Source:"), factReportedBy: gettext("Reported by:"),
  resultsTitle: gettext("Results"),
  resultsHeads: [gettext("Place"), gettext("Fleet"), gettext("Freight"), gettext("Lost"), gettext("Ships lost")],
  money: (v) => money(v * 1000),
  ended: { target: gettext("A fleet reached the target."), fleet_lost: gettext("A fleet lost all its ships."), no_freight: gettext("No freight is left."),
    rounds: gettext("The last round is over."), teacher: gettext("Your teacher ended the game."), stuck: gettext("No ship could move.") },
  summary: (r, of, lead, target, lost) => fmt(ngettext("Round %(r)s of %(of)s · leading fleet %(lead)s of %(target)s · %(lost)s ship lost",
    "Round %(r)s of %(of)s · leading fleet %(lead)s of %(target)s · %(lost)s ships lost", lost), { r, of, lead: T.money(lead), target: T.money(target), lost }),
};
const CELL = 40;
const SEAT_FILL = ["#0b4f6c", "#b3261e", "#1f7a3a", "#7a4b9c"];

const remember = screenMemory(() => ({ picked: null }));

function portName(board, id) {
  const port = board.ports.find((p) => p.id === id);
  return port ? port.name : id;
}

function placeWords(board, space) {
  if (!space.includes(".")) return portName(board, space);
  const [route, i] = space.split(".");
  const path = board.paths.find((p) => p.id === route);
  return T.spaceOn(portName(board, path.a), portName(board, path.b), Number(i) + 1);
}

function centre(cell) {
  return [cell[0] * CELL + CELL / 2, cell[1] * CELL + CELL / 2];
}

export function render(root, boardIn, message, controls) {
  tablemates = (controls && controls.names) || {};
  const mem = remember(root);
  const view = message.view;
  const board = view.sea ? { ...boardIn, ...view.sea } : boardIn; // a game of an older rules edition draws its own sea
  const me = message.seat;
  const over = message.status === "finished" || view.over;
  const myTurn = !over && (view.acting || []).includes(me);
  const canAct = myTurn && message.status === "playing" && !message.bot && (view.actions || []).length > 0;
  const ctx = { root, board, message, controls, view, me, mem, over, myTurn, canAct, disabled: !canAct || Boolean(controls.busy),
    rerender: () => render(root, boardIn, message, controls) };
  if (mem.picked && !view.moves.some((m) => m.ship === mem.picked)) mem.picked = null;
  // When a turn starts, focus goes to the first move (unless the student is elsewhere on the page).
  if (canAct && !mem.wasActing && view.moves.length) {
    const m = view.moves[0];
    mem.focusKey = JSON.stringify({ type: "sail", ship: m.ship, to: m.to });
  }
  mem.wasActing = canAct;
  renderScreen(root, mem, {
    prefix: "bt", pageClass: "bt" + (canAct ? " bt--turn" : ""), busy: controls.busy, mapLabel: T.mapTitle,
    header: () => renderHeader(ctx), map: () => renderMap(ctx), panel: () => renderPanel(ctx),
    announce: news(ctx), version: message.version,
    countdown: { running: TIMER.botIn, over: TIMER.botNow, warn: TIMER.botWarn },
  });
}

// What this version changed, in words, for the screen's live region: the last sail when it
// changed (the student's own in the second person, and said as the bot's first when the turn
// timer's bot made it), the spin when it changed, then the banner when it changed. The first
// render of a screen says only the banner.
function news(ctx) {
  const { view, mem, message, me } = ctx;
  const sail = JSON.stringify(view.last_sail || null), spin = JSON.stringify(view.last_spin || null);
  const title = bannerText(ctx);
  const seen = mem.news;
  mem.news = { sail, spin, title };
  const ownMoved = Boolean(seen) && sail !== seen.sail && Boolean(view.last_sail) && view.last_sail.seat === me;
  const byBot = timerMoved(mem, message, ownMoved);
  if (!seen) return title;
  const out = [];
  if (byBot) out.push(TIMER.botMoved);
  if (sail !== seen.sail) out.push(sailText(ctx));
  if (spin !== seen.spin) out.push(spinText(ctx));
  if (title !== seen.title) out.push(title);
  return out;
}

function bannerText(ctx) {
  const { view, message, me } = ctx;
  if (ctx.over) return T.gameOver;
  if (message.status === "paused") return T.paused;
  if (message.bot && ctx.myTurn) return T.botPlaying;
  if (ctx.myTurn) return T.yourTurn(view.roll);
  if (view.turns === "in_turn") return T.waitTurn(T.player(view.turn));
  return view.moved[me] ? T.waitOthers : T.waitTurn(T.player(view.turn));
}

function sailText(ctx) {
  const s = ctx.view.last_sail;
  if (!s) return "";
  const mine = s.seat === ctx.me;
  if (!s.to.includes(".")) return mine ? T.youSail(s.ship, portName(ctx.board, s.to)) : T.lastSail(s.seat, s.ship, portName(ctx.board, s.to));
  const [route, i] = s.to.split(".");
  const path = ctx.board.paths.find((p) => p.id === route);
  const a = portName(ctx.board, path.a), b = portName(ctx.board, path.b);
  return mine ? T.youSailSea(s.ship, a, b, Number(i) + 1) : T.lastSailSea(s.seat, s.ship, a, b, Number(i) + 1);
}

function spinText(ctx) {
  const s = ctx.view.last_spin;
  if (!s) return "";
  const sector = ctx.board.spinner[s.sector];
  const caught = s.caught.map((id) => (Number(id[1]) === ctx.me ? T.yourShip(id) : T.fleetShip(Number(id[1]), id))).join(", ");
  const lifted = s.lifted.length > 0 || sector.count === null;
  return [T.spinSaid(T.sector(sector), sector.letter), caught ? T.spinCaught(caught) : T.spinNoCatch, lifted ? T.spinLifted : ""]
    .filter(Boolean).join(" ");
}

function renderHeader(ctx) {
  const { view, message, controls } = ctx;
  let tone = "wait";
  if (ctx.canAct) tone = "turn";
  else if (message.status === "paused") tone = "paused";
  else if (message.bot && ctx.myTurn) tone = "bot";
  else if (ctx.over) tone = "over";
  const extra = [h("span", { class: "bt-round", text: T.round(Math.min(view.round, view.rounds), view.rounds) }),
    h("span", { class: "bt-muted", text: T.target(view.target) })];
  if (controls.busy && ctx.canAct) extra.push(h("span", { class: "bt-busy", text: T.sending }));
  if (message.timer && ctx.myTurn && message.status === "playing" && !message.bot) {
    extra.push(countdown("bt", message.timer, TIMER.botIn, TIMER.botNow, { controls, label: TIMER.moreTime, said: TIMER.moreTimeSaid }));
  }
  const ask = ctx.over ? null : askButton("bt", controls, T.askTeacher, false);
  return h("header", { class: "bt-head" }, banner("bt", "div", tone, bannerText(ctx), extra, ask));
}

// ---- the map ----------------------------------------------------------------------------------

function renderMap(ctx) {
  const { board, view, mem, me } = ctx;
  const W = board.grid.cols * CELL, H = board.grid.rows * CELL;
  const home = [-10, -30, W + 20, H + 60];
  if (!mem.box) mem.box = home.slice();
  const cone = new Map(view.cone.map(([x, y, n]) => [`${x},${y}`, n]));
  const layers = [];
  layers.push(svg("defs", {},
    svg("pattern", { id: "bt-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 8, height: 8, fill: "#fde3c6" }), svg("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#e07a1f", "stroke-width": 3 }))));
  layers.push(svg("rect", { x: -10, y: -30, width: W + 20, height: H + 60, class: "bt-sea" }));
  for (const [key, n] of cone) {
    const [x, y] = key.split(",").map(Number);
    layers.push(svg("g", { class: "bt-cone" + (view.forecast ? (n === 2 ? " is-cone" : " is-margin") : "") },
      svg("rect", { x: x * CELL + 1, y: y * CELL + 1, width: CELL - 2, height: CELL - 2, fill: "url(#bt-hatch)",
        opacity: view.forecast ? (n === 2 ? 0.9 : 0.35) : 0.35 + 0.65 * n / view.sectors }),
      view.forecast ? null : label(x * CELL + CELL - 4, y * CELL + 14,
        svg("text", { class: "bt-cone-n", "text-anchor": "end", text: String(n) }))));
  }
  for (let x = 0; x < board.grid.cols; x++) {
    for (let y = 0; y < board.grid.rows; y++) layers.push(svg("circle", { cx: x * CELL + CELL / 2, cy: y * CELL + CELL / 2, r: 1.6, class: "bt-dot" }));
  }
  const cr = board.grid.centre;
  layers.push(svg("circle", { cx: centre(cr)[0], cy: centre(cr)[1], r: 6, class: "bt-red" }));
  for (const path of board.paths) {
    const pts = [board.spaces[path.a], ...path.cells, board.spaces[path.b]].map((c) => centre(c).join(","));
    layers.push(svg("polyline", { points: pts.join(" "), class: "bt-path" }));
    for (const c of path.cells) layers.push(svg("circle", { cx: centre(c)[0], cy: centre(c)[1], r: 7, class: "bt-space" }));
  }
  // the cloud
  for (const c of view.cloud.push) layers.push(svg("rect", { x: c[0] * CELL + 2, y: c[1] * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 10, class: "bt-cloud-push" }));
  for (const c of view.cloud.capture) {
    layers.push(svg("rect", { x: c[0] * CELL + 2, y: c[1] * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 10, class: "bt-cloud-cap" }));
    layers.push(label(centre(c)[0], centre(c)[1], svg("text", { y: 6, class: "bt-cloud-mag", "text-anchor": "middle", text: "⊗" })));
  }
  const at = centre(view.cloud.at);
  layers.push(label(at[0], at[1], svg("circle", { r: 13, class: "bt-locator" }),
    svg("text", { y: 5, class: "bt-locator-t", "text-anchor": "middle", text: view.cloud.letter })));
  for (const port of board.ports) {
    const [px, py] = centre(port.cell);
    const info = view.ports[port.id];
    layers.push(svg("g", { class: "bt-port" + (info.closed ? " is-closed" : "") },
      label(px, py, svg("rect", { x: -14, y: -14, width: 28, height: 28, rx: 4 }),
        svg("text", { y: 5, "text-anchor": "middle", class: "bt-port-top", text: info.top === null ? "–" : String(info.top) }),
        svg("text", { x: Math.min(Math.max(px, 56), W - 66) - px, y: -19, "text-anchor": "middle", class: "bt-port-name", text: port.name }))));
  }
  // ships (in port: in a small row under the port, which grows as one label)
  const byPort = {};
  const picked = ctx.mem.picked;
  for (const ship of view.ships) {
    if (ship.status !== "afloat") continue;
    const [cx, cy] = centre(board.spaces[ship.at]);
    let sx = 0, sy = 0;
    if (!ship.at.includes(".")) {
      if (!byPort[ship.at]) layers.push(byPort[ship.at] = label(cx, cy));
      sx = (byPort[ship.at].firstChild.childNodes.length - 1.5) * 16; sy = 20; // side by side, each number in full
    }
    const mine = ship.seat === me;
    const canPick = ctx.canAct && mine && view.moves.some((m) => m.ship === ship.id);
    const drawn = svg("g", {
      class: "bt-ship" + (mine ? " is-mine" : "") + (picked === ship.id ? " is-picked" : "") + (canPick ? " can-pick" : ""),
      "data-ship": ship.id, "aria-hidden": "true", onclick: canPick ? () => pick(ctx, ship.id) : null,
    },
      svg("circle", { cx: sx, cy: sy, r: mine ? 8 : 7, fill: SEAT_FILL[ship.seat] }),
      svg("text", { x: sx, y: sy + 4, "text-anchor": "middle", class: "bt-ship-n", text: String(ship.seat + 1) }),
      canPick ? svg("circle", { cx: sx, cy: sy, r: 18, class: "bt-hit" }) : null);
    if (byPort[ship.at]) byPort[ship.at].firstChild.append(drawn);
    else layers.push(label(cx, cy, drawn));
  }
  if (picked && ctx.canAct) {
    view.moves.filter((m) => m.ship === picked).forEach((m, i) => {
      const [dx, dy] = centre(board.spaces[m.to]);
      layers.push(label(dx, dy, svg("g", { class: "bt-dest", "data-to": m.to, "aria-hidden": "true", onclick: () => sail(ctx, m) },
        svg("circle", { r: 15 }),
        svg("text", { y: 5, "text-anchor": "middle", text: String.fromCharCode(65 + i) }),
        svg("circle", { r: 20, class: "bt-hit" }))));
    });
  }
  const map = svg("svg", { class: "bt-map", viewBox: mem.box.join(" "), role: "img", "aria-label": T.mapTitle,
    "aria-describedby": "bt-map-desc", preserveAspectRatio: "xMidYMid meet" }, layers);
  return mapFrame("bt", mem, map, {
    limits: { world: home, minWidth: 200, maxWidth: W + 200, alignY: 0.5 }, home,
    labels: { zoomIn: T.zoomIn, zoomOut: T.zoomOut, zoomReset: T.zoomReset },
    descId: "bt-map-desc", desc: T.mapDesc, arrange: arrangePortNames, legend: { title: T.legend, items: T.legendItems.filter((_, i) => (ctx.view.salvage ? i !== 2 : i !== 3) && (ctx.view.forecast ? i !== 4 : i !== 5)), showTitle: true },
  });
}

// Each port's name goes above its box (as drawn), else left, right or under its ships: the side
// where it covers the least of the ships, boxes and names already placed and stays inside the
// map; at the zoom shown, as the labels' size depends on it (see fitLabels).
function arrangePortNames(map) {
  const frame = map.getBoundingClientRect();
  const taken = [...map.querySelectorAll(".bt-ship circle:not(.bt-hit), .bt-ship text, .bt-port rect, .bt-port-top, .bt-locator")].map((el) => screenBox(el)).filter((r) => r.right > r.left);
  for (const name of map.querySelectorAll(".bt-port-name")) {
    if (!name.dataset.x) name.dataset.x = name.getAttribute("x");
    const sides = [[name.dataset.x, -19, "middle"], [-18, 5, "end"], [18, 5, "start"], [0, 46, "middle"]];
    let best = null;
    sides.forEach(([x, y, anchor], i) => {
      name.setAttribute("x", x);
      name.setAttribute("y", y);
      name.setAttribute("text-anchor", anchor);
      const r = screenBox(name);
      const cost = taken.reduce((sum, t) => sum + overlapArea(r, t), 0) + outsideArea(r, frame) * 4 + i * 4;
      if (!best || cost < best.cost) best = { cost, x, y, anchor, r };
    });
    name.setAttribute("x", best.x);
    name.setAttribute("y", best.y);
    name.setAttribute("text-anchor", best.anchor);
    taken.push(best.r);
  }
}

// Words on the map drawn around (x, y): a group that grows so they stay readable where the map is
// shown small (fitLabels).
function label(x, y, ...drawn) {
  return svg("g", { transform: `translate(${x},${y})` }, svg("g", { "data-label": "" }, drawn));
}

function pick(ctx, shipId) {
  ctx.mem.picked = ctx.mem.picked === shipId ? null : shipId;
  // focus follows the pick: the ship's first move once picked, else its pick button
  const first = ctx.view.moves.find((m) => m.ship === shipId);
  const key = ctx.mem.picked && first ? JSON.stringify({ type: "sail", ship: first.ship, to: first.to }) : `pick-${shipId}`;
  const el = ctx.root.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (el) el.focus({ preventScroll: true });
  ctx.rerender();
}

function sail(ctx, move) {
  if (ctx.disabled) return;
  ctx.mem.picked = null;
  sendAction(ctx.controls, { type: "sail", ship: move.ship, to: move.to }, null, ctx.mem);
}

// ---- the panel --------------------------------------------------------------------------------

function renderPanel(ctx) {
  const { board } = ctx;
  const parts = [];
  if (ctx.over) parts.push(renderResults(ctx));
  if (ctx.myTurn) parts.push(renderMoves(ctx));
  parts.push(renderDanger(ctx), renderFleets(ctx), renderPorts(ctx));
  parts.push(box("bt", "learn", "learn", T.learnTitle,
    board.lessons.map((l) => h("details", { "data-key": `learn-${l.id}`, open: ctx.mem.open[`learn-${l.id}`] || null },
      h("summary", { text: l.title }), basisBlock(l.basis, T, "bt-basis")))));
  return parts;
}

function moveLabel(ctx, m) {
  return m.docks ? T.sailTo(portName(ctx.board, m.to)) : T.sailOn(m.steps, portName(ctx.board, m.toward));
}

function moveSub(ctx, m) {
  const bits = [];
  if (m.docks) bits.push(T.docks(m.gain));
  if (m.short_haul) bits.push(T.shortHaul);
  if (m.stop && T.stop[m.stop]) bits.push(T.stop[m.stop]);
  bits.push(ctx.view.forecast ? zoneWords(ctx.view, m.risk) : T.coneRisk(m.risk, ctx.view.sectors));
  return bits.join(" · ");
}

// what the tablet calls a zone: from edition 5 a dot outside the margin is out of reach
function zoneWords(view, risk, short = false) {
  if (risk === 0 && view.margin_from_reach) return short ? T.zoneReachShort : T.zoneReach;
  return (short ? T.zoneShort : T.zone)[risk];
}

function renderMoves(ctx) {
  const { view, me } = ctx;
  const mine = view.ships.filter((s) => s.seat === me && s.status === "afloat");
  const groups = mine.filter((s) => view.moves.some((m) => m.ship === s.id)).map((ship) => {
    const moves = view.moves.filter((m) => m.ship === ship.id);
    const picked = ctx.mem.picked === ship.id;
    const name = T.shipName(ship.id);
    return h("fieldset", { class: "bt-group" + (picked ? " is-picked" : "") },
      h("legend", {}, h("button", { type: "button", class: "bt-pick", "data-key": `pick-${ship.id}`, "aria-pressed": picked ? "true" : "false",
        disabled: ctx.disabled, onclick: () => pick(ctx, ship.id) },
        `${name} · ${placeWords(ctx.board, ship.at)} · ${T.cargo(ship.cargo)} · ${view.forecast ? zoneWords(view, ship.risk, true) : T.coneShort(ship.risk, view.sectors)}`)),
      h("div", { class: "bt-choices" }, moves.map((m, i) => choiceButton("bt", {
        key: JSON.stringify({ type: "sail", ship: m.ship, to: m.to }), cls: m.risk ? "is-risky" : "is-safe",
        label: (picked ? String.fromCharCode(65 + i) + ". " : "") + moveLabel(ctx, m), sub: moveSub(ctx, m),
        name: `${name}: ${moveLabel(ctx, m)}, ${moveSub(ctx, m)}`,
        disabled: ctx.disabled, onclick: () => sail(ctx, m) }))));
  });
  return box("bt", "moves", "moves", T.movesTitle, groups.length ? groups : h("p", { text: T.noMove }));
}

function pattern(board, letter) {
  const rot = board.rotations[letter];
  const cap = new Set(rot.capture.map((c) => c.join(","))), push = new Set(rot.push.map((c) => c.join(",")));
  const rows = [];
  for (let dy = -2; dy <= 2; dy++) {
    const cells = [];
    for (let dx = -2; dx <= 2; dx++) {
      const k = `${dx},${dy}`;
      const kind = dx === 0 && dy === 0 ? "eye" : cap.has(k) ? "cap" : push.has(k) ? "push" : "none";
      cells.push(h("span", { class: `bt-pat is-${kind}`, text: { eye: "●", cap: "⊗", push: "○", none: "" }[kind] }));
    }
    rows.push(h("div", { class: "bt-pat-row" }, cells));
  }
  return h("div", { class: "bt-pattern", role: "img",
    "aria-label": T.patternName(letter, rot.capture.length, rot.push.length) }, rows);
}

function renderDanger(ctx) {
  const { view, board, me } = ctx;
  const inCone = view.ships.filter((s) => s.seat === me && s.status === "afloat" && s.risk > 0).map((s) => T.shipName(s.id));
  const spin = view.last_spin ? h("p", { class: "bt-spin" }, h("strong", { text: T.lastSpin }), " ", spinText(ctx)) : null;
  return box("bt", "danger", "danger", T.dangerTitle,
    h("p", { text: T.dangerNow(view.cloud.letter, view.cloud.at[0], view.cloud.at[1]) }),
    h("p", { class: "bt-muted", text: T.dangerPattern }),
    pattern(board, view.cloud.letter),
    h("p", { text: view.forecast
      ? `${T.forecastCount(view.cone.filter((c) => c[2] === 2).length, view.cone.filter((c) => c[2] === 1).length)} ${T.yourInDanger(inCone)}`
      : `${T.coneCount(view.cone.length)} ${T.yourInCone(inCone)}` }),
    view.cloud.hanging.length ? h("p", { text: T.hanging(view.cloud.hanging.length) }) : null,
    spin,
    h("details", { "data-key": "patterns", open: ctx.mem.open.patterns || null },
      h("summary", { text: T.allPatterns }),
      h("div", { class: "bt-patterns" }, Object.keys(board.rotations).map((letter) =>
        h("figure", {}, pattern(board, letter), h("figcaption", { text: T.patternOf(letter) }))))),
    h("details", { "data-key": "spinner", open: ctx.mem.open.spinner || null },
      h("summary", { text: T.spinner }),
      h("ul", { class: "bt-sectors" }, board.spinner.map((s) => h("li", { text: T.sector(s) })))));
}

function renderFleets(ctx) {
  const { view, me } = ctx;
  return box("bt", "fleets", "fleets", T.fleetsTitle,
    h("dl", {}, defRows(view.seats.map((f) => [f.seat === me ? T.playerYou(f.seat) : T.player(f.seat), f.owed ? `${T.fleetRow(f)} · ${T.salvageRow(f.salvage, f.owed - f.salvage)}` : T.fleetRow(f)]))),
    h("ul", { class: "bt-myships" }, view.ships.filter((s) => s.seat === me).map((s) =>
      h("li", { text: `${T.shipName(s.id)}: ${shipWords(ctx, s)}` }))),
    h("p", {}, h("strong", { text: T.yourCards }), " ",
      view.cards.length ? view.cards.map(T.cardWords).join(", ") : T.noCards),
    h("details", { "data-key": "where-all", open: ctx.mem.open["where-all"] || null },
      h("summary", { text: T.whereAll }),
      h("ul", { class: "bt-myships" }, view.ships.filter((s) => s.seat !== me).map((s) =>
        h("li", { text: `${T.player(s.seat)}, ${T.shipName(s.id)}: ${shipWords(ctx, s)}` })))));
}

function shipWords(ctx, s) {
  const view = ctx.view;
  return s.status === "afloat" ? `${placeWords(ctx.board, s.at)} · ${T.cargo(s.cargo)} · ${view.forecast ? zoneWords(view, s.risk, true) : T.coneShort(s.risk, view.sectors)}` : T.lost;
}

function renderPorts(ctx) {
  const { view, board } = ctx;
  const cap = view.seats.length;
  return box("bt", "ports", "ports", T.portsTitle, h("dl", {}, defRows(board.ports.map((p) => {
    const info = view.ports[p.id];
    const row = T.portRow(T.kinds[p.home ? "home" : p.freight], info.top, info.left, info.ships, cap);
    return [p.name, info.closed ? `${row} · ${T.underCloud}` : row];
  }))));
}

function renderResults(ctx) {
  const { message, view, me } = ctx;
  const results = message.results || [];
  const rows = [...results].sort((a, b) => a.rank - b.rank).map((r) => ({
    me: r.seat === me,
    cells: [String(r.rank), r.seat === me ? T.playerYou(r.seat) : T.player(r.seat), T.money(r.breakdown.freight),
      T.money(r.breakdown.lost_freight), String(r.breakdown.ships_lost)],
  }));
  return box("bt", "results", "results", T.resultsTitle,
    h("p", { text: T.ended[view.ended] || "" }),
    rows.length ? resultsTable("bt-results-table", T.resultsTitle, T.resultsHeads, rows) : null);
}

// ---- the teacher's summary ----------------------------------------------------------------------

export function summary(board, view) {
  const lead = Math.max(...view.seats.map((s) => s.freight));
  const lost = view.seats.reduce((n, s) => n + (4 - s.afloat), 0);
  return h("p", { class: "bt-summary", text: T.summary(Math.min(view.round, view.rounds), view.rounds, lead, view.target, lost) });
}

export function progress(board, view) {
  return view ? view.progress : null;
}
