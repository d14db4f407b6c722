"""The room page in Chromium (German, 390 px): the room's settings; move buttons in the
board's own words; a league game's "Players not here yet" follows the seats and offers the
no-show only to organizers, never beside one's own name; the end line names a person; the
live replay names who sat at each colour. Screenshots in test-artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from live import services
from live.models import Room
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401 (fixture)
from tests.celery_worker import database_url_of_test_db
from tests.live.conftest import drive, play_until
from tests.live.servers import Daphne, session_cookie
from tests.live.test_live_services import _human_room

pytestmark = [pytest.mark.browser, pytest.mark.live_servers]


@pytest.fixture
def people(transactional_db):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return [User.objects.create_user(f"person{i}", password="pw-long-enough-1") for i in range(4)]


@pytest.fixture
def scheduled(monkeypatch):
    """Steps this test process would schedule are recorded, not run (the test drives)."""
    calls: list = []
    monkeypatch.setattr("live.services.timers.later", lambda *a: calls.append(a))
    return calls


@pytest.fixture
def server(transactional_db):
    daphne = Daphne(database_url=database_url_of_test_db(), env={"DEBUG": "1"})
    try:
        yield daphne.wait_ready()
    finally:
        daphne.stop()


def _page(chromium, server, user=None, width=390):
    context = chromium.new_context(
        viewport={"width": width, "height": 900}, locale="de-DE", base_url=server.url
    )
    context.add_cookies([{"name": "django_language", "value": "de", "url": server.url}])
    if user is not None:
        name, value = session_cookie(user).split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    return page


def test_a_players_turn_in_german_at_390_px(chromium, server, people, scheduled):
    room, game = _human_room(people, scheduled)
    page = _page(chromium, server, people[0])
    page.goto(f"/live/{room.token}/")
    expect(page.locator("#live-room")).to_have_attribute("data-connected", "1")
    settings = page.locator("[data-settings]")
    expect(settings).to_contain_text("Gastgeber")
    expect(settings).to_contain_text("person0")
    expect(settings).to_contain_text("60 s je Entscheidung")
    buttons = page.locator("[data-moves] button.live-move")
    expect(buttons.first).to_be_visible()
    texts = buttons.all_inner_texts()
    assert len(texts) == len(game.legal_moves(room.die)) >= 2
    for text in texts:  # the board's words, never bare relative numbers
        assert not re.search(r":\s*\d+ → \d+$", text), text
        assert re.search(r"feld|haus", text, re.IGNORECASE), text  # "Zielfeld c" too
    expect(page.locator(".step-count[data-turn]")).to_contain_text("wähle einen Zug")
    # the event lines and every line with a placeholder are German too
    root = page.locator("#live-room")
    assert "würfelt" in root.get_attribute("data-i18n-rolled")
    assert root.get_attribute("data-i18n-over").startswith("Das Spiel ist vorbei")
    # the seats name people and colours, the colours distinguishable at 390 px
    labels = page.eval_on_selector_all("[data-seat-label]", "els => els.map(e => e.textContent)")
    assert len(set(labels)) == len(labels), labels
    screenshot(page, "live-room-turn-de-390")
    # each name is drawn whole in one place (a German "60,5" coordinate was an SVG list that
    # scattered the letters, leaving "g" and "g" for gelb and grün)
    xs = page.eval_on_selector_all("[data-seat-label]", "els => els.map(e => e.getAttribute('x'))")
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", x) for x in xs), xs
    page.locator("[data-board]").screenshot(
        path=str(screenshot(page, "live-room-turn-de-390").parent / "live-board-de-390.png")
    )
    assert page.js_errors == []


def test_a_league_games_absent_players_follow_the_seats(chromium, server, scheduled):
    from tests.builders import erin_against_carol

    t = erin_against_carol()
    room = services.fixture_room_create(fixture=t["fixture"], by=t["carol"])
    carol = _page(chromium, server, t["carol"])
    carol.goto(f"/live/{room.token}/")
    expect(carol.locator("#live-room")).to_have_attribute("data-connected", "1")
    absent = carol.locator("[data-absent]")
    expect(absent).to_contain_text("erin")
    # a player never sees the organizers' no-show button, least of all beside her own name
    expect(absent.locator("button")).to_have_count(0)
    organizer = _page(chromium, server, t["organizer"], width=1280)
    organizer.goto(f"/live/{room.token}/")
    expect(organizer.locator("[data-absent] button")).to_have_count(2)
    # erin sits down: both pages drop her from the list without a reload
    services.seat_take(room=room, by=t["erin"], colour="black")
    erin_li, carol_li = (f'[data-absent-user="{t[n].pk}"]' for n in ("erin", "carol"))
    expect(carol.locator(erin_li)).to_be_hidden()
    expect(organizer.locator(erin_li)).to_be_hidden()
    # carol is on the page: not "not here yet" on her own page, but on the organizer's
    # until she sits down
    expect(carol.locator(carol_li)).to_be_hidden()
    expect(organizer.locator(carol_li)).to_be_visible()
    # carol's reserved seats say "take", not "take back": she never sat there
    take = carol.locator("[data-take]")
    expect(take.first).to_be_visible()
    assert all("zurück" not in x for x in take.all_inner_texts())
    screenshot(carol, "live-league-waiting-de-390")
    carol.locator('[data-take="red"]').click()
    expect(carol.locator("[data-absent]")).to_be_hidden()
    expect(organizer.locator("[data-absent]")).to_be_hidden()
    assert carol.js_errors == [] and organizer.js_errors == []


@pytest.mark.parametrize("width", [390, 1280])
def test_a_league_games_reserved_seats_are_their_players_and_taken_with_one_button(
    chromium,
    server,
    scheduled,
    axe_source,  # noqa: F811
    width,
):
    """Issue 34, point 15: a league room waiting for its players shows each reserved seat
    as its player's ("reserviert für erin", "für dich reserviert"), never "Computer [take
    this seat]" per colour; its player takes all her seats with one button (by keyboard);
    she is not among the players "not here yet" on her own page; the rules are named in
    German, not by the preset's code "league"."""
    from tests.builders import erin_against_carol, make_user

    t = erin_against_carol()
    room = services.fixture_room_create(fixture=t["fixture"], by=t["carol"])
    carol = _page(chromium, server, t["carol"], width=width)
    stranger = _page(chromium, server, make_user("stranger"), width=width)
    for page in (carol, stranger):
        page.goto(f"/live/{room.token}/")
        expect(page.locator("#live-room")).to_have_attribute("data-connected", "1")
    seats = carol.locator("[data-seats]")
    expect(seats.locator('[data-seat-colour="red"]')).to_have_text("rot: für dich reserviert")
    expect(seats.locator('[data-seat-colour="green"]')).to_have_text("grün: für dich reserviert")
    expect(seats.locator('[data-seat-colour="black"]')).to_have_text("schwarz: reserviert für erin")
    expect(seats.locator('[data-seat-colour="yellow"]')).to_have_text("gelb: reserviert für erin")
    expect(seats).not_to_contain_text("Computer")
    take = carol.locator("[data-take]")
    expect(take).to_have_count(1)  # one button for both of her colours
    expect(take).to_have_text("Deine Plätze einnehmen (rot, grün)")
    # not "not here yet" on her own page; erin is
    expect(carol.locator(f'[data-absent-user="{t["carol"].pk}"]')).to_be_hidden()
    expect(carol.locator(f'[data-absent-user="{t["erin"].pk}"]')).to_be_visible()
    # the rules in German, not the preset's code
    rules = carol.locator("[data-settings] [data-rules]")
    expect(rules).to_contain_text("Ligaregeln")
    assert not re.search(r"\bleague\b", rules.inner_text())
    # a stranger sees whose seats they are and may take none
    expect(stranger.locator('[data-seat-colour="red"]')).to_have_text("rot: reserviert für carol")
    expect(stranger.locator("[data-take]")).to_have_count(0)
    assert violations(carol, axe_source) == []
    screenshot(carol, f"live-league-reserved-de-{width}")
    # by keyboard: both of her seats at once
    take.focus()
    carol.keyboard.press("Enter")
    for colour in ("red", "green"):
        expect(seats.locator(f'[data-seat-colour="{colour}"]')).to_have_text(
            re.compile(r": carol_u \(du\)")
        )
    expect(carol.locator("[data-take]")).to_have_count(0)
    expect(stranger.locator('[data-seat-colour="green"]')).to_contain_text("carol_u")
    expect(stranger.locator('[data-seat-colour="black"]')).to_have_text(
        "schwarz: reserviert für erin"
    )
    seated = room.seats.filter(kind="human").values_list("colour", flat=True)
    assert sorted(seated) == ["green", "red"]
    assert carol.js_errors == [] and stranger.js_errors == []


