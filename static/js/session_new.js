// The new-session form shows only the chosen scenario's options.

const pick = document.getElementById("id_scenario");

function sync() {
  document.querySelectorAll("[data-scenario]").forEach((el) => { el.hidden = el.dataset.scenario !== pick.value; });
}

pick.addEventListener("change", sync);
sync();
