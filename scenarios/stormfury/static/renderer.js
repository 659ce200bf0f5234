// "Project Stormfury" scenario renderer: draws one seat's view of the cooperative hex-map game and
// turns its legal actions into big buttons. The transport (play.js) owns the socket; this module
// only renders, on the screen skeleton of kit.js. It computes no rule: where the storm is
// (nearest city, hexes across), which roads dams seal, how many cards to discard or may go on
// the Relief pile, what an evacuation costs and what the team kept come in the view or the board.
// Every render replaces what is shown (never patches); per-root memory keeps
// pan/zoom, scroll, open <details>, focus, the chosen kind of action and the storm animation.
// Safari 15 / Chrome 100: no build step, no syntax newer than ES2020.

import { gettext, ngettext, pgettext, fmt, h, svg, screenMemory, renderScreen, focusOnwards, banner, countdown, askButton, sendAction, choiceButton, box, defRows, basisBlock,
  mapFrame, on, TIMER, screenBox, overlapArea, outsideArea } from "/static/js/kit.js";

// Tablemates' nicknames the teacher approved (play.js passes them; bots and hidden names
// are not there), so the screen says "Ana" rather than "Player 2".
let tablemates = {};

const T = {
  // banner
  yourTurn: gettext("Your turn"),
  pickRole: gettext("Pick your role"),
  rolesWaiting: gettext("Waiting for your team to pick their roles"),
  turnEnded: gettext("Turn ended — waiting for your team"),
  waitSeat: (name) => fmt(gettext("Waiting for %(name)s to finish their turn"), { name }),
  stormHeld: gettext("Waiting for the other tables — the storm moves for the whole class at once"),
  paused: gettext("Paused by your teacher"),
  botPlaying: gettext("A bot is playing for you…"),
  gameOver: gettext("The storm is over"),
  endedEarly: gettext("Your teacher ended the game early."),
  sending: gettext("Sending…"),
  round: (n, cap) => fmt(gettext("Round %(n)s of %(cap)s"), { n, cap }),
  askTeacher: gettext("Ask the teacher"),
  offerWaiting: gettext("A trade offer is waiting for you"),
  // for the screen reader and keyboard
  newsRole: (who, role, city) => fmt(gettext("%(who)s is the %(role)s, in %(city)s."), { who, role, city }),
  newsMoved: (who, city) => fmt(gettext("%(who)s moved to %(city)s."), { who, city }),
  newsEnded: (who) => fmt(gettext("%(who)s ended their turn."), { who }),
  newsFort: (space, n) => fmt(ngettext("%(space)s: %(n)s fortification now.", "%(space)s: %(n)s fortifications now.", n), { space, n }),
  newsDiscard: (card, n) => fmt(gettext("You discarded %(card)s: %(n)s left in your hand."), { card, n }),
  newsDam: (road, city) => fmt(gettext("Dam built on %(road)s at %(city)s."), { road, city }),
  newsPeople: (city, n) => fmt(ngettext("%(city)s: %(n)s person not yet evacuated.", "%(city)s: %(n)s people not yet evacuated.", n), { city, n }),
  newsStorm: (n) => fmt(gettext("The storm moved (round %(n)s):"), { n }),
  // map
  mapTitle: gettext("Map of the Gulf coast"),
  zoomIn: gettext("Zoom in"),
  zoomOut: gettext("Zoom out"),
  zoomReset: gettext("Show the whole map"),
  zoomMe: gettext("Zoom to my city"),
  forecastToggle: gettext("Show the forecast on the map"),
  legend: gettext("How to read the map"),
  legendItems: [
    gettext("Blue hexes are the Gulf, pale hexes are land."),
    gettext("Grey lines are roads. A wavy blue dashed road is flooded: nobody can use it."),
    gettext("A brown bar across a road is a dam at that end. Dams at both ends: the road never floods."),
    gettext("Person and number: people not yet evacuated (2, 1 or 0)."),
    gettext("Squares: P port, H hospital, E power, W water, R refinery, B bridge, C emergency centre. Red ✕: destroyed."),
    gettext("Green +N: fortifications. Each one absorbs one hit."),
    gettext("The storm's circle shows its category; the tinted hexes are its footprint."),
    gettext("Orange hexes: where the forecast says the storm could reach. Dots: where it could end."),
    gettext("Numbered circles are players; yours says “You”."),
  ],
  you: gettext("You"),
  infraLetter: { port: "P", hospital: "H", power: "E", water: "W", refinery: "R", bridge: "B", emergency: "C" },
  infraKind: { port: gettext("port"), hospital: gettext("hospital"), power: gettext("power"), water: gettext("water"), refinery: gettext("refinery"), bridge: gettext("bridge"), emergency: gettext("emergency centre") },
  moveTo: (city) => fmt(gettext("Move to %(city)s"), { city }),
  // map in words
  wordsTitle: gettext("The map in words"),
  wordsHere: (role, city) => fmt(gettext("You are the %(role)s in %(city)s."), { role, city }),
  wordsNoRole: gettext("You have not picked a role yet."),
  wordsRoads: gettext("Roads from here:"),
  wordsRoad: (city, road, state) => fmt(gettext("to %(city)s by %(road)s (%(state)s)"), { city, road, state }),
  roadOpen: pgettext("road", "open"),
  roadFlooded: gettext("flooded"),
  roadSealed: gettext("dammed at both ends: it never floods"),
  roadDammedAt: (cities) => fmt(gettext("dam at %(cities)s"), { cities }),
  wordsStorm: (cat, where, across) => fmt(gettext("Storm: category %(cat)s, %(where)s; it covers %(across)s hexes across."), { cat, where, across }),
  wordsRisk: gettext("The forecast says it could hit:"),
  wordsNoRisk: gettext("The forecast does not reach any city."),
  wordsTeam: gettext("Your team:"),
  wordsCities: gettext("Cities"),
  cityWords: (name, people, spaces) => fmt(ngettext("%(name)s: %(people)s person not yet evacuated%(spaces)s.", "%(name)s: %(people)s people not yet evacuated%(spaces)s.", people),
    { name, people, spaces: spaces.length ? "; " + spaces.join("; ") : "" }),
  spaceState: (name, state) => fmt(gettext("%(name)s %(state)s"), { name, state }),
  standing: gettext("standing"),
  destroyed: gettext("destroyed"),
  forts: (n) => fmt(ngettext("%(n)s fortification", "%(n)s fortifications", n), { n }),
  overCity: (c) => fmt(gettext("right over %(c)s"), { c }),
  atSeaNear: (n, c) => fmt(ngettext("at sea, %(n)s hex from %(c)s", "at sea, %(n)s hexes from %(c)s", n), { n, c }),
  overLandNear: (n, c) => fmt(ngettext("over land, %(n)s hex from %(c)s", "over land, %(n)s hexes from %(c)s", n), { n, c }),
  chance: (p) => (p >= 0.995 ? gettext("in every possible track") : p < 0.05 ? gettext("less than 1 in 10")
    : fmt(gettext("about %(n)s in 10"), { n: Math.max(1, Math.round(p * 10)) })),
  chanceShort: (p) => (p >= 0.995 ? gettext("10 in 10") : p < 0.05 ? gettext("<1 in 10")
    : fmt(gettext("%(n)s in 10"), { n: Math.max(1, Math.round(p * 10)) })),
  // for the screen reader and keyboard
  mapKeys: gettext("With the map focused, arrow keys move it, plus and minus zoom, and 0 shows the whole map. The same choices are buttons beside the map."),
  // roles
  rolesTitle: gettext("Choose your role"),
  rolesNote: gettext("Each role once per table. Your team mates see what you pick."),
  roleTaken: (who) => fmt(gettext("taken by %(who)s"), { who }),
  pickRoleBtn: (role, city) => fmt(gettext("Be the %(role)s"), { role }),
  pickRoleSub: (city) => fmt(gettext("start in %(city)s"), { city }),
  otherCity: gettext("Start in another city"),
  pickRoleName: (role, city) => fmt(gettext("Be the %(role)s, starting in %(city)s"), { role, city }),
  factChecked: gettext("Really happened:"),
  factReported: gettext("Reported, not checked against the original source:"),
  factSource: gettext("Source:"),
  factReportedBy: gettext("Reported by:"),
  // actions
  actionsTitle: gettext("What will you do?"),
  chooseKind: gettext("Choose what to do, then how."),
  kinds: {
    move: gettext("Move"), fortify: gettext("Fortify"), dam: gettext("Dam a road"), evacuate: gettext("Evacuate"), draw_more: gettext("Draw more"),
    role: gettext("Use my role"), trade: gettext("Offer a trade"), discard: gettext("Discard"),
  },
  kindSub: {
    move: (n) => fmt(ngettext("%(n)s move left", "%(n)s moves left", n), { n }), fortify: () => gettext("protect a place"), dam: () => gettext("keep a road dry"),
    evacuate: () => gettext("move people out"), draw_more: () => gettext("but play no cards"), role: () => gettext("your power"),
    trade: () => gettext("1 card for 1"), discard: (n, limit) => fmt(gettext("down to %(limit)s (%(n)s too many)"), { limit, n }),
  },
  close: gettext("Close"),
  drawMore: (n) => fmt(gettext("Draw %(n)s more"), { n }),
  drawTitle: (n) => fmt(gettext("Draw your %(n)s cards"), { n }),
  drawDeck: (n) => fmt(gettext("Draw %(n)s from the deck"), { n }),
  drawPile: (a) => fmt(gettext("Take %(a)s from the Relief pile"), { a }),
  drawMoreDeck: (n) => fmt(gettext("Draw %(n)s more from the deck"), { n }),
  drawMoreNote: gettext("After drawing more you cannot play cards this turn (you may still move and trade)."),
  moveSub: (road) => road,
  fortifyCard: gettext("Which Fortify card?"),
  fortifyCost: (name, pay) => fmt(gettext("%(name)s (pays %(pay)s)"), { name, pay }),
  fortifySpace: gettext("Where?"),
  fortifyOn: (card, space) => fmt(gettext("%(card)s on %(space)s"), { card, space }),
  fortifyHas: (n) => (n ? fmt(gettext("has %(n)s now"), { n }) : gettext("no fortification yet")),
  damAt: (road, city) => fmt(gettext("Dam %(road)s at the %(city)s end"), { road, city }),
  damSub: (sealed) => (sealed ? gettext("seals the road: it will never flood") : gettext("the other end needs a dam too")),
  damNote: gettext("Pays the Dam card and 1 Sandbag."),
  evacTitle: (city, n) => fmt(gettext("Move people out of %(city)s (%(n)s not yet evacuated)"), { city, n }),
  evacNote: (n) => fmt(gettext("Your Evacuate card is used, plus %(n)s cards for each person. Pick the cards to give up:"), { n }),
  evacGo: (n) => fmt(ngettext("Evacuate %(n)s person", "Evacuate %(n)s people", n), { n }),
  evacNeed: (n) => fmt(gettext("Pick %(one)s cards for 1 person, or %(two)s for 2 people."), { one: n, two: 2 * n }),
  evacConfirm: (n, city, cards) => fmt(ngettext("Evacuate %(n)s person from %(city)s, giving up %(cards)s?",
    "Evacuate %(n)s people from %(city)s, giving up %(cards)s?", n), { n, city, cards }),
  roleEvacNote: gettext("Your power: give up any 2 cards to evacuate 1 person from your city, even after drawing more."),
  roleEvacGo: gettext("Evacuate 1 person"),
  roleEvacNeed: gettext("Pick exactly 2 cards."),
  rolePileNote: (n) => fmt(gettext("Put cards you drew this turn face up on the Relief pile (%(n)s more allowed)."), { n }),
  rolePile: (card) => fmt(gettext("Put %(card)s on the Relief pile"), { card }),
  rolePassive: gettext("Your power works by itself: there is no button for it."),
  tradeWith: gettext("Trade with"),
  tradeGive: gettext("I give"),
  tradeGet: gettext("I get"),
  tradeGo: (give, get, who) => fmt(gettext("Offer %(give)s for %(get)s to %(who)s"), { give, get, who }),
  tradeNeed: gettext("Choose a card to give and a card to get."),
  tradeNote: gettext("They answer on their own tablet. An offer expires and never blocks a turn."),
  discardOne: (card) => fmt(gettext("Discard %(card)s"), { card }),
  discardSub: (n) => fmt(gettext("you have %(n)s"), { n }),
  endTurn: gettext("End my turn"),
  endTurnSub: gettext("the storm moves when everyone has ended"),
  endTurnConfirm: gettext("You can still play cards this turn. End your turn anyway?"),
  endTurnBlocked: (n, over) => fmt(gettext("You have %(n)s cards: discard %(over)s to end your turn."), { n, over }),
  noActions: gettext("Nothing to do right now."),
  // offers
  offerIn: (who, give, get) => fmt(gettext("%(who)s offers you %(give)s for your %(get)s."), { who, give, get }),
  offerOut: (who, give, get) => fmt(gettext("You offered %(give)s for %(get)s to %(who)s: waiting for an answer."), { give, get, who }),
  accept: gettext("Accept"),
  decline: gettext("Decline"),
  acceptName: (who, give, get) => fmt(gettext("Accept: get %(give)s from %(who)s, give %(get)s"), { give, who, get }),
  declineName: (who) => fmt(gettext("Decline the offer from %(who)s"), { who }),
  // hand, pile, team
  handTitle: (n, limit) => fmt(gettext("Your cards (%(n)s of %(limit)s)"), { n, limit }),
  handEmpty: gettext("You hold no cards."),
  pileTitle: (n) => fmt(gettext("Relief Corps pile (%(n)s)"), { n }),
  pileNote: gettext("Face up: other players may draw from it instead of the deck."),
  teamTitle: gettext("Your team"),
  seatName: (n) => tablemates[n] || fmt(gettext("Player %(n)s"), { n: n + 1 }),
  noRoleYet: gettext("no role yet"),
  inCity: (c) => fmt(gettext("in %(c)s"), { c }),
  cards: (n) => fmt(ngettext("%(n)s card", "%(n)s cards", n), { n }),
  seatStatus: { waiting: pgettext("seat", "waiting"), start: gettext("drawing"), drawn: gettext("playing"), played: gettext("playing"), more: gettext("playing"), ended: gettext("turn ended") },
  damageTitle: gettext("Team damage"),
  damageTotal: gettext("Total damage"),
  dInfra: gettext("Infrastructure destroyed"),
  dPeople: gettext("People not yet evacuated hit"),
  dRoads: gettext("Roads flooded"),
  trackTitle: gettext("Damage after each storm"),
  trackRound: (n, d) => fmt(gettext("after round %(n)s: %(d)s"), { n, d }),
  trackEmpty: gettext("No storm yet."),
  lowerBetter: gettext("lower is better"),
  // storm and forecast
  stormTitle: gettext("The storm"),
  category: (c) => fmt(gettext("Category %(c)s"), { c }),
  catWind: (mph) => fmt(gettext("%(mph)s mph winds"), { mph }),
  stormAcross: (n) => fmt(gettext("%(n)s hexes across"), { n }),
  forecastTitle: (size) => fmt(gettext("Forecast: %(size)s possible moves"), { size }),
  forecastNote: (n, size) => fmt(gettext("In the Hurricane Phase %(n)s of these %(size)s cards are flipped, in a random order. Orange on the map: every hex it could cover."), { n, size }),
  strengthen: gettext("strengthens at sea"),
  weaken: gettext("weakens"),
  oceanDeck: gettext("ocean cards"),
  landDeck: gettext("land cards"),
  steps: (s) => fmt(gettext("moves %(s)s"), { s }),
  dirWord: { N: gettext("north"), NE: gettext("north-east"), SE: gettext("south-east"), S: gettext("south"), SW: gettext("south-west"), NW: gettext("north-west") },
  riskTitle: gettext("Chance each city is hit"),
  noForecast: gettext("The next forecast comes at the start of the next round."),
  // last storm
  lastTitle: (n) => fmt(gettext("What the storm did in round %(n)s"), { n }),
  replay: gettext("Replay the storm"),
  evFlips: (n, titles) => fmt(gettext("Flipped %(n)s: %(titles)s."), { n, titles }),
  evStep: (dir) => fmt(gettext("Moved %(dir)s."), { dir }),
  evBlocked: (dir) => fmt(gettext("Could not move %(dir)s (edge of the map)."), { dir }),
  evHeld: (space, left) => fmt(ngettext("Held: %(space)s (%(left)s fortification left).", "Held: %(space)s (%(left)s fortifications left).", left), { space, left }),
  evDestroyed: (space) => fmt(gettext("Destroyed: %(space)s."), { space }),
  evPeople: (city, n) => fmt(ngettext("%(city)s: %(n)s person not yet evacuated hit.", "%(city)s: %(n)s people not yet evacuated hit.", n), { city, n }),
  evSpared: (city) => fmt(gettext("%(city)s: everyone had left — nobody hurt."), { city }),
  evDamHeld: (road) => fmt(gettext("Held: the dams on %(road)s."), { road }),
  evFlooded: (road) => fmt(gettext("Flooded: %(road)s."), { road }),
  evCategory: (a, b, over) => (over === "land" ? fmt(gettext("Category %(a)s → %(b)s (over land)."), { a, b })
    : fmt(gettext("Category %(a)s → %(b)s (at sea)."), { a, b })),
  evDied: gettext("The storm died out."),
  // results
  resultsTitle: gettext("Your team's result"),
  endedHow: { dissipated: gettext("The storm died out."), turn_cap: gettext("The last round was played."), ended_now: gettext("Your teacher ended the game early.") },
  byType: gettext("Damage by type"),
  byCity: gettext("Damage by city"),
  noCityDamage: gettext("No city was damaged."),
  whatHeld: gettext("What held"),
  heldInfra: (n, total) => fmt(gettext("%(n)s of %(total)s infrastructure places still standing"), { n, total }),
  heldRoads: (n, total) => fmt(gettext("%(n)s of %(total)s roads still open"), { n, total }),
  heldSealed: (n) => fmt(ngettext("%(n)s road sealed by dams at both ends", "%(n)s roads sealed by dams at both ends", n), { n }),
  heldPeople: (n, total) => fmt(gettext("%(n)s of %(total)s people evacuated"), { n, total }),
  heldForts: (n) => fmt(ngettext("%(n)s fortification still standing", "%(n)s fortifications still standing", n), { n }),
  infraLost: gettext("Infrastructure lost"),
  youDid: gettext("What you did"),
  contrib: { fortifications: gettext("fortifications built"), dams: gettext("dams placed"), evacuated: gettext("people evacuated"), trades: gettext("trades"), moved: gettext("moves") },
  // teacher card
  sumPhase: { roles: gettext("picking roles"), player: gettext("player phase"), storm: gettext("waiting for the class storm"), over: gettext("finished") },
  sumRound: (n, cap) => fmt(gettext("round %(n)s/%(cap)s"), { n, cap }),
  sumStorm: (cat, where) => fmt(gettext("Cat %(cat)s · %(where)s"), { cat, where }),
  sumDamage: (t) => fmt(gettext("Damage %(t)s"), { t }),
  sumDamageBy: (i, p, r) => fmt(gettext("· %(i)s infrastructure · %(p)s people not yet evacuated · %(r)s roads"), { i, p, r }),
  sumNotEnded: gettext("Not ended:"),
  sumAllEnded: gettext("Everyone has ended their turn"),
  sumNoRole: gettext("Still choosing a role:"),
  sumRoles: gettext("Roles"),
  sumNoView: gettext("No game yet."),
};

