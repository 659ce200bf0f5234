// "Hurricane" (the resort game) renderer: one seat's view of the sea board, the outer board, the
// hurricane program's viewer window, the storm-plotting exercise, resorts and money. It computes no
// rule: every cost, damage figure, distance and position comes in the view or the board. Every render
// replaces what is shown; per-root memory keeps scroll, open <details>, focus and the plotted point.
// Safari 15 / Chrome 100: no build step, no syntax newer than ES2020.

import { gettext, ngettext, fmt, money, h, svg, screenMemory, renderScreen, banner, countdown, askButton, sendAction, choiceButton, box, defRows,
  resultsTable, timerMoved, TIMER, fitLabels, onScreen } from "/static/js/kit.js";

// Tablemates' nicknames the teacher approved (play.js passes them; bots and hidden names
// are not there), so the screen says "Ana" rather than "Player 2".
let tablemates = {};

const T = {
  yourTurn: gettext("Your turn: roll the die"),
  yourBuy: gettext("Buy this resort?"),
  yourOption: gettext("Buy an option?"),
  yourShelter: gettext("Shelter: bring your yacht home?"),
  yourRefuge: gettext("Out of the Bermuda Triangle: pick a Shelter"),
  yourSailFrom: gettext("Where does your yacht sail from?"),
  plot: gettext("Plot the storm on the grid"),
  plotted: gettext("Storm plotted — waiting for the others"),
  waitSeat: (name) => fmt(gettext("Waiting for %(name)s"), { name }),
  paused: gettext("Paused by your teacher"),
  botPlaying: gettext("A bot is playing for you…"),
  gameOver: gettext("The season is over"),
  sending: gettext("Sending…"),
  round: (n, cap) => fmt(gettext("Round %(n)s of %(cap)s"), { n, cap }),
  askTeacher: gettext("Ask the teacher"),
  you: gettext("You"),
  seatName: (n) => tablemates[n] || fmt(gettext("Player %(n)s"), { n: n + 1 }),
  money: (n) => money(n),
  // map
  mapTitle: gettext("Sea board"),
  mapCaption: gettext("The sea board: a grid of latitude (north) and longitude (west) every 2 degrees"),
  north: (d) => fmt(gettext("%(d)s°N"), { d }),
  west: (d) => fmt(gettext("%(d)s°W"), { d }),
  cruiseport: gettext("Cruiseport (start)"),
  triangle: gettext("Bermuda Triangle"),
  legend: gettext("How to read the board"),
  legendItems: [
    gettext("Blue squares are sea, green squares are land. Yachts sail only across sea, one square up, down, left or right."),
    gettext("Circles are resorts with their number and colour letter: R red, B blue, G green, Y yellow. A number in a square under it is its owner."),
    gettext("Boats are players' yachts. C is the cruiseport; the triangle is the Bermuda Triangle."),
    gettext("The dashed line is the storm's track so far; the ring is the storm now, with its category."),
  ],
  colourLetter: { red: "R", blue: "B", green: "G", yellow: "Y" }, // symbols on the board, as on the printed one
  colourName: { red: gettext("red"), blue: gettext("blue"), green: gettext("green"), yellow: gettext("yellow") },
  // words
  wordsTitle: gettext("The boards in words"),
  wordsStorm: (lat, lon, cat) => (cat ? fmt(gettext("The storm is at %(lat)s°N, %(lon)s°W, category %(cat)s."), { lat, lon, cat })
    : fmt(gettext("The storm is at %(lat)s°N, %(lon)s°W, a tropical storm."), { lat, lon })),
  wordsNoStorm: gettext("No storm on the board yet."),
  wordsSeat: (name, space, yacht) => fmt(gettext("%(name)s: pawn on %(space)s; yacht %(yacht)s."), { name, space, yacht }),
  yachtAtPort: gettext("at the cruiseport"),
  yachtDocked: (r) => fmt(gettext("docked at %(resort)s"), { resort: r }),
  yachtSailing: (r, n, t) => fmt(ngettext("sailing to %(resort)s, %(n)s squares to go, %(t)s turn left",
    "sailing to %(resort)s, %(n)s squares to go, %(t)s turns left", t), { resort: r, n, t }),
  yachtTriangle: gettext("in the Bermuda Triangle"),
  yachtAt: (lat, lon) => fmt(gettext("at %(lat)s°N, %(lon)s°W"), { lat, lon }),
  // outer board
  outerTitle: gettext("Outer board"),
  space: { start: gettext("Start"), h: gettext("H: hurricane program"), p: gettext("P: buy an option"), sb: gettext("SB: special bulletin"),
    bermuda: gettext("Bermuda Triangle"), shelter: gettext("Shelter"), resort: gettext("Resort") },
  spaceShort: { start: "GO", h: "H", p: "P", sb: "SB", bermuda: "▲", shelter: "S" }, // symbols, hidden from screen readers
  spaceLabel: (i, name, who) => (who ? fmt(gettext("Space %(n)s: %(name)s; here: %(who)s"), { n: i + 1, name, who })
    : fmt(gettext("Space %(n)s: %(name)s"), { n: i + 1, name })),
  // program viewer
  viewerTitle: gettext("Hurricane program"),
  viewerLine: (n, total, side) => fmt(gettext("Line %(n)s of %(total)s · side %(side)s"), { n, total, side }),
  viewerRead: (lat, lon, kt, cat) => (cat ? fmt(gettext("N %(lat)s°, W %(lon)s°, %(kt)s kt, SSS %(cat)s"), { lat, lon, kt, cat })
    : fmt(gettext("N %(lat)s°, W %(lon)s°, %(kt)s kt, tropical storm"), { lat, lon, kt })),
  viewerTs: gettext("below hurricane strength"),
  viewerKey: gettext("kt: knots, the wind speed in nautical miles per hour. SSS: the storm's category on the Saffir-Simpson scale, 1 to 5."),
  tsShort: gettext("TS"), // a tropical storm on the category badge
  viewerNone: gettext("No line read yet. Landing on H moves the program up one line."),
  placedCount: (n, total) => fmt(ngettext("%(n)s of %(total)s player has plotted it", "%(n)s of %(total)s players have plotted it", total), { n, total }),
  stormWas: (name, year) => fmt(gettext("The storm was %(name)s (%(year)s), from NOAA's best track."), { name, year }),
  // plotting
  plotTitle: gettext("Plot the storm"),
  plotHelp: gettext("Read north to the latitude, then west to the longitude (or tap the square on the map)."),
  pickLat: gettext("North latitude"),
  pickLon: gettext("West longitude"),
  pickKeys: gettext("In each list, arrow keys move between the degrees and Enter picks one."),
  place: (lat, lon) => fmt(gettext("Place the storm at %(lat)s°N, %(lon)s°W"), { lat, lon }),
  placeFirst: gettext("Pick a latitude and a longitude first"),
  yourPlot: (lat, lon) => fmt(gettext("You plotted %(lat)s°N, %(lon)s°W."), { lat, lon }),
  // actions
  actionsTitle: gettext("What you can do"),
  roll: gettext("Roll the die"),
  rollSail: gettext("Roll and sail your yacht"),
  sailing: (r, n, t) => fmt(ngettext("Your yacht must reach %(resort)s: %(n)s squares by water, %(t)s turn left before you pay double.",
    "Your yacht must reach %(resort)s: %(n)s squares by water, %(t)s turns left before you pay double.", t), { resort: r, n, t }),
  buy: (k) => (k === 0 ? gettext("Buy, no options") : fmt(ngettext("Buy with %(k)s option", "Buy with %(k)s options", k), { k })),
  buySub: (total, dmg) => fmt(gettext("%(total)s · a category 3 would cost %(dmg)s"), { total, dmg }),
  pass: gettext("No, thanks"),
  optionFor: (name) => fmt(gettext("Option for %(name)s"), { name }),
  optionSub: (cost, now, after) => fmt(gettext("%(cost)s · category 3: %(now)s → %(after)s"), { cost, now, after }),
  goHome: gettext("Yes, yacht to the cruiseport"),
  stay: gettext("No, stay where it is"),
  refugeAsk: gettext("Out of the Bermuda Triangle: pick the Shelter your pawn goes to."),
  refuge: (n) => fmt(gettext("Shelter on space %(n)s"), { n }),
  sailAsk: (r) => fmt(gettext("Your yacht is docked at a resort. Sail to %(resort)s from where it is, or go back to the cruiseport first?"), { resort: r }),
  sailFromDock: gettext("Sail from where it is docked"),
  sailFromPort: gettext("Back to the cruiseport first"),
  squaresAway: (n) => fmt(ngettext("%(n)s square by water", "%(n)s squares by water", n), { n }),
  offerTitle: (name, colour) => fmt(gettext("%(name)s (%(colour)s)"), { name, colour }),
  offerPrice: gettext("Price"),
  offerOption: gettext("Each option"),
  offerOptions: gettext("Options, in order"),
  stormsHit: (n, total) => fmt(gettext("Real storms that reached it: %(n)s of %(total)s"), { n, total }),
  noAction: gettext("Nothing to do until your turn."),
  // resorts
  myTitle: gettext("Your resorts"),
  noneYet: gettext("You own no resort yet."),
  optionNames: [gettext("Kit"), gettext("Evacuation plan"), gettext("Seawall"), gettext("Reinforcement"), gettext("Insurance")],
  optionsHeld: (n) => fmt(gettext("%(n)s of 5 options"), { n }),
  // players
  playersTitle: gettext("Players"),
  cashWorth: (cash, worth) => fmt(gettext("Cash %(cash)s · Worth %(worth)s"), { cash, worth }),
  seatWorth: (seat, worth) => fmt(gettext("%(seat)s: worth %(worth)s"), { seat, worth }),
  seatNamedWorth: (seat, name, worth) => fmt(gettext("%(seat)s %(name)s: worth %(worth)s"), { seat, name, worth }),
  // events
  lastTitle: gettext("What just happened"),
  ev: {
    rolled: (who, n) => fmt(gettext("%(who)s rolled %(n)s."), { who, n }),
    moved: (who, s) => fmt(gettext("%(who)s moved to %(space)s."), { who, space: s }),
    bought: (who, r, k) => fmt(ngettext("%(who)s bought %(resort)s with %(k)s option.", "%(who)s bought %(resort)s with %(k)s options.", k), { who, resort: r, k }),
    bonus: (who, c, amt) => fmt(gettext("%(who)s owns every %(colour)s resort: bonus %(amount)s."), { who, colour: c, amount: amt }),
    option_bought: (who, r, n) => fmt(gettext("%(who)s bought an option for %(resort)s (%(n)s of 5)."), { who, resort: r, n }),
    free_option: (who, r, n) => fmt(gettext("%(who)s got a free option for %(resort)s (%(n)s of 5)."), { who, resort: r, n }),
    lost_option: (who, r, n) => fmt(gettext("%(who)s lost an option at %(resort)s (%(n)s left)."), { who, resort: r, n }),
    paid_bank: (who, amt) => fmt(gettext("%(who)s paid the bank %(amount)s."), { who, amount: amt }),
    must_sail: (who, r, n) => fmt(ngettext("%(who)s must sail to %(resort)s: %(n)s square by water.", "%(who)s must sail to %(resort)s: %(n)s squares by water.", n), { who, resort: r, n }),
    sailed: (who, r, n) => (n ? fmt(ngettext("%(who)s sailed toward %(resort)s: %(n)s square to go.", "%(who)s sailed toward %(resort)s: %(n)s squares to go.", n), { who, resort: r, n })
      : fmt(gettext("%(who)s reached %(resort)s."), { who, resort: r })),
    docked: (who, r, fee, dbl) => (dbl ? fmt(gettext("%(who)s docked at %(resort)s and paid %(fee)s (double: five turns were up)."), { who, resort: r, fee })
      : fmt(gettext("%(who)s docked at %(resort)s and paid %(fee)s."), { who, resort: r, fee })),
    mismanaged: (who, r, fee) => fmt(gettext("%(resort)s is mismanaged: %(who)s paid its owner %(fee)s."), { who, resort: r, fee }),
    mismanaged_owner: (who, r, fee, owner) => fmt(gettext("%(resort)s is mismanaged: its owner %(owner)s paid %(who)s %(fee)s."), { who, resort: r, fee, owner }),
    may_sail: (who, r) => fmt(gettext("%(who)s must sail to %(resort)s and picks where the yacht sails from."), { who, resort: r }),
    triangle_over: (who) => fmt(gettext("%(who)s is out of the Bermuda Triangle and picks a Shelter."), { who }),
    bulletin: (who, title, text) => fmt(gettext("%(who)s drew a bulletin: %(title)s. %(text)s"), { who, title, text }),
    program_moved: (n) => fmt(gettext("The hurricane program moves to line %(n)s: everyone plots the storm."), { n }),
    placed: (n) => fmt(ngettext("%(n)s player plotted it exactly.", "%(n)s players plotted it exactly.", n), { n }),
    storm: (lat, lon, kt, cat) => (cat ? fmt(gettext("The storm is at %(lat)s°N, %(lon)s°W, %(kt)s knots, category %(cat)s."), { lat, lon, kt, cat })
      : fmt(gettext("The storm is at %(lat)s°N, %(lon)s°W, %(kt)s knots, a tropical storm."), { lat, lon, kt })),
    claim: (r, amt) => fmt(gettext("Insurance paid back %(amount)s of the damage at %(resort)s."), { resort: r, amount: amt }),
    damage: (who, r, cat, cost, saved) => (saved ? fmt(gettext("%(resort)s (%(who)s) was hit at category %(cat)s: damage %(cost)s, options saved %(saved)s."), { who, resort: r, cat, cost, saved })
      : fmt(gettext("%(resort)s (%(who)s) was hit at category %(cat)s: damage %(cost)s."), { who, resort: r, cat, cost })),
    bermuda: (who) => fmt(gettext("%(who)s landed in the Bermuda Triangle and loses three turns."), { who }),
    lost_turn: (who, n) => fmt(ngettext("%(who)s is in the Bermuda Triangle (%(n)s more turn).", "%(who)s is in the Bermuda Triangle (%(n)s more turns).", n), { who, n }),
    left_triangle: (who) => fmt(gettext("%(who)s is out of the Bermuda Triangle, at a Shelter."), { who }),
    triangle_fine: (who, amt) => fmt(gettext("The storm crossed the Bermuda Triangle: %(who)s paid %(amount)s."), { who, amount: amt }),
    yacht_home: (who) => fmt(gettext("%(who)s brought the yacht back to the cruiseport."), { who }),
    cannot_afford: (who, r) => fmt(gettext("%(who)s cannot afford %(resort)s."), { who, resort: r }),
    season_closing: gettext("The last round is over: the rest of the program is read out."),
    season_over: gettext("The storm has left the board: the season is over."),
    ended: gettext("Your teacher ended the game."),
    passed: (who) => fmt(gettext("%(who)s passed."), { who }),
  },
  // the same events when they are the student's own, in the second person
  evYou: {
    rolled: (n) => fmt(gettext("You rolled %(n)s."), { n }),
    moved: (s) => fmt(gettext("You moved to %(space)s."), { space: s }),
    bought: (r, k) => fmt(ngettext("You bought %(resort)s with %(k)s option.", "You bought %(resort)s with %(k)s options.", k), { resort: r, k }),
    bonus: (c, amt) => fmt(gettext("You own every %(colour)s resort: bonus %(amount)s."), { colour: c, amount: amt }),
    option_bought: (r, n) => fmt(gettext("You bought an option for %(resort)s (%(n)s of 5)."), { resort: r, n }),
    free_option: (r, n) => fmt(gettext("You got a free option for %(resort)s (%(n)s of 5)."), { resort: r, n }),
    lost_option: (r, n) => fmt(gettext("You lost an option at %(resort)s (%(n)s left)."), { resort: r, n }),
    paid_bank: (amt) => fmt(gettext("You paid the bank %(amount)s."), { amount: amt }),
    must_sail: (r, n) => fmt(ngettext("You must sail to %(resort)s: %(n)s square by water.", "You must sail to %(resort)s: %(n)s squares by water.", n), { resort: r, n }),
    sailed: (r, n) => (n ? fmt(ngettext("Your yacht sailed toward %(resort)s: %(n)s square to go.", "Your yacht sailed toward %(resort)s: %(n)s squares to go.", n), { resort: r, n })
      : fmt(gettext("Your yacht reached %(resort)s."), { resort: r })),
    docked: (r, fee, dbl) => (dbl ? fmt(gettext("Your yacht docked at %(resort)s and you paid %(fee)s (double: five turns were up)."), { resort: r, fee })
      : fmt(gettext("Your yacht docked at %(resort)s and you paid %(fee)s."), { resort: r, fee })),
    mismanaged: (r, fee) => fmt(gettext("%(resort)s is mismanaged: you paid its owner %(fee)s."), { resort: r, fee }),
    mismanaged_owner: (r, fee, owner) => fmt(gettext("%(resort)s is mismanaged: its owner %(owner)s paid you %(fee)s."), { resort: r, fee, owner }),
    mismanaged_mine: (who, r, fee) => fmt(gettext("%(resort)s is mismanaged: you, its owner, paid %(who)s %(fee)s."), { who, resort: r, fee }),
    may_sail: (r) => fmt(gettext("You must sail to %(resort)s and pick where your yacht sails from."), { resort: r }),
    triangle_over: () => gettext("You are out of the Bermuda Triangle: pick a Shelter."),
    bulletin: (title, text) => fmt(gettext("You drew a bulletin: %(title)s. %(text)s"), { title, text }),
    damage: (r, cat, cost, saved) => (saved ? fmt(gettext("Your resort %(resort)s was hit at category %(cat)s: damage %(cost)s, options saved %(saved)s."), { resort: r, cat, cost, saved })
      : fmt(gettext("Your resort %(resort)s was hit at category %(cat)s: damage %(cost)s."), { resort: r, cat, cost })),
    bermuda: () => gettext("You landed in the Bermuda Triangle and lose three turns."),
    lost_turn: (n) => fmt(ngettext("You are in the Bermuda Triangle (%(n)s more turn).", "You are in the Bermuda Triangle (%(n)s more turns).", n), { n }),
    left_triangle: () => gettext("You are out of the Bermuda Triangle, at a Shelter."),
    triangle_fine: (amt) => fmt(gettext("The storm crossed the Bermuda Triangle: you paid %(amount)s."), { amount: amt }),
    yacht_home: () => gettext("You brought your yacht back to the cruiseport."),
    cannot_afford: (r) => fmt(gettext("You cannot afford %(resort)s."), { resort: r }),
    passed: () => gettext("You passed."),
  },
  // results
  resultsTitle: gettext("Final worth"),
  resultsCaption: gettext("Every player's worth: cash plus resort values"),
  resultsHeads: [gettext("Rank"), gettext("Player"), gettext("Worth"), gettext("Cash"), gettext("Resorts"), gettext("Damage"), gettext("Saved by options"), gettext("Exact plots")],
  exactOf: (n, total) => fmt(gettext("%(n)s / %(total)s"), { n, total }),
  endedEarly: gettext("Your teacher ended the game early."),
  // teacher summary
  sumLine: (n, total, round) => fmt(gettext("Program line %(n)s of %(total)s · round %(round)s"), { n, total, round }),
  sumPlot: (n, total) => fmt(gettext("Plotting the storm: %(n)s of %(total)s done"), { n, total }),
  sumNoView: gettext("No game yet."),
};

