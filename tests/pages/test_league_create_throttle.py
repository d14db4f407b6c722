"""Issue 32: league creation is throttled per account (``league_create``, setting
``THROTTLE_LEAGUE_CREATE``, default 10/hour), on the page and in the API alike: past the
limit the answer is 429 with Retry-After and no league is created."""

from __future__ import annotations

from django.test import Client
from rest_framework.test import APIClient

from tests.builders import make_user
from tests.pages.test_organizing import league_post
from tournaments.models import League


def _rates(settings, rate):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "league_create": rate,
        },
    }


def test_the_default_is_ten_an_hour(settings):
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["league_create"] == "10/hour"


def test_the_eleventh_league_in_an_hour_is_refused_on_the_page_and_in_the_api(db, settings):
    _rates(settings, "10/hour")
    olga = make_user("olga")
    page = Client()
    page.force_login(olga)
    for n in range(6):
        response = page.post("/leagues/new/", league_post(name=f"Cup {n}"))
        assert response.status_code == 302, response.content.decode()[:2000]
    api = APIClient()
    api.force_authenticate(olga)
    for n in range(6, 10):
        response = api.post("/api/v1/leagues/", {"name": f"Cup {n}", "format": "2T"}, "json")
        assert response.status_code == 201, response.content
    refused = page.post("/leagues/new/", league_post(name="Cup 10"))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many attempts" in refused.content.decode()
    refused = api.post("/api/v1/leagues/", {"name": "Cup 11", "format": "2T"}, "json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert League.objects.count() == 10
    # showing the form is not counted, and another organizer is not held back
    assert page.get("/leagues/new/").status_code == 200
    other = Client()
    other.force_login(make_user("otto"))
    assert other.post("/leagues/new/", league_post(name="Otto Cup")).status_code == 302