const S = 30; // hex radius in SVG units
const SQ3 = Math.sqrt(3);
const STEP_MS = 650;
const SEAT_COLOURS = ["#0b6fa4", "#b3261e", "#1f7a3a", "#7b3fa0"];
const CAT_COLOURS = { 1: "#f2c14e", 2: "#f29e4c", 3: "#e8702a", 4: "#b83245", 5: "#8e3b9c" };
// The number's colour on each category's colour: at least 4.5:1 (dark on 1-3, white on 4-5).
const CAT_INK = { 1: "#13232f", 2: "#13232f", 3: "#13232f", 4: "#ffffff", 5: "#ffffff" };
const ARROWS = { N: "↑", NE: "↗", SE: "↘", S: "↓", SW: "↙", NW: "↖" };
const remember = screenMemory(() => ({ kind: null, pick: [], fortCard: null,
  trade: {}, anim: null, stormKey: undefined, showForecast: true, frame: null }));

// ---- geometry and board lookups -------------------------------------------------------------

function hexXY(q, r) {
  return [S * 1.5 * q, S * SQ3 * (r + q / 2)];
}

function hexPoints(x, y, s) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(x + s * Math.cos(a)).toFixed(1)},${(y + s * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

const indexes = new WeakMap();

function lookups(board) {
  let ix = indexes.get(board);
  if (ix) return ix;
  ix = { cities: {}, spaces: {}, roads: {}, roadsAt: {}, cards: {}, hcards: {}, roles: {}, kinds: [], terrain: {} };
  for (const c of board.cities) {
    ix.cities[c.id] = c;
    ix.roadsAt[c.id] = [];
    for (const s of c.spaces) ix.spaces[s.id] = Object.assign({ city: c.id }, s);
  }
  for (const r of board.roads) {
    ix.roads[r.id] = r;
    ix.roadsAt[r.a].push([r, r.b]);
    ix.roadsAt[r.b].push([r, r.a]);
  }
  for (const c of board.resource_cards) { ix.cards[c.kind] = c; ix.kinds.push(c.kind); }
  for (const c of board.hurricane_cards) ix.hcards[c.id] = c;
  for (const r of board.roles) ix.roles[r.id] = r;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const hx of board.hexes) {
    ix.terrain[hx.q + "," + hx.r] = hx.terrain;
    const [x, y] = hexXY(hx.q, hx.r);
    minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
  }
  ix.box = [minX - S * 1.2, minY - S * 1.2, maxX - minX + S * 2.4, maxY - minY + S * 2.4];
  ix.home = ix.box;
  if (board.frame) { // the coast and the Gulf fill the first view; the inland rows are a pan away
    const xy = board.frame.map((p) => hexXY(p[0], p[1]));
    const xs = xy.map((p) => p[0]), ys = xy.map((p) => p[1]);
    const x0 = Math.min(...xs), y0 = Math.min(...ys);
    // (with room around the edge rows for their cities' names)
    ix.home = [x0 - S * 2, y0 - S * 2.2, Math.max(...xs) - x0 + S * 4, Math.max(...ys) - y0 + S * 3.4];
  }
  indexes.set(board, ix);
  return ix;
}

function cardName(ix, kind) {
  return ix.cards[kind] ? ix.cards[kind].name : kind;
}

function cityName(ix, id) {
  return ix.cities[id] ? ix.cities[id].name : id;
}

function roleName(ix, id) {
  return ix.roles[id] ? ix.roles[id].name : id;
}

function listCards(ix, kinds) {
  const counts = {};
  for (const k of kinds) counts[k] = (counts[k] || 0) + 1;
  return Object.keys(counts).map((k) => (counts[k] > 1 ? `${counts[k]} × ${cardName(ix, k)}` : cardName(ix, k))).join(", ");
}

function sortKinds(ix, kinds) {
  return kinds.slice().sort((a, b) => ix.kinds.indexOf(a) - ix.kinds.indexOf(b));
}

function stormWhere(ix, storm) {
  const near = storm.nearest;
  if (!near) return "";
  const name = cityName(ix, near.city);
  if (near.hexes === 0) return T.overCity(name);
  return storm.over === "land" ? T.overLandNear(near.hexes, name) : T.atSeaNear(near.hexes, name);
}

function seatLabel(ix, view, seat, mySeat) {
  const p = (view.players || [])[seat];
  const base = seat === mySeat ? `${T.seatName(seat)} (${T.you})` : T.seatName(seat);
  return p && p.role ? `${base}, ${roleName(ix, p.role)}` : base;
}

// ---- render -----------------------------------------------------------------------------------

export function render(root, board, message, controls) {
  tablemates = (controls && controls.names) || {};
  const mem = remember(root);
  const ix = lookups(board);
  const view = message.view;
  const seat = message.seat;
  const me = (view.players || [])[seat] || null;
  const ctx = { root, board, ix, message, controls, view, mem, seat, me };
  ctx.over = message.status === "finished" || view.phase === "over";
  ctx.actions = view.actions || [];
  ctx.canAct = message.status === "playing" && !message.bot && !ctx.over && ctx.actions.length > 0;
  ctx.disabled = !ctx.canAct || Boolean(controls.busy);
  ctx.moves = {};
  if (ctx.canAct) for (const a of ctx.actions) if (a.type === "move") ctx.moves[a.to] = a;
  if (!mem.box) mem.box = ix.home.slice();
  trackStorm(ctx);
  const tone = bannerTone(ctx);
  renderScreen(root, mem, {
    prefix: "sf", pageClass: "sf sf--" + tone, busy: controls.busy, mapLabel: T.mapTitle,
    header: () => renderHeader(ctx, tone), map: () => renderMap(ctx), panel: () => renderPanel(ctx),
    announce: news(ctx), version: message.version, countdown: { running: TIMER.botIn, over: TIMER.botNow, warn: TIMER.botWarn },
  });
  animateStorm(root, mem, true);
}

// ---- what the live region says ----------------------------------------------------------------

// What this version changed, in words, for the screen's one live region: the banner when it
// changed, every player's new role, city or ended turn, new fortifications, dams and
// evacuations, a trade offer for me, and the storm's whole move when a new one came. Only what
// the views show, compared with the last one: no rule is worked out here. The first render
// says only the banner.
function news(ctx) {
  const { ix, view, mem, seat } = ctx;
  const now = {
    banner: bannerText(ctx), storm: ctx.stormPath ? ctx.stormPath.key : null,
    players: (view.players || []).map((p) => ({ role: p.role, city: p.city, status: p.status })),
    forts: { ...(view.fortifications || {}) }, dams: JSON.stringify(view.dams || {}), population: { ...(view.population || {}) },
    offers: incoming(ctx).map((o) => o.id).join(","),
    timer: ctx.message.timer || null, hand: { ...(view.hand || {}) },
    mine: JSON.stringify(((p) => (p ? [p.role, p.city, p.status, p.moves_left, p.power_used] : null))((view.players || [])[seat])),
  };
  const was = mem.news;
  mem.news = now;
  if (!was) return [now.banner + "."];
  const out = [];
  if (now.banner !== was.banner) out.push(now.banner + ".");
  // My own place or cards changed though I did not act, while my turn timer ran: its bot did.
  if (now.mine !== was.mine && was.timer && !mem.acted && !ctx.message.bot && !(now.storm && now.storm !== was.storm)) out.push(TIMER.botMoved);
  if (now.mine !== was.mine) mem.acted = false;
  now.players.forEach((p, i) => {
    const before = was.players[i] || {};
    const who = seatLabel(ix, view, i, seat);
    if (p.role && p.role !== before.role) out.push(T.newsRole(who, roleName(ix, p.role), cityName(ix, p.city)));
    else if (p.city && before.city && p.city !== before.city) out.push(T.newsMoved(who, cityName(ix, p.city)));
    if (i !== seat && p.status === "ended" && before.status && before.status !== "ended") out.push(T.newsEnded(who));
  });
  for (const [space, n] of Object.entries(now.forts)) {
    if (n > (was.forts[space] || 0)) out.push(T.newsFort((ix.spaces[space] || { name: space }).name, n));
  }
  if (now.dams !== was.dams) {
    const before = JSON.parse(was.dams);
    for (const [road, ends] of Object.entries(view.dams || {})) {
      for (const c of ends) if ((before[road] || []).indexOf(c) < 0) out.push(T.newsDam((ix.roads[road] || { name: road }).name, cityName(ix, c)));
    }
  }
  const stormCame = now.storm && now.storm !== was.storm;
  if (!stormCame) {
    for (const [city, n] of Object.entries(now.population)) {
      if (was.population[city] !== undefined && n < was.population[city]) out.push(T.newsPeople(cityName(ix, city), n));
    }
  }
  if (now.offers && now.offers !== was.offers) out.push(T.offerWaiting + ".");
  // The student's own discard: the hand is smaller by that card.
  const discarded = mem.discarding;
  if (discarded && (now.hand[discarded] || 0) < (was.hand[discarded] || 0)) {
    out.push(T.newsDiscard(cardName(ix, discarded), Object.values(now.hand).reduce((a, b) => a + b, 0)));
    mem.discarding = null;
  }
  if (stormCame) {
    out.push(T.newsStorm(ctx.stormPath.round));
    for (const e of view.last_storm || []) {
      const text = stormEventText(ix, e);
      if (text) out.push(text);
    }
  }
  return out;
}

// ---- storm animation --------------------------------------------------------------------------

function stormPath(view) {
  const log = view.last_storm || [];
  const flips = log.find((e) => e.type === "storm_flips");
  const hist = (view.storm.history || [])[view.storm.history.length - 1];
  if (!flips || !hist) return null;
  const path = [hist.from];
  for (const e of log) if (e.type === "storm_step") path.push(e.at);
  return { key: String(flips.round), round: flips.round, path, steps: path.length - 1 };
}

// A new storm (a key this root has not seen) plays out step by step; the first render after a
// page load shows the end state at once, so a reload does not replay the last storm.
function trackStorm(ctx) {
  const { mem, view } = ctx;
  const sp = stormPath(view);
  ctx.stormPath = sp;
  const key = sp ? sp.key : null;
  if (mem.stormKey !== undefined && key && key !== mem.stormKey && !reducedMotion()) {
    mem.anim = { key, start: Date.now(), steps: sp.steps };
  }
  mem.stormKey = key;
}

function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function animProgress(mem) {
  if (!mem.anim) return null;
  const t = (Date.now() - mem.anim.start) / STEP_MS;
  if (t >= mem.anim.steps + 1) return null;
  return t;
}

function animateStorm(root, mem, fromRender) {
  if (fromRender && mem.frame) return;
  const t = animProgress(mem);
  const token = root.querySelector("[data-storm-token]");
  const items = root.querySelectorAll("[data-step]");
  if (t === null || !token) {
    mem.anim = t === null ? null : mem.anim;
    mem.frame = null;
    if (token) token.setAttribute("transform", "translate(0,0)");
    for (const el of items) el.classList.remove("is-pending");
    const trail = root.querySelector("[data-storm-trail]");
    if (trail && trail.dataset.full) trail.setAttribute("points", trail.dataset.full);
    root.classList.remove("sf-animating");
    root.removeAttribute("data-animating");
    return;
  }
  root.classList.add("sf-animating");
  root.setAttribute("data-animating", "");
  const pts = JSON.parse(token.dataset.path);
  const i = Math.min(pts.length - 1, Math.floor(t));
  const f = Math.min(1, t - i);
  const a = pts[i], b = pts[Math.min(pts.length - 1, i + 1)];
  const end = pts[pts.length - 1];
  const x = a[0] + (b[0] - a[0]) * f - end[0], y = a[1] + (b[1] - a[1]) * f - end[1];
  token.setAttribute("transform", `translate(${x.toFixed(1)},${y.toFixed(1)})`);
  const trail = root.querySelector("[data-storm-trail]");
  if (trail) trail.setAttribute("points", pts.slice(0, i + 1).concat([[x + end[0], y + end[1]]]).map((p) => p.join(",")).join(" "));
  for (const el of items) el.classList.toggle("is-pending", Number(el.dataset.step) > t);
  mem.frame = requestAnimationFrame(() => { mem.frame = null; animateStorm(root, mem, false); });
}

// ---- header -----------------------------------------------------------------------------------

function bannerTone(ctx) {
  const { view, message, me } = ctx;
  if (ctx.over) return "over";
  if (message.status === "paused") return "paused";
  if (message.bot) return "bot";
  if (view.phase === "roles") return me && !me.role ? "turn" : "wait";
  if (view.phase === "storm") return "storm";
  if (me && ["start", "drawn", "played", "more"].indexOf(me.status) >= 0) return "turn";
  return "wait";
}

function bannerText(ctx) {
  const { view, me, ix, seat } = ctx;
  const tone = bannerTone(ctx);
  if (tone === "over") return T.gameOver;
  if (tone === "paused") return T.paused;
  if (tone === "bot") return T.botPlaying;
  if (view.phase === "roles") return me && !me.role ? T.pickRole : T.rolesWaiting;
  if (tone === "storm") return T.stormHeld;
  if (tone === "turn") return T.yourTurn;
  if (me && me.status === "waiting" && view.turn !== null && view.turn !== undefined) return T.waitSeat(seatLabel(ix, view, view.turn, seat));
  return T.turnEnded;
}

function renderHeader(ctx, tone) {
  const { view, message, controls } = ctx;
  const extra = [];
  if (view.round) extra.push(h("span", { class: "sf-round", text: T.round(view.round, view.turn_cap) }));
  if (controls.busy && ctx.canAct) extra.push(h("span", { class: "sf-busy", text: T.sending }));
  if (message.timer && tone === "turn" && message.status === "playing") {
    extra.push(countdown("sf", message.timer, TIMER.botIn, TIMER.botNow, { controls, label: TIMER.moreTime, said: TIMER.moreTimeSaid }));
  }
  if (tone !== "turn" && incoming(ctx).length) extra.push(h("span", { class: "sf-offer-flag", text: T.offerWaiting }));
  const ask = ctx.over ? null : askButton("sf", controls, T.askTeacher, false);
  return banner("sf", "header", tone, bannerText(ctx), extra, ask);
}

// ---- map --------------------------------------------------------------------------------------

function renderMap(ctx) {
  const { board, ix, view, mem, seat, me } = ctx;
  const fc = view.forecast || {};
  const threat = new Set((fc.threat || []).map((p) => p.join(",")));
  const reach = new Set((fc.reach || []).map((p) => p.join(",")));
  const flooded = new Set(view.flooded || []);
  const dams = view.dams || {};
  const sealedRoads = new Set(view.sealed || []);
  const destroyed = new Set(view.destroyed || []);
  const forts = view.fortifications || {};
  const pop = view.population || {};
  const risk = fc.city_risk || {};
  const showFc = mem.showForecast && !ctx.over;

  const gHex = svg("g", { class: "m-hexes" });
  const gFc = svg("g", { class: "m-forecast" });
  for (const hx of board.hexes) {
    const [x, y] = hexXY(hx.q, hx.r);
    gHex.append(svg("polygon", { class: "m-hex m-" + hx.terrain, points: hexPoints(x, y, S) }));
    const k = hx.q + "," + hx.r;
    if (showFc && threat.has(k)) gFc.append(svg("polygon", { class: "m-threat", points: hexPoints(x, y, S - 1) }));
    if (showFc && reach.has(k)) gFc.append(svg("circle", { class: "m-reach", cx: x, cy: y, r: 6 }));
  }

  // Storm footprint, trail of earlier rounds and the storm itself (footprint moves with it).
  const storm = view.storm;
  const [sx, sy] = hexXY(storm.at[0], storm.at[1]);
  const cat = storm.category;
  const gTrail = svg("g", { class: "m-trail" });
  const hist = storm.history || [];
  if (hist.length) {
    const pts = [hist[0].from].concat(hist.map((x) => x.to)).map((p) => hexXY(p[0], p[1]).join(","));
    gTrail.append(svg("polyline", { class: "m-trail-old", points: pts.join(" ") }));
  }
  const sp = ctx.stormPath;
  const pathXY = sp ? sp.path.map((p) => hexXY(p[0], p[1]).map((v) => Math.round(v * 10) / 10)) : [[sx, sy]];
  const full = pathXY.map((p) => p.join(",")).join(" ");
  if (sp) gTrail.append(svg("polyline", { class: "m-trail-last", points: full, "data-storm-trail": "", "data-full": full }));
  const gStorm = svg("g", { class: "m-storm m-cat" + cat, "data-storm-token": "", "data-path": JSON.stringify(pathXY), transform: "translate(0,0)" });
  const gone = ctx.over && view.ended === "dissipated";
  for (const [q, r] of gone ? [] : storm.footprint || []) {
    const [x, y] = hexXY(q, r);
    gStorm.append(svg("polygon", { class: "m-foot", points: hexPoints(x, y, S - 2), style: `fill:${CAT_COLOURS[cat]}` }));
  }
  if (!gone) {
    gStorm.append(svg("g", { transform: `translate(${sx},${sy})`, class: "m-eye" }, svg("g", { "data-label": "" },
      svg("path", { class: "m-arms", d: "M0,-24 C18,-24 26,-8 20,4 M0,24 C-18,24 -26,8 -20,-4", style: `stroke:${CAT_COLOURS[cat]}` }),
      svg("circle", { r: 17, style: `fill:${CAT_COLOURS[cat]}` }),
      svg("text", { class: "m-cat-text", y: 7, style: `fill:${CAT_INK[cat]}`, text: String(cat) }))));
  }

  // Roads.
  const gRoads = svg("g", { class: "m-roads" });
  const gDams = svg("g", { class: "m-dams" });
  for (const road of board.roads) {
    const a = ix.cities[road.a], b = ix.cities[road.b];
    const pts = [[a.q, a.r]].concat(road.hexes).concat([[b.q, b.r]]).map((p) => hexXY(p[0], p[1]));
    const ends = dams[road.id] || [];
    const sealed = sealedRoads.has(road.id);
    const mine = me && me.city && (road.a === me.city || road.b === me.city);
    const cls = ["m-road", flooded.has(road.id) ? "is-flooded" : "", sealed ? "is-sealed" : "", mine ? "is-mine" : ""].filter(Boolean).join(" ");
    if (sealed) gRoads.append(svg("polyline", { class: "m-road-seal", points: pts.map((p) => p.join(",")).join(" ") }));
    gRoads.append(svg("polyline", { class: cls, points: pts.map((p) => p.join(",")).join(" ") }));
    for (const end of ends) {
      const from = end === road.a ? pts[0] : pts[pts.length - 1];
      const to = end === road.a ? pts[1] : pts[pts.length - 2];
      const mx = from[0] + (to[0] - from[0]) * 0.55, my = from[1] + (to[1] - from[1]) * 0.55;
      const angle = (Math.atan2(to[1] - from[1], to[0] - from[0]) * 180) / Math.PI;
      gDams.append(svg("rect", { class: "m-dam", x: -3.5, y: -11, width: 7, height: 22, rx: 2, transform: `translate(${mx.toFixed(1)},${my.toFixed(1)}) rotate(${angle.toFixed(0)})` }));
    }
  }

  // Cities: marker, name, people not yet evacuated, infrastructure, fortifications.
  const gCities = svg("g", { class: "m-cities" });
  for (const c of board.cities) {
    const [x, y] = hexXY(c.q, c.r);
    const target = ctx.moves[c.id];
    const here = me && me.city === c.id;
    const atRisk = showFc && risk[c.id];
    const g = svg("g", { class: "m-city" + (target ? " is-target" : "") + (here ? " is-here" : ""), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`, "data-city": c.id });
    // the city's marker and words, which grow together where the map is shown small
    const body = svg("g", { "data-label": "" });
    g.append(body);
    if (target) body.append(svg("circle", { class: "m-ring", r: 27 }));
    body.append(svg("circle", { class: "m-city-dot", r: 11 }));
    body.append(svg("text", { class: "m-city-name" + (atRisk && risk[c.id] >= 0.5 ? " is-risk" : ""), y: -17, text: c.name }));
    const badges = svg("g", { class: "m-badges", transform: "translate(0,24)" });
    const spaces = c.spaces;
    const w = 24;
    spaces.forEach((s, i) => {
      const bx = (i - (spaces.length - 1) / 2) * (w + 3);
      const b = svg("g", { transform: `translate(${bx},0)` });
      if (s.kind === "population") {
        const n = pop[c.id] !== undefined ? pop[c.id] : c.population;
        b.setAttribute("class", "m-badge m-people" + (n ? "" : " is-empty"));
        b.append(svg("rect", { x: -w / 2, y: -10, width: w, height: 20, rx: 10 }),
          svg("circle", { cx: -5, cy: -3, r: 3.2 }), svg("path", { d: "M-10,7 Q-5,-3 0,7 Z" }),
          svg("text", { x: 6, y: 5, text: String(n) }));
      } else {
        const gone = destroyed.has(s.id);
        b.setAttribute("class", "m-badge m-infra" + (gone ? " is-destroyed" : ""));
        b.append(svg("rect", { x: -w / 2, y: -10, width: w, height: 20, rx: 3 }),
          svg("text", { y: 5, text: gone ? "✕" : (T.infraLetter[s.type] || "?") }));
      }
      if (forts[s.id]) {
        b.append(svg("g", { class: "m-fort", transform: "translate(8,-17)" },
          svg("rect", { x: -11, y: -9, width: 22, height: 17, rx: 4 }), svg("text", { y: 4, text: "+" + forts[s.id] })));
      }
      badges.append(b);
    });
    body.append(badges);
    if (target) {
      // A pointer's shortcut: the same choice is a button in the panel, which keyboards and
      // screen readers use (the map is an image with a text alternative); not a tab stop.
      g.append(svg("circle", { class: "m-hit", r: 30, "data-hit": "", "data-r": 30 }));
      on(g, "click", () => {
        if (mem.dragged || ctx.disabled) return;
        act(ctx, target);
      });
    }
    gCities.append(g);
  }

  // Player tokens, around their city (a city's tokens grow as one label); mine is larger and says "You".
  const gTokens = svg("g", { class: "m-tokens" });
  const perCity = {};
  for (const p of view.players || []) {
    if (!p.city || !ix.cities[p.city]) continue;
    if (!perCity[p.city]) {
      const [x, y] = hexXY(ix.cities[p.city].q, ix.cities[p.city].r);
      perCity[p.city] = svg("g", { "data-label": "" });
      gTokens.append(svg("g", { transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` }, perCity[p.city]));
    }
    const k = perCity[p.city].childNodes.length;
    // Beside the city dot (the name is above it, the badges below).
    const spot = [[24, 0], [-24, 0], [44, 0], [-44, 0]][k % 4];
    const mine = p.seat === seat;
    perCity[p.city].append(svg("g", { class: "m-token" + (mine ? " is-me" : ""), transform: `translate(${spot[0]},${spot[1]})` },
      svg("circle", { r: mine ? 15 : 11, style: `fill:${SEAT_COLOURS[p.seat % 4]}` }),
      svg("text", { y: mine ? 4 : 5, text: mine ? T.you : String(p.seat + 1) })));
  }

  const descId = "sf-map-desc-" + seat;
  const map = svg("svg", {
    class: "sf-map", viewBox: mem.box.join(" "), preserveAspectRatio: "xMidYMin meet",
    role: "img", "aria-label": T.mapTitle, "aria-describedby": descId,
  }, gHex, gFc, gTrail, gRoads, gDams, gStorm, gCities, gTokens);
  const zoomMe = () => {
    const c = me && ix.cities[me.city];
    if (!c) return;
    const [x, y] = hexXY(c.q, c.r);
    const w = ix.box[2] * 0.45, hgt = ix.box[3] * 0.45;
    mem.box = [x - w / 2, y - hgt / 2, w, hgt];
    map.setAttribute("viewBox", mem.box.join(" "));
  };
  return mapFrame("sf", mem, map, {
    limits: mapLimits(ix), home: ix.home, descId, arrange: arrangeNames, desc: mapWords(ctx).concat(cityWords(ctx), [T.mapKeys]),
    labels: { zoomIn: T.zoomIn, zoomOut: T.zoomOut, zoomReset: T.zoomReset },
    extra: [
      me && me.city ? h("button", { type: "button", "aria-label": T.zoomMe, title: T.zoomMe, "data-key": "zoom-me", onclick: zoomMe }, "◎") : null,
      (fc.threat || []).length && !ctx.over ? h("button", {
        type: "button", class: "sf-fc-toggle", "aria-pressed": mem.showForecast ? "true" : "false", title: T.forecastToggle,
        "aria-label": T.forecastToggle, "data-key": "fc-toggle",
        onclick: () => { mem.showForecast = !mem.showForecast; rerender(ctx); },
      }, "☁") : null,
    ],
    legend: { title: T.legend, showTitle: false, items: T.legendItems },
  });
}