def test_the_end_line_and_the_replay_name_the_people(chromium, server, people, scheduled):
    room = services.room_create(host=people[0], mode="computer", variant="quick", strength="random")
    services.room_start(room=room, by=people[0])
    room.seats.filter(colour="red").update(kind="computer", user=None)
    drive(room)
    room.refresh_from_db()
    services.room_finish(room_id=room.pk)
    assert room.status == Room.Status.FINISHED
    page = _page(chromium, server, people[0])
    page.goto(f"/live/{room.token}/")
    turn = page.locator(".step-count[data-turn]")
    expect(turn).to_contain_text("Das Spiel ist vorbei. Sieger: Computer (")
    screenshot(page, "live-room-over-de-390")
    page.goto(f"/live/{room.token}/replay/")
    body = page.locator("main")
    expect(body).to_contain_text("Computer")
    expect(body).not_to_contain_text("(eigener Spieler)")
    screenshot(page, "live-replay-names-de-390")
    assert page.js_errors == []


@pytest.mark.parametrize("width", [390, 1280])
def test_a_german_room_shows_the_servers_lines_and_refusals_in_german(
    chromium, server, people, scheduled, monkeypatch, width
):
    room, game = _human_room(people, scheduled)
    page = _page(chromium, server, people[2], width=width)
    page.goto(f"/live/{room.token}/")
    root = page.locator("#live-room")
    expect(root).to_have_attribute("data-connected", "1")
    assert root.get_attribute("data-ws").endswith("?lang=de")
    # a move reaches the page: its event line and the turn line in German
    move = game.legal_moves(room.die)[0]
    services.move_play(
        room_id=room.pk,
        by=people[0],
        move_number=room.move_number,
        choice=[move.from_, move.to, move.pawn_colour],
    )
    expect(page.locator("[data-last]")).to_contain_text("würfelt")
    expect(page.locator(".step-count[data-turn]")).to_contain_text(re.compile(r"am Zug|Sieger"))
    # a refusal from the server, in German: the green seat is taken by someone else while
    # this page still offers it (its broadcast held back)
    monkeypatch.setattr("live.dispatch.group_send", lambda *a, **k: None)
    services.seat_take(room=room, by=people[3], colour="green")
    page.locator('[data-take="green"]').click()
    conn = page.locator("[data-connection]")
    expect(conn).to_have_text("der Platz „grün“ ist besetzt")
    screenshot(page, f"live-room-refused-de-{width}")
    for english in ("seat is taken", "rolled", "to move", "turn"):
        assert english not in page.locator("main").inner_text(), english
    assert page.js_errors == []


