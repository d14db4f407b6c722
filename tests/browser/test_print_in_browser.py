"""Printing in Chromium: a round's score sheets make one A4 page per game, and the printed
standings and schedule leave the site's header, forms and buttons out."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_pages_in_browser import data  # noqa: F401  (the shared season)
from tournaments.models import Fixture

pytestmark = pytest.mark.browser


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_round_sheets_print_one_a4_page_per_game(browser_page, data):  # noqa: F811
    page = browser_page
    Fixture.objects.filter(pk=data.g2.pk).update(round=1)  # two games in round 1
    page.goto("/leagues/spring/sheets/?round=1")
    assert page.locator(".score-sheet").count() == 2
    assert page.locator(".score-sheet svg.qr").count() == 2
    pdf = page.pdf(format="A4", print_background=True)
    assert pdf_pages(pdf) == 2
    page.emulate_media(media="print")
    screenshot(page, "print-sheets")
    assert not page.locator("[data-print]").is_visible()


def test_printed_standings_and_schedule_leave_the_chrome_out(browser_page, data):  # noqa: F811
    page = browser_page
    for url, name in (
        ("/leagues/spring/standings/", "standings"),
        ("/leagues/spring/schedule/", "schedule"),
    ):
        page.goto(url)
        page.emulate_media(media="print")
        assert not page.locator(".site-header").is_visible()
        assert (
            not page.locator("main form").first.is_visible()
            if page.locator("main form").count()
            else True
        )
        assert page.locator("table").first.is_visible()
        screenshot(page, f"print-{name}")
        assert pdf_pages(page.pdf(format="A4")) >= 1
        page.emulate_media(media="screen")
