"""The API's reads and downloads for a shared cache (nginx's, a CDN): an anonymous GET's
answer is the same for every anonymous client, so it is ``public, s-maxage`` with an ETag,
``Vary`` on the cookie, the language and the credentials, and a matching If-None-Match is a
304; a request with an API token or a session is private; a write never is public
(``tournaments.web.caching.public_api``, applied by ``ApiView``)."""

from __future__ import annotations

import pytest
from django.utils.cache import parse_etags
from rest_framework.test import APIClient

from tests.builders import make_snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def reads(world):
    make_snapshot(world.league, list(world.entries.values()))
    league, fixture = world.league.slug, world.fixture.pk
    return {
        # lists
        "players": "/api/v1/players/",
        "leagues": "/api/v1/leagues/",
        "entries": f"/api/v1/leagues/{league}/entries/",
        "fixtures": "/api/v1/fixtures/",
        "ratings": "/api/v1/ratings/",
        "rankings": "/api/v1/rankings/",
        "standings": f"/api/v1/leagues/{league}/standings/",
        # details
        "player": "/api/v1/players/erin/",
        "league": f"/api/v1/leagues/{league}/",
        "fixture": f"/api/v1/fixtures/{fixture}/",
        # the public exports
        "standings.csv": f"/api/v1/leagues/{league}/standings.csv",
        "schedule.ics": f"/api/v1/leagues/{league}/schedule.ics",
        "player schedule.ics": "/api/v1/players/erin/schedule.ics",
        "ratings.csv": "/api/v1/ratings.csv",
        "rankings.csv": "/api/v1/rankings.csv",
    }


def directives(response) -> set[str]:
    return {d.strip() for d in response.get("Cache-Control", "").split(",") if d.strip()}


def vary(response) -> set[str]:
    return {v.strip() for v in response.get("Vary", "").split(",")}


def test_anonymous_reads_are_public_with_an_etag_and_answer_304(reads):
    client = APIClient()
    for name, url in reads.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.content[:200])
        cc = directives(response)
        assert {"public", "max-age=0", "s-maxage=30"} <= cc, (name, cc)
        assert parse_etags(response["ETag"]), name
        assert {"Cookie", "Accept-Language", "Authorization"} <= vary(response), name
        assert not response.cookies, name
        again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
        assert again.status_code == 304 and again.content == b"", name
        assert "public" in directives(again), name
        assert client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200, name


def test_a_session_makes_every_read_private(world, reads):
    client = world.client("stranger")
    for name, url in reads.items():
        response = client.get(url)
        assert response.status_code == 200, name
        cc = directives(response)
        assert "private" in cc and "public" not in cc, (name, cc)
        assert "s-maxage=30" not in cc, name


def test_an_api_token_makes_every_read_private(world, reads, token_auth):
    token = token_auth.objects.create(user=world.users["player"])
    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    for name, url in reads.items():
        response = bot.get(url)
        assert response.status_code == 200, name
        cc = directives(response)
        assert "private" in cc and "public" not in cc, (name, cc)
    # the token's answer is its own (who it is), never a shared one
    assert bot.get("/api/v1/me/").json()["username"] == "player"


def test_a_write_and_a_refusal_are_never_public(world):
    client = APIClient()
    refused = client.post("/api/v1/leagues/", {"name": "X"}, format="json")
    assert refused.status_code in (401, 403)
    assert "public" not in refused.get("Cache-Control", "")
    missing = client.get("/api/v1/leagues/no-such-league/")
    assert missing.status_code == 404 and "public" not in missing.get("Cache-Control", "")


def test_a_private_leagues_reads_are_never_public(world, reads):
    world.league.is_public = False
    world.league.save(update_fields=["is_public"])
    client = APIClient()
    for name in ("entries", "league", "standings.csv", "schedule.ics"):
        response = client.get(reads[name])
        assert response.status_code == 404, name
        assert "public" not in response.get("Cache-Control", ""), name
    member = world.client("organizer").get(reads["league"])
    assert member.status_code == 200 and "private" in directives(member)


def test_a_kept_download_keeps_its_file_name(reads, settings, django_assert_num_queries):
    """With the application's page cache on, a second anonymous download is answered from
    it (no query) as the same file: its type and its name."""
    settings.PUBLIC_PAGE_CACHE_SECONDS = 30
    client = APIClient()
    first = client.get(reads["standings.csv"])
    with django_assert_num_queries(0):
        again = client.get(reads["standings.csv"])
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert again["Content-Type"] == first["Content-Type"]
    assert again["Content-Disposition"] == first["Content-Disposition"]
    assert "public" in directives(again)


def test_the_archive_keeps_its_own_validators(world):
    response = APIClient().get(f"/api/v1/leagues/{world.league.slug}/archive.json")
    assert response.status_code == 200
    cc = directives(response)
    assert {"public", "max-age=0", "must-revalidate"} <= cc and "s-maxage=30" not in cc
