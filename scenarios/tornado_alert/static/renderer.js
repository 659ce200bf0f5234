// "Tornado Alert!" tablet renderer: the play pile to slap, your hand, your photo stack with its
// average, everyone else's location, and what the tornado and lightning just did with the safety
// note of the place they struck. The transport (play.js) owns the socket; this module computes no
// rule: every number (cards to take, averages, chips, who may slap) comes in the view or board.
// Every visible string is in the catalogue T, through gettext (the page's language); a place's
// name ("from a storm cellar") comes translated in the board. Safari 15 / Chrome 100: no build step.

import { gettext, ngettext, fmt, num, pageLanguage, h, screenMemory, saveUiState, restoreUiState, sendAction, basisBlock,
  resultsTable } from "/static/js/kit.js";

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
  rtt: (ms) => fmt(gettext("Your connection: %(ms)s ms"), { ms: num(ms) }),
  pileTitle: gettext("Play pile"),
  pileEmpty: gettext("The pile is empty."),
  pileTop: (name, value) => fmt(gettext("Top: %(name)s (%(value)s)"), { name, value: num(value) }),
  pileSize: (n) => fmt(ngettext("%(n)s card on the pile", "%(n)s cards on the pile", n), { n: num(n) }),
  pileList: gettext("Cards on the pile, top first"),
  drawLeft: (n) => fmt(ngettext("%(n)s card left to draw", "%(n)s cards left to draw", n), { n: num(n) }),
  slap: gettext("Slap!"),
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
    race: (p, n) => fmt(ngettext("%(player)s won a race of %(n)s slap.", "%(player)s won a race of %(n)s slaps.", n), { player: p, n: num(n) }),
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
    handPenalty: (p) => fmt(gettext("%(player)s held the wrong number of cards: −1 chip."), { player: p }),
    decided: (p) => fmt(gettext("%(player)s has chosen."), { player: p }),
    roundStart: (r) => fmt(gettext("Round %(r)s begins."), { r: num(r) }),
    ended: gettext("Your teacher ended the game."),
  },
  faster: (p) => fmt(gettext("%(player)s was faster."), { player: p }),
  gotIt: (n) => fmt(ngettext("You got it: %(n)s card!", "You got it: %(n)s cards!", n), { n: num(n) }),
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
  rank: gettext("Rank"),
  seat: gettext("Player"),
  rounds: gettext("Rounds"),
  score: gettext("Worst round"),
  struckAvg: (avg) => fmt(gettext("%(avg)s (struck)"), { avg }),
  players: gettext("Players"),
  seatAndName: (seat, name) => fmt(gettext("%(player)s · %(name)s"), { player: seat, name }),
  summaryTitle: (r, n) => fmt(gettext("Round %(r)s of %(n)s"), { r: num(r), n: num(n) }),
};

const memory = screenMemory(() => ({ slappedAt: null, said: "" }));

function avg(x) {
  // an average as the rule book asks, to two decimals, written the page's language's way (2.50 / 2,50)
  return (Math.round(x * 100) / 100).toLocaleString(pageLanguage(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
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
    case "round_over": return e.reason === "game_over" ? T.ev.gameOverBy(p(e.seat), e.round) : T.ev.roundOver(e.round);
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
    type: "button", class: "ta-slap" + (topCard && topCard.tornado ? " is-tornado" : ""), "data-key": "slap",
    disabled: !slap || ctx.disabled,
    "aria-describedby": "ta-pile-top",
    onclick: () => { ctx.mem.slappedAt = slap.pile; sendAction(ctx.controls, slap); },
  }, h("span", { class: "ta-slap-main", text: T.slap }), h("span", { class: "ta-slap-sub", text: label }));
  const list = view.pile.slice().reverse().map((id) => {
    const c = board.cards[id];
    return h("li", { class: "ta-pcard" + (c && c.tornado ? " is-tornado" : "") },
      h("span", { class: "ta-val", text: num(c ? c.value : 0) }), " ", cardName(board, id),
      c && c.tornado ? h("span", { class: "ta-torn", text: ` ⚠ ${T.tornadoMark}` }) : null);
  });
  return h("section", { class: "ta-box ta-pile", "aria-labelledby": "ta-pile-title" },
    h("h2", { id: "ta-pile-title", text: T.pileTitle }),
    h("p", { id: "ta-pile-top", class: "ta-pile-top",
      text: top ? T.pileTop(cardName(board, top), topCard ? topCard.value : 0) : T.pileEmpty }),
    button,
    h("p", { class: "ta-muted", text: `${T.pileSize(view.pile_size)} · ${T.drawLeft(view.draw)}` }),
    list.length ? h("ol", { class: "ta-pile-list", "aria-label": T.pileList }, list) : null);
}

