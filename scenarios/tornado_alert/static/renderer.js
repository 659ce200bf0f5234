// "Tornado Alert!" tablet renderer: the play pile to slap, your hand, your photo stack with its
// average, everyone else's location, and what the tornado and lightning just did with the safety
// note of the place they struck. The transport (play.js) owns the socket; this module computes no
// rule: every number (cards to take, averages, chips, who may slap) comes in the view or board.
// Every visible string is in the catalogue T, through gettext (the page's language); a place's
// name ("from a storm cellar") comes translated in the board. Safari 15 / Chrome 100: no build step.
//
// The screen is the kit's (renderScreen): a banner with "Ask the teacher" and the turn timer,
// the pile and the hand in the first column, what happened and the stacks in the panel. The
// live region says one short sentence per change of the pile (or of the phase), never the whole
// screen; focus stays on the control it was on, or moves on to the next usable one, never to the
// page. The slap key is S (RULES.md, "Reaction allowance"), which the student can turn off on this
// tablet; the slap button is the game's first stop after its banner ("Ask the teacher" follows
// the pile's buttons), so a switch reaches it with one press.

import { gettext, ngettext, fmt, num, numberFormat, h, screenMemory, renderScreen, banner, countdown, askButton,
  sendAction, basisBlock, resultsTable, timerMoved, TIMER } from "/static/js/kit.js";

