/* Live play: the room's board, die, turn, timer and legal moves, kept in step with the server
   over a WebSocket (reconnecting on its own; every state message carries the whole position
   and its version, and the page asks for the events its history lacks: "events" since n). The server rolls the dice and decides; this page
   only shows the state and sends the chosen move with the roll number it answers.
   Keys: number keys choose a move, arrows change the choice, Enter plays it. */
(function () {
  "use strict";

  var root = document.getElementById("live-room");
  if (!root) return;
  var B = window.MaednBoard;
  var t = root.dataset;
  var layout = JSON.parse(document.getElementById(t.layout).textContent);
  var state = JSON.parse(document.getElementById(t.state).textContent);
  var me = t.me ? +t.me : null;
  var $ = function (sel) { return root.querySelector(sel); };
  var ui = {
    pawns: $("[data-pawns]"), marks: $("[data-marks]"), pips: $("[data-pips]"),
    dieTitle: $("[data-die-title]"), turn: $("[data-turn]"), timer: $("[data-timer]"),
    moves: $("[data-moves]"), kbdHelp: $("[data-kbd-help]"), last: $("[data-last]"), seats: $("[data-seats]"),
    end: $("[data-end]"), conn: $("[data-connection]"), startWrap: $("[data-start-wrap]")
  };
  var history = document.createElement("ol");
  history.hidden = true;
  history.setAttribute("data-history", "");
  root.appendChild(history);
  var seatsView = layout.seats.map(function (s) { return { css: s.css, symbol: s.symbol, used: true }; });
  var socket = null, retry = 500, selected = 0, ticker = null, closedWhy = "";

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, k) { return values[k]; });
  }
  var trackLength = layout.track.length;
  /* a position relative to its colour, in the words the board and the replay use: yard,
     field A (the start), field 17, house field b */
  function posText(p) {
    if (p === "B" || p < 0) return t.i18nYard;
    if (p === 0) return t.i18nFieldA;
    if (p >= trackLength) return fmt(t.i18nHouseField, { letter: "abcd".charAt(p - trackLength) });
    return fmt(t.i18nField, { number: p });
  }
  /* the person (or computer) at a colour, with the colour: "anna (red)" */
  function whoAt(colour) {
    var s = state.seats[seatIndex(colour)];
    if (!s) return colour;
    var name = s.kind === "computer" ? t.i18nComputer : s.name;
    return name + " (" + colourLabel(colour) + ")";
  }
  function winnerText() {
    if (!state.winner) return "–";
    if (seatIndex(state.winner) >= 0) return whoAt(state.winner); /* a colour that is its own player */
    return state.winner; /* a league game: the player's name */
  }
  function colourLabel(colour) {
    var label = root.querySelector('[data-seat-label="' + seatIndex(colour) + '"]');
    return label ? label.textContent : colour;
  }
  function seatIndex(colour) {
    for (var i = 0; i < state.seats.length; i++) if (state.seats[i].colour === colour) return i;
    return -1;
  }
  function mine(seat) {
    if (seat.kind !== "human") return false;
    if (state.mode === "table") return !!t.host;
    return me !== null && seat.user === me;
  }
  function myTurn() {
    if (state.status !== "playing" || !state.turn) return false;
    var s = state.seats[seatIndex(state.turn)];
    return !!s && mine(s);
  }

  /* Whether the socket is open. The page draws its buttons from the state it came with,
     before the socket opens (and keeps them while it reconnects): until it is open they are
     disabled, since a click then could not be sent and would be lost without a word. */
  function online() { return !!socket && socket.readyState === 1; }

  var start = root.querySelector("[data-start]");

  function send(message) {
    if (!online()) return false;
    message.room = t.room;
    socket.send(JSON.stringify(message));
    return true;
  }

  var movedFor = -1; /* the roll this page sent its move for */
  function play(k) {
    var m = state.legal[k];
    if (!m || !myTurn() || !online()) return;
    send({ type: "move", move_number: state.move_number, move: [m[0], m[1], m[2]] });
    movedFor = state.move_number;
    ui.moves.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
  }

  function eventText(ev) {
    var label = colourLabel(ev.colour);
    var text = ev.move ? fmt(t.i18nMoved, { colour: label, die: ev.die, from: posText(ev.move[0]), to: posText(ev.move[1]) })
      : fmt(t.i18nRolled, { colour: label, die: ev.die });
    if (ev.by === "timeout") text += " " + t.i18nByTimeout;
    else if (ev.by === "computer") text += " " + t.i18nByComputer;
    return text;
  }

  function addHistory(ev) {
    var li = document.createElement("li");
    var copy = {};
    Object.keys(ev).forEach(function (k) { if (k !== "number" && k !== "by") copy[k] = ev[k]; });
    li.setAttribute("data-n", ev.number);
    li.setAttribute("data-event", JSON.stringify(copy));
    li.textContent = eventText(ev);
    history.appendChild(li);
  }

  function drawBoard() {
    var turnSeat = seatIndex(state.turn);
    var legalFrom = {};
    if (myTurn()) state.legal.forEach(function (m, k) {
      var seat = seatIndex(m[2]);
      var from = m[0] === "B" ? -1 : m[0];
      var key = seat + ":" + from;
      if (!(key in legalFrom)) legalFrom[key] = k;
    });
    var move = null;
    if (state.last && state.last.move) {
      var ls = seatIndex(state.last.pawn_colour || state.last.colour);
      move = { seat: ls, from: state.last.move[0] === "B" ? -1 : state.last.move[0], to: state.last.move[1] };
    }
    B.drawPawns(ui, layout, seatsView, state.positions, move, turnSeat, function (g, seat, pos) {
      var key = seat + ":" + pos;
      if (key in legalFrom) {
        var k = legalFrom[key];
        g.classList.add("legal");
        if (k === selected) g.classList.add("selected");
        g.setAttribute("data-move", k);
        g.addEventListener("click", function () { play(k); });
      }
    });
  }

  function drawMoves() {
    ui.moves.textContent = "";
    if (!myTurn()) return;
    if (state.legal.length === 0) { ui.moves.textContent = t.i18nNoMove; return; }
    if (state.legal.length === 1) { ui.moves.textContent = t.i18nOneMove; return; }
    if (selected >= state.legal.length) selected = 0;
    state.legal.forEach(function (m, k) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "live-move" + (k === selected ? " selected" : "");
      b.setAttribute("aria-pressed", k === selected ? "true" : "false");
      b.setAttribute("data-move", k);
      b.textContent = fmt(t.i18nMove, { n: k + 1, from: posText(m[0]), to: posText(m[1]) });
      b.disabled = !online();
      b.addEventListener("click", function () { play(k); });
      ui.moves.appendChild(b);
    });
  }

  /* The seats are drawn from a plan and redrawn only when the plan changes: a redraw under a
     player's click (a roll arriving between her pressing and releasing "leave") would replace
     the button she pressed, and the click would be lost. One listener on the list answers
     every button in it, whichever drawing made it. */
  var seatsDrawn = null;
  var reservedPlayers = JSON.parse((document.getElementById("reserved-players") || {}).textContent || "{}");
  function seatsPlan() {
    var holdsOne = state.seats.some(mine);
    var plan = { seats: [], leave: null, takeMine: null };
    var myReserved = [];
    state.seats.forEach(function (s) {
      var name = s.kind === "computer" ? t.i18nComputer : s.name;
      if (mine(s)) name += " (" + t.i18nYou + ")";
      var mineOnce = !!s.original && s.original === t.username;
      var heldForOther = !mineOnce && s.held_until && s.held_until > Date.now() / 1000;
      var canTake = s.kind === "computer" && me !== null && state.mode !== "table" &&
        state.status !== "finished" && state.status !== "abandoned" && !heldForOther &&
        (!s.reserved || mineOnce) && (!holdsOne || s.reserved);
      /* a league game waiting for its players: a reserved seat is its player's, not the
         computer's; its player takes all of hers with one button (the server seats her at
         every colour she holds at once) */
      var waitingFor = state.status === "waiting" && s.reserved && s.kind === "computer";
      if (waitingFor) {
        name = mineOnce ? t.i18nReservedYou
          : fmt(t.i18nReservedFor, { player: reservedPlayers[s.colour] || s.original || "" });
        if (mineOnce && me !== null) myReserved.push(colourLabel(s.colour));
        if (mineOnce && me !== null && !plan.takeMine) plan.takeMine = { colour: s.colour };
        canTake = false;
      }
      plan.seats.push({
        colour: s.colour, onTurn: s.colour === state.turn,
        text: colourLabel(s.colour) + ": " + name + " ",
        /* "back" only for a seat she sat in and left (not one merely reserved for her) */
        take: canTake ? (mineOnce && s.left_at ? t.i18nTakeBack : t.i18nTake) : null
      });
    });
    if (plan.takeMine) plan.takeMine.text = myReserved.length > 1
      ? fmt(t.i18nTakeYoursAll, { colours: myReserved.join(", ") }) : t.i18nTakeYours;
    if (holdsOne && state.status !== "finished" && state.mode !== "table") plan.leave = t.i18nLeave;
    plan.online = online();
    return plan;
  }
  function drawSeats() {
    var plan = seatsPlan();
    var key = JSON.stringify(plan);
    if (key === seatsDrawn) return;
    seatsDrawn = key;
    ui.seats.textContent = "";
    plan.seats.forEach(function (s) {
      var li = document.createElement("li");
      li.setAttribute("data-seat-colour", s.colour);
      if (s.onTurn) li.className = "on-turn";
      li.textContent = s.text;
      if (s.take) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "secondary";
        b.setAttribute("data-take", s.colour);
        b.disabled = !plan.online;
        b.textContent = s.take;
        li.appendChild(b);
      }
      ui.seats.appendChild(li);
    });
    if (plan.takeMine) {
      var takeLi = document.createElement("li");
      var tb = document.createElement("button");
      tb.type = "button";
      tb.setAttribute("data-take", plan.takeMine.colour);
      tb.setAttribute("data-take-mine", "");
      tb.disabled = !plan.online;
      tb.textContent = plan.takeMine.text;
      takeLi.appendChild(tb);
      ui.seats.appendChild(takeLi);
    }
    if (plan.leave) {
      var leave = document.createElement("li");
      var lb = document.createElement("button");
      lb.type = "button";
      lb.className = "secondary";
      lb.setAttribute("data-leave", "");
      lb.disabled = !plan.online;
      lb.textContent = plan.leave;
      leave.appendChild(lb);
      ui.seats.appendChild(leave);
    }
  }
  ui.seats.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b || b.disabled) return;
    if (b.hasAttribute("data-leave")) send({ type: "leave" });
    else if (b.hasAttribute("data-take")) send({ type: "take", colour: b.getAttribute("data-take") });
  });

  /* "Players not here yet" (a league game waiting): each player disappears as they sit down */
  var absent = document.querySelector("[data-absent]");
  function drawAbsent() {
    if (!absent) return;
    var seated = {};
    state.seats.forEach(function (s) { if (s.kind === "human" && s.user !== null) seated[s.user] = true; });
    var left = 0;
    absent.querySelectorAll("[data-absent-user]").forEach(function (li) {
      /* the page's own reader is here: her seats ask her to take them */
      var who = li.getAttribute("data-absent-user");
      li.hidden = !!seated[who] || state.status !== "waiting" || (me !== null && +who === me);
      if (!li.hidden) left++;
    });
    absent.hidden = left === 0;
  }

  function drawTimer() {
    clearInterval(ticker);
    ui.timer.textContent = "";
    if (state.status !== "playing" || !state.deadline) return;
    var onTurn = state.seats[seatIndex(state.turn)];
    if (!onTurn || onTurn.kind !== "human" || state.legal.length < 2) return; /* no decision */
    var update = function () {
      var left = Math.max(0, Math.ceil(state.deadline - Date.now() / 1000));
      ui.timer.textContent = fmt(t.i18nSeconds, { s: left });
    };
    update();
    ticker = setInterval(update, 250);
  }

  function render() {
    root.dataset.moveNumber = state.move_number;
    root.dataset.status = state.status;
    root.dataset.turn = state.turn || "";
    B.drawDie(ui, state.status === "playing" ? state.die : (state.last ? state.last.die : 0));
    if (state.status === "waiting") ui.turn.textContent = state.players_reserved ? t.i18nWaitingLeague : t.i18nWaiting;
    else if (state.status === "finished") ui.turn.textContent = fmt(t.i18nOver, { winner: winnerText() });
    else if (state.status === "abandoned") ui.turn.textContent = state.end_reason === "everyone-left" ? t.i18nEveryoneLeft : t.i18nAbandoned;
    else if (!myTurn()) ui.turn.textContent = fmt(t.i18nTurn, { colour: whoAt(state.turn) });
    else ui.turn.textContent = fmt(state.legal.length > 1 ? t.i18nYourTurn : t.i18nYourRoll, { colour: colourLabel(state.turn) });
    root.classList.toggle("my-turn", myTurn());
    if (ui.kbdHelp) ui.kbdHelp.hidden = !(state.status === "playing" && state.seats.some(mine));
    ui.last.textContent = state.last ? eventText(state.last) : "";
    ui.startWrap.hidden = !(state.status === "waiting" && t.host && !state.fixture);
    if (start) start.disabled = !online();
    drawBoard();
    drawMoves();
    drawSeats();
    drawTimer();
    drawAbsent();
    if (state.status === "finished" && state.log_url) {
      ui.end.hidden = false;
      $("[data-replay]").href = state.replay_url;
      $("[data-log]").href = state.log_url;
    }
    drawDice();
    drawResultNote();
  }

  /* what became of a league game (the server words it in every site language) */
  function drawResultNote() {
    var el = $("[data-result-note]");
    if (!el || !state.result_note) return;
    var words = state.result_note.words;
    el.textContent = words[document.documentElement.lang] || words.en;
    el.hidden = false;
  }

  // the dice card (templates/games/_dice_check.html): the seed once the game is over
  function drawDice() {
    var card = document.querySelector("[data-dice-check]");
    if (!card || !state.dice || !state.dice.seed) return;
    var seed = card.querySelector("[data-dice-seed]");
    if (seed.textContent === state.dice.seed) return;
    seed.textContent = state.dice.seed;
    var verdict = card.querySelector('[data-dice-verdict="not-revealed"]');
    if (verdict) verdict.textContent = t.i18nDiceRevealed;
  }

  /* the events the page lacks (a page fresh or back after a gap): it asks for them from the
     first it lacks on; the server's state messages carry the position and its version only */
  var asking = false, askedEventsAt = 0;
  function askEvents() {
    if (asking || history.children.length >= state.move_number) return;
    if (send({ type: "events", since: history.children.length })) {
      asking = true;
      askedEventsAt = Date.now();
    }
  }

  function receive(message) {
    if (message.type === "refused") { ui.conn.textContent = message.error; render(); return; }
    if (message.type === "events") {
      asking = false;
      var added = 0;
      message.events.forEach(function (ev, i) {
        var n = message.since + i;
        if (n === history.children.length) { addHistory(Object.assign({ number: n }, ev)); added++; }
      });
      if (added) askEvents(); /* more of them (an answer carries at most a few hundred) */
      return;
    }
    if (message.type !== "state") return;
    if (message.last && message.move_number < state.move_number) {
      return; /* an older broadcast overtaken by a newer state */
    } else if (message.move_number === state.move_number &&
               (message.seats_version || 0) < (state.seats_version || 0)) {
      return; /* the same roll with the seats as they were before a change already shown */
    } else if (message.last && message.last.number === history.children.length) {
      addHistory(message.last);
    }
    if (message.move_number !== state.move_number) selected = 0;
    state = message;
    ui.conn.textContent = "";
    render();
    askEvents(); /* events missing (a fresh page, a reconnect, a lost broadcast) */
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    ui.conn.textContent = closedWhy || (socket ? t.i18nReconnecting : t.i18nConnecting);
    socket = new WebSocket(scheme + window.location.host + t.ws);
    socket.onopen = function () { retry = 500; closedWhy = ""; asking = false; root.dataset.connected = "1"; render(); };
    socket.onmessage = function (e) { heardAt = Date.now(); askedAt = 0; receive(JSON.parse(e.data)); };
    socket.onclose = function (e) {
      root.dataset.connected = "";
      render();
      /* the server's own close codes (live/consumers.py), said in the page's language */
      if (e.code === 4404) { ui.conn.textContent = t.i18nClosedNotFound; return; }
      closedWhy = ({ 4413: t.i18nClosedTooLarge, 4400: t.i18nClosedTooDeep,
        4429: t.i18nClosedTooMany })[e.code] || "";
      ui.conn.textContent = closedWhy || t.i18nReconnecting;
      /* spread out: after a server goes away, all its pages must not come back in step
         (a reconnect storm in waves); half to one and a half times the doubling wait */
      setTimeout(connect, retry * (0.5 + Math.random()));
      retry = Math.min(5000, retry * 2);
    };
  }

  /* A room where the server should have moved but the page heard nothing (its broadcasts
     lost or stuck: Redis restarting or hung) asks for the state, which the server answers
     without Redis; a server that does not answer that either is reconnected to. A person
     thinking over a choice is silence as it should be. */
  var heardAt = Date.now(), askedAt = 0;
  function someoneThinking() {
    /* this page moved: the silence is the server's (its move's broadcast lost), not a
       person thinking — else it would wait out the whole turn timer */
    if (movedFor === state.move_number) return false;
    var s = state.seats[seatIndex(state.turn)];
    if (!s || s.kind !== "human" || state.legal.length < 2) return false;
    return !state.deadline || state.deadline > Date.now() / 1000 - 2;
  }
  setInterval(function () {
    /* a request for events not answered (dropped: the network's address over its budget,
       docs/live.md "Per address"): asked again */
    if (asking && online() && Date.now() - askedEventsAt > 5000) { asking = false; askEvents(); }
    if (!online() || state.status !== "playing") return;
    if (askedAt && Date.now() - askedAt > 5000) {
      ui.conn.textContent = t.i18nReconnecting;
      socket.close(); /* onclose reconnects */
      return;
    }
    if (!askedAt && Date.now() - heardAt > 6000 && !someoneThinking()) {
      if (send({ type: "state" })) askedAt = Date.now();
    }
  }, 2000);

  if (start) start.addEventListener("click", function () { send({ type: "start" }); });
  root.addEventListener("keydown", function (e) {
    if (!myTurn() || state.legal.length < 2) return;
    var tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    var handled = true;
    if (/^[1-9]$/.test(e.key) && +e.key <= state.legal.length) selected = +e.key - 1;
    else if (e.key === "ArrowRight" || e.key === "ArrowDown") selected = (selected + 1) % state.legal.length;
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") selected = (selected + state.legal.length - 1) % state.legal.length;
    else if (e.key === "Enter" && tag !== "BUTTON") play(selected);
    else handled = false;
    if (handled) {
      e.preventDefault();
      drawBoard();
      drawMoves();
      var b = ui.moves.querySelector('[data-move="' + selected + '"]');
      if (b && e.key !== "Enter") b.focus();
    }
  });
  render();
  connect();
})();
