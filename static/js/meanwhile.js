// While the others finish: once every seat this tablet holds is done (a household home for the
// storm, a table whose game has ended) and the lesson still plays, the student gets their own
// what-if, the family plan to start and their table's questions (lessons.meanwhile), never an
// idle screen. Asked for once; the same node is kept at every render after, so focus stays put.

import { gettext, fmt, h as el } from "./kit.js";

const T = {
  title: gettext("While the others finish"),
  lead: gettext("Your game is over. Here is something to do until the whole class has finished."),
  loading: gettext("Working out what would have happened…"),
  whatif: gettext("What if you had played differently?"),
  plan: gettext("Start my family plan"),
  planNote: gettext("Take it home and fill it in with your family."),
  questions: gettext("Talk it over at your table"),
  facts: gettext("What really happens"),
  source: (source, grade) => fmt(gettext("Source: %(source)s (grade %(grade)s)"), { source, grade }),
  failed: gettext("This could not be loaded. It will be tried again in a moment."),
};

const RETRY_MS = 5000;
let panel = null, asked = false;

/** Whether this tablet's seats are all done while the lesson still plays. */
export function finishedEarly(lobby, views, seats) {
  if (!["playing", "paused"].includes(lobby.status) || !seats.length) return false;
  return seats.every((s) => views[s].status === "finished" || views[s].open === false);
}

/** The panel (a section, filled once the server has answered), or null when it is not due. */
export function meanwhilePanel(url, due) {
  if (!due || !url) return null;
  if (!panel) {
    panel = el("section", { class: "card meanwhile", "aria-labelledby": "meanwhile-title" },
      el("h2", { id: "meanwhile-title" }, T.title),
      el("p", { class: "lead" }, T.lead),
      el("p", { class: "muted", role: "status" }, T.loading));
  }
  if (!asked) {
    asked = true;
    fetch(url, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((answer) => (answer.early ? fill(answer.early) : retry()))
      .catch(() => retry(T.failed));
  }
  return panel;
}

function retry(words) {
  if (words) panel.querySelector("[role=status]").textContent = words;
  setTimeout(() => { asked = false; }, RETRY_MS);
}

function fill(early) {
  const parts = [el("h2", { id: "meanwhile-title" }, T.title), el("p", { class: "lead" }, T.lead)];
  if (early.whatif.length) {
    parts.push(el("h3", {}, T.whatif), ...early.whatif.map((s) => el("p", { class: "meanwhile-whatif" }, s)));
  }
  parts.push(el("p", { class: "meanwhile-plan" },
    el("a", { class: "button primary big", href: early.plan_url }, T.plan), " ",
    el("span", { class: "muted" }, T.planNote)));
  if (early.questions.length) {
    parts.push(el("h3", {}, T.questions), el("ol", { class: "meanwhile-questions" }, ...early.questions.map((q) => el("li", {}, q))));
  }
  if (early.facts.length) {
    parts.push(el("h3", {}, T.facts), el("ul", { class: "meanwhile-facts" }, ...early.facts.map((f) => el("li", {},
      f.statement, " ", el("b", {}, f.number), " ",
      el("small", {}, el("a", { href: f.url, target: "_blank", rel: "noopener" }, T.source(f.source, f.grade)))))));
  }
  panel.replaceChildren(...parts);
}