const T = {
  title: gettext("Tornado Alert!"),
  round: (r, n) => fmt(gettext("Round %(r)s of %(n)s"), { r: num(r), n: num(n) }),
  variantFree: gettext("Tornado Alert! 2: no turn order"),
  player: (n) => fmt(gettext("Player %(n)s"), { n: num(n + 1) }),
  me: (name) => fmt(gettext("%(name)s (you)"), { name }),
  yourTurn: gettext("Your turn: play a card."),
  slapOrWait: gettext("Slap the pile if you want those photos."),
  waitFor: (p) => fmt(gettext("Waiting for %(player)s to play."), { player: p }),
  freePlay: gettext("Play a card whenever you like, or slap the pile."),
  race: (n) => fmt(ngettext("Race! %(n)s slap on this pile: the winner is drawn in a moment.",
    "Race! %(n)s slaps on this pile: the winner is drawn in a moment.", n), { n: num(n) }),
  inRace: gettext("Your slap counted: you are in the race."),
  decide: gettext("Round over: keep this result or strike it?"),
  decided: gettext("Waiting for the others to choose."),
  over: gettext("Game over"),
  paused: gettext("Paused by your teacher"),
  bot: gettext("A bot is playing for you…"),
  sending: gettext("Sending…"),
  pileTitle: gettext("Play pile"),
  pileEmpty: gettext("The pile is empty."),
  pileTop: (name, value) => fmt(gettext("Top: %(name)s (%(value)s)"), { name, value: num(value) }),
  pileSize: (n) => fmt(ngettext("%(n)s card on the pile", "%(n)s cards on the pile", n), { n: num(n) }),
  pileList: gettext("Cards on the pile, top first"),
  drawLeft: (n) => fmt(ngettext("%(n)s card left to draw", "%(n)s cards left to draw", n), { n: num(n) }),
  slap: gettext("Slap!"),
  slapKey: gettext("Key: S"),
  slapKeySetting: gettext("Slap with the S key"),
  needTime: gettext("I need more time to react"),
  timeAsked: gettext("You asked your teacher for more time to react."),
  timeGiven: (s) => fmt(gettext("You have %(s)s seconds to react to every pile."), { s: num(s) }),
  pass: gettext("Let this pile go"),
  holding: gettext("The pile waits a moment for everyone before the next card."),
  askTeacher: gettext("Ask the teacher"),
  pileLabel: gettext("The pile and your hand"),
  pileNow: (name, value) => fmt(gettext("On the pile: %(name)s (%(value)s)."), { name, value: num(value) }),
  slapTake: (n) => fmt(ngettext("Take %(n)s card", "Take %(n)s cards", n), { n: num(n) }),
  slapNothing: gettext("Nothing to take"),
  slapNotNow: gettext("You can't slap now"),
  handTitle: gettext("Your hand"),
  play: (name, value) => fmt(gettext("Play %(name)s (%(value)s)"), { name, value: num(value) }),
  tornadoMark: gettext("Tornado"),
  stackTitle: gettext("Your photos"),
  noStack: gettext("No photos yet."),
  location: gettext("Location"),
  average: gettext("Average now:"),
  photos: gettext("Photos"),
  faceDown: gettext("Face down"),
  chips: gettext("Chips"),
  chipText: (p, m) => fmt(gettext("+1 × %(plus)s, −1 × %(minus)s"), { plus: num(p), minus: num(m) }),
  tableTitle: gettext("The table"),
  seatLine: (loc, avg, cards) => fmt(ngettext("%(place)s · average %(avg)s · %(n)s photo", "%(place)s · average %(avg)s · %(n)s photos", cards),
    { place: loc, avg, n: num(cards) }),
  nowhere: gettext("no location"),
  racing: gettext("in the race"),
  handCount: (n) => fmt(ngettext("%(n)s card in hand", "%(n)s cards in hand", n), { n: num(n) }),
  eventsTitle: gettext("What just happened"),
  ev: {
    play: (p, card) => fmt(gettext("%(player)s played %(card)s."), { player: p, card }),
    take: (p, n) => fmt(ngettext("%(player)s took %(n)s card.", "%(player)s took %(n)s cards.", n), { player: p, n: num(n) }),
    takeShort: (p, n) => fmt(ngettext("%(player)s took the last %(n)s card, face down.", "%(player)s took the last %(n)s cards, face down.", n),
      { player: p, n: num(n) }),
    slap: (p) => fmt(gettext("%(player)s slapped the pile."), { player: p }),
    race: (p, n) => fmt(ngettext("%(player)s won the fair draw among %(n)s slap.", "%(player)s won the fair draw among %(n)s slaps.", n),
      { player: p, n: num(n) }),
    tornado: (loc, hit) => (hit ? fmt(gettext("Tornado! It struck everyone taking photos %(place)s: %(players)s."), { place: loc, players: hit })
      : fmt(gettext("A tornado card (%(place)s): nobody was taking photos there."), { place: loc })),
    lightning: (loc, hit) => (hit ? fmt(gettext("Lightning! The same place twice in a row struck everyone taking photos %(place)s: %(players)s."),
      { place: loc, players: hit })
      : fmt(gettext("Lightning (%(place)s), but nobody was taking photos there."), { place: loc })),
    genie: (p, n) => fmt(ngettext("A genie turned %(n)s face-down card of %(player)s up again.",
      "A genie turned %(n)s face-down cards of %(player)s up again.", n), { player: p, n: num(n) }),
    rover: (p, n) => fmt(ngettext("A rover stole %(player)s's %(n)s photo!", "A rover stole all %(n)s of %(player)s's photos!", n),
      { player: p, n: num(n) }),
    wedgePlus: (p) => fmt(gettext("%(player)s left the wedge on top: +1 chip."), { player: p }),
    wedgeMinus: (p) => fmt(gettext("%(player)s took the wedge: −1 chip."), { player: p }),
    roundOver: (r) => fmt(gettext("Round %(r)s is over."), { r: num(r) }),
    gameOverBy: (p, r) => fmt(gettext("%(player)s took the Game Over card. Round %(r)s is over."), { player: p, r: num(r) }),
    gameOverDrawn: (p, r) => fmt(gettext("%(player)s drew the Game Over card. Round %(r)s is over."), { player: p, r: num(r) }),
    handPenalty: (p) => fmt(gettext("%(player)s held the wrong number of cards: −1 chip."), { player: p }),
    decided: (p) => fmt(gettext("%(player)s has chosen."), { player: p }),
    roundStart: (r) => fmt(gettext("Round %(r)s begins."), { r: num(r) }),
    ended: gettext("Your teacher ended the game."),
  },
  faster: (p) => fmt(gettext("%(player)s was faster."), { player: p }),
  gotIt: (n) => fmt(ngettext("You got it: %(n)s card!", "You got it: %(n)s cards!", n), { n: num(n) }),
  wonDraw: (n) => fmt(ngettext("You won the draw: %(n)s card!", "You won the draw: %(n)s cards!", n), { n: num(n) }),
  drawWonBy: (p) => fmt(gettext("%(player)s won the draw."), { player: p }),
  tooLate: (p) => fmt(gettext("Too late: the pile was taken by %(player)s."), { player: p }),
  safetyTitle: (loc) => fmt(gettext("Would you take that photo %(place)s?"), { place: loc }),
  factChecked: gettext("What really happens:"),
  factReported: gettext("Safety advice, as reported:"),
  factSource: gettext("Source:"),
  factReportedBy: gettext("Reported by:"),
  choices: {
    keep: [gettext("Keep this result"), gettext("Save your chips for later.")],
    strike: [gettext("Strike this result"), gettext("It will not count, but you take a −1 chip.")],
    use_plus: [gettext("Use a +1 chip on it"), gettext("This result goes up by 1.")],
    use_minus: [gettext("Use a −1 chip on it"), gettext("Spend a −1 chip on a result you can afford to lower.")],
  },
  resultTitle: (r) => fmt(gettext("Round %(r)s: your average"), { r: num(r) }),
  resultsTitle: gettext("Final results: your worst round counts"),
  teachesTitle: gettext("What the winning strategy teaches"),
  // the same words as the class debrief's (scenarios/tornado_alert/debrief.py, LESSON)
  teaches: gettext("What the winning strategy teaches: in this game the highest scores go to photos from the most dangerous places, and a player who keeps a safe place on top scores less. The rule book built it that way, so the winner is the player who stood where a real tornado is most dangerous. Real life is the opposite: when a tornado warning comes, go underground, or to a small room in the middle of the lowest floor of a sturdy building."),
  rank: gettext("Rank"),
  seat: gettext("Player"),
  rounds: gettext("Rounds"),
  score: gettext("Worst round"),
  struckAvg: (avg) => fmt(gettext("%(avg)s (struck)"), { avg }),
  players: gettext("Players"),
  seatAndName: (seat, name) => fmt(gettext("%(player)s · %(name)s"), { player: seat, name }),
  summaryTitle: (r, n) => fmt(gettext("Round %(r)s of %(n)s"), { r: num(r), n: num(n) }),
};