function rerender(ctx) {
  render(ctx.root, ctx.board, ctx.message, ctx.controls);
}

// Pan/zoom bounds for this board (see kit.js attachPanZoom); the map is drawn xMidYMin.
function mapLimits(ix) {
  return { world: ix.box, minWidth: ix.box[2] * 0.18, maxWidth: ix.box[2] * 1.3, alignY: 0 };
}

// The text alternative: where you are, the roads on from here, the storm and its forecast.
// Where a city's name may go around its dot, in the city's units, tried in this order: above
// (the badges are below), then right, left, and under the badges.
const NAME_SIDES = [[0, -17, "middle"], [16, 6, "start"], [-16, 6, "end"], [0, 54, "middle"]];

// Each city's name goes on the side of its dot where it covers the least of the badges, dots,
// tokens and names already placed, and stays inside the map; at the zoom shown, as the labels'
// size depends on it (see fitLabels).
function arrangeNames(map) {
  const frame = map.getBoundingClientRect();
  const taken = [...map.querySelectorAll(".m-badge rect, .m-badge text, .m-city-dot, .m-token, .m-fort")].map((el) => screenBox(el)).filter((r) => r.right > r.left);
  for (const name of map.querySelectorAll(".m-city-name")) {
    let best = null;
    NAME_SIDES.forEach(([x, y, anchor], i) => {
      name.setAttribute("x", x);
      name.setAttribute("y", y);
      name.style.textAnchor = anchor;
      const r = screenBox(name);
      // the side above wins a tie; each further side costs a little more
      const cost = taken.reduce((sum, t) => sum + overlapArea(r, t), 0) + outsideArea(r, frame) * 4 + i * 4;
      if (!best || cost < best.cost) best = { cost, x, y, anchor, r };
    });
    name.setAttribute("x", best.x);
    name.setAttribute("y", best.y);
    name.style.textAnchor = best.anchor;
    taken.push(best.r);
  }
}

