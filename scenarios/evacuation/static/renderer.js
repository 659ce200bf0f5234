// "Hurricane Approaching!" scenario renderer: draws one seat's view and turns its legal actions
// into big buttons. The transport (play.js) owns the socket; this module only renders, on the
// screen skeleton of kit.js. It computes no rule: every number and rule-derived flag it shows
// (the roll a road needs and its odds, prices and costs, the phase of the warning timeline, hours
// left, whether the household has left home) comes in the view or the board.
// Every render replaces what is shown (never patches); per-root memory keeps pan/zoom, scroll,
// open <details> and focus across renders. Safari 15 / Chrome 100: no build step, no new syntax.

import { gettext, pgettext, fmt, money, numberFormat, h, svg, screenMemory, renderScreen, banner, countdown, askButton, sendAction, choiceButton, box, defRows, basisBlock,
  resultsTable, mapFrame, on, TIMER, screenBox, overlapArea, outsideArea } from "/static/js/kit.js";

// Tablemates' nicknames the teacher approved (play.js passes them; bots and hidden names
// are not there), so the screen says "Ana" rather than "Player 2".
let tablemates = {};

const T = {
  yourMove: gettext("Your move"),
  paused: gettext("Paused by your teacher"),
  botPlaying: gettext("A bot is playing for you…"),
  gameOver: gettext("Game over"),
  endedEarly: gettext("Your teacher ended the game early."),
  waitingOthers: gettext("Waiting for the other households to finish."),
  seatDone: {
    arrived: (place, hour) => fmt(gettext("You arrived at %(place)s at hour %(hour)s."), { place, hour }),
    // the chosen destination, its label in lower case as English writes it after "the"
    arrivedAtDestination: (place, hour) => fmt(gettext("You arrived at the %(place)s at hour %(hour)s."), { place, hour }),
    stayed: () => gettext("You stayed home."),
    out_of_time: () => gettext("Tropical-storm winds arrived while you were on the road."),
    stopped: () => gettext("Your game was stopped."),
  },
  sending: gettext("Sending…"),
  askTeacher: gettext("Ask the teacher"),
  hour: (h) => fmt(gettext("Hour %(h)s"), { h }),
  hourShort: (h) => fmt(gettext("h %(h)s"), { h }),
  phase: { watch: gettext("Hurricane watch"), warning: gettext("Hurricane warning"), ts_winds: gettext("Tropical-storm winds") },
  windsIn: (t) => fmt(gettext("Winds arrive in %(t)s"), { t }),
  timelineName: (h, end, phase, left) => fmt(gettext("Game hour %(h)s of %(end)s. %(phase)s. Tropical-storm winds in %(left)s."), { h, end, phase, left }),
  mark: { watch: gettext("Watch"), warning: gettext("Warning"), ts_winds: gettext("TS winds") },
  next: gettext("Next:"),
  duration: (min) => (min % 60 === 0 ? fmt(gettext("%(hours)s h"), { hours: min / 60 }) : min < 60 ? fmt(gettext("%(min)s min"), { min })
    : fmt(gettext("%(hours)s h %(min)s min"), { hours: Math.floor(min / 60), min: min % 60 })),
  money: (n) => money(n),
  gallons: (n) => fmt(gettext("%(n)s gal"), { n }),
  // map
  mapTitle: gettext("Map of the peninsula"),
  zoomIn: gettext("Zoom in"),
  zoomOut: gettext("Zoom out"),
  zoomReset: gettext("Show the whole map"),
  you: gettext("You"),
  water: gettext("Bay"),
  needs: (t, inTen) => fmt(gettext("needs %(t)s+ (%(inTen)s in 10)"), { t, inTen }),
  skip: gettext("Skip"),
  needsShort: (t) => fmt(gettext("%(t)s+"), { t }),
  needsOdds: (t, inTen) => fmt(gettext("%(t)s+ (%(inTen)s in 10)"), { t, inTen }),
  noRoll: gettext("bridge open: no roll"),
  bridgeClosed: pgettext("bridge", "closed"),
  roadClosed: pgettext("road", "closed"),
  closedShort: gettext("✕ closed"),
  oneWay: gettext("one-way (contraflow)"),
  full: gettext("FULL"),
  destinationMark: gettext("your destination"),
  legend: gettext("How to read the map"),
  legendRoll: gettext("3+ on a road: you need a roll of 3 or more on a 10-sided die (8 in 10) to drive it."),
  legendClosed: gettext("Dashed road marked ✕: closed."),
  legendArrow: gettext("Arrows: contraflow, one-way away from the coast."),
  legendTap: gettext("Thick outline: you can drive there now (tap it)."),
  legendChance: gettext("? diamond: a chance card is drawn when you drive through."),
  // for the screen reader and keyboard
  timelineLabel: gettext("Game clock"),
  otherNews: (name, where, hour, status) => fmt(gettext("%(name)s: %(status)s, %(where)s, %(hour)s."), { name, status, where, hour }),
  whyAsked: (q) => fmt(gettext("Why? %(q)s"), { q }),
  mapHere: (here, hour) => fmt(gettext("You are at %(here)s, game hour %(hour)s."), { here, hour }),
  mapRoads: gettext("Roads from here:"),
  mapRoad: (to, state) => fmt(gettext("to %(to)s, %(state)s"), { to, state }),
  mapNoRoads: gettext("No roads lead on from here."),
  mapCanDo: gettext("What you can do here:"),
  mapNothing: gettext("Nothing to do right now."),
  mapClosures: gettext("Closed:"),
  mapNoClosures: gettext("No bridge or road is closed."),
  mapFull: gettext("Places not taking people:"),
  mapOthers: gettext("Other households:"),
  mapOther: (name, where, hour) => fmt(gettext("%(name)s at %(where)s, %(hour)s"), { name, where, hour }),
  mapOtherUnknown: gettext("position not shown"),
  mapKeys: gettext("With the map focused, arrow keys move it, plus and minus zoom, and 0 shows the whole map. The same choices are buttons beside the map."),
  // panel
  why: gettext("Why?"),
  actionsTitle: gettext("What will you do?"),
  noActions: gettext("Nothing to do right now."),
  groupHere: (place) => fmt(gettext("Here: %(place)s"), { place }),
  groupFuel: (price) => fmt(gettext("Fuel (%(price)s a gallon)"), { price }),
  groupSupplies: (price) => fmt(gettext("Food and water (%(price)s each)"), { price }),
  groupDrive: gettext("Drive to…"),
  groupDestination: gettext("Choose where you will stay"),
  groupOther: gettext("Other choices"),
  morePlaces: (n) => fmt(gettext("More places on the map (%(n)s)"), { n }),
  driveTo: (place) => fmt(gettext("Drive to %(place)s"), { place }),
  driveSubDest: gettext("your destination: arriving ends your game"),
  driveSubRoad: (label) => label,
  driveSubHome: gettext("back home"),
  withdraw: (amount) => fmt(gettext("Withdraw %(amount)s"), { amount }),
  homeSupplies: (cost) => fmt(gettext("Buy shutters and plywood (%(cost)s)"), { cost }),
  friends: gettext("Pick up your friends"),
  fuel: (g, cost) => fmt(gettext("Buy %(g)s gallons (%(cost)s)"), { g, cost }),
  supplies: (u, cost) => fmt(gettext("Buy %(u)s supplies (%(cost)s)"), { u, cost }),
  destinationCost: (cost) => (cost === 0 ? gettext("free") : fmt(gettext("%(cost)s when you arrive"), { cost })),
  destinationName: (label, cost) => (cost === 0 ? fmt(gettext("Choose %(label)s as your destination (free)"), { label })
    : fmt(gettext("Choose %(label)s as your destination (%(cost)s)"), { label, cost })),
  tow: (cost) => fmt(gettext("Call a tow truck (%(cost)s)"), { cost }),
  wait: gettext("Wait and watch the news"),
  stayHome: gettext("Stay home"),
  stayHomeSub: gettext("ride out the storm: your game ends"),
  takes: (d) => fmt(gettext("takes %(d)s"), { d }),
  confirmLeave: (place) => fmt(gettext("Leave home now and drive to %(place)s? You cannot take back leaving: the roads, the traffic and the storm will not wait for you."), { place }),
  confirmDestination: (label, cost) => (cost === 0 ? fmt(gettext("Choose %(label)s as your destination? It costs nothing when you arrive."), { label })
    : fmt(gettext("Choose %(label)s as your destination? It costs %(cost)s when you arrive."), { label, cost })),
  confirmStay: (text) => fmt(gettext("%(text)s\n\nStay home for the storm?"), { text }),
  // card, tally, system
  cardTitle: gettext("Chance card"),
  cardNew: gettext("New"),
  cardAt: (h) => fmt(gettext("drawn at hour %(h)s"), { h }),
  factChecked: gettext("Really happened:"),
  factReported: gettext("Reported, not checked against the original source:"),
  factSource: gettext("Source:"),
  factReportedBy: gettext("Reported by:"),
  tallyTitle: gettext("Your tally sheet"),
  tTime: gettext("Game hour"),
  tFuel: gettext("Fuel"),
  tCash: gettext("Cash"),
  tSupplies: gettext("Supplies"),
  tFriends: gettext("Friends"),
  tDestination: gettext("Destination"),
  tHome: gettext("Home"),
  fuelOf: (n, tank) => fmt(gettext("%(n)s of %(tank)s gal"), { n, tank }),
  friendsYes: gettext("in your car"),
  friendsNo: gettext("not with you"),
  destNone: gettext("not chosen"),
  homeSecured: gettext("secured ✓"),
  homeInCar: gettext("shutters in the car"),
  homeNot: gettext("not secured"),
  withdrawnNote: (n) => fmt(gettext("%(n)s from the bank"), { n }),
  towPriceNote: gettext("next fill-up at double price"),
  systemTitle: gettext("State of the system"),
  sNumbers: gettext("Traffic"),
  numbersBlack: gettext("BLACK (normal)"),
  numbersRed: gettext("RED (heavy traffic)"),
  sFuelPrice: gettext("Fuel price"),
  perGallon: (p) => fmt(gettext("%(p)s a gallon"), { p }),
  sLimit: gettext("Fuel limit"),
  limitValue: (n) => fmt(gettext("%(n)s gallons per car"), { n }),
  sSupplyPrice: gettext("Supplies"),
  each: (p) => fmt(gettext("%(p)s each"), { p }),
  sBridges: gettext("Bridges"),
  bridgeNames: { west: gettext("West causeway"), bay: gettext("Bay bridge"), east: gettext("East bridge") },
  open: gettext("open"),
  sContraflow: gettext("Contraflow"),
  on: gettext("on: one-way away from the coast"),
  off: gettext("off"),
  sDestinations: gettext("Places to stay"),
  taking: gettext("taking people"),
  notTaking: gettext("full"),
  changesTitle: gettext("What changed"),
  changeBy: (title) => fmt(gettext("chance card \"%(title)s\""), { title }),
  othersTitle: gettext("Other households"),
  seatName: (n) => tablemates[n] || fmt(gettext("Player %(n)s"), { n: n + 1 }),
  botName: gettext("bot"),
  seatStatus: {
    playing: gettext("playing"), arrived: gettext("arrived"), stayed: gettext("stayed home"),
    out_of_time: gettext("caught on the road"), stopped: gettext("stopped"),
  },
  atHour: (h) => fmt(gettext("hour %(h)s"), { h }),
  feedTitle: gettext("What happened"),
  feedEmpty: gettext("Nothing yet. The hurricane watch has just been issued."),
  // a feed line by its type, from the line's ids and numbers and the board's words for them (w)
  ev: {
    moved: (e, w) => (e.roll
      ? fmt(gettext("Drove to %(place)s (rolled %(roll)s, needed %(needs)s+)"), { place: w.place(e.to), roll: e.roll, needs: e.needs })
      : fmt(gettext("Drove to %(place)s over the bridge"), { place: w.place(e.to) })),
    stuck: (e) => fmt(gettext("Stuck in traffic: rolled %(roll)s, needed %(needs)s+"), { roll: e.roll, needs: e.needs }),
    card: (e, w) => fmt(gettext("Chance: %(title)s"), { title: w.card(e.card).title }),
    left_home: () => gettext("Left home"),
    arrived: (e, w) => fmt(gettext("Arrived at the %(place)s"), { place: w.destination(e.destination) }),
    home_secured: () => gettext("Put up shutters and plywood: home secured"),
    withdrew: (e) => fmt(gettext("Took %(amount)s from the bank"), { amount: money(e.amount) }),
    bought_home_supplies: () => gettext("Bought shutters and plywood"),
    picked_up_friends: () => gettext("Picked up friends"),
    bought_fuel: (e) => fmt(gettext("Bought %(gallons)s gallons for %(cost)s"), { gallons: e.gallons, cost: money(e.cost) }),
    bought_supplies: (e) => fmt(gettext("Bought %(units)s supplies for %(cost)s"), { units: e.units, cost: money(e.cost) }),
    lost_turn: () => gettext("Bought gas and supplies at one stop: lost a turn"),
    destination: (e, w) => fmt(gettext("Chose the %(place)s"), { place: w.destination(e.destination) }),
    towed: (e, w) => fmt(gettext("Towed to %(place)s for %(cost)s"), { place: w.place(e.to), cost: money(e.cost) }),
    waited: () => gettext("Waited and watched the news"),
    stayed_home: () => gettext("Decided to stay home"),
    out_of_time: () => gettext("Tropical-storm winds arrived"),
    out_of_fuel: () => gettext("Out of gas"),
    no_route: () => gettext("No open road that way"),
    sent_home: (e) => fmt(gettext("Back home after %(links)s roads"), { links: e.links }),
    drove_back: (e, w) => fmt(gettext("Drove back toward home: %(place)s"), { place: w.place(e.to) }),
    no_way_home: () => gettext("No open road leads home: you stay here"),
    friends_drive: () => gettext("A friend took the wheel"),
    no_cash: (e) => fmt(gettext("No cash: lost %(minutes)s minutes"), { minutes: e.minutes }),
    supplies_short: (e) => fmt(gettext("Arrived with too few supplies: bought %(short)s for %(cost)s"), { short: e.short, cost: money(e.cost) }),
    skipped: () => gettext("Turn skipped by the teacher"),
    reason: () => gettext("Gave a reason"),
  },
  roadsTitle: gettext("Roads from here"),
  roadTo: (label) => fmt(gettext("To %(label)s"), { label }),
  // results
  resultsTitle: gettext("Your result"),
  score: gettext("Score"),
  pointsTitle: gettext("Points"),
  safetyTitle: gettext("Safety"),
  pCash: gettext("Money after the storm (÷100)"),
  pDestination: gettext("Destination"),
  pInTime: gettext("Arrived in time"),
  pOrder: gettext("Points for arriving early"),
  pHalfTank: gettext("Half a tank on arrival"),
  pTotal: gettext("Total"),
  sArrived: gettext("Arrived before the winds"),
  sSecured: gettext("Home secured"),
  sSupplies: gettext("Supplies"),
  sFuel: gettext("Fuel left"),
  sOutcome: gettext("Outcome"),
  // the engine's outcome words (rules.results' safety.outcome), as a household's result says them
  outcome: { evacuated: gettext("evacuated"), "stayed home": gettext("stayed home"),
    "game ended early": gettext("game ended early"), "caught on the road": gettext("caught on the road") },
  yes: gettext("yes ✓"),
  no: gettext("no ✗"),
  shortOnArrival: (n) => fmt(gettext("(%(n)s short on arrival)"), { n }),
  tableTitle: gettext("Your table"),
  rank: gettext("Rank"),
  player: gettext("Player"),
  // teacher summary
  summaryCaption: gettext("Households at this table"),
  sumWhy: gettext("answering “why?”"),
  colHour: gettext("Game hour"), colFuel: gettext("Fuel"), colCash: gettext("Cash"), colPlace: gettext("Where"),
  colEvents: gettext("Last events"), colScore: gettext("Score"),
};