const SEAT_COLOURS = ["#0b6fa4", "#b3261e", "#1f7a3a", "#7b3fa0"];
const RESORT_FILL = { red: "#d1495b", blue: "#2f6db5", green: "#3c9a5f", yellow: "#e8c547" };
const CAT_COLOURS = { 0: "#9fb4c2", 1: "#f2c14e", 2: "#f29e4c", 3: "#e8702a", 4: "#d1495b", 5: "#8e3b9c" };
const C = 40; // one sea square in SVG units
const PAD = 54; // room for the axis labels
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
  tablemates = (controls && controls.names) || {};
  const mem = remember(root);
  const view = message.view;
  const ctx = { root, board, ix: lookups(board), message, controls, view, mem, seat: message.seat };
  ctx.me = view.seats[message.seat] || null;
  ctx.over = message.status === "finished" || view.over;
  ctx.actions = view.actions || [];
  ctx.canAct = message.status === "playing" && !message.bot && !ctx.over && ctx.actions.length > 0;
  ctx.disabled = !ctx.canAct || Boolean(controls.busy);
  if (view.phase !== "track") { mem.lat = null; mem.lon = null; mem.latFocus = null; mem.lonFocus = null; }
  const tone = bannerTone(ctx);
  renderScreen(root, mem, {
    prefix: "rs", pageClass: "rs rs--" + tone, busy: controls.busy, mapLabel: T.mapTitle,
    header: () => renderHeader(ctx, tone), map: () => renderMap(ctx), panel: () => renderPanel(ctx),
    announce: news(ctx), version: message.version,
    countdown: { running: TIMER.botIn, over: TIMER.botNow, warn: TIMER.botWarn },
  });
  // The control that had focus is gone (a roll became a choice): focus the next sensible one.
  const active = document.activeElement;
  if (ctx.canAct && mem.focusKey && (!active || active === document.body)) {
    const next = root.querySelector(".rs-actions button:not([disabled])");
    if (next) next.focus({ preventScroll: true });
  }
}

