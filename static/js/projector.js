/* The projector (issue 36): shows its panels in turn ("find your table" page by page,
   the round clock, the standings; static/js/clock.js counts the clock down), and polls the
   panels' fragment every 3 s with the ETag it last saw (304 while nothing changed). When
   the network drops, the last state stays on the wall and polling goes on. */
(function () {
  "use strict";
  var main = document.getElementById("main");
  if (!main || !window.fetch) return;
  var url = main.getAttribute("data-panels-url");
  var etag = main.getAttribute("data-etag") || "";
  var PER_PAGE = window.matchMedia("(orientation: portrait)").matches ? 32 : 48;
  var SHOW_SECONDS = 10;
  var step = 0;
  document.body.classList.add("pj-cycling");

  function slides() {
    var out = [];
    Array.prototype.forEach.call(main.querySelectorAll(".pj-panel"), function (panel) {
      var items = panel.querySelectorAll(".pj-seating li");
      var pages = Math.max(1, Math.ceil(items.length / PER_PAGE));
      for (var p = 0; p < pages; p++) out.push({ panel: panel, page: p, items: items });
    });
    return out;
  }

  function show() {
    var all = slides();
    if (!all.length) return;
    var slide = all[step % all.length];
    Array.prototype.forEach.call(main.querySelectorAll(".pj-panel"), function (panel) {
      panel.classList.toggle("is-shown", panel === slide.panel);
    });
    Array.prototype.forEach.call(slide.items, function (li, i) {
      li.hidden = Math.floor(i / PER_PAGE) !== slide.page;
    });
  }

  function poll() {
    var headers = { "X-Requested-With": "fetch" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        document.body.classList.remove("pj-offline");
        if (response.status !== 200) return;
        etag = response.headers.get("ETag") || "";
        return response.text().then(function (html) {
          main.innerHTML = html;
          main.setAttribute("data-etag", etag);
          show();
        });
      })
      .catch(function () { document.body.classList.add("pj-offline"); })
      .then(function () { setTimeout(poll, 3000); });
  }

  show();
  setInterval(function () { step += 1; show(); }, SHOW_SECONDS * 1000);
  setTimeout(poll, 3000);
})();