const DEFAULT_BOX = [-20, -50, 1040, 1070]; // (room above for my pin on a place of the top row)

// ---- the board's words ------------------------------------------------------------------------

// The board's places and cards by id, looked up once per board: every label and title a view
// names by id is the board's, which comes in the tablet's language.
const boardWords = new WeakMap();

function wordsOf(board) {
  let w = boardWords.get(board);
  if (!w) {
    const nodes = {}, cards = {};
    for (const node of board.nodes) nodes[node.id] = node;
    for (const card of board.cards) cards[card.id] = card;
    w = {
      nodes, cards,
      place: (id) => (nodes[id] ? nodes[id].label : id),
      card: (id) => cards[id] || { id, title: id, text: "" },
      // a destination as a sentence names it after "the": in lower case, as English writes it
      destination: (key) => (board.destinations[key] ? board.destinations[key].label : key).toLowerCase(),
    };
    boardWords.set(board, w);
  }
  return w;
}

// One line of a feed in the tablet's words: the screen's list and its live region both say this.
function feedText(board, e) {
  const line = T.ev[e.type];
  return line ? line(e, wordsOf(board)) : e.type.replace(/_/g, " ");
}
// Pan/zoom bounds for the 1000 × 1000 board (see kit.js attachPanZoom).
const MAP_LIMITS = { world: [0, 0, 1000, 1000], minWidth: 220, maxWidth: 1400, alignY: 0.5, onZoom: markZoom };
const remember = screenMemory(() => ({ box: DEFAULT_BOX.slice(), card: null }));