// What this version changed, in words, for the screen's live region: the last move's events when
// they changed (a move of the student's own made by the turn timer's bot is said as the bot's
// first), then the banner when it changed. The first render of a screen says only the banner.
function news(ctx) {
  const { view, mem, message } = ctx;
  const events = view.events || [];
  const key = JSON.stringify(events);
  const title = bannerText(ctx);
  const seen = mem.news;
  mem.news = { key, title };
  const ownMoved = Boolean(seen) && key !== seen.key && events.length > 0 && events[0].seat === ctx.seat;
  const byBot = timerMoved(mem, message, ownMoved);
  if (!seen) return title;
  const out = [];
  if (byBot) out.push(TIMER.botMoved);
  if (key !== seen.key) out.push(...eventLines(ctx));
  if (title !== seen.title) out.push(title);
  return out;
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
  if (ctx.canAct) return { roll: T.yourTurn, buy: T.yourBuy, option: T.yourOption, shelter: T.yourShelter, refuge: T.yourRefuge, sail_from: T.yourSailFrom }[view.phase] || T.yourTurn;
  return T.waitSeat(T.seatName(view.turn));
}

function renderHeader(ctx, tone) {
  const { view, message, controls } = ctx;
  const extra = [h("span", { class: "rs-round", text: T.round(view.round, view.round_cap) })];
  if (controls.busy && ctx.canAct) extra.push(h("span", { class: "rs-busy", text: T.sending }));
  if (message.timer && ctx.canAct && message.status === "playing") {
    extra.push(countdown("rs", message.timer, TIMER.botIn, TIMER.botNow, { controls, label: TIMER.moreTime, said: TIMER.moreTimeSaid }));
  }
  const ask = ctx.over ? null : askButton("rs", controls, T.askTeacher, false);
  return banner("rs", "header", tone, bannerText(ctx), extra, ask);
}

