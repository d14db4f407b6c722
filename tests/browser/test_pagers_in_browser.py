"""The pagers of the long lists and the schedule's parts (issue 31) on a phone (390 px), in
English and German: no wider than the screen, and the keyboard alone moves to the next
page and to another DRR."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_phone_width import LANGUAGES, PHONE, WIDTH_REPORT
from tests.builders import build_site

pytestmark = pytest.mark.browser


@pytest.fixture
def site(transactional_db, monkeypatch):
    from ratings.selectors import ratings
    from tournaments.selectors import leagues

    monkeypatch.setattr(ratings, "RATINGS_PER_PAGE", 5)
    monkeypatch.setattr(leagues, "HOME_LEAGUES_PER_PAGE", 4)
    return build_site(3)


def _tab_to(page, locator, limit: int = 80) -> None:
    """Press Tab until ``locator`` has the focus (the keyboard's way there)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if locator.evaluate("el => el === document.activeElement"):
            return
    raise AssertionError("Tab never reached it")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pagers_fit_a_phone_and_the_keyboard_turns_the_page(chromium, live_server, site, lang):
    context = chromium.new_context(
        viewport=PHONE, locale=LANGUAGES[lang], base_url=live_server.url, is_mobile=True
    )
    page = context.new_page()
    next_label = {"en": "next", "de": "nächste"}[lang]
    try:
        for name, url in {
            "ratings": "/ratings/?format=2T%2B",
            "home": "/",
            "schedule": f"/leagues/{site['big'].slug}/schedule/",
        }.items():
            page.goto(url)
            screenshot(page, f"pager-{name}-{lang}")
            report = page.evaluate(WIDTH_REPORT, PHONE["width"])
            assert report["page"] <= report["viewport"] and not report["wide"], (name, report)
        # ratings: Tab to "next", Enter: page 2, the filter kept
        page.goto("/ratings/?active=120")
        link = page.locator("nav.pager a[rel=next]")
        expect(link).to_contain_text(next_label)
        _tab_to(page, link)
        page.keyboard.press("Enter")
        page.wait_for_url("**page=2**")
        assert "active=120" in page.url
        expect(page.locator("nav.pager [aria-current=page]")).to_contain_text("2")
        # the schedule: the current DRR is marked, the first reached by the keyboard
        page.goto(f"/leagues/{site['big'].slug}/schedule/")
        expect(page.locator("nav.parts [aria-current=page]")).to_contain_text("3")
        first = page.locator("nav.parts a").first
        _tab_to(page, first)
        page.keyboard.press("Enter")
        page.wait_for_url("**part=1**")
        expect(page.locator("nav.parts [aria-current=page]")).to_contain_text("1")
    finally:
        context.close()
