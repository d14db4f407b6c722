"""The results desk in a real browser: an organizer (not staff) resolves a dispute,
forfeits an overdue game and enters a Grand Prix result by hand, with the keyboard where
it matters, at desktop width and at 390 px. Screenshots: test-artifacts/screenshots/desk-*."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.browser.conftest import screenshot
from tests.builders import make_fixture, make_league, make_player, make_user
from tournaments.models import Entry, Player, Result
from tournaments.services.results import result_dispute, result_report

pytestmark = pytest.mark.browser


@pytest.fixture
def season(transactional_db):
    org = make_user("olga")
    erin_u, carol_u = make_user("erin_u"), make_user("carol_u")
    league = make_league(org, "spring-league", name="Spring League")
    erin = Entry.objects.create(
        league=league,
        player=Player.objects.create(
            name="Erin Wilhelmina Oberhausen-Schwarzenberg", slug="erin-w", user=erin_u
        ),
    )
    carol = Entry.objects.create(league=league, player=make_player("carol", carol_u))
    seats = [(erin, ["black", "yellow"]), (carol, ["green", "red"])]
    disputed = make_fixture(league, seats, "black", label="G1")
    overdue = make_fixture(
        league,
        seats,
        "black",
        label="G2",
        number=2,
        scheduled_at=timezone.now() - timedelta(days=1),
    )
    pending = result_report(fixture=disputed, by=erin_u, winner=erin)
    result_dispute(result=pending, by=carol_u, reason="carol finished both colours first")
    gp = make_league(org, "gp-cup", format="GP", name="GP Cup")
    anna = Entry.objects.create(league=gp, player=make_player("anna"))
    bert = Entry.objects.create(league=gp, player=make_player("bert"))
    gp_game = make_fixture(gp, [(anna, ["black", "green"]), (bert, ["yellow", "red"])], "black")
    return {
        "org": org,
        "league": league,
        "disputed": disputed,
        "overdue": overdue,
        "gp": gp,
        "gp_game": gp_game,
        "carol": carol,
    }


def test_organizer_works_the_desk(browser_page, login, season):
    page = browser_page
    login(season["org"])
    page.goto(f"/leagues/{season['league'].slug}/")
    page.get_by_role("link", name="Results desk").first.click()
    page.wait_for_url("**/desk/")
    screenshot(page, "desk-1-overview")

    # resolve the dispute: reject the reported result, with a note (keyboard only)
    dispute = page.locator("#disputed article").first
    dispute.get_by_label("reject: the result is void").focus()
    page.keyboard.press("Space")
    dispute.get_by_label("Note").fill("carol's claim checked against the score sheet")
    dispute.get_by_role("button", name="Decide").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_selector("text=The result is decided.")
    assert "No disputes." in page.locator("#disputed").inner_text()
    screenshot(page, "desk-2-dispute-resolved")
    assert Result.objects.get(fixture=season["disputed"]).state == "rejected"

    # forfeit the overdue game from the game page's organizer actions
    page.locator("#overdue").get_by_role("link", name="forfeit…").click()
    actions = page.locator("#organizer-actions")
    actions.get_by_label("carol").check()
    actions.get_by_label("Reason").fill("carol did not answer for two weeks")
    actions.get_by_role("button", name="Record the forfeit").click()
    page.wait_for_selector("text=The forfeit is recorded.")
    assert "carol did not answer for two weeks" in page.locator("#history").inner_text()
    screenshot(page, "desk-3-forfeit-history")
    forfeit = Result.objects.get(fixture=season["overdue"], state="confirmed")
    assert forfeit.forfeit_loser_id == season["carol"].pk

    # a GP result by hand at 390 px
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/games/{season['gp_game'].pk}/enter/")
    for colour, place in (("black", "2"), ("yellow", "1"), ("green", "3"), ("red", "4")):
        page.locator(f"select[name=colour_{colour}]").select_option(place)
    page.get_by_label("Reason").fill("paper score sheet")
    screenshot(page, "desk-4-gp-entry-390")
    page.get_by_role("button", name="Enter the result").click()
    page.wait_for_selector("text=The result is entered and counts.")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide at 390px"
    screenshot(page, "desk-5-gp-game-390")
    result = Result.objects.get(fixture=season["gp_game"])
    assert len(result.colour_places) == 4 and result.state == "confirmed"

    page.goto(f"/leagues/{season['league'].slug}/desk/")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the desk is {width}px wide at 390px"
    screenshot(page, "desk-6-desk-390")

    # the same desk in German (at 390 px the language switch is in the header's menu)
    page.get_by_role("button", name="Menu").click()
    page.select_option("#language-select", "de")
    page.get_by_role("button", name="Switch").click()
    page.wait_for_selector("text=Ergebnisschalter")
    screenshot(page, "desk-7-desk-de-390")
    page.goto(f"/games/{season['gp_game'].pk}/")
    assert "Verlauf" in page.content() or "History" not in page.content()
    screenshot(page, "desk-8-gp-game-de-390")