const memory = screenMemory(() => ({ slappedAt: null, note: null, said: "" }));

// The slap key can be turned off on this tablet (WCAG 2.1.4); the choice is remembered here.
const SLAP_KEY = "stormwise.tornado.slapKey";

function slapKeyOn() {
  try { return localStorage.getItem(SLAP_KEY) !== "off"; } catch (err) { return true; }
}

function setSlapKey(on) {
  try { localStorage.setItem(SLAP_KEY, on ? "on" : "off"); } catch (err) { /* private mode: this page only */ }
  slapKeyFallback = on;
}

let slapKeyFallback = null;

const TWO_DECIMALS = { minimumFractionDigits: 2, maximumFractionDigits: 2 };

function avg(x) {
  // an average as the rule book asks, to two decimals, written the page's language's way (2.50 / 2,50)
  return numberFormat(TWO_DECIMALS).format(Math.round(x * 100) / 100);
}

function cardName(board, id) {
  const card = board.cards[id];
  if (!card) return id;
  if (card.location) {
    const loc = board.locations.find((l) => l.id === card.location);
    return loc ? loc.name : card.location;
  }
  const sp = board.specials.find((s) => s.id === card.kind);
  return sp ? sp.name : card.kind;
}

function locName(board, id) {
  const loc = board.locations.find((l) => l.id === id);
  return loc ? loc.name : id;
}

function namer(me, names) {
  // How this tablet names a seat: its nickname when play.js passes one (controls.names, only the
  // nicknames the teacher approved), else "Player N"; the tablet's own seat adds "(you)".
  return (seat) => {
    const name = (names && names[seat]) || T.player(seat);
    return seat === me ? T.me(name) : name;
  };
}

