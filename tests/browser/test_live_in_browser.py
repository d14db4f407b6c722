"""Live play in Chromium against a real ASGI server (Daphne, Redis channel layer): two
people in two browser contexts and two computer seats play a game to the end by clicking;
a short turn timer runs out and the server moves; one player closes the page, the computer
takes over, they come back and take the seat again; a spectator sees every move; the log
validates and equals what the pages showed."""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.engine import validate
from live import services
from live.models import Room, RoomEvent
from tests.browser.conftest import screenshot
from tests.celery_worker import database_url_of_test_db
from tests.live.servers import Daphne, session_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live_servers]


@pytest.fixture
def server(transactional_db):
    daphne = Daphne(database_url=database_url_of_test_db(), env={"DEBUG": "1"})
    try:
        yield daphne.wait_ready()
    finally:
        daphne.stop()


def _page(chromium, server, user=None, width=1280):
    context = chromium.new_context(
        viewport={"width": width, "height": 900}, locale="en-GB", base_url=server.url
    )
    if user is not None:
        name, value = session_cookie(user).split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    return page


def _history(page) -> list[dict]:
    return [
        json.loads(x)
        for x in page.eval_on_selector_all(
            "[data-history] li", "els => els.map(e => e.dataset.event)"
        )
    ]


def _click_if_my_turn(page) -> bool:
    buttons = page.locator("#live-room.my-turn [data-moves] button.live-move:not([disabled])")
    if buttons.count() == 0:
        return False
    try:
        buttons.last.click(timeout=2000)
    except Exception:
        return False  # the state moved on under the click (the timer, a reconnect)
    return True


def _timer_diagnosis(room) -> str:
    """What the room did instead of running ann's timer out (for a failure message)."""
    room.refresh_from_db()
    by = list(RoomEvent.objects.filter(room=room).order_by("number").values_list("by", flat=True))
    seats = list(room.seats.values_list("colour", "kind", "user__username"))
    return (
        f"the timer never ran out: room {room.status}, {room.move_number} rolls, "
        f"deadline {room.turn_deadline}, seats {seats}, last moves by {by[-30:]}"
    )


#: a page's WebSocket cannot open until the test sets ``window.__letIn``: until then each
#: socket stays connecting (a slow server, a slow network), then it closes and the page
#: reconnects for real
_SOCKET_HELD_BACK = """
(() => {
  const Real = window.WebSocket;
  window.__letIn = false;
  window.WebSocket = function (url, protocols) {
    if (window.__letIn) return new Real(url, protocols);
    const held = { readyState: 0, send() { throw new Error("not open"); }, close() {} };
    const wait = setInterval(() => {
      if (!window.__letIn) return;
      clearInterval(wait);
      held.readyState = 3;
      if (held.onclose) held.onclose({ code: 1006 });
    }, 50);
    return held;
  };
})();
"""


def test_a_seat_taken_before_the_socket_opens_is_not_lost(chromium, server):
    """The page draws its seats from the state it was served with, before its WebSocket
    opens: a "Take your seat back" clicked then used to be dropped without a word (the
    seat stayed the computer's). Until the socket is open the buttons are disabled; once
    it opens, the click takes the seat."""
    User = get_user_model()
    ann, ben = User.objects.create_user("ann"), User.objects.create_user("ben")
    room = services.room_create(host=ann, rules="online", turn_seconds=0)
    services.seat_take(room=room, by=ann, colour="red")
    services.seat_take(room=room, by=ben, colour="yellow")
    services.seat_leave(room=room, by=ben)
    pb = _page(chromium, server, ben)
    pb.context.add_init_script(_SOCKET_HELD_BACK)
    pb.goto(f"/live/{room.token}/")
    take_back = pb.locator('[data-take="yellow"]')
    expect(take_back).to_have_text("Take your seat back")
    assert pb.locator("#live-room").get_attribute("data-connected") != "1"
    expect(take_back).to_be_disabled()
    take_back.click(force=True)  # what a person's click does then: nothing, visibly
    pb.evaluate("window.__letIn = true")
    expect(pb.locator("#live-room")).to_have_attribute("data-connected", "1")
    take_back.click()
    expect(pb.locator('[data-seat-colour="yellow"]')).to_contain_text("ben")
    assert room.seats.get(colour="yellow").user == ben
    assert not pb.js_errors, pb.js_errors
    pb.context.close()