def test_a_league_game_both_players_leave_in_the_browser_and_nothing_counts(chromium, server):
    """Issue 23 points 6 and 7 in the browser: a player who leaves sees "take your seat
    back", a stranger is offered none of the reserved seats; when both have left the page
    says the game does not count, and no result is recorded."""
    from tests.builders import erin_against_carol, make_user
    from tournaments.models import Result

    t = erin_against_carol()
    room = services.fixture_room_create(fixture=t["fixture"], by=t["carol"])
    erin, carol = _page(chromium, server, t["erin"]), _page(chromium, server, t["carol"])
    stranger = _page(chromium, server, make_user("stranger"), width=1280)
    for page, colour in ((erin, "black"), (carol, "red")):
        page.goto(f"/live/{room.token}/")
        expect(page.locator("#live-room")).to_have_attribute("data-connected", "1")
        page.locator(f'[data-take="{colour}"]').click()
    stranger.goto(f"/live/{room.token}/")
    for page in (erin, carol, stranger):
        expect(page.locator("#live-room")).to_have_attribute("data-status", "playing")

    erin.locator("[data-leave]").click()
    # her seats are held for her: she may take them back, the stranger none of them
    expect(erin.locator('[data-take="black"]')).to_have_text("Deinen Platz zurücknehmen")
    expect(stranger.locator('[data-seat-colour="black"]')).to_contain_text("Computer")
    expect(stranger.locator("[data-take]")).to_have_count(0)
    expect(carol.locator("[data-take]")).to_have_count(0)
    screenshot(erin, "live-league-left-de-390")

    # carol's page has drawn erin's leaving before she leaves (no redraw under her click)
    expect(carol.locator('[data-seat-colour="black"]')).to_contain_text("Computer")
    carol.locator("[data-leave]").click()
    for page in (erin, carol, stranger):
        expect(page.locator("#live-room")).to_have_attribute("data-status", "abandoned")
        expect(page.locator(".step-count[data-turn]")).to_have_text(
            "Alle Spieler sind gegangen: das Spiel zählt nicht."
        )
        expect(page.locator("[data-take]")).to_have_count(0)
    screenshot(carol, "live-league-everyone-left-de-390")
    screenshot(stranger, "live-league-everyone-left-de-1280")
    room.refresh_from_db()
    assert room.status == Room.Status.ABANDONED and room.game_log_id is None
    assert not Result.objects.filter(fixture=t["fixture"]).exists()
    assert erin.js_errors == [] and carol.js_errors == [] and stranger.js_errors == []