// ---- the sea board --------------------------------------------------------------------------

// Words on the board drawn around (x, y): a group that grows so they stay readable where the
// board is shown small (fitLabels).
function label(x, y, ...drawn) {
  return svg("g", { transform: `translate(${x},${y})` }, svg("g", { "data-label": "" }, drawn));
}

function xy(sea, lat, lon) {
  return [PAD + sea.lons.indexOf(lon) * C + C / 2, sea.lats.indexOf(lat) * C + C / 2];
}

function renderMap(ctx) {
  const { board, view, mem } = ctx;
  const sea = board.sea;
  const width = PAD + sea.lons.length * C + 16; // (room for the owner's mark of a resort on the east edge)
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
    parts.push(label(PAD - 4, y + 5, svg("text", { class: "rs-axis", "text-anchor": "end" }, T.north(row.lat))));
  });
  sea.lons.forEach((lon, i) => {
    if (i % 2 === 0) parts.push(label(PAD + i * C + C / 2, sea.lats.length * C + 20, svg("text", { class: "rs-axis", "text-anchor": "middle" }, T.west(lon))));
  });
  const [tx, ty] = xy(sea, sea.triangle[0], sea.triangle[1]);
  parts.push(svg("path", { class: "rs-triangle", d: `M${tx} ${ty - 15} L${tx + 15} ${ty + 12} L${tx - 15} ${ty + 12} Z` }));
  for (const r of board.resorts) {
    const [x, y] = xy(sea, r.lat, r.lon);
    const state = view.resorts.find((v) => v.id === r.id);
    parts.push(svg("g", { class: "rs-resort" }, label(x, y,
      svg("circle", { r: 15, fill: RESORT_FILL[r.colour] }),
      svg("text", { y: 5 }, `${T.colourLetter[r.colour]}${Number(r.id.slice(1))}`),
      state && state.owner !== null ? svg("g", { class: "rs-owner" },
        svg("rect", { x: 4, y: 4, width: 18, height: 18, rx: 3, fill: SEAT_COLOURS[state.owner % 4] }),
        svg("text", { x: 13, y: 18 }, String(state.owner + 1))) : null)));
  }
  const [px, py] = xy(sea, sea.cruiseport[0], sea.cruiseport[1]);
  // the cruise port's mark on its square's lower left corner, drawn over a resort in the
  // middle, clear of the yachts at the top and a resort's owner at the lower right
  parts.push(svg("g", { class: "rs-port" }, label(px - C / 2 + 3, py + C / 2 - 3, svg("rect", { x: -8, y: -8, width: 16, height: 16, rx: 3 }),
    svg("text", { y: 4.5 }, "C"))));
  const revealed = view.program.revealed;
  if (revealed.length > 1) {
    parts.push(svg("polyline", { class: "rs-track", points: revealed.map((l) => xy(sea, l.lat, l.lon).join(",")).join(" ") }));
  }
  if (view.disk) {
    const last = revealed[revealed.length - 1];
    const [x, y] = xy(sea, view.disk[0], view.disk[1]);
    parts.push(svg("g", { class: "rs-disk" }, label(x, y, svg("circle", { r: 19, fill: CAT_COLOURS[last ? last.category : 0] }),
      svg("text", { y: 6 }, last && last.category ? String(last.category) : T.tsShort))));
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
    parts.push(svg("g", { class: "rs-yacht" + (s.seat === ctx.seat ? " is-me" : "") }, label(x + dx, y + dy,
      svg("path", { d: "M-9 0 h18 l-4 7 h-10 Z", fill: SEAT_COLOURS[s.seat % 4] }),
      svg("text", { y: -2 }, String(s.seat + 1)))));
  });
  const map = svg("svg", { class: "rs-map", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": T.mapCaption }, parts);
  const frame = h("div", { class: "rs-mapframe", "data-scroll": "map" }, map);
  // A board wider than its frame scrolls sideways: the frame then takes focus, so keys scroll it.
  requestAnimationFrame(() => {
    fitLabels(onScreen(map), [0, 0, width, height]);
    const scrolls = frame.scrollWidth > frame.clientWidth + 1;
    if (scrolls) frame.setAttribute("tabindex", "0"); else frame.removeAttribute("tabindex");
    if (scrolls) frame.setAttribute("aria-label", T.mapTitle); else frame.removeAttribute("aria-label");
    if (scrolls) frame.setAttribute("role", "group"); else frame.removeAttribute("role");
  });
  return h("div", { class: "rs-mapwrap" }, frame,
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
  sendAction(ctx.controls, action, null, ctx.mem);
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
      h("p", { class: "rs-viewer-line" }, h("span", { class: "rs-cat", style: `background:${CAT_COLOURS[line.category]}`, "aria-hidden": "true", text: line.category ? String(line.category) : T.tsShort }),
        " ", h("strong", { text: T.viewerRead(line.lat, line.lon, line.wind, line.category) }),
        line.category === 0 ? h("span", { class: "rs-muted", text: " · " + T.viewerTs }) : null),
      h("p", { class: "rs-muted rs-key", text: T.viewerKey }));
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
    items.push(h("p", { class: "rs-muted", id: "rs-plot-help" }, T.plotHelp, " ", T.pickKeys),
      coordGroup(ctx, "lat", lats, T.pickLat, T.north, pick),
      coordGroup(ctx, "lon", lons, T.pickLon, T.west, pick),
      button(ctx, { type: "track", lat: mem.lat, lon: mem.lon }, { key: "place", cls: "rs-place", off: !chosen,
        label: chosen ? T.place(mem.lat, mem.lon) : T.placeFirst }));
    return box("rs", "actions", "actions", T.plotTitle, ...items);
  }
  if (view.offer) {
    const o = view.offer;
    const r = ctx.ix.resorts[o.resort];
    items.push(h("p", { class: "rs-offer" }, h("strong", { text: T.offerTitle(r.name, T.colourName[r.colour]) })),
      h("dl", { class: "rs-dl" }, defRows(o.option !== null && o.option !== undefined
        ? [[T.offerPrice, T.money(o.price)], [T.offerOption, T.money(o.option)]]
        : [[T.offerPrice, T.money(o.price)], [T.offerOptions, o.measures.map((m, i) => `${i + 1}. ${T.optionNames[i]} ${T.money(m)}`).join(" · ")]])),
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
    else if (a.type === "refuge") items.push(button(ctx, a, { label: T.refuge(a.space + 1) }));
    else if (a.type === "sail_from") {
      const c = view.sail_choice;
      items.push(button(ctx, a, { label: a.dock ? T.sailFromDock : T.sailFromPort,
        sub: c ? T.squaresAway(a.dock ? c.from_dock : c.from_port) : null }));
    }
  }
  if (view.phase === "refuge" && ctx.canAct) items.unshift(h("p", { text: T.refugeAsk }));
  if (view.sail_choice) items.unshift(h("p", { text: T.sailAsk(resortName(ctx, view.sail_choice.resort)) }));
  return box("rs", "actions", "actions", T.actionsTitle, h("div", { class: "rs-buttons" }, items));
}

// One group of coordinate buttons (every latitude, or every longitude) is one Tab stop: the
// picked one, else the one last focused, else the first, takes Tab; arrow keys (and Home, End)
// move between them, Enter or Space picks.
function coordGroup(ctx, kind, values, legend, text, pick) {
  const { mem } = ctx;
  const roving = values.includes(mem[kind + "Focus"]) ? mem[kind + "Focus"] : values.includes(mem[kind]) ? mem[kind] : values[0];
  const keys = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
  const onkeydown = (e) => {
    const buttons = [...e.currentTarget.querySelectorAll("button.rs-coord")];
    let i = buttons.indexOf(e.target);
    if (i < 0) return;
    if (e.key in keys) i = (i + keys[e.key] + buttons.length) % buttons.length;
    else if (e.key === "Home") i = 0;
    else if (e.key === "End") i = buttons.length - 1;
    else return;
    e.preventDefault();
    buttons.forEach((b, j) => b.setAttribute("tabindex", j === i ? "0" : "-1"));
    buttons[i].focus();
  };
  return h("fieldset", { class: "rs-pick", onkeydown, "aria-describedby": "rs-plot-help" }, h("legend", { text: legend }),
    values.map((v) => h("button", { type: "button", class: "rs-coord", "data-key": `${kind}-${v}`, "aria-pressed": mem[kind] === v ? "true" : "false",
      tabindex: v === roving ? "0" : "-1", disabled: ctx.disabled, onclick: pick(kind, v), onfocus: () => { mem[kind + "Focus"] = v; }, text: text(v) })));
}

function eventLines(ctx) {
  const out = [];
  const money = T.money;
  for (const e of ctx.view.events || []) {
    const w = e.seat !== undefined ? who(ctx, e.seat) : "";
    const r = e.resort ? resortName(ctx, e.resort) : "";
    const f = T.ev[e.type];
    if (!f) continue;
    const mine = e.seat === ctx.seat;
    if (e.type === "mismanaged" && e.paid_by !== undefined && (mine || e.paid_by === ctx.seat)) {
      // the visitor (e.seat) is paid by the resort's owner (paid_by)
      out.push(mine ? T.evYou.mismanaged_owner(r, money(e.fee), who(ctx, e.paid_by)) : T.evYou.mismanaged_mine(w, r, money(e.fee)));
      continue;
    }
    if (mine && T.evYou[e.type]) {
      out.push(youLine(ctx, e, r));
      if (e.type === "damage" && e.claim) out.push(T.ev.claim(r, money(e.claim)));
      continue;
    }
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
      case "mismanaged":
        if (e.paid_by !== undefined) out.push(T.ev.mismanaged_owner(w, r, money(e.fee), who(ctx, e.paid_by)));
        else out.push(f(w, r, money(e.fee)));
        break;
      case "may_sail": case "cannot_afford": out.push(f(w, r)); break;
      case "bulletin": {
        const card = ctx.board.bulletins.find((b) => b.id === e.card);
        out.push(f(w, card.title, card.text)); break;
      }
      case "program_moved": out.push(f(e.line)); break;
      case "placed": out.push(f(e.exact.length)); break;
      case "storm": out.push(f(e.lat, e.lon, e.wind, e.category)); break;
      case "damage":
        out.push(f(who(ctx, e.seat), r, e.category, money(e.cost), e.saved ? money(e.saved) : ""));
        if (e.claim) out.push(T.ev.claim(r, money(e.claim)));
        break;
      case "lost_turn": out.push(f(w, e.left)); break;
      default: out.push(f(w));
    }
  }
  return out;
}

