"""Public pages for a shared cache / CDN: anonymous answers are public with s-maxage, an ETag
and Vary on the language; a matching conditional GET is a 304; signed-in answers stay
private; a private league's pages are never public."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.utils.cache import parse_etags

from tests.builders import make_snapshot
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages(league, submitted, series):
    standings_recompute(league.pk)
    erin, carol = league.test_objects["erin"], league.test_objects["carol"]
    game = league.test_objects["g1"]
    return {
        "standings": "/leagues/spring/standings/",
        "schedule": "/leagues/spring/schedule/",
        "bracket": "/leagues/spring/playoffs/",
        "league": "/leagues/spring/",
        "game": f"/games/{league.test_objects['g1'].pk}/",
        "player": f"/players/{erin.player.slug}/",
        "home": "/",
        # the same for every anonymous visitor too (were private before issue 31's nginx work)
        "ratings": "/ratings/",
        "rankings": "/rankings/",
        "head-to-head": f"/players/{erin.player.slug}/vs/{carol.player.slug}/",
        "dice": "/leagues/spring/dice/",
        "game sheet": f"/games/{game.pk}/sheet/",
        "round sheets": f"/leagues/spring/sheets/?round={game.round}",
    }


def directives(response) -> set[str]:
    return {d.strip() for d in response["Cache-Control"].split(",")}


def test_without_the_page_cache_a_change_shows_at_once(client, league, pages, owner):
    from tournaments.services.results import result_void

    before = client.get(pages["game"])["ETag"]
    result_void(fixture=league.test_objects["g1"], by=owner, reason="wrong log")
    after = client.get(pages["game"], HTTP_IF_NONE_MATCH=before)
    assert after.status_code == 200 and after["ETag"] != before


def test_anonymous_public_pages_are_shared_cacheable(client, pages):
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        cc = directives(response)
        # the standings for as long as the application keeps them (5 s): a new result
        # shows within seconds behind nginx's cache too; the other pages 30 s
        shared = 5 if name == "standings" else 30
        assert {"public", f"s-maxage={shared}", "max-age=0"} <= cc, (name, cc)
        assert f"stale-while-revalidate={shared}" in cc, (name, cc)
        assert parse_etags(response["ETag"]), name
        vary = {v.strip() for v in response["Vary"].split(",")}
        assert {"Cookie", "Accept-Language"} <= vary, name
        assert "csrftoken" not in response.cookies, name


def test_conditional_get_answers_304(client, pages):
    for name, url in pages.items():
        first = client.get(url)
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, name
        assert again.content == b"", name
        assert "public" in directives(again), name
        assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200


def test_standings_revision_answers_304_in_one_query(client, pages, django_assert_num_queries):
    first = client.get(pages["standings"])
    assert first["Last-Modified"]
    with django_assert_num_queries(1):  # the snapshot stamp; nothing rendered
        again = client.get(pages["standings"], HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_standings_etag_follows_the_snapshot_and_the_language(client, league, pages):
    url = pages["standings"]
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")["ETag"]
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de")["ETag"]
    assert english != german
    objs = league.test_objects
    league.snapshots.all().delete()
    make_snapshot(league, [objs["erin"], objs["carol"]], revision=2)  # a new table
    newer = client.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=english)
    assert newer.status_code == 200
    assert newer["ETag"] != english


def test_a_changed_game_page_gets_a_new_etag(client, league, pages, owner, settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 30
    from tournaments.services.results import result_void

    url = pages["game"]
    before = client.get(url)["ETag"]
    result_void(fixture=league.test_objects["g1"], by=owner, reason="wrong log")
    # an anonymous visitor gets the page kept for s-maxage (as a CDN would serve it) …
    assert client.get(url, HTTP_IF_NONE_MATCH=before).status_code == 304
    # … a signed-in one the fresh page at once
    client.force_login(owner)
    assert "voided" in client.get(url).content.decode()
    client.logout()
    cache.clear()  # the s-maxage window has passed
    after = client.get(url, HTTP_IF_NONE_MATCH=before)
    assert after.status_code == 200
    assert after["ETag"] != before


def test_signed_in_pages_stay_private(client, pages, erin_user):
    client.force_login(erin_user)
    for name, url in pages.items():
        response = client.get(url)
        cc = directives(response)
        assert "private" in cc and "public" not in cc, (name, cc)
        assert "s-maxage=30" not in cc


def test_a_session_cookie_alone_keeps_pages_private(client, pages):
    client.cookies["sessionid"] = "whatever"
    response = client.get(pages["standings"])
    assert "private" in directives(response)


def test_private_league_is_never_public(client, league, pages):
    league.is_public = False
    league.save()
    for name in ("standings", "schedule", "bracket", "game", "dice", "game sheet", "round sheets"):
        response = client.get(pages[name])
        assert response.status_code == 404, name
        assert "public" not in response.get("Cache-Control", ""), name


def test_a_rating_filter_error_is_not_shared(client, db):
    response = client.get("/ratings/?format=nonsense")
    assert response.status_code == 400
    assert "public" not in response["Cache-Control"]


def test_a_kept_page_is_kept_per_host(client, pages, settings):
    """The sheets print the upload page's absolute address: a page kept for one host name
    is not answered to another."""
    settings.PUBLIC_PAGE_CACHE_SECONDS = 30
    url = pages["game sheet"]
    assert "testserver" in client.get(url).content.decode()
    other = client.get(url, HTTP_HOST="localhost").content.decode()
    assert "localhost" in other and "testserver" not in other


def test_favicon(client, db):
    html = client.get("/rules/").content.decode()
    assert 'rel="icon"' in html and "favicon.svg" in html
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith(".svg")