def _red_with_one_move(people):
    """A room where person0 holds red and red is on turn with exactly one legal move."""
    for _ in range(100):
        room = services.room_create(host=people[0], mode="online", turn_seconds=60)
        services.seat_take(room=room, by=people[0], colour="red")
        services.room_start(room=room, by=people[0])
        found = play_until(room, lambda game, legal: game.turn == "red" and len(legal) == 1)
        if found is not None:
            return found
    raise AssertionError("no position with one move for red")


def test_one_legal_move_is_said_once_and_never_asks_for_a_choice(chromium, people, scheduled):
    """Issue 23 point 8: no "your turn: choose a move" beside "only one move: it is made
    for you". The server's own sweep is held off (LIVE_SWEEP_AFTER) so the position stays."""
    room = _red_with_one_move(people)
    daphne = Daphne(
        database_url=database_url_of_test_db(), env={"DEBUG": "1", "LIVE_SWEEP_AFTER": "600"}
    )
    try:
        page = _page(chromium, daphne.wait_ready(), people[0])
        page.goto(f"/live/{room.token}/")
        expect(page.locator("#live-room")).to_have_attribute("data-connected", "1")
        expect(page.locator(".step-count[data-turn]")).to_have_text("Du bist am Zug (rot)")
        moves = page.locator("[data-moves]")
        expect(moves).to_have_text("Nur ein Zug möglich: er wird für dich gemacht.")
        expect(page.locator("[data-moves] button")).to_have_count(0)
        assert "wähle einen Zug" not in page.locator("#live-room").inner_text()
        screenshot(page, "live-room-one-move-de-390")
        assert page.js_errors == []
    finally:
        daphne.stop()


