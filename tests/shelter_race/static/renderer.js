// Race to the shelter: the tablet screen of a tiny test scenario, written as a real scenario's
// must be (README, "Add a scenario"): the kit's screen (renderScreen: banner, turn countdown,
// "ask the teacher", focus, live region), every word through gettext with plurals by ngettext,
// and everything it shows from the seat's view. The map column is the race track.

import { gettext, ngettext, fmt, h, screenMemory, renderScreen, banner, countdown, askButton, sendAction,
  choiceButton, box, timerMoved, TIMER } from "/static/js/kit.js";

const T = {
  title: gettext("Race to the shelter"),
  round: (r, n) => fmt(gettext("Round %(r)s of %(n)s: the storm comes after round %(n)s."), { r: Math.min(r, n), n }),
  yourTurn: gettext("Your turn: run or pack?"),
  waiting: (n) => fmt(gettext("Waiting for player %(n)s."), { n: n + 1 }),
  botPlaying: gettext("A bot is playing your turn."),
  paused: gettext("The teacher has paused the game."),
  over: gettext("The storm has come"),
  run: gettext("Run (1 to 3 steps)"),
  pack: gettext("Pack one more supply"),
  you: gettext("you"),
  player: (n) => fmt(gettext("Player %(n)s"), { n: n + 1 }),
  steps: (pos, d) => fmt(ngettext("%(pos)s of %(d)s step", "%(pos)s of %(d)s steps", d), { pos, d }),
  safe: gettext("safe in the shelter"),
  supplies: (n) => fmt(ngettext("%(n)s supply", "%(n)s supplies", n), { n }),
  score: (n) => fmt(ngettext("%(n)s point", "%(n)s points", n), { n }),
  track: gettext("Where everyone is"),
  choices: gettext("Your choices"),
  askTeacher: gettext("Ask the teacher"),
};

const remember = screenMemory();

export function render(root, board, message, controls) {
  const mem = remember(root);
  const view = message.view;
  const me = message.seat;
  const over = message.status === "finished" || view.over;
  const myTurn = !over && view.turn === me;
  const canAct = myTurn && message.status === "playing" && !message.bot && view.actions.length > 0;
  const ctx = { message, controls, view, me, mem, over, myTurn, canAct };
  const title = bannerText(ctx);
  const seen = mem.seen;
  // the seat's own move (by the student, or by the turn timer's bot) moves or packs for it
  const mine = JSON.stringify(view.seats.find((s) => s.seat === me) || null);
  mem.seen = { title, mine };
  const byBot = timerMoved(mem, message, Boolean(seen) && seen.mine !== mine);
  renderScreen(root, mem, {
    prefix: "race", pageClass: "race" + (canAct ? " race--turn" : ""), busy: controls.busy, mapLabel: T.track,
    header: () => header(ctx, title), map: () => track(ctx), panel: () => panel(ctx),
    announce: !seen ? title : [byBot ? TIMER.botMoved : "", title !== seen.title ? title : ""].filter(Boolean),
    version: message.version,
    countdown: { running: TIMER.botIn, over: TIMER.botNow, warn: TIMER.botWarn },
  });
}

function bannerText(ctx) {
  if (ctx.over) return T.over;
  if (ctx.message.status === "paused") return T.paused;
  if (ctx.message.bot && ctx.myTurn) return T.botPlaying;
  return ctx.myTurn ? T.yourTurn : T.waiting(ctx.view.turn);
}

function header(ctx, title) {
  const { view, message, controls } = ctx;
  const tone = ctx.canAct ? "turn" : ctx.over ? "over" : message.status === "paused" ? "paused" : "wait";
  const extra = [h("span", { class: "race-round", text: T.round(view.round, view.storm_rounds) })];
  if (message.timer && ctx.myTurn && message.status === "playing" && !message.bot) {
    extra.push(countdown("race", message.timer, TIMER.botIn, TIMER.botNow, { controls, label: TIMER.moreTime, said: TIMER.moreTimeSaid }));
  }
  const ask = ctx.over ? null : askButton("race", controls, T.askTeacher, false);
  return h("header", { class: "race-head" }, h("h1", { class: "race-title", text: T.title }),
    banner("race", "div", tone, title, extra, ask));
}

function track(ctx) {
  const { view, me } = ctx;
  return h("ul", { class: "race-track" }, view.seats.map((s) => {
    const where = s.safe_round != null ? T.safe : T.steps(s.pos, view.distance);
    return h("li", { class: "race-seat" + (s.seat === me ? " race-me" : "") },
      h("span", {}, h("strong", {}, T.player(s.seat), s.seat === me ? ` (${T.you})` : ""), ": ", where, " · ", T.supplies(s.supplies)),
      h("meter", { min: 0, max: view.distance, value: s.pos, "aria-label": T.player(s.seat) }));
  }));
}

function panel(ctx) {
  const { view, message, controls, mem } = ctx;
  const parts = [];
  if (ctx.canAct) {
    parts.push(box("race", "actions", "actions", T.choices, h("div", { class: "race-choices" }, view.actions.map((action) =>
      choiceButton("race", { key: JSON.stringify(action), label: T[action.type], disabled: Boolean(controls.busy),
        onclick: () => sendAction(controls, action, null, mem) })))));
  }
  if (ctx.over && message.results) {
    parts.push(box("race", "results", "results", T.over, h("ol", {}, [...message.results].sort((a, b) => a.rank - b.rank).map((r) =>
      h("li", {}, T.player(r.seat), ": ", T.score(r.score))))));
  }
  return parts;
}

export function summary(board, view) {
  const safe = view.seats.filter((s) => s.safe_round != null).length;
  return h("p", {}, T.round(view.round, view.storm_rounds), " ", fmt(gettext("%(safe)s of %(n)s %(where)s."), { safe, n: view.seats.length, where: T.safe }));
}

export function progress(board, view) {
  return view ? Math.min(100, Math.round(100 * (view.round - 1) / view.storm_rounds)) : null;
}
