/* The SVG board shared by the replay viewer (replay.js) and live play (live.js): pawns on the
   server-drawn board of games/replay.py board_layout, the move's trail and marks, the die.
   Exposes window.MaednBoard. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";

  function el(name, attrs, text) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function point(layout, seat, pos, yardSlot) {
    var s = layout.seats[seat];
    return pos < 0 ? s.yard[yardSlot % 4] : s.spots[pos];
  }

  /* Draw every pawn of `positions` (per seat, relative positions, -1 = yard) into
     ui.pawns, and the trail and marks of `move` ({seat, from, to, captures, huff}, huff
     relative to `huffSeat`) into ui.marks. `seats[seat]` gives css, symbol and used.
     `decorate(g, seat, pos)` may add classes or handlers to each pawn. */
  function drawPawns(ui, layout, seats, positions, move, huffSeat, decorate) {
    var movedDone = false;
    ui.pawns.textContent = "";
    ui.marks.textContent = "";
    var seen = {};
    positions.forEach(function (pawns, seat) {
      if (!seats[seat] || !seats[seat].used) return;
      var yardSlot = 0;
      pawns.forEach(function (pos) {
        var at = point(layout, seat, pos, pos < 0 ? yardSlot++ : 0);
        var key = at[0] + "," + at[1];
        var moved = !movedDone && move && move.seat === seat && move.to === pos;
        if (moved) movedDone = true;
        var dx = seen[key] ? 5 : 0;
        var g = el("g", {
          "class": "pawn" + (moved ? " moved" : ""),
          transform: "translate(" + (at[0] + dx) + " " + (at[1] - dx) + ")",
          "data-seat": seat,
          "data-pos": pos
        });
        g.appendChild(el("path", { "class": "pawn-shape fill-" + seats[seat].css, d: layout.seats[seat].path }));
        g.appendChild(el("text", { "class": "pawn-letter ink-" + seats[seat].css, y: 0.5 }, seats[seat].symbol));
        if (decorate) decorate(g, seat, pos);
        ui.pawns.appendChild(g);
        seen[key] = true;
      });
    });
    if (!move) return;
    var from = move.from < 0 ? layout.seats[move.seat].yard[0] : layout.seats[move.seat].spots[move.from];
    var to = layout.seats[move.seat].spots[move.to];
    ui.marks.appendChild(el("line", { "class": "trail", x1: from[0], y1: from[1], x2: to[0], y2: to[1] }));
    var r = layout.r + 5;
    if (move.captures !== null && move.captures !== undefined) {
      ui.marks.appendChild(el("circle", { "class": "capture-mark", cx: to[0], cy: to[1], r: r }));
    }
    if (move.huff !== null && move.huff !== undefined && move.huff >= 0) {
      var h = layout.seats[huffSeat].spots[move.huff];
      ui.marks.appendChild(el("circle", { "class": "huff-mark", cx: h[0], cy: h[1], r: r }));
    }
  }

  var PIPS = {
    1: [[30, 30]], 2: [[17, 17], [43, 43]], 3: [[17, 17], [30, 30], [43, 43]],
    4: [[17, 17], [43, 17], [17, 43], [43, 43]],
    5: [[17, 17], [43, 17], [30, 30], [17, 43], [43, 43]],
    6: [[17, 15], [43, 15], [17, 30], [43, 30], [17, 45], [43, 45]]
  };

  function drawDie(ui, value) {
    ui.pips.textContent = "";
    (PIPS[value] || []).forEach(function (p) {
      ui.pips.appendChild(el("circle", { cx: p[0], cy: p[1], r: 5.5 }));
    });
    ui.dieTitle.textContent = value ? String(value) : "–";
  }

  window.MaednBoard = { el: el, point: point, drawPawns: drawPawns, drawDie: drawDie };
})();
