// How a real-world basis shows on a tablet. A fact checked against a primary source (grade O) is
// told as what really happened; a secondary or unverified one (S, U) as "reported", never as
// plain fact. The source is always shown beside it (a link where the content has an address).
// The words come from the renderer's own catalogue (T), so they translate with the rest.

import { h } from "./kit.js";

export function basisBlock(basis, T, cls) {
  if (!basis || !basis.text) return null;
  const reported = basis.grade !== "O";
  const source = basis.url
    ? h("a", { href: basis.url, target: "_blank", rel: "noopener noreferrer", text: basis.source })
    : basis.source;
  return h("div", { class: "fact-basis " + (cls || "") + (reported ? " is-reported" : ""), "data-grade": basis.grade || "" },
    h("p", {}, h("strong", { text: reported ? T.factReported : T.factChecked }), " ", basis.text),
    h("p", { class: "fact-source" }, reported ? T.factReportedBy : T.factSource, " ", source));
}
