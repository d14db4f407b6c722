"""Issue 32 (left over): an admin screen for the rating decisions — a read-only list with
filters; a decision is written only through ``league_rating_decide``."""

from __future__ import annotations

import pytest
from django.test import Client

from ratings.models import LeagueRatingDecision
from ratings.services.rated_leagues import league_rating_decide, league_rating_request
from tests.builders import make_league, make_user

pytestmark = pytest.mark.django_db
URL = "/admin/ratings/leagueratingdecision/"


@pytest.fixture(autouse=True)
def _sanctioned_leagues(settings):
    settings.RATED_LEAGUES = "sanctioned"


@pytest.fixture
def decisions():
    boss = make_user("boss", staff=True, is_superuser=True)
    olga = make_user("olga")
    asked = make_league(olga, "asked-league")
    refused = make_league(olga, "refused-league")
    rated = make_league(olga, "rated-league")
    league_rating_request(league=asked, by=olga, note="our club season")
    league_rating_request(league=refused, by=olga, note="friends")
    league_rating_decide(league=refused, by=boss, rated=False, reason="not a club")
    league_rating_decide(league=rated, by=boss, rated=True, reason="federation event")
    c = Client()
    c.force_login(boss)
    return c, asked, refused, rated


def test_the_list_shows_every_decision_and_filters_them(decisions):
    c, _asked, _refused, _rated = decisions
    page = c.get(URL)
    assert page.status_code == 200
    html = page.content.decode()
    for text in ("Asked League", "our club season", "not a club", "federation event"):
        assert text in html
    by_state = c.get(URL, {"state__exact": "requested"}).content.decode()
    assert "Asked League" in by_state and "Rated League" not in by_state
    by_rated = c.get(URL, {"league__rated__exact": "1"}).content.decode()
    assert "Rated League" in by_rated and "Refused League" not in by_rated
    found = c.get(URL, {"q": "not a club"}).content.decode()
    assert "Refused League" in found and "Asked League" not in found
    assert "rating-requests" in html  # where a refusal with a reason is made


def test_nothing_is_written_by_hand_in_the_admin(decisions):
    c, _asked, refused, _rated = decisions
    decision = LeagueRatingDecision.objects.get(league=refused)
    assert c.get(URL + "add/").status_code == 403
    change = f"{URL}{decision.pk}/change/"
    assert c.get(change).status_code == 200  # shown, read-only
    c.post(change, {"state": "approved", "reason": "by hand"})
    decision.refresh_from_db()
    assert decision.state == "refused" and decision.reason == "not a club"
    assert c.post(f"{URL}{decision.pk}/delete/", {"post": "yes"}).status_code == 403
    refused.refresh_from_db()
    assert not refused.rated


def test_the_approve_action_goes_through_the_service(decisions, django_capture_on_commit_callbacks):
    c, asked, refused, _rated = decisions
    open_request = LeagueRatingDecision.objects.get(league=asked)
    with django_capture_on_commit_callbacks(execute=True):
        response = c.post(
            URL,
            {
                "action": "approve",
                "_selected_action": [
                    open_request.pk,
                    LeagueRatingDecision.objects.get(league=refused).pk,  # not open: skipped
                ],
            },
        )
    assert response.status_code == 302
    open_request.refresh_from_db()
    asked.refresh_from_db()
    assert asked.rated and open_request.state == "approved"
    assert open_request.decided_by.username == "boss" and open_request.decided_at
    refused.refresh_from_db()
    assert not refused.rated
    # a non-officer staff member without the admin permission does not see the screen
    clerk = make_user("clerk", staff=True)
    other = Client()
    other.force_login(clerk)
    assert other.get(URL).status_code == 403


def test_the_list_costs_the_same_queries_for_more_decisions(decisions):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    c = decisions[0]

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert c.get(URL).status_code == 200
        return len(queries)

    before = count()
    boss = make_user("boss2", staff=True)
    for i in range(6):
        owner = make_user(f"owner{i}")
        league = make_league(owner, f"more-{i}")
        league_rating_request(league=league, by=owner, note="more")
        if i % 2:
            league_rating_decide(league=league, by=boss, rated=True, reason="ok")
    assert count() == before
