/* The replay viewer: steps through a game log event by event on the server-drawn SVG board.
   Data: the board layout (inline JSON) and the replay steps (fetched JSON, or inline) made by
   games/replay.py from the rules engine's replay. Each step lists only the colours whose
   pawns changed; the viewer rebuilds every position once, so jumping anywhere is instant.
   Operable by buttons, a slider and the keyboard (← → Home End Space C). */
(function () {
  "use strict";

  var root = document.getElementById("replay-viewer");
  if (!root) return;
  var layout = JSON.parse(document.getElementById(root.dataset.layout).textContent);
  var $ = function (sel) { return root.querySelector(sel); };
  var ui = {
    pawns: $("[data-pawns]"), marks: $("[data-marks]"), pips: $("[data-pips]"),
    dieTitle: $("[data-die-title]"), count: $("[data-count]"), tries: $("[data-try]"),
    text: $("[data-text]"), slider: $("[data-slider]"), legend: $("[data-legend]"),
    speed: $("[data-speed]"), play: $('[data-act="play"]')
  };
  var t = root.dataset;
  var data, states, tallies, oneOut = false, index = 0, timer = null;
  /* the move analysis (games/analysis_view.py), when the game has one */
  var analysis = t.analysis ? JSON.parse(document.getElementById(t.analysis).textContent) : null;

  var el = window.MaednBoard.el;

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, k) { return values[k]; });
  }

  /* every position, and per position the pawns home and captures made so far */
  function prepare() {
    var T = data.track_length;
    var current = data.start.map(function (p) { return p.slice(); });
    var caps = data.seats.map(function () { return 0; });
    states = [current];
    tallies = [{ caps: caps.slice() }];
    data.steps.forEach(function (step) {
      current = current.slice();
      Object.keys(step.pawns).forEach(function (seat) { current[+seat] = step.pawns[seat]; });
      if (step.move && step.move.captures !== null) caps[step.seat] += 1;
      states.push(current);
      tallies.push({ caps: caps.slice() });
    });
    tallies.forEach(function (tally, k) {
      tally.home = states[k].map(function (pawns) {
        return pawns.filter(function (p) { return p >= T; }).length;
      });
    });
  }

  function drawPawns(k) {
    var step = k > 0 ? data.steps[k - 1] : null;
    window.MaednBoard.drawPawns(ui, layout, data.seats, states[k], step && step.move, step && step.seat);
  }

  function drawDie(value) { window.MaednBoard.drawDie(ui, value); }

  function drawLegend(k) {
    var turn = k === 0 ? (data.steps.length ? data.steps[0].seat : null) : data.steps[k - 1].turn;
    ui.legend.textContent = "";
    data.seats.forEach(function (s) {
      var tr = document.createElement("tr");
      if (s.seat === turn) tr.className = "on-turn";
      var th = document.createElement("th");
      th.scope = "row";
      var svg = el("svg", { viewBox: "-10 -10 20 20", width: "20", height: "20", "aria-hidden": "true" });
      svg.appendChild(el("path", {
        "class": "pawn-shape fill-" + s.css,
        d: layout.seats[s.seat].path,
        transform: "scale(" + (9 / (layout.r * 0.78)).toFixed(3) + ")",
        "vector-effect": "non-scaling-stroke"
      }));
      svg.appendChild(el("text", { "class": "pawn-letter ink-" + s.css, y: 0.5 }, s.symbol));
      th.appendChild(svg);
      th.appendChild(document.createTextNode(" " + s.label));
      tr.appendChild(th);
      var player = !s.used ? t.i18nUnused : s.neutral ? t.i18nNeutral : s.player || t.i18nOwn;
      [player, s.used ? tallies[k].home[s.seat] : "–", s.used ? tallies[k].caps[s.seat] : "–"]
        .forEach(function (value, i) {
          var td = document.createElement("td");
          if (i) td.className = "num";
          td.textContent = value;
          tr.appendChild(td);
        });
      ui.legend.appendChild(tr);
    });
  }

  function show(k) {
    index = Math.max(0, Math.min(data.steps.length, k));
    var step = index > 0 ? data.steps[index - 1] : null;
    drawPawns(index);
    drawDie(step ? step.die : 0);
    drawLegend(index);
    ui.count.textContent = fmt(t.i18nEvent, { n: index, total: data.steps.length });
    ui.tries.textContent = step && step.try ? fmt(t.i18nTry, { "try": step.try[0], of: step.try[1] }) : "";
    ui.text.textContent = step ? step.text : oneOut ? t.i18nStartOneOut : t.i18nStart;
    ui.slider.value = index;
    ui.slider.setAttribute("aria-valuetext", ui.count.textContent);
    root.querySelector('[data-act="first"]').disabled = index === 0;
    root.querySelector('[data-act="prev"]').disabled = index === 0;
    root.querySelector('[data-act="next"]').disabled = index === data.steps.length;
    root.querySelector('[data-act="last"]').disabled = index === data.steps.length;
    root.dataset.index = index;
    markMove(index);
    if (analysis) showAnalysis(index);
    followStep(index);
    if (index === data.steps.length) stop();
  }

  /* The address follows the step (#step-N, N events played), so a link opens the replay
     there; replaceState keeps the history list clean while stepping. */
  function followStep(k) {
    if (!window.history || !window.history.replaceState) return;
    var url = window.location.pathname + window.location.search + (k ? "#step-" + k : "#replay");
    window.history.replaceState(null, "", url);
  }

  function stepFromAddress() {
    var m = /[#&]step-(\d+)/.exec(window.location.hash) ||
      /[#&]event=(\d+)/.exec(window.location.hash) ||
      /[?&]step=(\d+)/.exec(window.location.search);
    if (m) return +m[1];
    return t.startStep ? +t.startStep : 0;
  }

  /* The move list beside the board: every event, the current one marked. */
  var moveItems = [];
  function buildMoves() {
    var list = root.querySelector("[data-moves]");
    if (!list) return;
    list.textContent = "";
    moveItems = data.steps.map(function (step, i) {
      var li = document.createElement("li");
      var number = document.createElement("span");
      number.className = "move-no";
      number.setAttribute("aria-hidden", "true");
      number.textContent = (i + 1) + ".";
      li.appendChild(number);
      var b = document.createElement("button");
      b.type = "button";
      b.className = "linklike";
      b.textContent = step.text;
      var decision = analysis && analysis.decisions[String(i + 1)];
      if (decision && decision.mark) {
        var mark = document.createElement("span");
        mark.className = "mark mark-" + decision.mark;
        mark.textContent = t["i18n" + decision.mark.charAt(0).toUpperCase() + decision.mark.slice(1)];
        b.appendChild(document.createTextNode(" "));
        b.appendChild(mark);
      }
      b.addEventListener("click", function () { stop(); show(i + 1); });
      li.appendChild(b);
      list.appendChild(li);
      return li;
    });
  }
  function markMove(k) {
    moveItems.forEach(function (li, i) {
      var on = i === k - 1;
      li.classList.toggle("current", on);
      var button = li.querySelector("button");
      if (on) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
    var current = moveItems[k - 1];
    if (current && current.parentNode && current.parentNode.scrollTo) {
      current.parentNode.scrollTop = current.offsetTop - current.parentNode.offsetTop - 40;
    }
  }

  /* The analysis: the graph's cursor follows the replay; the options of the decision made
     at this step (best first, the played one marked, each option's loss against the best in
     milli-wins); a click or a key on the graph jumps the replay to the nearest point. */
  var graph = analysis && root.querySelector("[data-graph]");
  function pct(p) { return (100 * p).toFixed(1) + " %"; }
  /* milli-wins: thousandths of a game (10 mw = 1 percentage point of chance to win) */
  function mw(v) { return Math.round(v) + " mw"; }
  function xOf(k) {
    var left = +graph.dataset.left, right = +graph.dataset.right;
    return left + (right - left) * k / Math.max(1, +graph.dataset.steps);
  }
  function pointAt(k) {
    var best = null;
    analysis.points.forEach(function (pt, i) { if (pt[0] <= k) best = i; });
    return best === null ? 0 : best;
  }
  function showAnalysis(k) {
    if (graph) {
      var cursor = graph.querySelector("[data-cursor]");
      cursor.setAttribute("x1", xOf(k));
      cursor.setAttribute("x2", xOf(k));
      var pt = analysis.points[pointAt(k)];
      graph.setAttribute("aria-valuenow", k);
      if (pt) {
        var chances = analysis.players.map(function (p, i) { return p.name + " " + pct(pt[1][i]); });
        graph.setAttribute("aria-valuetext", fmt(t.i18nPoint, { n: k, chances: chances.join(", ") }));
      }
    }
    var decision = analysis.decisions[String(k)];
    var choice = root.querySelector("[data-choice]"), table = root.querySelector("[data-options-table]");
    var body = root.querySelector("[data-options]");
    if (!choice) return;
    body.textContent = "";
    if (!decision) { choice.textContent = t.i18nNoChoice; table.hidden = true; return; }
    /* the words follow how sure the analysis is: a marked move's loss is clear; an unmarked
       one whose 90 % interval lies above 0 is probably a loss, but not clear enough to mark
       in a game of this many moves; one whose interval reaches 0 is within the model's
       measured error, not a finding (the interval is shown when it lies above 0) */
    var range = decision.interval_mw, sure = decision.mark || !range;
    var words = decision.played === decision.best ? t.i18nChoiceBest :
      (sure ? t.i18nChoice : (range[0] > 0 ? t.i18nChoiceProbable : t.i18nChoiceNoise));
    choice.textContent = fmt(words, {
      player: decision.player, die: decision.die, played: decision.played, best: decision.best,
      loss: mw(decision.loss_mw)
    }) + (decision.mark ? " (" + t["i18n" + decision.mark.charAt(0).toUpperCase() + decision.mark.slice(1)] + ")" : "") +
      (range && decision.played !== decision.best && range[0] > 0 ? " " + fmt(t.i18nChoiceInterval, {
        low: mw(range[0]), high: mw(range[1])
      }) : "");
    decision.options.forEach(function (o) {
      var tr = document.createElement("tr");
      if (o[0] === decision.played) tr.className = "played";
      var th = document.createElement("th");
      th.scope = "row";
      th.textContent = o[0] + (o[0] === decision.played ? " · " + t.i18nPlayed : "") +
        (o[0] === decision.best ? " · " + t.i18nBest : "");
      tr.appendChild(th);
      [pct(o[1]), o[2] > 0 ? "−" + mw(o[2]) : "0"].forEach(function (v) {
        var td = document.createElement("td");
        td.className = "num";
        td.textContent = v;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    table.hidden = false;
  }
  function bindGraph() {
    if (!graph) return;
    graph.addEventListener("click", function (e) {
      var box = graph.getBoundingClientRect();
      var x = (e.clientX - box.left) / box.width * graph.viewBox.baseVal.width;
      var best = 0, gap = Infinity;
      analysis.points.forEach(function (pt, i) {
        var d = Math.abs(xOf(pt[0]) - x);
        if (d < gap) { gap = d; best = i; }
      });
      stop();
      if (analysis.points.length) show(analysis.points[best][0]);
      graph.focus();
    });
    graph.addEventListener("keydown", function (e) {
      var n = analysis.points.length, i = pointAt(index), target = null;
      if (!n) return;
      if (e.key === "ArrowRight" || e.key === "ArrowUp") {
        target = analysis.points[i][0] > index ? i : Math.min(n - 1, i + 1);
      } else if (e.key === "ArrowLeft" || e.key === "ArrowDown") {
        target = analysis.points[i][0] < index ? i : Math.max(0, i - 1);
      } else if (e.key === "Home") target = 0;
      else if (e.key === "End") target = n - 1;
      if (target === null) return;
      e.preventDefault();
      e.stopPropagation();
      stop();
      show(analysis.points[target][0]);
    });
  }

  /* Long player names are shortened on the board; the full name is its tooltip. */
  function shortName(name) {
    return name.length > 14 ? name.slice(0, 13) + "…" : name;
  }

  /* A seat's label is centred under (or over) its yard; near the board's edge a long one
     ("schwarz · Wackernagel-…" in German) would run past the drawing and be cut off. Move
     it inwards so it stays whole, and squeeze it when it is wider than the board. */
  function fitLabel(label) {
    var svg = label.ownerSVGElement;
    if (!svg || !svg.viewBox || !label.getComputedTextLength) return;
    var box = svg.viewBox.baseVal, pad = 4;
    var width = label.getComputedTextLength();
    if (!width) return; /* not drawn (hidden): nothing to measure */
    var room = box.width - 2 * pad;
    if (width > room) {
      label.setAttribute("textLength", room);
      label.setAttribute("lengthAdjust", "spacingAndGlyphs");
      width = room;
    }
    var x = +label.getAttribute("x");
    var low = box.x + pad + width / 2, high = box.x + box.width - pad - width / 2;
    label.setAttribute("x", Math.round(Math.min(high, Math.max(low, x)) * 10) / 10);
  }

  function play() {
    if (index >= data.steps.length) show(0);
    ui.play.setAttribute("aria-pressed", "true");
    ui.play.textContent = "⏸ " + t.i18nPause;
    ui.text.setAttribute("aria-live", "off");
    tick();
  }

  function tick() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      show(index + 1);
      if (index < data.steps.length) tick();
    }, +ui.speed.value);
  }

  function stop() {
    clearTimeout(timer);
    timer = null;
    ui.play.setAttribute("aria-pressed", "false");
    ui.play.textContent = "▶ " + t.i18nPlay;
    ui.text.setAttribute("aria-live", "polite");
  }

  function toggle() { if (timer) stop(); else play(); }

  function nextCapture() {
    for (var k = index; k < data.steps.length; k++) {
      var m = data.steps[k].move;
      if (m && (m.captures !== null || m.huff !== null)) return show(k + 1);
    }
    show(data.steps.length);
  }

  var actions = {
    first: function () { stop(); show(0); },
    prev: function () { stop(); show(index - 1); },
    next: function () { stop(); show(index + 1); },
    last: function () { stop(); show(data.steps.length); },
    play: toggle
  };

  function start(replay) {
    data = replay;
    prepare();
    /* with setup one-out a pawn of every colour starts on its field A */
    oneOut = data.start.some(function (pawns) { return pawns.some(function (p) { return p >= 0; }); });
    data.seats.forEach(function (s) {
      var label = root.querySelector('[data-seat-label="' + s.seat + '"]');
      if (!label) return;
      label.textContent = s.player ? s.label + " · " + shortName(s.player) : s.label;
      if (s.player && s.player.length > 14) {
        var title = document.createElementNS("http://www.w3.org/2000/svg", "title");
        title.textContent = s.label + " · " + s.player;
        label.appendChild(title);
      }
      if (!s.used) label.classList.add("unused");
      fitLabel(label);
    });
    ui.slider.max = data.steps.length;
    ui.slider.disabled = false;
    root.querySelectorAll("[data-act]").forEach(function (b) { b.disabled = false; });
    Object.keys(actions).forEach(function (name) {
      root.querySelector('[data-act="' + name + '"]').addEventListener("click", actions[name]);
    });
    ui.slider.addEventListener("input", function () { stop(); show(+ui.slider.value); });
    ui.speed.addEventListener("change", function () { if (timer) tick(); });
    root.addEventListener("keydown", function (e) {
      var tag = e.target.tagName;
      if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && e.target !== ui.slider)) return;
      if (e.target === ui.slider && /^(Arrow|Home|End|Page)/.test(e.key)) return; /* the slider steps itself */
      var handled = true;
      if (e.key === "ArrowRight" || e.key === "ArrowDown") actions.next();
      else if (e.key === "ArrowLeft" || e.key === "ArrowUp") actions.prev();
      else if (e.key === "Home") actions.first();
      else if (e.key === "End") actions.last();
      else if (e.key === "PageDown") { stop(); show(index + 10); }
      else if (e.key === "PageUp") { stop(); show(index - 10); }
      else if ((e.key === " " || e.key === "k") && tag !== "BUTTON") toggle();
      else if (e.key === "c" || e.key === "C") { stop(); nextCapture(); }
      else handled = false;
      if (handled) e.preventDefault();
    });
    root.classList.add("ready");
    buildMoves();
    bindGraph();
    show(stepFromAddress());
    /* a link to #step-N on the page (the list of marked moves) jumps the replay there */
    window.addEventListener("hashchange", function () {
      var k = stepFromAddress();
      if (k === index) return;
      stop();
      show(k);
      root.scrollIntoView({ block: "start" });
      root.focus({ preventScroll: true });
    });
  }

  function fail() { ui.count.textContent = t.i18nError; }

  if (t.replayUrl) {
    fetch(t.replayUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(start, fail);
  } else {
    start(JSON.parse(document.getElementById(t.replayData).textContent));
  }
})();