function eventLine(board, e, p) {
  const hits = (list) => list.map(p).join(", ");
  switch (e.type) {
    case "play": return T.ev.play(p(e.seat), cardName(board, e.card));
    case "take": return e.short ? T.ev.takeShort(p(e.seat), e.cards.length) : T.ev.take(p(e.seat), e.cards.length);
    case "slap": return T.ev.slap(p(e.seat));
    case "race": return T.ev.race(p(e.winner), e.slaps.length);
    case "tornado": return T.ev.tornado(locName(board, e.location), hits(e.hit));
    case "lightning": return T.ev.lightning(locName(board, e.location), hits(e.hit));
    case "genie": return T.ev.genie(p(e.seat), e.flipped);
    case "rover": return T.ev.rover(p(e.seat), e.lost);
    case "wedge": return e.chip > 0 ? T.ev.wedgePlus(p(e.seat)) : T.ev.wedgeMinus(p(e.seat));
    case "round_over":
      if (e.reason === "game_over") return T.ev.gameOverBy(p(e.seat), e.round);
      return e.reason === "game_over_drawn" ? T.ev.gameOverDrawn(p(e.seat), e.round) : T.ev.roundOver(e.round);
    case "hand_penalty": return T.ev.handPenalty(p(e.seat));
    case "decided": return T.ev.decided(p(e.seat));
    case "round_start": return T.ev.roundStart(e.round);
    case "ended": return T.ev.ended;
    default: return "";
  }
}

function headline(view, message, me, who) {
  if (message.status === "finished" || view.over) return T.over;
  if (message.status === "paused") return T.paused;
  if (message.bot) return T.bot;
  if (view.phase === "decide") return view.actions.length ? T.decide : T.decided;
  if (view.race) return view.seats[me].in_race ? T.inRace : T.race(view.race.slaps);
  const plays = view.actions.some((a) => a.type === "play");
  if (view.variant === "free") return T.freePlay;
  if (plays) return T.yourTurn;
  if (view.may_slap) return T.slapOrWait;
  return T.waitFor(who(view.turn));
}

function pileBox(board, view, ctx) {
  const top = view.pile.length ? view.pile[view.pile.length - 1] : null;
  const slap = view.actions.find((a) => a.type === "slap");
  const topCard = top && board.cards[top];
  const label = slap ? T.slapTake(view.take) : top && view.take === 0 ? T.slapNothing : T.slapNotNow;
  const button = h("button", {
    type: "button", class: "ta-slap ta-act" + (topCard && topCard.tornado ? " is-tornado" : ""), "data-key": "slap",
    disabled: !slap || ctx.disabled, "aria-keyshortcuts": "S",
    "aria-describedby": "ta-pile-top",
    onclick: () => slapNow(ctx),
  }, h("span", { class: "ta-slap-main", text: T.slap }), h("span", { class: "ta-slap-sub", text: label }),
  h("span", { class: "ta-slap-key", text: T.slapKey }));
  const pass = view.actions.find((a) => a.type === "wait");
  const passButton = pass ? h("button", {
    type: "button", class: "ta-pass", "data-key": "pass", disabled: ctx.disabled,
    onclick: () => sendAction(ctx.controls, pass, null, ctx.mem),
  }, T.pass) : null;
  const list = view.pile.slice().reverse().map((id) => {
    const c = board.cards[id];
    return h("li", { class: "ta-pcard" + (c && c.tornado ? " is-tornado" : "") },
      h("span", { class: "ta-val", text: num(c ? c.value : 0) }), " ", cardName(board, id),
      c && c.tornado ? h("span", { class: "ta-torn", text: ` ⚠ ${T.tornadoMark}` }) : null);
  });
  // The slap button is the first control after the banner; "Ask the teacher" follows the pile's
  // own buttons here while the pile is in play (the banner has it in the other phases).
  return h("section", { class: "ta-box ta-pile", "aria-labelledby": "ta-pile-title" },
    h("h2", { id: "ta-pile-title", text: T.pileTitle }),
    h("p", { id: "ta-pile-top", class: "ta-pile-top",
      text: top ? T.pileTop(cardName(board, top), topCard ? topCard.value : 0) : T.pileEmpty }),
    button, passButton, timeBox(view, ctx), h("p", { class: "ta-ask-line" }, ctx.ask),
    view.hold ? h("p", { class: "ta-muted ta-hold", text: T.holding }) : null,
    h("p", { class: "ta-muted", text: `${T.pileSize(view.pile_size)} · ${T.drawLeft(view.draw)}` }),
    list.length ? h("ol", { class: "ta-pile-list", "aria-label": T.pileList }, list) : null);
}

