/* The round clock (issue 36): every element with data-ends counts down each second. The
   page says the server's time (data-now) once, so a phone whose clock is wrong still shows
   the desk's time left; the projector replaces its panels and the new clock counts on.
   Without JavaScript the page shows the time left when it was loaded. */
(function () {
  "use strict";
  var skew = null;
  function text(left) {
    var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
    var ss = (s < 10 ? "0" : "") + s;
    if (!h) return m + ":" + ss;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss;
  }
  function tick() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-ends]"), function (el) {
      if (skew === null) skew = (Date.parse(el.getAttribute("data-now")) || Date.now()) - Date.now();
      var left = Math.round((Date.parse(el.getAttribute("data-ends")) - Date.now() - skew) / 1000);
      if (isNaN(left)) return;
      if (left > 0) { el.textContent = text(left); return; }
      el.textContent = el.getAttribute("data-over");
      el.classList.add("is-over");
      el.removeAttribute("data-ends");
    });
  }
  tick();
  setInterval(tick, 1000);
})();