function mapWords(ctx) {
  const { board, ix, view, me, seat } = ctx;
  const out = [];
  if (me && me.city) {
    out.push(T.wordsHere(roleName(ix, me.role), cityName(ix, me.city)));
    const roads = (ix.roadsAt[me.city] || []).map(([road, other]) => T.wordsRoad(cityName(ix, other), road.highway, roadState(ctx, road)));
    out.push(`${T.wordsRoads} ${roads.join("; ")}.`);
  } else {
    out.push(T.wordsNoRole);
  }
  out.push(T.wordsStorm(view.storm.category, stormWhere(ix, view.storm), view.storm.across));
  const risk = (view.forecast || {}).city_risk || {};
  const cities = Object.keys(risk).sort((a, b) => risk[b] - risk[a]);
  if ((view.forecast || {}).cards && view.forecast.cards.length) {
    out.push(cities.length ? `${T.wordsRisk} ${cities.map((c) => `${cityName(ix, c)} (${T.chance(risk[c])})`).join(", ")}.` : T.wordsNoRisk);
  }
  const team = (view.players || []).filter((p) => p.seat !== seat && p.city).map((p) => `${seatLabel(ix, view, p.seat, seat)} ${T.inCity(cityName(ix, p.city))}`);
  if (team.length) out.push(`${T.wordsTeam} ${team.join("; ")}.`);
  return out;
}

