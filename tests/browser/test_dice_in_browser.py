"""The dice card in Chromium (German, 390 px): while the game is played it shows the
commitment and hides the seed; when the game ends while the page is open, the seed appears
(from the final state); after the end the page checks every roll. No horizontal scrolling,
the explanation opens by keyboard, axe finds nothing serious. Screenshots in
test-artifacts/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine.dice import commitment
from live import services
from live.models import Room
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401 (fixture)
from tests.browser.test_live_room_page_in_browser import (  # noqa: F401 (fixtures)
    _page,
    people,
    scheduled,
    server,
)
from tests.live.conftest import drive

pytestmark = [pytest.mark.browser, pytest.mark.live_servers]


def test_the_dice_card_during_and_after_the_game(chromium, server, people, scheduled, axe_source):  # noqa: F811
    room = services.room_create(host=people[0], strength="random")
    services.room_start(room=room, by=people[0])
    for _ in range(10):
        room.refresh_from_db()
        services.room_step(room_id=room.pk, move_number=room.move_number)
    seed = bytes(Room.objects.get(pk=room.pk).dice_seed)
    page = _page(chromium, server, people[1])
    page.goto(f"/live/{room.token}/")
    card = page.locator("[data-dice-check]")
    expect(card).to_contain_text("Nachweisbar faire Würfel")
    expect(card.locator("[data-dice-commitment]")).to_have_text(commitment(seed))
    expect(card.locator("[data-dice-seed]")).to_have_text("wird nach Spielende offengelegt")
    assert seed.hex() not in page.content()
    screenshot(page, "live-dice-playing-de-390")
    drive(room)  # the final state reaches the open page
    expect(card.locator("[data-dice-seed]")).to_have_text(seed.hex())
    expect(card).to_contain_text("lade die Seite neu")
    services.room_finish(room_id=room.pk)
    page.reload()
    expect(card.locator('[data-dice-verdict="verified"]')).to_contain_text("Würfel geprüft")
    card.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(card.locator("pre")).to_be_visible()
    expect(card).to_contain_text("maedn-dice/1:i")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    card.scroll_into_view_if_needed()
    screenshot(page, "live-dice-verified-de-390")
    assert violations(page, axe_source) == []  # axe: no serious or critical finding
    assert page.js_errors == []