#: each real socket of the page is kept (``window.__sockets``) with the last state it got
_SOCKETS_KEPT = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = function (url, protocols) {
    const socket = new Real(url, protocols);
    socket.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "state") window.__lastState = m;
    });
    window.__sockets.push(socket);
    return socket;
  };
})();
"""


def test_a_state_with_the_seats_before_a_change_is_not_shown_after_it(
    chromium, server, people, scheduled
):
    """Two broadcasts of one roll can arrive out of order (a step's and a seat change's):
    the page keeps the newer seats (``seats_version``), not the last message to arrive."""
    room = services.room_create(host=people[0], mode="online", turn_seconds=60)
    page = _page(chromium, server, people[1])
    page.context.add_init_script(_SOCKETS_KEPT)
    page.goto(f"/live/{room.token}/")
    expect(page.locator("#live-room")).to_have_attribute("data-connected", "1")
    before = page.evaluate("window.__lastState")
    services.seat_take(room=room, by=people[2], colour="green")
    green = page.locator('[data-seat-colour="green"]')
    expect(green).to_contain_text("person2")
    after = page.evaluate("window.__lastState")
    assert after["seats_version"] == before["seats_version"] + 1
    assert after["move_number"] == before["move_number"]
    # the older state (green still the computer's) arrives late
    page.evaluate(
        "old => window.__sockets.at(-1).onmessage({ data: JSON.stringify(old) })",
        {**before, "events": None},
    )
    expect(green).to_contain_text("person2")
    # a newer one is shown
    services.seat_leave(room=room, by=people[2])
    expect(green).not_to_contain_text("person2")
    assert page.js_errors == []


#: broadcasts the page would get are dropped while ``window.__deaf`` (lost or stuck in a
#: hung Redis); the one state message after each ``state`` request the page sends still
#: comes through (the server answers those without Redis)
_BROADCASTS_LOST = """
(() => {
  const Real = window.WebSocket;
  window.__deaf = false;
  window.__dropped = 0;
  window.WebSocket = function (url, protocols) {
    const socket = new Real(url, protocols);
    let asked = 0;
    const send = socket.send.bind(socket);
    socket.send = (data) => {
      if (JSON.parse(data).type === "state") asked++;
      send(data);
    };
    let handler = null;
    socket.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (window.__deaf && m.type === "state") {
        if (asked === 0) { window.__dropped++; return; }
        asked--;
      }
      if (handler) handler(e);
    });
    Object.defineProperty(socket, "onmessage", { set(fn) { handler = fn; } });
    return socket;
  };
})();
"""


@pytest.fixture
def server_without_sweep(transactional_db):
    """A server whose sweep leaves the test's rooms alone (the test makes every step)."""
    daphne = Daphne(
        database_url=database_url_of_test_db(), env={"DEBUG": "1", "LIVE_SWEEP_AFTER": "600"}
    )
    try:
        yield daphne.wait_ready()
    finally:
        daphne.stop()


def test_a_page_whose_broadcasts_are_lost_asks_for_the_state_and_catches_up(
    chromium, server_without_sweep, people, scheduled
):
    """Issue 33, point 4: while a hung Redis holds the broadcasts, a page in a room where
    the server should be moving asks for the state itself (answered without Redis), and
    fills in the events it missed."""
    from live.models import Room

    server = server_without_sweep
    room = services.room_create(host=people[0], mode="computer")
    room.seats.update(kind="computer", user=None)
    services.room_start(room=room, by=people[0])
    page = _page(chromium, server, None, width=1280)
    page.context.add_init_script(_BROADCASTS_LOST)
    page.goto(f"/live/{room.token}/")
    expect(page.locator("#live-room")).to_have_attribute("data-connected", "1")
    page.evaluate("window.__deaf = true")
    for _ in range(10):  # the server moves once a second; the page hears none of it
        room.refresh_from_db()
        if room.status != Room.Status.PLAYING:
            break
        services.room_step(room_id=room.pk, move_number=room.move_number)
        page.wait_for_timeout(1000)
    room.refresh_from_db()
    page.wait_for_function(
        "n => +document.getElementById('live-room').dataset.moveNumber === n",
        arg=room.move_number,
        timeout=20_000,
    )

    assert page.evaluate("window.__dropped") > 0  # broadcasts were lost
    history = page.locator("[data-history] li")
    expect(history).to_have_count(room.move_number)  # the events it missed, asked for
    assert page.js_errors == []


def test_a_players_own_move_whose_broadcast_is_lost_is_not_waited_for(
    chromium, server_without_sweep, people, scheduled
):
    """Issue 33's faults: a person moved, and the broadcast of their move was lost (a Redis
    restart or hang). The page used to take the silence for the person thinking over their
    choice (its state still said so, with the turn timer far off) and waited for the whole
    timer; it knows it moved, so it asks for the state and goes on."""
    server = server_without_sweep
    room, _game = _human_room(people, scheduled, seconds=600)
    page = _page(chromium, server, people[0], width=1280)
    page.context.add_init_script(_BROADCASTS_LOST)
    page.goto(f"/live/{room.token}/")
    expect(page.locator("#live-room")).to_have_attribute("data-connected", "1")
    buttons = page.locator("[data-moves] button.live-move")
    expect(buttons.first).to_be_enabled()
    page.evaluate("window.__deaf = true")
    buttons.first.click()  # the server applies it (and moves the computers on)
    page.wait_for_function(
        "n => +document.getElementById('live-room').dataset.moveNumber > n",
        arg=room.move_number,
        timeout=15_000,
    )
    assert page.evaluate("window.__dropped") > 0  # its move's broadcast was lost
    assert page.js_errors == []