function timeBox(view, ctx) {
  // The student's own accommodations: ask the teacher for more time to react (the dashboard
  // shows the request; the teacher gives it with one tap), and the slap key, on or off.
  const given = view.allowance_ms ? h("p", { class: "ta-muted", text: T.timeGiven(view.allowance_ms / 1000) }) : null;
  let request = null;
  if (view.time_asked) request = h("p", { class: "ta-muted ta-time-asked", text: T.timeAsked });
  else if (view.may_ask_time) {
    request = h("button", {
      type: "button", class: "ta-need-time", "data-key": "need-time", disabled: Boolean(ctx.controls.busy) || ctx.message.status !== "playing",
      onclick: () => sendAction(ctx.controls, { type: "need_time" }, null, ctx.mem),
    }, T.needTime);
  }
  const keyOn = slapKeyFallback === null ? slapKeyOn() : slapKeyFallback;
  const setting = h("label", { class: "ta-setting" },
    h("input", { type: "checkbox", "data-key": "slap-key", checked: keyOn,
      onchange: (e) => setSlapKey(e.currentTarget.checked) }), " ", T.slapKeySetting);
  return h("div", { class: "ta-time" }, given, request, setting);
}

function handBox(board, view, ctx) {
  const plays = view.actions.filter((a) => a.type === "play");
  const items = (view.hand || []).map((id, i) => {
    const c = board.cards[id] || { value: 0 };
    const action = plays.find((a) => a.card === id);
    return h("li", {}, h("button", {
      type: "button", class: "ta-card ta-act" + (c.tornado ? " is-tornado" : ""), "data-key": `hand-${i}`,
      disabled: !action || ctx.disabled, onclick: () => sendAction(ctx.controls, action, null, ctx.mem),
    }, h("span", { class: "ta-val", text: num(c.value) }), h("span", { class: "ta-card-name", text: cardName(board, id) }),
    c.tornado ? h("span", { class: "ta-torn", text: `⚠ ${T.tornadoMark}` }) : null,
    h("span", { class: "visually-hidden", text: ` — ${T.play(cardName(board, id), c.value)}` })));
  });
  return h("section", { class: "ta-box ta-hand", "aria-labelledby": "ta-hand-title" },
    h("h2", { id: "ta-hand-title", text: T.handTitle }), h("ul", { class: "ta-hand-list" }, items));
}

function stackBox(board, view, me) {
  const s = view.seats[me];
  return h("section", { class: "ta-box ta-stack", "aria-labelledby": "ta-stack-title" },
    h("h2", { id: "ta-stack-title", text: T.stackTitle }),
    h("p", { class: "ta-average" }, h("span", { text: `${T.average} ` }), h("strong", { text: avg(s.average) })),
    h("dl", { class: "ta-dl" },
      h("div", {}, h("dt", { text: T.location }), h("dd", { text: s.location ? locName(board, s.location) : T.nowhere })),
      h("div", {}, h("dt", { text: T.photos }), h("dd", { text: num(s.cards) })),
      h("div", {}, h("dt", { text: T.faceDown }), h("dd", { text: num(s.face_down) })),
      h("div", {}, h("dt", { text: T.chips }), h("dd", { text: T.chipText(s.chips[0], s.chips[1]) }))));
}

