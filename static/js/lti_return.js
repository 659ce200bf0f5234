// Deep linking's last step: the signed answer goes back to the course at once (the button stays
// for a browser that runs no scripts).
const form = document.querySelector("form[data-auto-submit]");
if (form) form.submit();