function roadState(ctx, road) {
  const { view, ix } = ctx;
  if ((view.flooded || []).indexOf(road.id) >= 0) return T.roadFlooded;
  const ends = (view.dams || {})[road.id] || [];
  if ((view.sealed || []).indexOf(road.id) >= 0) return T.roadSealed;
  if (ends.length) return `${T.roadOpen}, ${T.roadDammedAt(ends.map((c) => cityName(ix, c)).join(", "))}`;
  return T.roadOpen;
}

function cityWords(ctx) {
  const { board, view } = ctx;
  const destroyed = new Set(view.destroyed || []);
  const forts = view.fortifications || {};
  return board.cities.map((c) => {
    const spaces = [];
    for (const s of c.spaces) {
      if (s.kind === "population") { if (forts[s.id]) spaces.push(`${s.name}: ${T.forts(forts[s.id])}`); continue; }
      spaces.push(T.spaceState(s.name, destroyed.has(s.id) ? T.destroyed : forts[s.id] ? `${T.standing}, ${T.forts(forts[s.id])}` : T.standing));
    }
    const n = (view.population || {})[c.id];
    return T.cityWords(c.name, n === undefined ? c.population : n, spaces);
  });
}

// ---- panel ------------------------------------------------------------------------------------

function renderPanel(ctx) {
  const { view, message } = ctx;
  const out = [];
  if (ctx.over) out.push(renderResults(ctx));
  const offers = renderOffers(ctx);
  if (offers) out.push(offers);
  if (!ctx.over && view.phase === "roles") out.push(renderRoles(ctx));
  else if (!ctx.over && ctx.actions.length && !message.bot) out.push(renderActions(ctx));
  if (view.phase !== "roles") out.push(renderHand(ctx));
  const last = renderLastStorm(ctx);
  if (last && ctx.mem.anim) out.splice(ctx.over ? 1 : 0, 0, last);
  if (!ctx.over) out.push(renderStorm(ctx));
  if (last && !ctx.mem.anim) out.push(last);
  out.push(renderTeam(ctx), renderPile(ctx), renderWords(ctx));
  return out.filter(Boolean);
}

function act(ctx, action, confirm) {
  if (ctx.disabled) return;
  ctx.mem.pick = [];
  ctx.mem.acted = true;
  if (action.type === "discard") ctx.mem.discarding = action.card;  // said once the hand shows it
  sendAction(ctx.controls, action, confirm);
}

function button(ctx, action, opts) {
  return choiceButton("sf", { ...opts, key: opts.key || JSON.stringify(action), disabled: ctx.disabled || opts.off,
    onclick: () => (opts.onclick ? opts.onclick() : act(ctx, action, opts.confirm)) });
}

function kindName(ctx, kind) {
  return kind === "draw_more" ? T.drawMore(ctx.board.draw) : T.kinds[kind];
}

function incoming(ctx) {
  return (ctx.view.offers || []).filter((o) => o.to === ctx.seat);
}