function tableBox(board, view, me, who) {
  return h("section", { class: "ta-box ta-table", "aria-labelledby": "ta-table-title" },
    h("h2", { id: "ta-table-title", text: T.tableTitle }),
    h("ul", { class: "ta-seats" }, view.seats.map((s) => h("li", { class: "ta-seat" + (s.seat === me ? " is-me" : "") },
      h("strong", { text: who(s.seat) }), " ",
      T.seatLine(s.location ? locName(board, s.location) : T.nowhere, avg(s.average), s.cards),
      view.phase === "play" ? ` · ${T.handCount(s.hand)}` : "",
      s.in_race ? h("span", { class: "ta-racing", text: ` · ${T.racing}` }) : null))));
}

function strikes(board, view) {
  // the safety note of each place the tornado or lightning just struck (none for a place whose
  // note this reader may not see: the board's redaction left its basis null)
  const seen = new Set();
  const notes = [];
  for (const e of view.events) {
    if ((e.type === "tornado" || e.type === "lightning") && !seen.has(e.location)) {
      seen.add(e.location);
      const loc = board.locations.find((l) => l.id === e.location);
      if (loc && loc.basis && !loc.basis.reason) notes.push(h("div", { class: "ta-strike ta-strike--" + e.type },
        h("p", { class: "ta-strike-title" }, h("strong", { text: T.safetyTitle(loc.name) })),
        basisBlock(loc.basis, T, "ta-basis")));
    }
  }
  return notes;
}

function eventsBox(board, view, who, personal) {
  const lines = view.events.map((e) => eventLine(board, e, who)).filter(Boolean);
  return h("section", { class: "ta-box ta-events", "aria-labelledby": "ta-events-title" },
    h("h2", { id: "ta-events-title", text: T.eventsTitle }),
    personal ? h("p", { class: "ta-personal", text: personal }) : null,
    strikes(board, view),
    lines.length ? h("ul", { class: "ta-event-list" }, lines.map((t) => h("li", { text: t }))) : null);
}

function decideBox(view, me, ctx) {
  const mine = view.seats[me].results;
  const last = mine[mine.length - 1];
  return h("section", { class: "ta-box ta-decide", "aria-labelledby": "ta-decide-title" },
    h("h2", { id: "ta-decide-title", text: T.resultTitle(view.round) }),
    h("p", { class: "ta-average" }, h("strong", { text: last ? avg(last.avg) : "—" })),
    h("div", { class: "ta-choices" }, view.actions.map((a) => h("button", {
      type: "button", class: "ta-choice ta-act", "data-key": `choice-${a.type}`, disabled: ctx.disabled,
      onclick: () => sendAction(ctx.controls, a, null, ctx.mem),
    }, h("span", { class: "ta-choice-main", text: T.choices[a.type][0] }),
    h("span", { class: "ta-choice-sub", text: T.choices[a.type][1] })))));
}

function resultsBox(view, message, me, who) {
  const rows = (message.results || []).slice().sort((a, b) => a.rank - b.rank);
  return h("section", { class: "ta-box ta-results" }, resultsTable("ta-standings", T.resultsTitle,
    [T.rank, T.seat, T.rounds, T.score],
    rows.map((r) => ({
      me: r.seat === me,
      cells: [num(r.rank), who(r.seat),
        r.breakdown.rounds.map((x) => x.struck ? T.struckAvg(avg(x.avg)) : avg(x.avg + x.applied)).join(" · "),
        avg(r.score)],
    }))),
    h("section", { class: "ta-teaches", "aria-label": T.teachesTitle }, h("p", { text: T.teaches })));
}