// One event of the student's own, said to them ("You rolled 3.", "You are in the Bermuda Triangle").
function youLine(ctx, e, r) {
  const f = T.evYou[e.type];
  const money = T.money;
  switch (e.type) {
    case "rolled": return f(e.die);
    case "moved": return f(spaceName(ctx, e.space));
    case "bought": return f(r, e.options);
    case "bonus": return f(T.colourName[e.colour], money(e.amount));
    case "option_bought": case "free_option": case "lost_option": return f(r, e.held);
    case "paid_bank": case "triangle_fine": return f(money(e.amount));
    case "must_sail": return f(r, e.squares);
    case "sailed": return f(r, e.left);
    case "docked": return f(r, money(e.fee), e.double);
    case "mismanaged": return f(r, money(e.fee));
    case "may_sail": case "cannot_afford": return f(r);
    case "bulletin": {
      const card = ctx.board.bulletins.find((b) => b.id === e.card);
      return f(card.title, card.text);
    }
    case "damage": return f(r, e.category, money(e.cost), e.saved ? money(e.saved) : "");
    case "lost_turn": return f(e.left);
    default: return f();
  }
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
      h("span", { text: T.cashWorth(T.money(s.cash), T.money(s.worth)) })))));
}

function renderOuter(ctx) {
  const { board, view } = ctx;
  return box("rs", "outer", "outer", T.outerTitle, h("p", { class: "rs-muted rs-key", "aria-hidden": "true", text: [T.space.h, T.space.p, T.space.sb].join(" · ") }),
    h("ol", { class: "rs-outer-list" }, board.outer.map((s) => {
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
      T.money(r.breakdown.damage), T.money(r.breakdown.saved_by_options), T.exactOf(r.breakdown.exact, r.breakdown.tracked)] }))));
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
    h("ul", {}, v.seats.map((s) => h("li", { text: names[s.seat] ? T.seatNamedWorth(T.seatName(s.seat), names[s.seat], T.money(s.worth)) : T.seatWorth(T.seatName(s.seat), T.money(s.worth)) }))));
}
