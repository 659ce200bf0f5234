// The teacher's reports page: poll every 2 s while any job is unfinished; rows update in place
// (the retry form posts normally). Words come translated from the table's data- attributes.

const table = document.getElementById("jobs");
const csrf = (document.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";

function row(r) {
  const tr = table.querySelector(`tr[data-id="${r.id}"]`);
  if (!tr) return;
  tr.querySelector(".status").className = "status " + r.status;
  tr.querySelector(".status").textContent = r.status_label + (r.error ? ": " + r.error : "");
  tr.querySelector("progress").value = r.progress;
  tr.querySelector(".step").textContent = r.step;
  const links = tr.querySelector(".links");
  if (r.status === "done") {
    links.innerHTML = `<a href="${r.page}">${table.dataset.page}</a> · <a href="${r.pdf}">${table.dataset.pdf}</a>`;
  }
  else if (r.status === "failed") links.innerHTML = `<form method="post" action="${r.retry}" class="inline"><input type="hidden" name="csrfmiddlewaretoken" value="${csrf}"><button type="submit">${table.dataset.retry}</button></form>`;
  else links.textContent = "";
}

async function poll() {
  try {
    const answer = await fetch(table.dataset.statusUrl, {headers: {Accept: "application/json"}, credentials: "same-origin"});
    if (answer.ok) {
      const data = await answer.json();
      data.reports.forEach(row);
      document.getElementById("jobs-summary").textContent =
        table.dataset.summary.replace("{done}", data.done).replace("{total}", data.total);
      const busy = data.reports.some((r) => r.status === "queued" || r.status === "running");
      if (data.total && !busy) return;  // all written or failed: nothing left to watch
    }
  } catch (err) { /* the network blinked: try again */ }
  setTimeout(poll, 2000);
}

if (table) setTimeout(poll, 2000);