function handBox(board, view, ctx) {
  const plays = view.actions.filter((a) => a.type === "play");
  const items = (view.hand || []).map((id, i) => {
    const c = board.cards[id] || { value: 0 };
    const action = plays.find((a) => a.card === id);
    return h("li", {}, h("button", {
      type: "button", class: "ta-card" + (c.tornado ? " is-tornado" : ""), "data-key": `hand-${i}`,
      disabled: !action || ctx.disabled, onclick: () => sendAction(ctx.controls, action),
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
  // the safety note of each place the tornado or lightning just struck
  const seen = new Set();
  const notes = [];
  for (const e of view.events) {
    if ((e.type === "tornado" || e.type === "lightning") && !seen.has(e.location)) {
      seen.add(e.location);
      const loc = board.locations.find((l) => l.id === e.location);
      if (loc) notes.push(h("div", { class: "ta-strike ta-strike--" + e.type },
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
      type: "button", class: "ta-choice", "data-key": `choice-${a.type}`, disabled: ctx.disabled,
      onclick: () => sendAction(ctx.controls, a),
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
    }))));
}

function personalNote(view, me, mem, who) {
  // "Ben was faster" / "You got it": from the pile this tablet slapped at, and who took it
  const taken = view.last_take;
  if (mem.slappedAt === null || !taken || taken.pile !== mem.slappedAt) return "";
  return taken.seat === me ? T.gotIt(taken.count) : T.faster(who(taken.seat));
}

export function render(root, board, message, controls) {
  const view = message.view;
  const me = message.seat;
  const mem = memory(root);
  saveUiState(root, mem);
  const over = message.status === "finished" || view.over;
  const canAct = message.status === "playing" && !message.bot && !over && view.actions.length > 0;
  const ctx = { controls, mem, disabled: !canAct || Boolean(controls.busy) };
  const who = namer(me, controls.names);
  const personal = personalNote(view, me, mem, who);
  const parts = [];
  if (over) {
    parts.push(resultsBox(view, message, me, who), eventsBox(board, view, who, personal));
  } else if (view.phase === "decide") {
    parts.push(decideBox(view, me, ctx), stackBox(board, view, me), tableBox(board, view, me, who));
  } else {
    parts.push(pileBox(board, view, ctx), eventsBox(board, view, who, personal), handBox(board, view, ctx),
      stackBox(board, view, me), tableBox(board, view, me, who));
  }
  const title = headline(view, message, me, who);
  const page = h("div", { class: "ta" + (canAct ? " ta--act" : ""), "aria-busy": controls.busy ? "true" : "false" },
    h("header", { class: "ta-banner" },
      h("h1", { class: "ta-title", text: T.title }),
      h("p", { class: "ta-head", text: title }),
      h("p", { class: "ta-muted" }, T.round(view.round, view.rounds),
        view.variant === "free" ? ` · ${T.variantFree}` : "",
        controls.rtt != null ? ` · ${T.rtt(controls.rtt)}` : "",
        controls.busy && canAct ? h("span", { class: "ta-busy", text: ` · ${T.sending}` }) : null)),
    h("div", { class: "ta-grid" }, parts));
  if (!mem.live) mem.live = h("div", { class: "visually-hidden", role: "status", "aria-live": "polite" });
  root.replaceChildren(page, mem.live);
  restoreUiState(root, mem);
  // one polite announcement per move: what happened, then what to do now
  const said = [personal, ...view.events.map((e) => eventLine(board, e, who))].filter(Boolean).join(" ") + " " + title;
  if (said !== mem.said) {
    mem.said = said;
    mem.live.textContent = said;
  }
  if (!root.contains(document.activeElement) || document.activeElement === document.body) {
    const next = root.querySelector("button.ta-slap:not([disabled]), .ta-card:not([disabled]), .ta-choice:not([disabled])");
    if (next && mem.focusKey) next.focus({ preventScroll: true });
  }
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