function renderOffers(ctx) {
  const { view, ix, seat } = ctx;
  const offers = view.offers || [];
  if (!offers.length || ctx.over) return null;
  const rows = offers.map((o) => {
    if (o.to === seat) {
      const who = seatLabel(ix, view, o.from, seat);
      const give = cardName(ix, o.give), get = cardName(ix, o.get);
      const acc = ctx.actions.find((a) => a.type === "accept_trade" && a.offer === o.id);
      const dec = ctx.actions.find((a) => a.type === "decline_trade" && a.offer === o.id);
      return h("div", { class: "sf-offer is-in" },
        h("p", { text: T.offerIn(who, give, get) }),
        h("div", { class: "sf-buttons sf-buttons--two" },
          acc ? button(ctx, acc, { label: T.accept, name: T.acceptName(who, give, get), cls: "sf-act--go" }) : null,
          dec ? button(ctx, dec, { label: T.decline, name: T.declineName(who) }) : null));
    }
    return h("div", { class: "sf-offer is-out" }, h("p", { text: T.offerOut(seatLabel(ix, view, o.to, seat), cardName(ix, o.give), cardName(ix, o.get)) }));
  });
  // Not a live region of its own: the screen's one live region says a new offer (news()).
  return h("section", { class: "sf-offers" }, rows);
}

function renderRoles(ctx) {
  const { board, ix, view, seat, mem } = ctx;
  const taken = {};
  for (const p of view.players || []) if (p.role) taken[p.role] = p.seat;
  const picks = {};
  for (const a of ctx.actions) if (a.type === "pick_role") (picks[a.role] = picks[a.role] || []).push(a);
  const cards = board.roles.map((role) => {
    const options = picks[role.id] || [];
    const who = taken[role.id];
    const def = options.find((a) => a.city === role.start_city) || options[0];
    const others = options.filter((a) => a !== def);
    const key = "city-" + role.id;
    return h("article", { class: "sf-role" + (who !== undefined ? " is-taken" : "") + (who === seat ? " is-mine" : "") },
      h("h3", { text: role.name }),
      h("p", { class: "sf-role-power", text: role.power }),
      basisBlock(role.basis, T, "sf-role-basis"),
      who !== undefined ? h("p", { class: "sf-role-taken", text: T.roleTaken(seatLabel(ix, view, who, seat)) }) : null,
      def ? button(ctx, def, { label: T.pickRoleBtn(role.name), sub: T.pickRoleSub(cityName(ix, def.city)), name: T.pickRoleName(role.name, cityName(ix, def.city)), cls: "sf-act--go" }) : null,
      others.length ? h("details", { class: "sf-more", "data-key": key, open: mem.open[key] || null },
        h("summary", { text: T.otherCity }),
        h("div", { class: "sf-buttons sf-buttons--small" }, others.map((a) =>
          button(ctx, a, { label: cityName(ix, a.city), name: T.pickRoleName(role.name, cityName(ix, a.city)) })))) : null);
  });
  return h("section", { class: "sf-box sf-roles", "aria-labelledby": "sf-roles-title" },
    h("h2", { id: "sf-roles-title", text: T.rolesTitle }),
    h("p", { class: "sf-muted", text: T.rolesNote }),
    h("div", { class: "sf-role-grid" }, cards));
}

function groupActions(actions) {
  const g = { move: [], fortify: [], dam: [], evacuate: [], draw_more: [], role: [], trade: [], discard: [], draw: [], end: null };
  for (const a of actions) {
    if (a.type === "use_role") g.role.push(a);
    else if (a.type === "offer_trade") g.trade.push(a);
    else if (a.type === "end_turn") g.end = a;
    else if (g[a.type]) g[a.type].push(a);
  }
  return g;
}

function renderActions(ctx) {
  const { mem, me, view } = ctx;
  const g = groupActions(ctx.actions);
  const parts = [];
  if (g.draw.length) {
    parts.push(h("h3", { text: T.drawTitle(ctx.board.draw) }), h("div", { class: "sf-buttons" }, g.draw.map((a) => drawButton(ctx, a, false))));
    return actionsBox(parts);
  }
  const kinds = ["move", "fortify", "dam", "evacuate", "role", "trade", "draw_more", "discard"].filter((k) => g[k].length);
  if (mem.kind && kinds.indexOf(mem.kind) < 0) mem.kind = null;
  if (!mem.kind && g.discard.length && !g.end) mem.kind = "discard";
  const chooser = kinds.map((k) => {
    const sub = k === "move" ? T.kindSub.move(me ? me.moves_left : 0) : k === "discard" ? T.kindSub.discard(me ? me.over_limit : 0, ctx.board.hand_limit) : T.kindSub[k]();
    const on = mem.kind === k;
    return h("button", {
      type: "button", class: "sf-act sf-kind" + (on ? " is-on" : ""), "aria-pressed": on ? "true" : "false",
      "aria-expanded": on ? "true" : "false", "data-key": "kind-" + k, disabled: ctx.disabled,
      onclick: () => { mem.kind = on ? null : k; mem.pick = []; mem.trade = {}; if (!on) focusOnwards(mem); rerender(ctx); },
    }, h("span", { class: "sf-act-main", text: kindName(ctx, k) }), h("span", { class: "sf-act-sub", text: sub }));
  });
  parts.push(h("div", { class: "sf-buttons sf-kinds" + (mem.kind ? " is-compact" : ""), role: "group", "aria-label": T.chooseKind }, chooser));
  if (mem.kind) {
    const body = kindOptions(ctx, mem.kind, g[mem.kind]);
    const name = kindName(ctx, mem.kind);
    const options = h("div", { class: "sf-options", role: "region", "aria-label": name },
      h("div", { class: "sf-options-head" }, h("h3", { text: name }),
        h("button", { type: "button", class: "sf-close", "aria-label": `${T.close}: ${name}`, "data-key": "kind-close",
          onclick: () => { mem.kind = null; mem.pick = []; rerender(ctx); } }, h("span", { "aria-hidden": "true", text: "✕" }))),
      body);
    // Opening a kind, or acting from it, moves focus to its first choice (kit restoreUiState).
    const first = options.querySelector(".sf-options-head ~ * button:not([disabled])");
    if (first) first.setAttribute("data-focus-next", "");
    parts.push(options);
  } else if (kinds.length) {
    parts.push(h("p", { class: "sf-muted sf-hint", text: T.chooseKind }));
  }
  if (g.end) {
    const canPlay = ctx.actions.some((a) => ["fortify", "dam", "evacuate"].indexOf(a.type) >= 0);
    parts.push(h("div", { class: "sf-buttons sf-end" }, button(ctx, g.end, { label: T.endTurn, sub: T.endTurnSub, cls: "sf-act--end", confirm: canPlay ? T.endTurnConfirm : null })));
  } else if (me && me.over_limit) {
    parts.push(h("p", { class: "sf-warn", text: T.endTurnBlocked(me.hand_size, me.over_limit) }));
  }
  if (!kinds.length && !g.end && !view.offers.length) parts.push(h("p", { text: T.noActions }));
  return actionsBox(parts);
}

function actionsBox(parts) {
  return h("section", { class: "sf-box sf-actions", "aria-labelledby": "sf-actions-title" },
    h("h2", { id: "sf-actions-title", text: T.actionsTitle }), ...parts);
}

function drawButton(ctx, a, more) {
  const { ix } = ctx;
  if (a.from === "pile") {
    return button(ctx, a, { label: T.drawPile(listCards(ix, a.cards)), sub: a.cards.length < ctx.board.draw ? T.drawDeck(ctx.board.draw) : null });
  }
  return button(ctx, a, { label: more ? T.drawMoreDeck(ctx.board.draw) : T.drawDeck(ctx.board.draw), cls: "sf-act--go" });
}

function kindOptions(ctx, kind, list) {
  const { ix, me, view, mem } = ctx;
  switch (kind) {
    case "move":
      return h("div", { class: "sf-buttons" }, list.map((a) => {
        const road = (ix.roadsAt[me.city] || []).find(([, other]) => other === a.to);
        return button(ctx, a, { label: cityName(ix, a.to), sub: road ? T.moveSub(road[0].name) : null, name: T.moveTo(cityName(ix, a.to)) });
      }));
    case "fortify": {
      const cards = sortKinds(ix, Array.from(new Set(list.map((a) => a.card))));
      if (cards.indexOf(mem.fortCard) < 0) mem.fortCard = cards[0];
      const forts = view.fortifications || {};
      const chooser = cards.length > 1 ? h("div", { class: "sf-step" }, h("p", { class: "sf-step-title", text: T.fortifyCard }),
        h("div", { class: "sf-chips" }, cards.map((k) => h("button", {
          type: "button", class: "sf-chip" + (k === mem.fortCard ? " is-on" : ""), "aria-pressed": k === mem.fortCard ? "true" : "false",
          "data-key": "fortcard-" + k, disabled: ctx.disabled, onclick: () => { mem.fortCard = k; rerender(ctx); }, text: cardName(ix, k),
        })))) : null;
      const spaces = list.filter((a) => a.card === mem.fortCard).map((a) => {
        const s = ix.spaces[a.space];
        return button(ctx, a, { label: s ? s.name : a.space, sub: T.fortifyHas(forts[a.space] || 0), name: T.fortifyOn(cardName(ix, a.card), s ? s.name : a.space) });
      });
      return h("div", {}, chooser, h("p", { class: "sf-step-title", text: `${cardName(ix, mem.fortCard)} — ${T.fortifySpace}` }), h("div", { class: "sf-buttons" }, spaces));
    }
    case "dam":
      return h("div", {}, h("p", { class: "sf-muted", text: T.damNote }), h("div", { class: "sf-buttons" }, list.map((a) => {
        const road = ix.roads[a.road];
        return button(ctx, a, { label: T.damAt(road ? road.name : a.road, cityName(ix, a.city)), sub: T.damSub((view.dam_seals || []).indexOf(a.road) >= 0) });
      })));
    case "evacuate":
      return cardPicker(ctx, list, {
        note: T.evacNote(ctx.board.evacuate.cards_per_person), reserve: ctx.board.evacuate.card, need: T.evacNeed(ctx.board.evacuate.cards_per_person),
        title: T.evacTitle(cityName(ix, me.city), (view.population || {})[me.city] || 0),
        match: (a, picked) => a.discard.length === picked.length && a.discard.join() === picked.join(),
        go: (a) => (a ? T.evacGo(a.people) : T.evacGo(1)),
        confirm: (a) => T.evacConfirm(a.people, cityName(ix, me.city), listCards(ix, a.discard)),
      });
    case "role":
      if (list[0] && list[0].discard) {
        return cardPicker(ctx, list, {
          note: T.roleEvacNote, reserve: null, need: T.roleEvacNeed,
          title: T.evacTitle(cityName(ix, me.city), (view.population || {})[me.city] || 0),
          match: (a, picked) => a.discard.join() === picked.join(),
          go: () => T.roleEvacGo, confirm: (a) => T.evacConfirm(1, cityName(ix, me.city), listCards(ix, a.discard)),
        });
      }
      return h("div", {}, h("p", { class: "sf-muted", text: T.rolePileNote(list.length ? me.to_pile : 0) }),
        h("div", { class: "sf-buttons" }, list.map((a) => button(ctx, a, { label: T.rolePile(cardName(ix, a.card)) }))));
    case "trade":
      return tradePicker(ctx, list);
    case "draw_more":
      return h("div", {}, h("p", { class: "sf-muted", text: T.drawMoreNote }), h("div", { class: "sf-buttons" }, list.map((a) => drawButton(ctx, a, true))));
    case "discard":
      return h("div", { class: "sf-buttons" }, list.map((a) => button(ctx, a, { label: T.discardOne(cardName(ix, a.card)), sub: T.discardSub((ctx.view.hand || {})[a.card] || 0) })));
    default:
      return null;
  }
}

