/* Live refresh of a server-rendered fragment (the standings table).
   Polls data-poll-url with the ETag it last saw; the server answers 304 Not Modified (one
   cheap query) until the snapshot changes, then 200 with the new fragment. Pauses while
   the tab is hidden. No library needed. */
(function () {
  "use strict";
  var box = document.querySelector("[data-poll-url]");
  if (!box || !window.fetch) return;
  var url = box.getAttribute("data-poll-url");
  var etag = box.getAttribute("data-etag") || "";
  var seconds = Math.max(2, parseInt(box.getAttribute("data-poll-seconds"), 10) || 15);
  var timer = null;

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(poll, seconds * 1000);
  }

  function poll() {
    if (document.hidden) return schedule();
    var headers = { "X-Requested-With": "fetch" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) {
          etag = response.headers.get("ETag") || "";
          return response.text().then(function (html) {
            box.setAttribute("aria-busy", "true");
            box.innerHTML = html;
            box.setAttribute("data-etag", etag);
            box.setAttribute("aria-busy", "false");
            if (window.maednMarkScrollBoxes) window.maednMarkScrollBoxes();  // site.js
            box.dispatchEvent(new CustomEvent("standings:updated"));
          });
        }
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(schedule);
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) poll();
  });
  schedule();
})();
