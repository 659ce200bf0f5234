// The new-session form shows only the chosen scenario's options.

const pick = document.getElementById("id_scenario");

function sync() {
  document.querySelectorAll("[data-scenario]").forEach((el) => { el.hidden = el.dataset.scenario !== pick.value; });
}

pick.addEventListener("change", sync);
sync();

// A form sent back with errors: focus goes to the first field in error (its error is read with
// it, through aria-describedby), opening the details it sits in, or to the form's own errors.
const firstError = document.querySelector("form .has-error, form > .errors");
if (firstError) {
  for (let d = firstError.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
  const control = firstError.matches(".errors") ? null : firstError.querySelector("input:not([type=hidden]), select, textarea");
  const target = control || firstError;
  if (!control) target.setAttribute("tabindex", "-1");
  target.focus();
}
