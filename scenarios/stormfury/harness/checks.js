// In-page checks of the renderer's behaviour; index.html?check=1 runs them and writes PASS/FAIL
// lines into #log (read with: chromium --headless --dump-dom ... | grep -E "PASS|FAIL").
import { render, summary } from "/scenarios/stormfury/static/renderer.js";

export async function runChecks(data, log) {
  const ok = (cond, what) => log((cond ? "PASS " : "FAIL ") + what);
  const board = data.board;
  const root = document.createElement("div");
  root.style.cssText = "width:1024px;height:768px";
  document.body.append(root);
  const calls = [];
  const controls = { busy: false, asking: false, act: (a, o) => { calls.push([a, o]); return Promise.resolve(); }, askTeacher: () => { calls.push(["ask"]); return Promise.resolve(); } };
  const q = (key) => root.querySelector(`[data-key="${CSS.escape(key)}"]`);

  for (const [name, message] of Object.entries(data.scenarios)) {
    render(root, board, message, controls);
    const unnamed = [...root.querySelectorAll("button, [role=button], summary")].filter((b) => !(b.getAttribute("aria-label") || b.textContent.trim()));
    ok(unnamed.length === 0, `${name}: every control has an accessible name (${unnamed.length} without)`);
    const own = [...root.querySelectorAll("*")].filter((el) => !el.closest(".sf-role-basis") && [...el.childNodes].some((c) => c.nodeType === 3 && /%/.test(c.textContent)));
    ok(own.length === 0, `${name}: no percentages in the text (card sources aside)`);
    const small = [...root.querySelectorAll(".sf-act, .sf-chip, .sf-ask, .sf-maptools button")].filter((b) => b.offsetParent && b.getBoundingClientRect().height < 48);
    ok(small.length === 0, `${name}: buttons at least 48 px tall (${small.length} smaller)`);
    const n = root.querySelectorAll("button").length;
    ok(n < 45, `${name}: no wall of buttons (${n} buttons for ${(message.view.actions || []).length} actions)`);
    const live = message.status === "playing" && !message.bot;
    const moves = live ? (message.view.actions || []).filter((a) => a.type === "move").length : 0;
    ok(root.querySelectorAll("[data-city][role=button]").length === moves, `${name}: ${moves} move targets tappable on the map`);
    ok(/people not yet evacuated/.test(root.querySelector(".sf-words").textContent), `${name}: map in words speaks of people not yet evacuated`);
  }

  const start = data.scenarios.start;
  render(root, board, start, controls);
  ok(/Your turn/.test(root.textContent) && root.querySelector("[data-deadline]"), "start: Your turn with a timer");
  ok(/offers you/.test(root.textContent) && q(JSON.stringify({ type: "accept_trade", offer: 1 })), "incoming offer: Accept / Decline");
  q("kind-move").click();
  const move = root.querySelector('.sf-options [data-key*="\\"move\\""]');
  move.click();
  ok(calls.length === 1 && calls[0][0].type === "move", "move chosen in two steps");
  root.querySelector("[data-city][role=button]").dispatchEvent(new MouseEvent("click", { bubbles: true }));
  ok(calls[1] && calls[1][0].type === "move", "tapping a city on the map moves there");
  render(root, board, start, controls);
  ok(q("kind-move").getAttribute("aria-pressed") === "true", "the chosen kind survives a re-render");
  q("kind-evacuate").click();
  const evacs = start.view.actions.filter((a) => a.type === "evacuate").length;
  ok(root.querySelectorAll(".sf-options button").length < evacs, `evacuate: card picker instead of ${evacs} buttons`);
  ok(q("pick-go").disabled, "evacuate: nothing to play before picking cards");
  const chips = [...root.querySelectorAll('.sf-options [data-key^="pick-"]')].filter((b) => b.dataset.key !== "pick-go");
  chips[0].click(); root.querySelector(`[data-key="${chips[1].dataset.key}"]`).click();
  const go = q("pick-go");
  ok(!go.disabled, "evacuate: two cards picked → Evacuate 1 person enabled");
  go.click();
  const last = calls[calls.length - 1];
  ok(last[0].type === "evacuate" && last[0].people === 1 && last[0].discard.length === 2 && typeof last[1].confirm === "string", "evacuate sends a legal action and asks to confirm");
  q("kind-trade").click();
  const give = root.querySelector('[data-key^="trade-give-"]'); give.click();
  root.querySelector('[data-key^="trade-get-"]').click();
  q("trade-go").click();
  const t = calls[calls.length - 1][0];
  ok(t.type === "offer_trade" && start.view.actions.some((a) => a.type === "offer_trade" && a.give === t.give && a.get === t.get && a.to === t.to), "trade: give + get → a legal offer");

  render(root, board, start, { ...controls, busy: true });
  ok([...root.querySelectorAll(".sf-act, .sf-chip")].every((b) => b.disabled), "busy: every action button disabled");
  const n = calls.length;
  root.querySelector("[data-city][role=button]").dispatchEvent(new MouseEvent("click", { bubbles: true }));
  ok(calls.length === n, "busy: map taps do nothing");

  render(root, board, data.scenarios.paused, controls);
  ok(/Paused by your teacher/.test(root.textContent) && [...root.querySelectorAll(".sf-act")].every((b) => b.disabled), "paused: banner shown, actions disabled");
  render(root, board, data.scenarios.bot, controls);
  ok(/bot is playing/.test(root.textContent) && !root.querySelector(".sf-actions"), "bot seat: banner shown, no actions");
  render(root, board, data.scenarios.waiting, controls);
  ok(/Waiting for the other tables/.test(root.textContent), "held storm: waiting for the other tables");
  render(root, board, data.scenarios.ended, controls);
  ok(/Turn ended — waiting for your team/.test(root.textContent), "ended: waiting for your team");
  render(root, board, data.scenarios.roles, controls);
  const roleButtons = [...root.querySelectorAll(".sf-role > .sf-act")];
  ok(roleButtons.length === 3 && /Relief Corps/.test(root.querySelector(".sf-role.is-taken").textContent), "roles: three free roles to pick, the taken one shown");
  roleButtons[0].click();
  ok(calls[calls.length - 1][0].type === "pick_role", "roles: pick_role sent");

  const mid = data.scenarios.mid;
  render(root, board, mid, controls);
  ok(root.querySelector(".sf-pile") && /Relief Corps pile/.test(root.textContent), "mid: Relief Corps pile shown");
  ok(root.querySelectorAll(".sf-events li").length > 3, "mid: what the last storm did is listed");
  ok(root.querySelectorAll(".sf-fcard").length === 5, "mid: five forecast cards");
  const before = JSON.parse(JSON.stringify(mid)); before.view.last_storm = []; before.version -= 1;
  const r2 = document.createElement("div"); document.body.append(r2);
  render(r2, board, before, controls);
  render(r2, board, mid, controls);
  ok(r2.querySelector(".sf-events li.is-pending") && r2.classList.contains("sf-animating"), "a new storm plays out step by step");
  r2.remove();

  render(root, board, start, controls);
  q("zoom-in").click();
  const box = root.querySelector("svg.sf-map").getAttribute("viewBox");
  render(root, board, start, controls);
  ok(root.querySelector("svg.sf-map").getAttribute("viewBox") === box, "zoom survives a re-render");
  const panel = root.querySelector(".sf-panel");
  panel.scrollTop = 120;
  const top = panel.scrollTop;
  render(root, board, start, controls);
  ok(top > 0 && root.querySelector(".sf-panel").scrollTop === top, `panel scroll survives a re-render (${top})`);
  q("ask").click();
  ok(calls[calls.length - 1][0] === "ask", "ask the teacher calls controls.askTeacher");

  render(root, board, data.scenarios.finished, controls);
  ok(root.querySelector(".sf-results") && /What held/.test(root.textContent) && /Damage by city/.test(root.textContent), "finished: team result by type, by city, what held");

  const tv = data.teacher.start;
  const card = summary(board, tv, { seats: tv.players.map((p) => ({ seat: p.seat, name: "N" + p.seat })) });
  ok(/Not ended/.test(card.textContent) && /Damage/.test(card.textContent) && /Cat 2/.test(card.textContent), "summary: damage, category, who has not ended");
  ok(data.teacher.finished.progress === 100 && data.teacher.start.progress === 0 && data.teacher.mid.progress > 0, "teacher view's progress: 0..100");
  root.remove();
}