function personalNote(view, me, mem, who) {
  // What truly happened to the pile this tablet slapped at (RULES.md, "Slapping on a school
  // network"): a fair draw among the slaps in the window ("You won the draw" / "Ben won the
  // draw"), a slap that came after the draw or a lone slap ("Too late: …"), or, with no window,
  // the first slap to arrive ("Ben was faster"). Games of rules edition 1 say "was faster".
  const taken = view.last_take;
  if (mem.slappedAt === null || !taken || taken.pile !== mem.slappedAt) return "";
  const mine = taken.seat === me;
  if (taken.how === "draw") {
    if (mine) return T.wonDraw(taken.count);
    return (taken.slaps || []).indexOf(me) >= 0 ? T.drawWonBy(who(taken.seat)) : T.tooLate(who(taken.seat));
  }
  if (mine) return T.gotIt(taken.count);
  return taken.how === "alone" ? T.tooLate(who(taken.seat)) : T.faster(who(taken.seat));
}

function slapNow(ctx) {
  const slap = ctx.view.actions.find((a) => a.type === "slap");
  if (!slap || ctx.disabled) return;
  ctx.mem.slappedAt = slap.pile;
  sendAction(ctx.controls, slap, null, ctx.mem);
}

function onSlapKey(root, mem) {
  // The slap key, S, from anywhere on the screen but a text field; the latest render's context
  // (mem.ctx) decides whether a slap is offered.
  if (mem.keyed) return;
  mem.keyed = true;
  document.addEventListener("keydown", (e) => {
    if (!root.isConnected || e.repeat || e.ctrlKey || e.metaKey || e.altKey || (e.key !== "s" && e.key !== "S")) return;
    if (!(slapKeyFallback === null ? slapKeyOn() : slapKeyFallback)) return; // turned off on this tablet
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (mem.ctx) {
      e.preventDefault();
      slapNow(mem.ctx);
    }
  });
}

function news(ctx, title, personal) {
  // One short sentence per change of the pile or of the phase (RULES.md, "Reaction allowance"):
  // what this tablet's slap came to, else the one event that matters most, else what is on the
  // pile now; and the banner when the phase changed or it became this seat's turn. The first
  // render says the banner only.
  const { view, mem, board, who } = ctx;
  const plays = view.actions.some((a) => a.type === "play");
  const seen = mem.seen;
  // The seat's own move: it played a card (the last move's first event), or it chose to keep or
  // strike its round.
  const events = JSON.stringify(view.events), decided = Boolean((view.seats[ctx.me] || {}).decided);
  const asked = Boolean(view.time_asked), allowance = view.allowance_ms || 0;
  mem.seen = { pile: view.pile_id, phase: view.phase, round: view.round, plays, over: ctx.over, events, decided, asked, allowance };
  const first = view.events[0];
  const ownMoved = Boolean(seen) && ((events !== seen.events && Boolean(first) && first.type === "play" && first.seat === ctx.me)
    || (decided && !seen.decided));
  if (timerMoved(mem, ctx.message, ownMoved)) {
    // The turn timer's bot moved for this seat: said first, with what it did.
    const said = [TIMER.botMoved];
    const own = view.events.find((e) => e.seat === ctx.me);
    if (own) said.push(eventLine(board, own, who));
    return said;
  }
  if (!seen) return title;
  // the student's own accommodation: the request sent, the time given
  const time = asked && !seen.asked ? T.timeAsked : allowance > (seen.allowance || 0) ? T.timeGiven(allowance / 1000) : "";
  const phaseChanged = seen.phase !== view.phase || seen.round !== view.round || seen.over !== ctx.over;
  if (seen.pile === view.pile_id && !phaseChanged) return [time, plays && !seen.plays ? title : ""];
  const rank = { round_over: 5, tornado: 4, lightning: 4, race: 3, take: 2, play: 1 };
  let best = null;
  for (const e of view.events) {
    if ((rank[e.type] || 0) > (best ? rank[best.type] : 0) && !((e.type === "tornado" || e.type === "lightning") && !e.hit.length)) best = e;
  }
  let said = personal || (best ? eventLine(board, best, who) : "");
  if (!said && view.pile.length) {
    const top = view.pile[view.pile.length - 1];
    said = T.pileNow(cardName(board, top), board.cards[top] ? board.cards[top].value : 0);
  }
  return phaseChanged || (plays && !seen.plays) ? [said, title] : said;
}

