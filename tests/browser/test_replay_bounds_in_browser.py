"""/replay/ with a log longer than the page draws (``REPLAY_PAGE_MAX_EVENTS``), in a real
browser: the viewer steps through the drawn events, the page says the whole log was checked
and only the first events are drawn, in English and in German, at 390 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_pages_in_browser import paste
from tests.builders import make_user
from tests.pages.test_replay_bounds import stuck_log


@pytest.fixture
def capped(settings):
    settings.REPLAY_PAGE_MAX_EVENTS = 300
    return stuck_log(1_234)


def test_a_long_log_is_drawn_up_to_the_cap(browser_page, login, capped):
    page = browser_page
    login(make_user("long-replayer"))
    page.goto("/replay/")
    paste(page.locator("#log-content"), capped)
    page.get_by_role("button", name="Check and replay").click()
    viewer = page.locator("#replay-viewer")
    expect(viewer).to_have_class(re.compile(r"\bready\b"))
    expect(page.locator("#replay-cut")).to_contain_text("all 1,234 events")
    expect(page.locator("#replay-cut")).to_contain_text("the first 300")
    viewer.focus()
    page.keyboard.press("End")
    expect(viewer.locator("[data-count]")).to_have_text("Event 300 of 300")
    page.keyboard.press("ArrowLeft")
    expect(viewer.locator("[data-count]")).to_have_text("Event 299 of 300")
    expect(viewer.locator("[data-moves] li")).to_have_count(300)
    screenshot(page, "replay-capped")


def test_the_capped_replay_at_390_px_in_german(chromium, live_server, transactional_db, capped):
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(make_user("schmal"))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", base_url=live_server.url
    )
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto("/replay/")
        paste(page.locator("#log-content"), capped)
        page.get_by_role("button", name="Prüfen und nachspielen").click()
        viewer = page.locator("#replay-viewer")
        expect(viewer).to_have_class(re.compile(r"\bready\b"))
        expect(page.locator("#replay-cut")).to_contain_text("alle 1.234 Ereignisse")
        expect(page.locator("#replay-cut")).to_contain_text("die ersten 300")
        viewer.focus()
        page.keyboard.press("End")
        expect(viewer.locator("[data-count]")).to_have_text("Ereignis 300 von 300")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide at 390px"
        screenshot(page, "replay-capped-390-de")
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"