def test_two_people_two_computers_a_timer_a_takeover_and_a_spectator(chromium, server):
    User = get_user_model()
    ann, ben = User.objects.create_user("ann"), User.objects.create_user("ben")
    room = services.room_create(host=ann, rules="online", turn_seconds=2)
    url = f"/live/{room.token}/"
    pa, pb = _page(chromium, server, ann), _page(chromium, server, ben)
    watcher = _page(chromium, server, None, width=390)
    for p in (pa, pb, watcher):
        p.goto(url)
        expect(p.locator("#live-room")).to_have_attribute("data-connected", "1")
    pa.locator('[data-take="red"]').click()
    expect(pa.locator('[data-seat-colour="red"]')).to_contain_text("ann")
    pb.locator('[data-take="yellow"]').click()
    expect(watcher.locator('[data-seat-colour="yellow"]')).to_contain_text("ben")
    pa.locator("[data-start]").click()
    expect(watcher.locator("#live-room")).to_have_attribute("data-status", "playing")

    clicks = {"ann": 0, "ben": 0}
    deadline = time.monotonic() + 60
    while clicks["ann"] < 3 or clicks["ben"] < 3:  # both play by clicking (and the keyboard)
        assert time.monotonic() < deadline, clicks
        if _click_if_my_turn(pa):
            clicks["ann"] += 1
        if clicks["ben"] == 1 and pb.locator("#live-room.my-turn button.live-move").count():
            pb.locator("#live-room").focus()
            pb.keyboard.press("2")
            pb.keyboard.press("Enter")  # the keyboard: number key, then Enter
            clicks["ben"] += 1
        elif _click_if_my_turn(pb):
            clicks["ben"] += 1
        time.sleep(0.05)
    screenshot(watcher, "live-spectator-390")
    screenshot(pa, "live-player")
    # the keys' help is for the people who play, not for a spectator
    expect(pa.locator("[data-kbd-help]")).to_be_visible()
    expect(watcher.locator("[data-kbd-help]")).to_be_hidden()

    # ann lets her timer run out: the server moves for her and the pages say so
    deadline = time.monotonic() + 60
    while not RoomEvent.objects.filter(room=room, by="timeout").exists():
        assert time.monotonic() < deadline, _timer_diagnosis(room)
        _click_if_my_turn(pb)
        time.sleep(0.05)
    expect(pa.locator("[data-history]")).to_contain_text("time ran out")

    # ben closes his page: after the grace period the computer plays yellow
    pb.context.close()
    expect(watcher.locator('[data-seat-colour="yellow"]')).to_contain_text("computer")
    pb = _page(chromium, server, ben)
    pb.goto(url)
    take_back = pb.locator('[data-take="yellow"]')
    expect(take_back).to_have_text("Take your seat back")
    take_back.click()
    expect(watcher.locator('[data-seat-colour="yellow"]')).to_contain_text("ben")

    # play on to the end by clicking
    deadline = time.monotonic() + 240
    while watcher.locator("#live-room").get_attribute("data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        _click_if_my_turn(pa)
        _click_if_my_turn(pb)
        time.sleep(0.03)
    room.refresh_from_db()
    expect(watcher.locator("[data-end]")).to_be_visible()
    screenshot(watcher, "live-finished-390")
    log = json.loads(watcher.request.get(f"/live/{room.token}/log.json").text())
    verdict = validate(log)
    assert verdict["valid"] and verdict["complete"], verdict
    assert verdict["events"] == room.move_number
    by = set(RoomEvent.objects.filter(room=room).values_list("by", flat=True))
    assert {"player", "computer", "timeout"} <= by
    for p in (watcher, pa, pb):  # every page showed exactly the log
        expect(p.locator("[data-history] li")).to_have_count(room.move_number)
        assert _history(p) == log["events"]
        assert not p.js_errors, p.js_errors
    watcher.locator("[data-replay]").click()
    expect(watcher.locator("#replay-viewer.ready")).to_be_visible()
    assert Room.objects.get(pk=room.pk).game_log is not None
    for p in (watcher, pa, pb):
        p.context.close()