export function render(root, board, message, controls) {
  const view = message.view;
  const me = message.seat;
  const mem = memory(root);
  const over = message.status === "finished" || view.over;
  const canAct = message.status === "playing" && !message.bot && !over && view.actions.length > 0;
  const who = namer(me, controls.names);
  const ctx = { view, board, controls, mem, who, over, me, message, disabled: !canAct || Boolean(controls.busy),
    ask: askButton("ta", controls, T.askTeacher, message.status === "finished") };
  mem.ctx = canAct ? ctx : null;
  onSlapKey(root, mem);
  // What this tablet's slap came to is said once, when it is new; it stays on screen until the
  // pile changes again, and the slap is forgotten (a later change never repeats it).
  const fresh = personalNote(view, me, mem, who);
  if (fresh) {
    mem.slappedAt = null;
    mem.note = { text: fresh, pile: view.pile_id };
  } else if (mem.note && mem.note.pile !== view.pile_id) {
    mem.note = null;
  }
  const personal = mem.note ? mem.note.text : "";
  const title = headline(view, message, me, who);
  let first, panel;
  if (over) {
    first = () => [resultsBox(view, message, me, who)];
    panel = () => [eventsBox(board, view, who, personal)];
  } else if (view.phase === "decide") {
    first = () => [decideBox(view, me, ctx)];
    panel = () => [stackBox(board, view, me), tableBox(board, view, me, who)];
  } else {
    first = () => [pileBox(board, view, ctx), handBox(board, view, ctx)];
    panel = () => [eventsBox(board, view, who, personal), stackBox(board, view, me), tableBox(board, view, me, who)];
  }
  renderScreen(root, mem, {
    prefix: "ta", pageClass: "ta" + (canAct ? " ta--act" : ""), busy: controls.busy, mapLabel: T.pileLabel,
    header: () => header(view, message, controls, title, canAct, over), map: first, panel,
    announce: news(ctx, title, fresh), version: message.version,
    countdown: { running: TIMER.botIn, over: TIMER.botNow, warn: TIMER.botWarn },
  });
}

function header(view, message, controls, title, canAct, over) {
  let tone = "wait";
  if (over) tone = "over";
  else if (message.status === "paused") tone = "paused";
  else if (message.bot) tone = "bot";
  else if (canAct) tone = "turn";
  const extra = [h("span", { class: "ta-muted" }, T.round(view.round, view.rounds),
    view.variant === "free" ? ` · ${T.variantFree}` : "",
    controls.busy && canAct ? h("span", { class: "ta-busy", text: ` · ${T.sending}` }) : null)];
  if (message.timer && canAct && message.status === "playing") {
    extra.push(countdown("ta", message.timer, TIMER.botIn, TIMER.botNow, { controls, label: TIMER.moreTime, said: TIMER.moreTimeSaid }));
  }
  // while the pile is in play "Ask the teacher" follows the pile's buttons (pileBox)
  const ask = over || view.phase === "play" ? null : askButton("ta", controls, T.askTeacher, message.status === "finished");
  return h("header", { class: "ta-head-wrap" },
    h("h1", { class: "ta-title", text: T.title }),
    banner("ta", "div", tone, title, extra, ask));
}

export function summary(board, view, table) {
  if (!view) return h("p", {}, "");
  const names = {};
  for (const seat of (table && table.seats) || []) names[seat.seat] = seat.name;
  return h("div", { class: "ta-summary" },
    h("p", { class: "ta-sum-title", text: T.summaryTitle(view.round, view.rounds) }),
    h("ul", { class: "ta-sum-list", "aria-label": T.players }, view.seats.map((s) => h("li", {},
      h("strong", { text: names[s.seat] ? T.seatAndName(T.player(s.seat), names[s.seat]) : T.player(s.seat) }), " ",
      T.seatLine(s.location ? locName(board, s.location) : T.nowhere, avg(s.average), s.cards)))));
}

export function progress(board, view) {
  if (!view) return null;
  if (view.over) return 100;
  return Math.min(99, Math.round(100 * (view.round - 1) / view.rounds));
}
