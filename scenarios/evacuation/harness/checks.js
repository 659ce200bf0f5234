// In-page checks of the renderer's behaviour; index.html?check=1 runs them and writes PASS/FAIL
// lines into #log (read with: chromium --headless --dump-dom ... | grep -E "PASS|FAIL").
import { render, summary } from "/scenarios/evacuation/static/renderer.js";

export async function runChecks(data, log) {
  const ok = (cond, what) => log((cond ? "PASS " : "FAIL ") + what);
  const board = data.board;
  const root = document.createElement("div");
  root.style.cssText = "width:1024px;height:768px";
  document.body.append(root);
  const calls = [];
  const controls = { busy: false, asking: false, act: (a, o) => { calls.push([a, o]); return Promise.resolve(); }, askTeacher: () => { calls.push(["ask"]); return Promise.resolve(); } };

  for (const [name, message] of Object.entries(data.scenarios)) {
    render(root, board, message, controls);
    const unnamed = [...root.querySelectorAll("button, [role=button], summary")].filter((b) => !(b.getAttribute("aria-label") || b.textContent.trim()));
    ok(unnamed.length === 0, `${name}: every control has an accessible name (${unnamed.length} without)`);
    ok(!/%/.test(root.textContent), `${name}: no percentages in the text`);
    const small = [...root.querySelectorAll(".evac-act, .evac-ask, .evac-maptools button")].filter((b) => b.getBoundingClientRect().height < 48 && b.offsetParent);
    ok(small.length === 0, `${name}: buttons at least 48 px tall (${small.length} smaller)`);
    const drives = (message.view.actions || []).filter((a) => a.type === "drive").length;
    ok(root.querySelectorAll("[data-node][role=button]").length === drives, `${name}: ${drives} drive targets tappable on the map`);
    const acts = root.querySelectorAll(".evac-act").length;
    ok(acts === (message.view.actions || []).length, `${name}: one button per legal action (${acts} of ${(message.view.actions || []).length})`);
  }

  const start = data.scenarios.start;
  render(root, board, start, controls);
  const first = [...root.querySelectorAll(".evac-act")].find((b) => b.dataset.key.includes('"drive"'));
  first.click();
  ok(calls.length === 1 && calls[0][0].type === "drive" && typeof calls[0][1].confirm === "string", "first drive from home asks to confirm");
  root.querySelector('[data-key*="set_destination"]').click();
  ok(typeof calls[1][1].confirm === "string", "choosing a destination asks to confirm");
  root.querySelector('[data-key*="stay_home"]').click();
  ok(typeof calls[2][1].confirm === "string", "staying home asks to confirm");
  root.querySelector('[data-key*="wait"]').click();
  ok(!calls[3][1].confirm, "waiting does not ask to confirm");
  root.querySelector('[data-node="BK"]').dispatchEvent(new MouseEvent("click", { bubbles: true }));
  ok(calls[4] && calls[4][0].to === "BK", "tapping the bank on the map drives there");

  render(root, board, start, { ...controls, busy: true });
  ok([...root.querySelectorAll(".evac-act")].every((b) => b.disabled), "busy: every action button disabled");
  const n = calls.length;
  root.querySelector('[data-node="BK"]').dispatchEvent(new MouseEvent("click", { bubbles: true }));
  ok(calls.length === n, "busy: map taps do nothing");

  render(root, board, data.scenarios.late, controls);
  ok([...root.querySelectorAll(".evac-act")].every((b) => b.disabled) && /Paused/.test(root.textContent), "paused: banner shown, actions disabled");
  render(root, board, data.scenarios.gas, controls);
  ok(/bot is playing/.test(root.textContent) && root.querySelector(".evac-act").disabled, "bot seat: banner shown, actions disabled");

  render(root, board, start, controls);
  root.querySelector('[aria-label="Zoom in"]').click();
  const box = root.querySelector("svg.evac-map").getAttribute("viewBox");
  render(root, board, start, controls);
  ok(root.querySelector("svg.evac-map").getAttribute("viewBox") === box && box !== "-20 -50 1040 1070", "zoom survives a re-render");
  root.querySelector('[aria-label="Show the whole map"]').click();
  ok(root.querySelector("svg.evac-map").getAttribute("viewBox") === "-20 -50 1040 1070", "reset shows the whole map");
  const panel = root.querySelector(".evac-panel");
  panel.scrollTop = 120;
  const top = panel.scrollTop;
  render(root, board, start, controls);
  ok(top > 0 && root.querySelector(".evac-panel").scrollTop === top, `panel scroll survives a re-render (${top})`);
  root.querySelector('[data-key="ask"]').click();
  ok(calls[calls.length - 1][0] === "ask", "ask the teacher calls controls.askTeacher");
  render(root, board, start, { ...controls, asking: true });
  ok(/Teacher asked ✓/.test(root.querySelector('[data-key="ask"]').textContent), "asking shows Teacher asked ✓");

  render(root, board, data.scenarios.mid, controls);
  ok(root.querySelectorAll(".evac-prompt .evac-act").length === 5, "why? prompt: four reasons and skip");
  ok(/Really happened/.test(root.querySelector(".evac-card").textContent), "chance card with its real-world basis");
  render(root, board, data.scenarios.finished, controls);
  ok(root.querySelector(".evac-results") && /Arrived before the winds/.test(root.textContent), "finished: results with safety");

  const card = summary(board, data.teacher.mid);
  const el = typeof card === "string" ? Object.assign(document.createElement("div"), { innerHTML: card }) : card;
  ok(el.querySelectorAll(".evac-sum-row").length === data.teacher.mid.tables.length, "summary: one row per seat");
  root.remove();
}
