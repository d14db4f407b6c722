/* The desk's check-in list without reloading: each row's plain form is posted with fetch
   (Accept: application/json); the row's badges and button change in place and the search
   box keeps the focus for the next scan. Without JavaScript the forms post and reload. */
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
    var button = event.submitter || form.querySelector("button[name=action]");
    if (!button) return;
    event.preventDefault();
    var data = new FormData(form);
    data.set("action", button.value);
    button.disabled = true;
    /* not form.action: the button named "action" shadows that property */
    fetch(form.getAttribute("action") || window.location.href, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error(body.error || "error");
        var row = form.closest("[data-entry]");
        var action = button.value;
        var flip = flips[action];
        var name = row.querySelector(".player-name").textContent;
        button.value = flip[0];
        button.innerHTML = "";
        button.appendChild(document.createTextNode(word(flip[1]) + " "));
        var hidden = document.createElement("span");
        hidden.className = "visually-hidden";
        hidden.textContent = name;
        button.appendChild(hidden);
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
      form.submit();  /* let the server say what went wrong, on a page */
    }).then(function () { button.disabled = false; });
  });
})();