// Choose the cards to give up one by one (each card of the hand is a toggle), then one button
// plays the legal action that matches — instead of a button for every combination.
function cardPicker(ctx, list, opt) {
  const { ix, mem, view } = ctx;
  const hand = Object.assign({}, view.hand || {});
  if (opt.reserve && hand[opt.reserve]) hand[opt.reserve] -= 1;
  const inst = [];
  for (const k of ix.kinds) for (let i = 0; i < (hand[k] || 0); i++) inst.push(k + "#" + i);
  mem.pick = mem.pick.filter((x) => inst.indexOf(x) >= 0);
  const picked = sortKinds(ix, mem.pick.map((x) => x.split("#")[0]));
  const match = list.find((a) => opt.match(a, picked));
  const chips = inst.map((x) => {
    const k = x.split("#")[0];
    const on = mem.pick.indexOf(x) >= 0;
    return h("button", {
      type: "button", class: "sf-chip sf-card-chip sf-k-" + k + (on ? " is-on" : ""), "aria-pressed": on ? "true" : "false", "data-key": "pick-" + x,
      disabled: ctx.disabled, text: cardName(ix, k),
      onclick: () => { mem.pick = on ? mem.pick.filter((y) => y !== x) : mem.pick.concat([x]); rerender(ctx); },
    });
  });
  const go = match
    ? button(ctx, match, { label: opt.go(match), sub: listCards(ix, match.discard), cls: "sf-act--go", confirm: opt.confirm(match), key: "pick-go" })
    : button(ctx, null, { label: opt.go(null), sub: opt.need, off: true, key: "pick-go" });
  return h("div", { class: "sf-step" }, h("p", { class: "sf-step-title", text: opt.title }), h("p", { class: "sf-muted", text: opt.note }),
    h("div", { class: "sf-chips", role: "group", "aria-label": opt.note }, chips), h("div", { class: "sf-buttons" }, go));
}

function tradePicker(ctx, list) {
  const { ix, mem, view, seat } = ctx;
  const tos = Array.from(new Set(list.map((a) => a.to)));
  const t = mem.trade;
  if (tos.indexOf(t.to) < 0) t.to = tos[0];
  const mine = list.filter((a) => a.to === t.to);
  const gives = sortKinds(ix, Array.from(new Set(mine.map((a) => a.give))));
  if (gives.indexOf(t.give) < 0) t.give = null;
  const gets = sortKinds(ix, Array.from(new Set(mine.filter((a) => !t.give || a.give === t.give).map((a) => a.get))));
  if (gets.indexOf(t.get) < 0) t.get = null;
  const chipRow = (label, values, field, name) => h("div", { class: "sf-step" }, h("p", { class: "sf-step-title", text: label }),
    h("div", { class: "sf-chips", role: "group", "aria-label": label }, values.map((v) => h("button", {
      type: "button", class: "sf-chip" + (t[field] === v ? " is-on" : ""), "aria-pressed": t[field] === v ? "true" : "false",
      "data-key": `trade-${field}-${v}`, disabled: ctx.disabled, text: name(v),
      onclick: () => { t[field] = t[field] === v ? null : v; rerender(ctx); },
    }))));
  const match = mine.find((a) => a.give === t.give && a.get === t.get);
  const who = seatLabel(ix, view, t.to, seat);
  return h("div", {},
    tos.length > 1 ? chipRow(T.tradeWith, tos, "to", (s) => seatLabel(ix, view, s, seat)) : h("p", { class: "sf-step-title", text: `${T.tradeWith}: ${who}` }),
    chipRow(T.tradeGive, gives, "give", (k) => cardName(ix, k)),
    chipRow(T.tradeGet, gets, "get", (k) => cardName(ix, k)),
    h("p", { class: "sf-muted", text: T.tradeNote }),
    h("div", { class: "sf-buttons" }, match
      ? button(ctx, match, { label: T.tradeGo(cardName(ix, match.give), cardName(ix, match.get), who), cls: "sf-act--go", key: "trade-go" })
      : button(ctx, null, { label: T.tradeGo("…", "…", who), sub: T.tradeNeed, off: true, key: "trade-go" })));
}

// ---- hand, storm, forecast, team ----------------------------------------------------------

function renderHand(ctx) {
  const { ix, view, me } = ctx;
  const hand = view.hand || {};
  const n = ix.kinds.reduce((s, k) => s + (hand[k] || 0), 0);
  const items = ix.kinds.filter((k) => hand[k]).map((k) => h("li", { class: "sf-card sf-k-" + k, title: ix.cards[k].text },
    h("span", { class: "sf-card-count", text: "×" + hand[k] }), h("strong", { text: cardName(ix, k) }), h("span", { class: "sf-card-text", text: ix.cards[k].text })));
  if (!view.hand) return null;
  return h("section", { class: "sf-box sf-hand" + (me && me.over_limit ? " is-over" : ""), "aria-labelledby": "sf-hand-title" },
    h("h2", { id: "sf-hand-title", text: T.handTitle(n, ctx.board.hand_limit) }),
    items.length ? h("ul", { class: "sf-cards" }, items) : h("p", { class: "sf-muted", text: T.handEmpty }));
}

function renderStorm(ctx) {
  const { board, ix, view } = ctx;
  const s = view.storm, cat = s.category;
  const info = (board.categories || {})[String(cat)] || {};
  const fc = view.forecast || {};
  const head = h("div", { class: "sf-storm-head" },
    h("span", { class: "sf-cat", style: `background:${CAT_COLOURS[cat]};color:${CAT_INK[cat]}`, text: String(cat) }),
    h("div", {}, h("strong", { text: T.category(cat) }), h("div", { class: "sf-muted", text: [stormWhere(ix, s), info.wind_mph ? T.catWind(info.wind_mph) : null, T.stormAcross(s.across)].filter(Boolean).join(" · ") })));
  const parts = [head];
  if (fc.cards && fc.cards.length) {
    parts.push(h("h3", { text: `${T.forecastTitle(fc.cards.length)} (${fc.deck === "land" ? T.landDeck : T.oceanDeck})` }),
      h("p", { class: "sf-muted", text: T.forecastNote(fc.draws, fc.cards.length) }),
      h("ol", { class: "sf-fcards" }, fc.cards.map((id) => {
        const c = ix.hcards[id] || { title: id, steps: [] };
        const marks = [c.strengthen ? T.strengthen : null, c.weaken ? T.weaken : null].filter(Boolean);
        return h("li", { class: "sf-fcard" + (c.strengthen ? " is-up" : "") + (c.weaken ? " is-down" : "") },
          h("strong", { text: c.title }),
          h("span", { class: "sf-arrows", "aria-label": T.steps(c.steps.map((d) => T.dirWord[d] || d).join(", ")), text: c.steps.map((d) => ARROWS[d] || d).join(" ") }),
          marks.length ? h("span", { class: "sf-mark", text: marks.join(", ") }) : null);
      })));
    const risk = fc.city_risk || {};
    const cities = Object.keys(risk).sort((a, b) => risk[b] - risk[a]);
    if (cities.length) {
      parts.push(h("h3", { text: T.riskTitle }), h("ul", { class: "sf-risk" }, cities.map((c) => h("li", {},
        h("span", { text: cityName(ix, c) }),
        h("span", { class: "sf-riskbar", "aria-hidden": "true" }, h("span", { style: `width:${Math.round(risk[c] * 100)}%` })),
        h("strong", { text: T.chance(risk[c]) })))));
    }
  } else if (!ctx.over) {
    parts.push(h("p", { class: "sf-muted", text: T.noForecast }));
  }
  return box("sf", "storm", "storm", T.stormTitle, ...parts);
}

function renderLastStorm(ctx) {
  const { ix, view, mem } = ctx;
  const log = view.last_storm || [];
  const sp = ctx.stormPath;
  if (!log.length || !sp) return null;
  let step = 0;
  const items = [];
  for (const e of log) {
    const text = stormEventText(ix, e);
    let cls = "";
    let at = sp.steps + 0.5; // results show once the storm has stopped
    switch (e.type) {
      case "storm_flips": at = 0; break;
      case "storm_step": step += 1; at = step; cls = "is-step"; break;
      case "storm_blocked": at = step; cls = "is-step"; break;
      case "held": case "spared": case "dam_held": cls = "is-held"; break;
      case "destroyed": case "people_hit": case "road_flooded": cls = "is-hit"; break;
      case "category": case "dissipated": cls = "is-cat"; break;
      default: break;
    }
    if (text) items.push(h("li", { class: cls + (mem.anim && at > 0 ? " is-pending" : ""), "data-step": String(at), text }));
  }
  const replay = h("button", { type: "button", class: "sf-replay", "data-key": "replay", onclick: () => {
    mem.anim = { key: sp.key, start: Date.now(), steps: sp.steps };
    rerender(ctx);
  } }, T.replay);
  return h("section", { class: "sf-box sf-last" + (mem.anim ? " is-playing" : ""), "aria-labelledby": "sf-last-title" },
    h("div", { class: "sf-options-head" }, h("h2", { id: "sf-last-title", text: T.lastTitle(sp.round) }), replay),
    h("ol", { class: "sf-events" }, items));
}

