// Race to the shelter: the tablet screen of a tiny test scenario. Everything it shows comes from
// the seat's view; it only turns the legal actions into buttons.

const T = {
  title: "Race to the shelter",
  round: (r, n) => `Round ${Math.min(r, n)} of ${n}: the storm comes after round ${n}.`,
  yourTurn: "Your turn: run or pack?",
  waiting: (n) => `Waiting for player ${n + 1}.`,
  run: "Run (1 to 3 steps)",
  pack: "Pack one more supply",
  you: "you",
  player: (n) => `Player ${n + 1}`,
  steps: (pos, d) => `${pos} of ${d} steps`,
  safe: "safe in the shelter",
  supplies: (n) => `${n} ${n === 1 ? "supply" : "supplies"}`,
  results: "The storm has come",
  score: (n) => `${n} points`,
  track: "Where everyone is",
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value != null) node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.flat().filter((c) => c != null));
  return node;
}

function seatLine(view, s, me) {
  const where = s.safe_round != null ? T.safe : T.steps(s.pos, view.distance);
  return el("li", {class: "race-seat" + (s.seat === me ? " race-me" : "")},
    el("span", {}, el("strong", {}, T.player(s.seat), s.seat === me ? ` (${T.you})` : ""), ": ", where, " · ",
      T.supplies(s.supplies)),
    el("meter", {min: 0, max: view.distance, value: s.pos, "aria-label": T.player(s.seat)}));
}

export function render(root, board, message, controls) {
  const view = message.view;
  const me = message.seat;
  const over = message.status === "finished" || view.over;
  const canAct = message.status === "playing" && !message.bot && !over && view.actions.length > 0;
  const page = el("section", {class: "card race", "aria-busy": controls.busy ? "true" : "false"},
    el("h1", {}, T.title),
    el("p", {class: "race-banner", role: "status"},
      over ? T.results : canAct ? T.yourTurn : T.waiting(view.turn)),
    el("p", {}, T.round(view.round, view.storm_rounds)),
    el("h2", {}, T.track),
    el("ul", {class: "race-track"}, view.seats.map((s) => seatLine(view, s, me))));
  if (canAct) {
    const buttons = el("div", {class: "race-actions"});
    for (const action of view.actions) {
      buttons.append(el("button", {type: "button", class: "primary big race-act", "data-key": JSON.stringify(action),
        disabled: Boolean(controls.busy), onclick: () => controls.act(action)}, T[action.type]));
    }
    page.append(buttons);
  }
  if (over && message.results) {
    page.append(el("div", {class: "race-results"}, el("h2", {}, T.results),
      el("ol", {}, [...message.results].sort((a, b) => a.rank - b.rank).map((r) =>
        el("li", {}, T.player(r.seat), ": ", T.score(r.score))))));
  }
  root.replaceChildren(page);
}

export function summary(board, view) {
  const safe = view.seats.filter((s) => s.safe_round != null).length;
  return el("p", {}, T.round(view.round, view.storm_rounds), ` ${safe}/${view.seats.length} ${T.safe}.`);
}

export function progress(board, view) {
  return view ? Math.min(100, Math.round(100 * (view.round - 1) / view.storm_rounds)) : null;
}
