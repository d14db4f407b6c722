"""The ratings, rankings, player and head-to-head pages at 390 px, in a real browser:
nothing wider than the screen, the ratings filter usable with the keyboard alone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ratings.services.ratings import ratings_update
from tests.browser.conftest import screenshot
from tests.ratings.conftest import World
from tournaments.models import League
from tournaments.services.rankings import league_set_ranking
from tournaments.services.standings import standings_recompute


@pytest.fixture
def season(transactional_db, settings):
    # the rating pages of a club install where every league is rated (tests/ratings)
    settings.RATED_LEAGUES = "all"
    world = World()
    cup = world.league(format="3T", name="Cup A")
    for order in (["ann", "bob", "cid"], ["ann", "cid", "bob"], ["bob", "ann", "cid"]) * 4:
        world.play(cup, order)
    duo = world.league(format="2T", name="Duo")
    for order in (["ann", "dee"], ["dee", "bob"], ["cid", "dee"]):
        world.play(duo, order)
    standings_recompute(cup.pk)
    league_set_ranking(league=cup, by=world.organizer, level=2, world_championship=True)
    League.objects.filter(pk=cup.pk).update(status=League.Status.FINISHED)
    ratings_update()
    return world


PAGES = [
    ("ratings-390", "/ratings/"),
    ("rankings-390", "/rankings/"),
    ("player-ratings-390", "/players/ann/"),
    ("head-to-head-390", "/players/ann/vs/bob/"),
]


def test_pages_fit_a_phone(browser_page, season):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    for name, url in PAGES:
        page.goto(url)
        expect(page.locator("h1")).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, (url, width)
        screenshot(page, name)
    page.goto("/players/ann/")
    chart = page.locator(".rating-chart svg")
    expect(chart).to_be_visible()
    assert chart.bounding_box()["width"] <= 390


def test_ratings_filter_with_the_keyboard(browser_page, season):
    page = browser_page
    page.goto("/ratings/")
    page.locator("#rating-format").focus()
    page.keyboard.press("ArrowDown")  # "any" → the first format, 2T
    expect(page.locator("#rating-format")).to_have_value("2T")
    page.keyboard.press("Tab")  # board
    page.keyboard.press("Tab")  # active
    page.keyboard.press("Tab")  # the Filter button
    expect(page.locator("form.filter button[type=submit]")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url("**/ratings/?format=2T*")
    names = page.locator("tbody th a").all_inner_texts()
    assert sorted(names) == ["ann", "bob", "cid", "dee"]
    page.goto("/ratings/?format=3T")
    assert sorted(page.locator("tbody th a").all_inner_texts()) == ["ann", "bob", "cid"]
