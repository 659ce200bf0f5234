// /check: before class, a teacher tests that this device reaches the server, holds a live
// socket and has room for the game. The texts come translated in the list's data- attributes.

const list = document.getElementById("checks");
const text = (key, values = {}) => list.dataset[key].replace(/\{(\w+)\}/g, (match, name) => values[name]);

function set(id, ok, message) {
  const item = document.getElementById(id);
  item.textContent = message;
  item.className = ok ? "ok" : "warn";
}

function run() {
  fetch("/healthz", {cache: "no-store"})
    .then((r) => set("check-http", r.ok, text(r.ok ? "httpOk" : "httpProblem")))
    .catch(() => set("check-http", false, text("httpNone")));
  const started = performance.now();
  let done = false;
  try {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/check/");
    ws.onopen = () => ws.send("ping");
    ws.onmessage = () => {
      done = true;
      set("check-ws", true, text("wsOk", {ms: Math.round(performance.now() - started)}));
      ws.close();
    };
    ws.onerror = () => { if (!done) { done = true; set("check-ws", false, text("wsBlocked")); } };
  } catch (err) { set("check-ws", false, text("wsBlocked")); }
  setTimeout(() => { if (!done) set("check-ws", false, text("wsSilent")); }, 5000);
  const width = window.innerWidth, height = window.innerHeight;
  set("check-screen", width >= 360, text(width >= 360 ? "screenOk" : "screenSmall", {width, height}));
}

document.getElementById("again").addEventListener("click", run);
run();
