/* The desk's check-in list without reloading: the list's plain form is posted with fetch
   (Accept: application/json) for the row's button; its badges and button change in place,
   and the search box keeps the focus for the next scan. Without JavaScript the forms post and reload. */
(function () {
  "use strict";
  if (!window.fetch || !window.FormData) return;
  var words = document.getElementById("checkin-words");
  if (!words) return;
  function word(key) { return words.getAttribute("data-" + key) || ""; }
  var counts = {
    "in": document.querySelector("[data-count=in]"),
    "paid": document.querySelector("[data-count=paid]")
  };
  function bump(key, delta) {
    var el = counts[key];
    if (el) el.textContent = String(parseInt(el.textContent, 10) + delta);
  }
  var flips = {
    "in": ["out", "check-out", "in"], "out": ["in", "check-in", "out"],
    "paid": ["unpaid", "mark-unpaid", "paid"], "unpaid": ["paid", "mark-paid", "unpaid"]
  };
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-checkin")) return;
    var button = event.submitter;
    if (!button || button.name !== "act") return;
    event.preventDefault();
    var parts = button.value.split(":");
    var action = parts[0], entry = parts[1];
    var data = new FormData(form);
    data.set("act", button.value);
    button.disabled = true;
    /* not form.action: an element named "action" could shadow that property */
    fetch(form.getAttribute("action") || window.location.href, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error(body.error || "error");
        var row = button.closest("li");
        var flip = flips[action];
        button.value = flip[0] + ":" + entry;
        button.textContent = word(flip[1]);  /* named with the player (aria-labelledby) */
        button.className = (flip[0] === "in") ? "" : "secondary";
        if (action === "in" || action === "out") {
          row.querySelector("[data-flag=in]").textContent = body.checked_in ? word("in") : word("out");
          row.classList.toggle("is-in", body.checked_in);
          bump("in", body.checked_in ? 1 : -1);
        } else {
          row.querySelector("[data-flag=paid]").textContent = body.paid ? word("paid") : word("unpaid");
          bump("paid", body.paid ? 1 : -1);
        }
      });
    }).catch(function () {
      /* let the server say what went wrong, on a page: post the button's own form */
      var field = document.createElement("input");
      field.type = "hidden"; field.name = "act"; field.value = button.value;
      form.appendChild(field);
      form.submit();
    }).then(function () { button.disabled = false; });
  });
})();