// ---- time text --------------------------------------------------------------------------------

function hourText(hour) {
  const minutes = Math.round(hour * 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}`;
}

function spanText(hours) {
  const minutes = Math.max(0, Math.round(hours * 60));
  return T.duration(minutes);
}

// ---- render -----------------------------------------------------------------------------------

export function render(root, board, message, controls) {
  tablemates = (controls && controls.names) || {};
  const mem = remember(root);
  const view = message.view;
  const nodesById = wordsOf(board).nodes;
  const ctx = { root, board, message, controls, view, mem, nodesById };
  ctx.seatPlaying = view.status === "playing" && !view.finished;
  ctx.canAct = ctx.seatPlaying && message.status === "playing" && !message.bot;
  ctx.disabled = !ctx.canAct || Boolean(controls.busy);
  ctx.drives = (view.actions || []).filter((a) => a.type === "drive").map((a) => a.to);
  renderScreen(root, mem, {
    prefix: "evac", pageClass: "evac" + (ctx.canAct ? " evac--turn" : ""), busy: controls.busy, mapLabel: T.mapTitle,
    header: () => renderHeader(ctx), map: () => renderMap(ctx), panel: () => renderPanel(ctx),
    announce: news(ctx), version: message.version,
    countdown: { running: TIMER.botIn, over: TIMER.botNow, warn: TIMER.botWarn },
  });
}

// ---- what the live region says ----------------------------------------------------------------

// What this version changed, in words, for the screen's live region: the banner when it changed,
// every new event of this seat's feed (not only the last), the "why?" question when it is asked,
// each other household's new place or status, and that the turn timer's bot moved when it did.
// The first render of a screen says only the banner: the history is in "What happened".
function news(ctx) {
  const { view, message, mem, nodesById, board } = ctx;
  const feed = view.feed || [];
  const key = (e) => `${e.hour}|${e.type}|${feedText(board, e)}`;
  const seen = mem.news;
  const out = [];
  const banner = bannerText(ctx);
  const others = {};
  for (const o of view.others || []) others[o.seat] = `${o.status}|${o.position || ""}`;
  if (seen && seen.seat === view.seat) {
    if (banner !== seen.banner) out.push(banner + ".");
    const at = feed.map(key).lastIndexOf(seen.last);
    const fresh = seen.last === null ? feed : feed.slice(at + 1);
    // This seat's own feed moved on though the student did not act: the turn timer's bot did.
    if (fresh.length && !mem.acted && !message.bot && seen.timer) out.push(TIMER.botMoved);
    for (const e of fresh) out.push(feedText(board, e));
    if (view.reason_prompt && !seen.prompt) out.push(T.whyAsked(board.reasons[view.reason_prompt.about].question));
    for (const o of view.others || []) {
      if (seen.others[o.seat] === undefined || seen.others[o.seat] === others[o.seat]) continue;
      const node = o.position && nodesById[o.position];
      out.push(T.otherNews(T.seatName(o.seat), node ? node.label : T.mapOtherUnknown, T.atHour(hourText(o.hour)), T.seatStatus[o.status] || o.status));
    }
    if (fresh.length) mem.acted = false;
  } else {
    out.push(banner + ".");
  }
  mem.news = { seat: view.seat, banner, last: feed.length ? key(feed[feed.length - 1]) : null, prompt: Boolean(view.reason_prompt),
    others, timer: message.timer || null };
  // Each line is a sentence of its own: a screen reader pauses between them instead of running
  // "Left home Drove to Houston" together.
  return out.map((line) => (/[.!?…:]$/.test(line) ? line : `${line}.`));
}

// ---- header: banner, timeline, tally ----------------------------------------------------------

function bannerText(ctx) {
  const { view, message } = ctx;
  if (message.status === "finished" || view.finished) return T.gameOver;
  if (message.status === "paused") return T.paused;
  if (message.bot && ctx.seatPlaying) return T.botPlaying;
  if (ctx.seatPlaying) return T.yourMove;
  const dest = view.tally.destination;
  if (view.status === "arrived" && dest) {
    return T.seatDone.arrivedAtDestination(ctx.board.destinations[dest].label.toLowerCase(), hourText(view.hour));
  }
  const done = T.seatDone[view.status];
  return done ? done(wordsOf(ctx.board).place(view.position), hourText(view.hour)) : view.status;
}

function renderHeader(ctx) {
  const { view, message, controls } = ctx;
  let tone = "wait";
  if (ctx.canAct) tone = "turn";
  else if (message.status === "paused") tone = "paused";
  else if (message.bot && ctx.seatPlaying) tone = "bot";
  else if (message.status === "finished" || view.finished) tone = "over";
  const extra = [];
  if (controls.busy && ctx.canAct) extra.push(h("span", { class: "evac-busy", text: T.sending }));
  if (!ctx.seatPlaying && !view.finished && message.status !== "finished") extra.push(h("span", { class: "evac-muted", text: T.waitingOthers }));
  if (view.ended_early) extra.push(h("span", { class: "evac-muted", text: T.endedEarly }));
  if (message.timer && ctx.seatPlaying && message.status === "playing" && !message.bot) {
    extra.push(countdown("evac", message.timer, TIMER.botIn, TIMER.botNow, { controls, label: TIMER.moreTime, said: TIMER.moreTimeSaid }));
  }
  const ask = askButton("evac", controls, T.askTeacher, message.status === "finished");
  const over = message.status === "finished" || view.finished;
  return h("header", { class: "evac-head" },
    banner("evac", "div", tone, bannerText(ctx), extra, over ? null : ask),
    renderTimeline(ctx), renderTally(ctx));
}

function renderTimeline(ctx) {
  const { view, board } = ctx;
  const endHour = board.rules.clock.end_minute / 60;
  const pct = (hour) => `${Math.min(100, Math.max(0, (hour / endHour) * 100))}%`;
  const phase = T.phase[view.phase] || view.phase;
  const left = spanText(view.minutes_left / 60);
  // The items and their texts are the board's; the view says which this game shows and how
  // many of the board's have passed.
  const timeline = view.timeline.shown.map((i) => ({ ...board.timeline[i], passed: i < view.timeline.passed }));
  const marks = timeline.filter((t) => t.mark).map((t) => [t.minute / 60, T.mark[t.mark] || t.mark, t.mark === "ts_winds" ? "winds" : t.mark]);
  const ticks = timeline.filter((t) => !t.mark).map((t) =>
    h("span", { class: "evac-tl-tick" + (t.passed ? " is-passed" : ""), style: `left:${pct(t.minute / 60)}`, title: `${T.hour(hourText(t.minute / 60))}: ${t.text}` }));
  const others = (view.others || []).map((o) =>
    h("span", { class: "evac-tl-other", style: `left:${pct(o.hour)}`, title: `${T.seatName(o.seat)}: ${T.atHour(hourText(o.hour))}`, text: String(o.seat + 1) }));
  const upcoming = timeline.find((t) => !t.passed && !t.mark);
  return h("div", { class: "evac-timeline" },
    h("div", {
      class: "evac-tl-bar", role: "progressbar", "aria-label": T.timelineLabel, "aria-valuemin": 0, "aria-valuemax": endHour,
      "aria-valuenow": view.hour, "aria-valuetext": T.timelineName(hourText(view.hour), endHour, phase, left),
    },
      h("span", { class: "evac-tl-warning", style: `left:${pct(12)}` }),
      h("span", { class: "evac-tl-fill", style: `width:${pct(view.hour)}` }),
      ...ticks, ...others,
      h("span", { class: "evac-tl-now", style: `left:${pct(view.hour)}`, "aria-hidden": "true" })),
    h("div", { class: "evac-tl-marks", "aria-hidden": "true" },
      ...marks.map(([hour, label, key]) => h("span", { class: "evac-tl-mark evac-tl-mark--" + key, style: `left:${pct(hour)}` }, `${label} ${hour}`))),
    h("p", { class: "evac-tl-text" },
      h("strong", { text: phase }), ` · ${T.windsIn(left)}`,
      upcoming ? h("span", { class: "evac-tl-next" }, ` · ${T.next} ${T.hour(hourText(upcoming.minute / 60))}: ${upcoming.text}`) : null));
}

function renderTally(ctx) {
  const { view, board } = ctx;
  const t = view.tally;
  const tank = board.rules.start.tank;
  const dest = t.destination ? board.destinations[t.destination].label : T.destNone;
  const home = t.home_secured ? T.homeSecured : t.home_supplies_in_car ? T.homeInCar : T.homeNot;
  const row = (label, value, note, cls) => h("div", { class: "evac-tally-item" + (cls ? " " + cls : "") },
    h("dt", { text: label }), h("dd", {}, value, note ? h("small", { text: note }) : null));
  return h("section", { class: "evac-tally", "aria-label": T.tallyTitle },
    h("dl", {},
      row(T.tTime, hourText(view.hour)),
      row(T.tFuel, T.fuelOf(t.fuel, tank), t.tow_price ? T.towPriceNote : null, t.fuel <= 2 ? "is-low" : ""),
      row(T.tCash, T.money(t.cash), t.withdrawn ? T.withdrawnNote(T.money(t.withdrawn)) : null, t.cash < 0 ? "is-low" : ""),
      row(T.tSupplies, String(t.supplies), null, t.supplies_short ? "is-low" : ""),
      row(T.tFriends, t.friends ? T.friendsYes : T.friendsNo),
      row(T.tDestination, dest),
      row(T.tHome, home, null, t.home_secured ? "is-good" : "")));
}

// ---- map --------------------------------------------------------------------------------------

function renderMap(ctx) {
  const { board, view, mem, nodesById } = ctx;
  const system = view.system;
  const here = view.position;
  const drivable = new Set(ctx.drives);
  const fromHere = new Set((view.roads || []).map((r) => r.link));
  const closedLinks = new Set(view.links.closed), oneWay = new Set(view.links.one_way);
  const descId = "evac-map-desc-" + view.seat;

  const layers = { water: svg("g", { class: "m-water" }), links: svg("g", { class: "m-links" }),
    labels: svg("g", { class: "m-linklabels" }), nodes: svg("g", { class: "m-nodes" }), tokens: svg("g", { class: "m-tokens" }) };
  for (const poly of board.water || []) {
    layers.water.append(svg("polygon", { points: poly.map((p) => p.join(",")).join(" ") }));
    const ys = poly.map((p) => p[1]);
    layers.water.append(svg("g", { transform: `translate(615,${(Math.min(...ys) + Math.max(...ys)) / 2 + 9})` },
      svg("g", { "data-label": "" }, svg("text", { class: "m-water-label", text: T.water }))));
  }

  for (const link of board.links) {
    const a = nodesById[link.a], b = nodesById[link.b];
    const closed = closedLinks.has(link.id);
    const need = link.needs[view.links.needs];
    const mine = fromHere.has(link.id);
    const cls = ["m-link", link.bridge ? "is-bridge" : "", closed ? "is-closed" : "", mine ? "is-here" : "",
      system.numbers === "red" ? "is-red" : ""].filter(Boolean).join(" ");
    if (link.bridge) layers.links.append(svg("line", { class: "m-bridge-casing", x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
    layers.links.append(svg("line", { class: cls, x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
    if (oneWay.has(link.id)) layers.links.append(arrow(a, b));
    // Labels of the roads from here sit nearer the far end, so they do not pile up on this node.
    const far = mine && link.a === here ? 0.6 : mine ? 0.4 : 0.5;
    const mx = a.x + (b.x - a.x) * far, my = a.y + (b.y - a.y) * far;
    let text, odds = null;
    if (closed) text = (link.name ? link.name + ": " : "") + T.closedShort;
    else if (need === null) text = link.name || T.noRoll;
    else text = T.needsShort(need);
    // the odds of a road from here once zoomed in (on the whole map they would cover its corner; the panel says them)
    if (!closed && need !== null && mine) odds = T.needsOdds(need, board.chance_in_10[need]);
    layers.labels.append(pill(mx, my, text, odds, "m-pill" + (closed ? " is-closed" : "") + (mine ? " is-here" : "") + (need !== null && system.numbers === "red" ? " is-red" : ""),
      [a.x, a.y, b.x, b.y, far].join(",")));
  }

  for (const node of board.nodes) layers.nodes.append(renderNode(ctx, node, drivable.has(node.id), node.id === here));

  const me = nodesById[here];
  if (me) {
    // a pin above my place, its tip at the place's top edge
    layers.tokens.append(svg("g", { class: "m-me", transform: `translate(${me.x},${me.y})` }, svg("g", { "data-label": "" },
      svg("path", { d: "M0,-14 L-12,-34 A22,22 0 1 1 12,-34 Z" }),
      svg("text", { y: -42, text: T.you }))));
  }
  // The other households of a place in a row beside it, which grows as one label.
  const othersAt = new Map();
  for (const other of view.others || []) {
    const node = other.position && nodesById[other.position];
    if (node) othersAt.set(node, (othersAt.get(node) || []).concat([other]));
  }
  for (const [node, others] of othersAt) {
    layers.tokens.append(svg("g", { transform: `translate(${node.x + 26},${node.y + 22})` }, svg("g", { "data-label": "" },
      others.map((other) => svg("g", { class: "m-other", transform: `translate(${18 * other.seat},0)` },
        svg("circle", { r: 15 }), svg("text", { y: 6, text: String(other.seat + 1) }))))));
  }

  const map = svg("svg", {
    class: "evac-map", viewBox: mem.box.join(" "), preserveAspectRatio: "xMidYMid meet",
    role: "img", "aria-label": T.mapTitle, "aria-describedby": descId,
  }, svg("rect", { class: "m-land", x: -500, y: -500, width: 2000, height: 2000 }),
  layers.water, layers.links, layers.labels, layers.nodes, layers.tokens);
  return mapFrame("evac", mem, map, {
    limits: MAP_LIMITS, home: DEFAULT_BOX, descId, desc: mapWords(ctx), arrange: arrangeLabels,
    labels: { zoomIn: T.zoomIn, zoomOut: T.zoomOut, zoomReset: T.zoomReset },
    legend: { title: T.legend, showTitle: true, items: [T.legendRoll, T.legendTap, T.legendChance, T.legendClosed, T.legendArrow] },
  });
}

// The map's full text alternative: where I am, the roads on from here with their odds or
// closures, what I can do here, what is closed or full, and where the other households are.
function mapWords(ctx) {
  const { view, board, nodesById } = ctx;
  const place = wordsOf(board).place;
  const out = [T.mapHere(place(view.position), hourText(view.hour))];
  const roads = (view.roads || []).map((r) => T.mapRoad(place(r.to), r.open ? needsText(r, board) : T.roadClosed));
  out.push(roads.length ? `${T.mapRoads} ${roads.join("; ")}.` : T.mapNoRoads);
  const can = [];
  for (const a of view.actions || []) {
    if (a.type === "drive") can.push(T.driveTo(nodesById[a.to] ? nodesById[a.to].label : a.to));
    else if (a.type === "wait") can.push(T.wait);
    else if (a.type === "stay_home") can.push(T.stayHome);
    else if (a.type === "withdraw") can.push(T.withdraw(T.money(a.amount)));
    else if (a.type === "buy_fuel") can.push(T.fuel(a.gallons, T.money((view.costs || {}).buy_fuel[a.gallons])));
    else if (a.type === "buy_supplies") can.push(T.supplies(a.units, T.money((view.costs || {}).buy_supplies[a.units])));
    else if (a.type === "set_destination") can.push(board.destinations[a.destination] ? board.destinations[a.destination].label : a.destination);
    else if (a.type === "pick_up_friends") can.push(T.friends);
    else if (a.type === "buy_home_supplies") can.push(T.homeSupplies(T.money((view.costs || {}).buy_home_supplies)));
    else if (a.type === "tow") can.push(T.tow(T.money((view.costs || {}).tow)));
  }
  out.push(can.length ? `${T.mapCanDo} ${can.join("; ")}.` : T.mapNothing);
  const s = view.system;
  const closed = Object.keys(s.bridges).filter((b) => !s.bridges[b]).map((b) => T.bridgeNames[b] || b);
  for (const id of view.links.closed || []) {
    const link = board.links.find((l) => l.id === id);
    if (link && !link.bridge) closed.push(`${nodesById[link.a] ? nodesById[link.a].label : link.a}–${nodesById[link.b] ? nodesById[link.b].label : link.b}`);
  }
  out.push(closed.length ? `${T.mapClosures} ${closed.join(", ")}.` : T.mapNoClosures);
  const full = Object.keys(s.destinations).filter((d) => !s.destinations[d]).map((d) => (board.destinations[d] ? board.destinations[d].label : d));
  if (full.length) out.push(`${T.mapFull} ${full.join(", ")}.`);
  if (s.contraflow) out.push(`${T.sContraflow}: ${T.on}.`);
  const others = (view.others || []).map((o) => T.mapOther(T.seatName(o.seat),
    o.position && nodesById[o.position] ? nodesById[o.position].label : T.mapOtherUnknown, `${T.atHour(hourText(o.hour))}, ${T.seatStatus[o.status] || o.status}`));
  if (others.length) out.push(`${T.mapOthers} ${others.join("; ")}.`);
  out.push(T.mapKeys);
  return out;
}

// Small street labels only once zoomed in, so the whole map stays readable.
function markZoom(map, box) {
  map.classList.toggle("is-zoomed", box[2] < 760);
}

// A road's label (`odds`, if given, instead of `text` once zoomed in); `road` is "ax,ay,bx,by,f":
// the road's ends and how far along it the label sits.
function pill(x, y, text, odds, cls, road) {
  const shape = (words, variant) => {
    const width = 12 + words.length * 10.5;
    return svg("g", { class: variant }, svg("rect", { x: -width / 2, y: -14, width, height: 28, rx: 8 }), svg("text", { y: 6, text: words }));
  };
  return svg("g", { class: cls + (odds ? " has-odds" : ""), transform: `translate(${x},${y})`, "data-road": road },
    svg("g", { "data-label": "" }, shape(text, "m-pill-plain"), odds ? shape(odds, "m-pill-odds") : null));
}

// How far a road's label may slide along its road, tried in this order.
const SLIDES = [0, 0.1, -0.1, 0.2, -0.2, 0.3, -0.3, 0.36, -0.36];

// Where a place's name may go around its symbol, tried in this order: below (or above, for the
// places the renderer puts it above), then the other side, then right and left; in the place's
// own units, for big symbols and small ones.
const SIDES = {
  big: [[0, 52, "middle"], [0, -40, "middle"], [40, 8, "start"], [-40, 8, "end"]],
  small: [[0, 34, "middle"], [0, -22, "middle"], [22, 6, "start"], [-22, 6, "end"]],
};

// The places' names go on the side of their symbol where they cover the least of the symbols,
// the words already placed and the map's edge; then the roads' labels slide along their roads,
// off all of those. At the zoom shown, as the labels' size depends on it (see fitLabels).
function arrangeLabels(map) {
  const frame = map.getBoundingClientRect();
  // what a label must keep off: words above all, then the places' symbols (weighed less)
  const taken = [...map.querySelectorAll(".m-glyph, .m-water text, .m-nodes .m-shape, .m-me")]
    .map((el) => screenBox(el, el.matches(".m-shape") ? 0.3 : 1)).filter((r) => r.right > r.left);
  // a name keeps off the symbols too, so none is hidden under a word
  const cost = (r) => taken.reduce((sum, t) => sum + overlapArea(r, t), 0) + outsideArea(r, frame) * 4;
  // the names: big places first, as they have the fewest good sides
  const names = [...map.querySelectorAll(".m-node")].map((node) => ({
    node, big: !node.matches(".m-free, .m-chance"),
    words: [...node.querySelectorAll(".m-label")].filter((t) => getComputedStyle(t).display !== "none"),
  })).filter((n) => n.words.length).sort((a, b) => b.big - a.big);
  for (const { big, words } of names) {
    const [name, note] = words;
    // as the renderer drew it (a zoom arranges the map again)
    if (!name.dataset.first) name.dataset.first = JSON.stringify([name.getAttribute("x"), Number(name.getAttribute("y")), name.getAttribute("text-anchor"), name.textContent]);
    const [firstX, firstY, firstAnchor, text] = JSON.parse(name.dataset.first);
    const sides = SIDES[big ? "big" : "small"].slice();
    if (firstY < 0) [sides[0], sides[1]] = [sides[1], sides[0]];
    // a long name may go on two lines, split at the space nearest its middle
    const spaces = [...text.matchAll(/ /g)].map((m) => m.index);
    const split = spaces.length && text.length > 10 ? spaces.reduce((a, b) => (Math.abs(b - text.length / 2) < Math.abs(a - text.length / 2) ? b : a)) : 0;
    const lines = split ? [[text], [text.slice(0, split), text.slice(split + 1)]] : [[text]];
    const line = parseFloat(getComputedStyle(name).fontSize) * 1.1;
    let best = null;
    const place = ([x, y, anchor], rows) => {
      const middle = anchor === "middle";
      const at = middle ? firstX : x;
      // two lines: below, the second goes under; above, the first goes up; beside, both around the middle
      const top = rows.length === 1 ? y : y > 0 && middle ? y : middle ? y - line : y - line / 2;
      name.setAttribute("x", at);
      name.setAttribute("y", top);
      name.setAttribute("text-anchor", middle ? firstAnchor : anchor);
      if (rows.length === 1) name.textContent = rows[0];
      else name.replaceChildren(...rows.map((row, k) => svg("tspan", { x: at, dy: k ? line : 0, text: row })));
      if (note) {
        note.setAttribute("x", at);
        note.setAttribute("text-anchor", middle ? firstAnchor : anchor);
        note.setAttribute("y", y > 0 || !middle ? top + (rows.length - 1) * line + 24 : top - 26);
      }
    };
    sides.forEach((side, i) => lines.forEach((rows, wrapped) => {
      place(side, rows);
      const boxes = words.map((t) => screenBox(t));
      // the side the renderer chose wins a tie; each further side, or two lines, costs a little more
      const c = boxes.reduce((sum, r) => sum + cost(r), 0) + i * 4 + wrapped * 6;
      if (!best || c < best.c) best = { c, side, rows, boxes };
    }));
    place(best.side, best.rows);
    taken.push(...best.boxes);
  }
  const scale = map.getScreenCTM().a;
  const pills = [...map.querySelectorAll("[data-road]")];
  for (const pill of pills) {
    const [ax, ay, bx, by, f] = pill.dataset.road.split(",").map(Number);
    const at = (t, side) => [ax + (bx - ax) * t + side[0], ay + (by - ay) * t + side[1]];
    pill.setAttribute("transform", `translate(${at(f, [0, 0]).join(",")})`);
    const box = pill.getBoundingClientRect();
    // where no place along the road is free, the label may stand beside it, touching it
    const length = Math.hypot(bx - ax, by - ay) || 1;
    const reach = (Math.min(box.right - box.left, box.bottom - box.top) * 0.75) / scale;
    const normal = [(-(by - ay) / length) * reach, ((bx - ax) / length) * reach];
    const sides = [[0, 0], normal, [-normal[0], -normal[1]]];
    let best = null;
    for (const [i, side] of sides.entries()) {
      for (const slide of SLIDES) {
        const t = f + slide;
        const dx = ((bx - ax) * slide + side[0]) * scale, dy = ((by - ay) * slide + side[1]) * scale;
        const moved = { left: box.left + dx, right: box.right + dx, top: box.top + dy, bottom: box.bottom + dy, weight: 1 };
        const cover = taken.reduce((sum, r) => sum + overlapArea(moved, r) * r.weight, 0) + outsideArea(moved, frame) * 4 + (i ? 20 : 0);
        if (!best || cover < best.cover) best = { t, side, cover, moved };
        if (cover <= (i ? 20 : 0)) break;
      }
      if (best.cover <= (i ? 20 : 0)) break;
    }
    pill.setAttribute("transform", `translate(${at(best.t, best.side).join(",")})`);
    taken.push(best.moved);
  }
}

function arrow(a, b) {
  const angle = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
  const g = svg("g", { class: "m-arrows" });
  for (const f of [0.28, 0.72]) {
    g.append(svg("path", { d: "M-10,-9 L8,0 L-10,9 Z", transform: `translate(${a.x + (b.x - a.x) * f},${a.y + (b.y - a.y) * f}) rotate(${angle})` }));
  }
  return g;
}

function renderNode(ctx, node, drivable, isHere) {
  const { view } = ctx;
  const next = (view.roads || []).some((r) => r.open && r.to === node.id);
  const kind = node.kind;
  const destOpen = kind === "destination" ? view.system.destinations[node.destination] !== false : true;
  const chosen = kind === "destination" && view.tally.destination === node.destination;
  const cls = ["m-node", "m-" + kind, node.activity ? "m-" + node.activity : "", drivable ? "is-drivable" : "",
    isHere ? "is-here" : "", next ? "is-next" : "", chosen ? "is-chosen" : "", destOpen ? "" : "is-full"].filter(Boolean).join(" ");
  const g = svg("g", { class: cls, transform: `translate(${node.x},${node.y})`, "data-node": node.id });
  // the place's shape and words, which grow together where the map is shown small
  const body = svg("g", { "data-label": "" });
  g.append(body);
  if (drivable) body.append(svg("circle", { class: "m-ring", r: kind === "free" || kind === "chance" ? 21 : 36 }));
  if (kind === "home") {
    body.append(svg("path", { class: "m-shape", d: "M-24,-4 L0,-28 L24,-4 L24,22 L-24,22 Z" }), svg("text", { class: "m-glyph", y: 14, text: "⌂" }));
  } else if (kind === "destination") {
    body.append(svg("rect", { class: "m-shape", x: -28, y: -28, width: 56, height: 56, rx: 10 }),
      svg("path", { class: "m-glyph-shape", d: "M0,-17 L5,-5 L18,-5 L8,3 L12,16 L0,8 L-12,16 L-8,3 L-18,-5 L-5,-5 Z" }));
  } else if (kind === "activity") {
    const glyph = { gas: "G", bank: "$", home_supply: "S", friends: "F" }[node.activity] || "•";
    body.append(svg("rect", { class: "m-shape", x: -20, y: -20, width: 40, height: 40, rx: 6 }), svg("text", { class: "m-glyph", y: 9, text: glyph }));
  } else if (kind === "chance") {
    body.append(svg("path", { class: "m-shape", d: "M0,-16 L16,0 L0,16 L-16,0 Z" }), svg("text", { class: "m-glyph m-glyph--small", y: 6, text: "?" }));
  } else {
    body.append(svg("circle", { class: "m-shape", r: 9 }));
  }
  const big = kind !== "free" && kind !== "chance";
  const below = node.y < 500 || kind === "home" ? 1 : -1;
  const labelY = big ? 52 : (below > 0 ? 34 : -22);
  let label = node.label;
  if (kind === "destination" && !destOpen) label += ` (${T.full})`;
  // Keep labels of places near the left and right edges inside the map.
  const anchor = node.x < 150 ? "start" : node.x > 850 ? "end" : "middle";
  const labelX = anchor === "start" ? -30 : anchor === "end" ? 30 : 0;
  const labelCls = big ? "m-label" : next || isHere ? "m-label m-label--small is-shown" : "m-label m-label--small";
  body.append(svg("text", { class: labelCls, x: labelX, y: labelY, "text-anchor": anchor, text: label }));
  if (chosen) body.append(svg("text", { class: "m-label m-label--note", x: labelX, "text-anchor": anchor, y: labelY + (labelY > 0 ? 24 : -26), text: T.destinationMark }));
  if (drivable) {
    const action = { type: "drive", to: node.id };
    // A pointer's shortcut: the same choice is a button in the panel, which keyboards and screen
    // readers use (the map is an image with a text alternative), so this is not a tab stop.
    g.append(svg("circle", { class: "m-hit", r: big ? 40 : 30, "data-hit": "", "data-r": big ? 40 : 30 }));
    on(g, "click", () => {
      if (ctx.mem.dragged || ctx.disabled) return;
      act(ctx, action);
    });
  }
  return g;
}

// ---- panel: prompt, card, actions, results, system, feed, roads -----------------------------

function renderPanel(ctx) {
  const { view, message } = ctx;
  const finished = message.status === "finished" || view.finished;
  const main = [];
  const info = [];
  const card = renderCard(ctx);
  if (finished) main.push(renderResults(ctx));
  if (view.reason_prompt && ctx.seatPlaying) main.push(renderPrompt(ctx));
  if (!finished && ctx.seatPlaying) main.push(renderActions(ctx));
  if (card) info.push(card.el);
  info.push(renderSystem(ctx), renderFeed(ctx), renderRoads(ctx), renderOthers(ctx));
  return [h("div", { class: "evac-col evac-col--main" }, main), h("div", { class: "evac-col evac-col--info" }, info)];
}

function act(ctx, action, confirm) {
  if (ctx.disabled) return;
  ctx.mem.acted = true;
  sendAction(ctx.controls, action, confirm);
}

function actionButton(ctx, action, opts) {
  return choiceButton("evac", { ...opts, key: opts.key || JSON.stringify(action), disabled: ctx.disabled,
    onclick: () => act(ctx, action, opts.confirm) });
}

function group(title, buttons, cls) {
  if (!buttons.length) return null;
  const id = "evac-g-" + title.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
  return h("section", { class: "evac-group" + (cls ? " " + cls : ""), "aria-labelledby": id },
    h("h3", { id, text: title }), h("div", { class: "evac-buttons" }, buttons));
}

function renderPrompt(ctx) {
  const p = ctx.view.reason_prompt;
  const reason = ctx.board.reasons[p.about];
  const buttons = p.choices.map((c, i) => actionButton(ctx, { type: "reason", about: p.about, choice: c },
    { label: c === "skip" ? T.skip : reason.choices[c], cls: c === "skip" ? "evac-act--skip" : "evac-act--reason", next: i === 0 }));
  return h("section", { class: "evac-prompt", "aria-labelledby": "evac-prompt-q" },
    h("p", { class: "evac-prompt-kicker", text: T.why }),
    h("h2", { id: "evac-prompt-q", text: reason.question }),
    h("div", { class: "evac-buttons evac-buttons--reasons" }, buttons));
}

function renderCard(ctx) {
  const { view, mem } = ctx;
  const card = view.last_card;
  if (!card) return null;
  const full = wordsOf(ctx.board).card(card.id);
  const key = `${card.id}@${card.hour}`;
  if (!mem.card || mem.card.key !== key) mem.card = { key, turns: view.turns };
  const fresh = ctx.seatPlaying && mem.card.turns === view.turns && card.hour >= view.hour - 3;
  const el = h("section", { class: "evac-card" + (fresh ? " is-fresh" : ""), "aria-labelledby": "evac-card-title" },
    h("p", { class: "evac-card-kicker" }, T.cardTitle, fresh ? h("span", { class: "evac-new", text: T.cardNew }) : null, ` · ${T.cardAt(hourText(card.hour))}`),
    h("h2", { id: "evac-card-title", text: full.title }),
    h("p", { class: "evac-card-text", text: full.text }),
    full.basis ? basisBlock({ text: full.basis, source: full.source, url: full.url, grade: full.grade }, T, "evac-card-basis") : null);
  return { el, fresh };
}

function renderActions(ctx) {
  const { view, board, nodesById } = ctx;
  const actions = view.actions || [];
  const minutes = board.rules.minutes, costs = view.costs || {};
  const here = nodesById[view.position];
  const roads = {};
  for (const r of view.roads || []) if (r.open) roads[r.to] = r;
  const leaving = !view.tally.left_home;
  const groups = { here: [], fuel: [], supplies: [], drive: [], more: [], destination: [], other: [] };

  for (const action of actions) {
    switch (action.type) {
      case "drive": {
        const node = nodesById[action.to];
        const label = node ? node.label : action.to;
        const confirm = leaving ? T.confirmLeave(label) : null;
        let sub = null;
        let cls = "";
        if (node && node.kind === "destination") { sub = T.driveSubDest; cls = "evac-act--goal"; }
        else if (roads[action.to]) sub = needsText(roads[action.to], board);
        else if (node && node.kind === "home") sub = T.driveSubHome;
        const important = !node || node.kind !== "free" && node.kind !== "chance" || roads[action.to];
        const btn = actionButton(ctx, action, { label, sub, cls, confirm, name: T.driveTo(label) });
        (important ? groups.drive : groups.more).push([node && node.kind === "destination" ? 0 : node && node.kind === "free" || node && node.kind === "chance" ? 2 : 1, btn]);
        break;
      }
      case "withdraw":
        groups.here.push([0, actionButton(ctx, action, { label: T.withdraw(T.money(action.amount)), sub: T.takes(T.duration(minutes.bank)) })]);
        break;
      case "buy_home_supplies":
        groups.here.push([0, actionButton(ctx, action, { label: T.homeSupplies(T.money(costs.buy_home_supplies)), sub: T.takes(T.duration(minutes.home_supplies)) })]);
        break;
      case "pick_up_friends":
        groups.here.push([0, actionButton(ctx, action, { label: T.friends, sub: T.takes(T.duration(minutes.friends)) })]);
        break;
      case "buy_fuel": {
        const cost = T.money(costs.buy_fuel[action.gallons]);
        groups.fuel.push([0, actionButton(ctx, action, { label: T.fuel(action.gallons, cost), sub: T.takes(T.duration(minutes.buy_fuel)) })]);
        break;
      }
      case "buy_supplies": {
        const cost = T.money(costs.buy_supplies[action.units]);
        groups.supplies.push([0, actionButton(ctx, action, { label: T.supplies(action.units, cost), sub: T.takes(T.duration(minutes.buy_supplies)) })]);
        break;
      }
      case "set_destination": {
        const dest = board.destinations[action.destination] || { label: action.destination };
        const due = costs.set_destination[action.destination];
        const cost = due ? T.money(due) : 0;
        groups.destination.push([0, actionButton(ctx, action, {
          label: dest.label, sub: T.destinationCost(cost), name: T.destinationName(dest.label, cost),
          confirm: T.confirmDestination(dest.label, cost),
        })]);
        break;
      }
      case "tow":
        groups.other.push([0, actionButton(ctx, action, { label: T.tow(T.money(costs.tow)), sub: T.takes(T.duration(minutes.tow)), confirm: board.consequences.tow })]);
        break;
      case "wait":
        groups.other.push([1, actionButton(ctx, action, { label: T.wait, sub: T.takes(T.duration(minutes.wait)), name: `${T.wait} (${T.takes(T.duration(minutes.wait))})` })]);
        break;
      case "stay_home":
        groups.other.push([2, actionButton(ctx, action, { label: T.stayHome, sub: T.stayHomeSub, cls: "evac-act--danger", confirm: T.confirmStay(board.consequences.stay_home) })]);
        break;
      case "reason":
        break; // shown in the "why?" panel
      default:
        groups.other.push([3, actionButton(ctx, action, { label: action.type.replace(/_/g, " ") })]);
    }
  }
  const sorted = (list) => list.sort((a, b) => a[0] - b[0]).map((x) => x[1]);
  const more = groups.more.length
    ? h("details", { class: "evac-more", "data-key": "more-places", open: ctx.mem.open["more-places"] || null },
      h("summary", { text: T.morePlaces(groups.more.length) }), h("div", { class: "evac-buttons" }, sorted(groups.more)))
    : null;
  const parts = [
    group(T.groupHere(here ? here.label : view.position), sorted(groups.here)),
    groups.fuel.length ? group(T.groupFuel(T.money(view.fuel_price_here)), sorted(groups.fuel)) : null,
    group(T.groupSupplies(T.money(view.system.supply_price)), sorted(groups.supplies)),
    group(T.groupDrive, sorted(groups.drive), "evac-group--drive"),
    group(T.groupDestination, sorted(groups.destination)),
    group(T.groupOther, sorted(groups.other)),
    more,
  ].filter(Boolean);
  return h("section", { class: "evac-actions", "aria-labelledby": "evac-actions-title" },
    h("h2", { id: "evac-actions-title", class: "evac-actions-title visually-hidden", text: T.actionsTitle }),
    parts.length ? parts : h("p", { text: T.noActions }));
}

function renderSystem(ctx) {
  const { view, board } = ctx;
  const s = view.system;
  const row = (label, value, cls) => h("div", { class: "evac-sys-row" + (cls ? " " + cls : "") }, h("dt", { text: label }), h("dd", {}, value));
  const bridges = h("ul", { class: "evac-inline" }, Object.keys(s.bridges).map((b) =>
    h("li", { class: s.bridges[b] ? "is-open" : "is-closed" }, `${T.bridgeNames[b] || b}: `, h("strong", { text: s.bridges[b] ? T.open : T.bridgeClosed.toUpperCase() }))));
  const places = h("ul", { class: "evac-inline" }, Object.keys(s.destinations).map((d) =>
    h("li", { class: s.destinations[d] ? "is-open" : "is-closed" }, `${board.destinations[d] ? board.destinations[d].label : d}: `, h("strong", { text: s.destinations[d] ? T.taking : T.notTaking.toUpperCase() }))));
  const cards = wordsOf(board).cards;
  const changes = (view.changes || []).slice().reverse().map((c) =>
    h("li", {}, h("span", { class: "evac-hour", text: T.hourShort(hourText(c.hour)) }), " ", cards[c.source] ? T.changeBy(cards[c.source].title) : c.source));
  return box("evac", "system", "sys", T.systemTitle,
    h("dl", {},
      row(T.sNumbers, h("span", { class: "evac-numbers evac-numbers--" + s.numbers, text: s.numbers === "red" ? T.numbersRed : T.numbersBlack })),
      row(T.sFuelPrice, T.perGallon(T.money(s.fuel_price))),
      row(T.sLimit, T.limitValue(s.fuel_limit)),
      row(T.sSupplyPrice, T.each(T.money(s.supply_price))),
      row(T.sBridges, bridges),
      row(T.sContraflow, s.contraflow ? T.on : T.off),
      row(T.sDestinations, places)),
    changes.length ? h("div", { class: "evac-changes" }, h("h3", { text: T.changesTitle }), h("ul", {}, changes)) : null);
}

function renderFeed(ctx) {
  const { view, board } = ctx;
  const feed = (view.feed || []).slice().reverse();
  return box("evac", "feed", "feed", T.feedTitle,
    feed.length
      ? h("ol", {}, feed.map((e) => h("li", { class: "evac-ev evac-ev--" + e.type },
        h("span", { class: "evac-hour", text: T.hourShort(hourText(e.hour)) }), h("span", { text: feedText(board, e) }))))
      : h("p", { class: "evac-muted", text: T.feedEmpty }));
}

function renderRoads(ctx) {
  const { view, board } = ctx;
  const place = wordsOf(board).place;
  return box("evac", "roads", "roads", `${T.roadsTitle} (${place(view.position)})`,
    h("ul", {}, (view.roads || []).map((r) => h("li", { class: r.open ? "is-open" : "is-closed" },
      h("span", { text: T.roadTo(place(r.to)) }), h("strong", { text: r.open ? needsText(r, ctx.board) : T.closedShort })))));
}

// A road's roll in the tablet's words: the threshold and its odds come in the view and board.
function needsText(road, board) {
  return road.needs === null || road.needs === undefined ? T.noRoll : T.needs(road.needs, board.chance_in_10[road.needs]);
}

function renderOthers(ctx) {
  const others = ctx.view.others || [];
  if (!others.length) return null;
  return box("evac", "others", "others", T.othersTitle,
    h("ul", {}, others.map((o) => h("li", {},
      h("strong", { text: T.seatName(o.seat) }), ` · ${T.atHour(hourText(o.hour))} · ${T.seatStatus[o.status] || o.status}`))));
}

function renderResults(ctx) {
  const { view, message, board } = ctx;
  const rows = message.results || view.results || [];
  const mine = rows.find((r) => r.seat === view.seat);
  if (!mine) return h("section", { class: "evac-results" }, h("h2", { text: T.gameOver }));
  const p = mine.breakdown.points, s = mine.breakdown.safety;
  const num = (n) => numberFormat().format(Math.round(n * 10) / 10);
  const yn = (b) => h("span", { class: b ? "is-yes" : "is-no", text: b ? T.yes : T.no });
  const dest = s.destination && board.destinations[s.destination] ? board.destinations[s.destination].label : "—";
  const table = resultsTable("evac-standings", T.tableTitle, [T.rank, T.player, T.score, T.sOutcome],
    rows.slice().sort((a, b) => a.rank - b.rank).map((r) => ({
      me: r.seat === view.seat,
      cells: [String(r.rank), r.seat === view.seat ? `${T.seatName(r.seat)} (${T.you})` : T.seatName(r.seat), num(r.score), T.outcome[r.breakdown.safety.outcome] || r.breakdown.safety.outcome],
    })));
  return h("section", { class: "evac-results", "aria-labelledby": "evac-results-title" },
    h("h2", { id: "evac-results-title", text: T.resultsTitle }),
    h("p", { class: "evac-score" }, h("span", { text: T.score }), h("strong", { text: num(mine.score) })),
    h("div", { class: "evac-sides" },
      h("section", { class: "evac-side" }, h("h3", { text: T.pointsTitle }), h("dl", {},
        defRows([[T.pCash, num(p.cash)], [T.pDestination, num(p.destination)], [T.pInTime, num(p.in_time)], [T.pOrder, num(p.arrival_order)]]
          .concat(p.half_tank === undefined ? [] : [[T.pHalfTank, num(p.half_tank)]], [[T.pTotal, num(p.total)]])))),
      h("section", { class: "evac-side" }, h("h3", { text: T.safetyTitle }), h("dl", {},
        defRows([
          [T.sArrived, yn(s.arrived_in_time)], [T.sSecured, yn(s.home_secured)],
          [T.sSupplies, [String(s.supplies), s.supplies_short_on_arrival ? " " + T.shortOnArrival(s.supplies_short_on_arrival) : ""]],
          [T.sFuel, T.gallons(s.fuel)], [T.tDestination, dest], [T.sOutcome, T.outcome[s.outcome] || s.outcome]])))),
    table);
}

// ---- teacher dashboard card ------------------------------------------------------------------

export function summary(board, teacherView, table) {
  const names = {};
  for (const seat of (table && table.seats) || []) names[seat.seat] = seat.name || T.botName;
  const results = {};
  for (const r of teacherView.results || []) results[r.seat] = r;
  const rows = (teacherView.tables || []).map((v) => {
    const last = (v.feed || []).slice(-2).reverse();
    const result = results[v.seat];
    const stat = (label, value, low) => h("span", { class: "evac-sum-stat" + (low ? " is-low" : "") },
      h("span", { class: "visually-hidden", text: label + ": " }), value);
    return h("li", { class: "evac-sum-row evac-sum-" + v.status },
      h("div", { class: "evac-sum-line" },
        h("strong", { text: names[v.seat] ? `${T.seatName(v.seat)} · ${names[v.seat]}` : T.seatName(v.seat) }),
        h("span", { class: "evac-sum-status", text: T.seatStatus[v.status] || v.status }),
        v.reason_prompt ? h("span", { class: "evac-sum-why", text: T.sumWhy }) : null,
        result ? h("span", { class: "evac-sum-score" }, `${T.colScore} `, h("strong", { text: String(Math.round(result.score * 10) / 10) })) : null),
      h("div", { class: "evac-sum-line" },
        stat(T.colHour, T.hour(hourText(v.hour))),
        stat(T.colFuel, T.gallons(v.tally.fuel), v.tally.fuel <= 2),
        stat(T.colCash, T.money(v.tally.cash), v.tally.cash < 0),
        stat(T.colPlace, wordsOf(board).place(v.position))),
      last.length ? h("ol", { class: "evac-sum-events", "aria-label": T.colEvents },
        last.map((e) => h("li", {}, h("span", { class: "evac-hour", text: T.hourShort(hourText(e.hour)) }), " ", feedText(board, e)))) : null);
  });
  return h("div", { class: "evac-summary" },
    h("p", { class: "evac-sum-title", text: T.summaryCaption }),
    h("ul", { class: "evac-sum-list" }, rows));
}
