/* Every page: the header's menu button on narrow screens, and the scroll cue of wide tables.
   Without JavaScript the menu is simply always open and tables still scroll. */
(function () {
  "use strict";

  function setUpMenu() {
    var header = document.querySelector(".site-header");
    var button = header && header.querySelector(".menu-toggle");
    var menu = button && document.getElementById(button.getAttribute("aria-controls"));
    if (!menu) return;
    header.classList.add("has-menu-toggle");
    button.hidden = false;
    button.addEventListener("click", function () {
      var open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      header.classList.toggle("menu-open", open);
      if (open) {
        var first = menu.querySelector("a, button, select, input");
        if (first) first.focus();
      }
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && header.classList.contains("menu-open")) {
        button.setAttribute("aria-expanded", "false");
        header.classList.remove("menu-open");
        button.focus();
      }
    });
  }

  /* A table wider than its card scrolls inside it: mark such boxes (a shadow at the edge
     that hides more columns, styled in site.css) and let the keyboard reach them. */
  function markScrollBoxes() {
    document.querySelectorAll(".table-wrap").forEach(function (box) {
      var overflows = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("overflows", overflows);
      box.classList.toggle("at-end", box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
      if (overflows && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        if (!box.hasAttribute("role")) box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label")) {
          var caption = box.querySelector("caption");
          box.setAttribute("aria-label", (caption && caption.textContent.trim()) || document.title);
        }
      }
    });
  }

  // an embed in another site's frame tells its parent its height (auto-height: the host
  // page's script from "Embed on your site" sets the frame's height)
  function reportHeight() {
    if (window.parent === window || !document.documentElement.classList.contains("embed")) return;
    var send = function () {
      window.parent.postMessage(
        { type: "maedn-embed-height", height: document.documentElement.scrollHeight }, "*"
      );
    };
    send();
    if (window.ResizeObserver) new ResizeObserver(send).observe(document.body);
  }

  function setUpCopy() {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      button.addEventListener("click", function () {
        var source = document.getElementById(button.getAttribute("data-copy"));
        var status = button.parentElement.querySelector("[data-copy-status]");
        var done = function () { if (status) status.textContent = button.getAttribute("data-copied"); };
        source.select();
        if (navigator.clipboard) navigator.clipboard.writeText(source.value).then(done, function () {
          document.execCommand("copy"); done();
        });
        else { document.execCommand("copy"); done(); }
      });
    });
  }

  function ready() {
    setUpMenu();
    setUpCopy();
    reportHeight();
    document.querySelectorAll("[data-print]").forEach(function (button) {
      button.addEventListener("click", function () { window.print(); });
    });
    markScrollBoxes();
    document.addEventListener("scroll", function (event) {
      var box = event.target;
      if (box.classList && box.classList.contains("table-wrap")) {
        box.classList.toggle("at-end", box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
      }
    }, true);
    var pending = null;
    window.addEventListener("resize", function () {
      clearTimeout(pending);
      pending = setTimeout(markScrollBoxes, 150);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  window.maednMarkScrollBoxes = markScrollBoxes;
})();