// One event of the storm's move in words (the panel's list and the live region say the same).
function stormEventText(ix, e) {
  switch (e.type) {
    case "storm_flips": return T.evFlips(e.cards.length, e.cards.map((c) => (ix.hcards[c] || { title: c }).title).join(", "));
    case "storm_step": return T.evStep(T.dirWord[e.direction] || e.direction);
    case "storm_blocked": return T.evBlocked(T.dirWord[e.direction] || e.direction);
    case "held": return T.evHeld((ix.spaces[e.space] || { name: e.space }).name, e.left);
    case "destroyed": return T.evDestroyed((ix.spaces[e.space] || { name: e.space }).name);
    case "people_hit": return T.evPeople(cityName(ix, e.city), e.damage);
    case "spared": return T.evSpared(cityName(ix, e.city));
    case "dam_held": return T.evDamHeld((ix.roads[e.road] || { name: e.road }).name);
    case "road_flooded": return T.evFlooded((ix.roads[e.road] || { name: e.road }).name);
    case "category": return T.evCategory(e.from, e.to, e.over);
    case "dissipated": return T.evDied;
    default: return null;
  }
}

function renderTeam(ctx) {
  const { ix, view, seat } = ctx;
  const d = view.damage || { total: 0, infrastructure: 0, population: 0, roads: 0 };
  const track = view.damage_track || [];
  const max = Math.max(1, ...track);
  const players = (view.players || []).map((p) => h("li", { class: p.seat === seat ? "is-me" : "" },
    h("span", { class: "sf-dot", style: `background:${SEAT_COLOURS[p.seat % 4]}`, "aria-hidden": "true" }),
    h("strong", { text: p.seat === seat ? `${T.seatName(p.seat)} (${T.you})` : T.seatName(p.seat) }),
    ` ${p.role ? roleName(ix, p.role) : T.noRoleYet}${p.city ? " · " + T.inCity(cityName(ix, p.city)) : ""} · ${T.cards(p.hand_size)}`,
    view.phase === "player" ? h("span", { class: "sf-status sf-status--" + p.status, text: T.seatStatus[p.status] || p.status }) : null,
    p.hand && p.seat !== seat && p.hand_size ? h("span", { class: "sf-their-hand", text: listCards(ix, ix.kinds.flatMap((k) => Array(p.hand[k] || 0).fill(k))) }) : null));
  return box("sf", "team", "team", T.teamTitle,
    h("div", { class: "sf-damage" },
      h("p", { class: "sf-total" }, h("span", { text: T.damageTotal }), h("strong", { text: String(d.total) }), h("small", { text: T.lowerBetter })),
      h("dl", {},
        h("div", {}, h("dt", { text: T.dInfra }), h("dd", { text: String(d.infrastructure) })),
        h("div", {}, h("dt", { text: T.dPeople }), h("dd", { text: String(d.population) })),
        h("div", {}, h("dt", { text: T.dRoads }), h("dd", { text: String(d.roads) })))),
    h("div", { class: "sf-track", role: "img", "aria-label": track.length ? `${T.trackTitle}: ${track.map((v, i) => T.trackRound(i + 1, v)).join(", ")}` : T.trackEmpty },
      h("span", { class: "sf-track-title", text: T.trackTitle }),
      track.length ? h("div", { class: "sf-bars" }, track.map((v, i) => h("span", { class: "sf-bar" },
        h("span", { class: "sf-bar-fill", style: `height:${Math.round((v / max) * 100)}%` }), h("span", { class: "sf-bar-n", text: String(v) }), h("span", { class: "sf-bar-r", text: "R" + (i + 1) })))) : h("span", { class: "sf-muted", text: " " + T.trackEmpty })),
    h("ul", { class: "sf-players" }, players));
}

function renderPile(ctx) {
  const { ix, view } = ctx;
  const pile = view.relief_pile || [];
  const hasCorps = (view.players || []).some((p) => p.role === "relief_corps");
  if (!pile.length && !hasCorps) return null;
  return box("sf", "pile", "pile", T.pileTitle(pile.length), h("p", { class: "sf-muted", text: T.pileNote }),
    pile.length ? h("ul", { class: "sf-cards sf-cards--pile" }, sortKinds(ix, pile).map((k) => h("li", { class: "sf-card sf-k-" + k }, h("strong", { text: cardName(ix, k) })))) : null);
}

function renderWords(ctx) {
  const key = "words";
  return h("details", { class: "sf-box sf-words", "data-key": key, open: ctx.mem.open[key] || null },
    h("summary", { text: T.wordsTitle }),
    mapWords(ctx).map((x) => h("p", { text: x })),
    h("h3", { text: T.wordsCities }),
    h("ul", {}, cityWords(ctx).map((x) => h("li", { text: x }))));
}

function renderResults(ctx) {
  const { board, ix, view, message, seat } = ctx;
  const rows = message.results || [];
  const mine = rows.find((r) => r.seat === seat) || rows[0];
  const team = mine && mine.breakdown && mine.breakdown.team;
  const byType = team ? team.damage_by_type : { infrastructure: view.damage.infrastructure, population: view.damage.population, roads: view.damage.roads };
  const total = team ? team.damage_total : view.damage.total;
  const byCity = team ? team.damage_by_city : view.damage_by_city || {};
  const held = view.held;
  const cities = Object.keys(byCity).filter((c) => byCity[c]).sort((a, b) => byCity[b] - byCity[a]);
  const lost = team ? team.infrastructure_lost || {} : {};
  const row = (k, v) => defRows([[k, v]])[0];
  const contrib = mine && mine.breakdown && mine.breakdown.contributions;
  return h("section", { class: "sf-box sf-results", "aria-labelledby": "sf-results-title" },
    h("h2", { id: "sf-results-title", text: T.resultsTitle }),
    h("p", { class: "sf-muted", text: T.endedHow[view.ended] || "" }),
    h("p", { class: "sf-total sf-total--big" }, h("span", { text: T.damageTotal }), h("strong", { text: String(total) }), h("small", { text: T.lowerBetter })),
    h("div", { class: "sf-sides" },
      h("section", { class: "sf-side" }, h("h3", { text: T.byType }), h("dl", {},
        row(T.dInfra, byType.infrastructure), row(T.dPeople, byType.population), row(T.dRoads, byType.roads),
        ...Object.keys(lost).map((k) => row(`${T.infraLost}: ${T.infraKind[k] || k}`, lost[k])))),
      h("section", { class: "sf-side" }, h("h3", { text: T.byCity }), cities.length
        ? h("dl", {}, cities.map((c) => row(cityName(ix, c), byCity[c]))) : h("p", { class: "sf-muted", text: T.noCityDamage })),
      held ? h("section", { class: "sf-side sf-side--held" }, h("h3", { text: T.whatHeld }), h("ul", {},
        h("li", { text: T.heldInfra(...held.infrastructure) }),
        h("li", { text: T.heldRoads(...held.roads) }),
        held.sealed ? h("li", { text: T.heldSealed(held.sealed) }) : null,
        h("li", { text: T.heldPeople(...held.people_evacuated) }),
        held.fortifications ? h("li", { text: T.heldForts(held.fortifications) }) : null)) : null,
      contrib ? h("section", { class: "sf-side" }, h("h3", { text: T.youDid }), h("dl", {},
        Object.keys(T.contrib).map((k) => row(T.contrib[k], contrib[k] || 0)))) : null));
}

// ---- teacher dashboard card -----------------------------------------------------------------

export function summary(board, teacherView, table) {
  const ix = lookups(board);
  const v = teacherView;
  if (!v || !v.storm) return h("p", { class: "sf-muted", text: T.sumNoView });
  const names = {};
  for (const s of (table && table.seats) || []) names[s.seat] = s.name || null;
  const name = (p) => `${T.seatName(p.seat)}${names[p.seat] ? " " + names[p.seat] : ""}`;
  const who = (p) => `${name(p)}${p.role ? " (" + roleName(ix, p.role) + ")" : ""}`;
  const d = v.damage || { total: 0, infrastructure: 0, population: 0, roads: 0 };
  const players = v.players || [];
  let waiting = null;
  if (v.phase === "roles") {
    const left = players.filter((p) => !p.role);
    waiting = h("p", { class: "sf-sum-wait" }, h("strong", { text: T.sumNoRole }), " ", left.map(name).join(", "));
  } else if (v.phase === "player") {
    const left = players.filter((p) => p.status !== "ended");
    waiting = left.length ? h("p", { class: "sf-sum-wait" }, h("strong", { text: T.sumNotEnded }), " ", left.map(name).join(", "))
      : h("p", { class: "sf-sum-ok", text: T.sumAllEnded });
  }
  const cat = v.storm.category;
  return h("div", { class: "sf-summary" },
    h("p", { class: "sf-sum-line" },
      h("span", { class: "sf-sum-phase", text: T.sumPhase[v.phase] || v.phase }),
      v.round ? h("span", { text: T.sumRound(v.round, v.turn_cap) }) : null,
      h("span", { class: "sf-sum-cat" }, h("span", { class: "sf-cat sf-cat--small", style: `background:${CAT_COLOURS[cat]};color:${CAT_INK[cat]}`, "aria-hidden": "true", text: String(cat) }),
        " ", v.ended === "dissipated" ? T.evDied : T.sumStorm(cat, stormWhere(ix, v.storm)))),
    h("p", { class: "sf-sum-damage" }, h("strong", { text: T.sumDamage(d.total) }), " ", T.sumDamageBy(d.infrastructure, d.population, d.roads)),
    waiting,
    h("ul", { class: "sf-sum-roles", "aria-label": T.sumRoles }, players.map((p) => h("li", {},
      h("span", { class: "sf-dot", style: `background:${SEAT_COLOURS[p.seat % 4]}`, "aria-hidden": "true" }),
      `${who(p)}${p.city ? " · " + cityName(ix, p.city) : ""}`))));
}
