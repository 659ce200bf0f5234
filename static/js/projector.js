// The projector's class view during play: each table's progress in its game's own terms, what
// its storm is doing and its latest moments worth a cheer, with the join QR and code in a corner
// for latecomers. Built from the dashboard's snapshots (each table's `projector` line: ids and
// numbers) and the scenario's sentences for them (`projector-words`, in the teacher's language).

import { gettext, ngettext, fmt, h as el } from "./kit.js";

const T = {
  progress: gettext("Class progress"),
  finishedTables: (d, t) => fmt(gettext("%(d)s of %(t)s tables finished"), { d, t }),
  table: (n) => fmt(gettext("Table %(n)s"), { n }),
  seat: (table, seat) => fmt(gettext("Table %(table)s, seat %(seat)s"), { table, seat }),
  bot: (seat) => fmt(gettext("Bot (seat %(seat)s)"), { seat }),
  finished: gettext("Finished"),
  lateJoin: gettext("Joining late? Scan or go to"),
  // a late name waits for the teacher's approval on the dashboard; the class sees only how many
  lateWaiting: (n) => fmt(ngettext("%(n)s student is waiting to be let in", "%(n)s students are waiting to be let in", n), { n }),
  moments: (n) => fmt(ngettext("%(n)s moment", "%(n)s moments", n), { n }),
};

const FEED = 3;  // moments kept per table
const feeds = new Map();  // table number -> [{key, text}], newest last, across snapshots

let words = null;
function sentence(key, params) {
  if (!words) {
    const node = document.getElementById("projector-words");
    words = node ? JSON.parse(node.textContent) : {};
  }
  return key in words ? fmt(words[key], params) : "";
}

// A seat as the class may see it: its student's nickname once the teacher approved it (a bot
// standing in plays under it), else its place; a bot's own seat says so.
function who(table, seat) {
  if (seat === null || seat === undefined) return "";
  const s = table.seats.find((x) => x.seat === seat);
  if (s && s.name && s.approved) return s.name;
  return s && s.name ? T.seat(table.number, seat + 1) : T.bot(seat + 1);
}

function feed(table, line) {
  const held = feeds.get(table.number) || [];
  const known = new Set(held.map((m) => m.key));
  for (const c of line.cheers || []) {
    if (known.has(c.key)) continue;
    held.push({ key: c.key, text: sentence(c.kind, { ...c, who: who(table, c.seat) }), fresh: true });
  }
  const kept = held.slice(-FEED);
  feeds.set(table.number, kept.map((m) => ({ ...m, fresh: false })));
  return kept;
}

function tableCard(table) {
  const line = table.projector;
  const finished = !!(table.summary && table.summary.status === "finished");
  const percent = finished ? 100 : line ? line.percent : 0;
  const card = el("li", { class: `projector-table${finished ? " done" : ""}`, "data-table": table.number },
    el("h2", { class: "projector-table-name" }, T.table(table.number),
      finished ? el("span", { class: "projector-done" }, ` ✓ ${T.finished}`) : null),
    el("span", { class: "screen-bar", role: "img", "aria-label": `${T.table(table.number)}: ${percent} %` },
      el("span", { class: "screen-bar-fill", style: `width: ${percent}%` })));
  if (!line) return card;
  card.append(el("p", { class: "projector-progress" }, sentence(line.unit, { ...line.numbers, done: line.done, of: line.of })));
  if (line.storm) card.append(el("p", { class: "projector-storm" }, sentence(line.storm.kind, line.storm)));
  const moments = feed(table, line);
  if (moments.length) {
    card.append(el("ul", { class: "projector-cheers", "aria-label": T.moments(moments.length) },
      ...moments.map((m) => el("li", { class: m.fresh ? "fresh" : null }, m.text))));
  }
  return card;
}

/** The class view (a list of nodes) for snapshot `data`; `qrUrl` is the session's QR image. */
export function classView(data, qrUrl) {
  const done = data.tables.filter((t) => t.summary && t.summary.status === "finished").length;
  const address = data.join_url.replace(/\/join\/.*$/, "/join");
  const late = data.participants.filter((p) => !p.approved).length;
  return [
    el("header", { class: "projector-head" },
      el("h1", { class: "projector-title" }, T.progress, el("span", { class: "projector-count" }, ` · ${T.finishedTables(done, data.tables.length)}`)),
      el("aside", { class: "projector-join" },
        el("img", { src: qrUrl, alt: fmt(gettext("QR code for %(url)s"), { url: data.join_url }), width: 150, height: 150 }),
        el("p", {}, el("span", { class: "projector-join-why" }, T.lateJoin), el("br"), el("strong", {}, address),
          el("br"), el("span", { class: "projector-join-code" }, data.code),
          late ? el("br") : null, late ? el("span", { class: "projector-late", role: "status" }, T.lateWaiting(late)) : null))),
    el("ul", { class: `projector-tables count-${Math.min(data.tables.length, 9)}` }, ...data.tables.map(tableCard)),
  ];
}
