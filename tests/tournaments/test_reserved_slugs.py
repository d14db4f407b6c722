"""Issue 22: a league never gets an address a route of the site uses (a league named
"New" would be hidden by ``/leagues/new/``)."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.builders import make_user
from tournaments.services.errors import ServiceError
from tournaments.services.leagues import RESERVED_LEAGUE_SLUGS, league_create


def _routes(patterns, prefix=""):
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, route)
        elif isinstance(p, URLPattern):
            yield route


def test_every_literal_word_after_leagues_is_reserved():
    words = set()
    for route in _routes(get_resolver().url_patterns):
        if "leagues/" not in route:
            continue
        rest = route.split("leagues/", 1)[1]
        first = rest.split("/", 1)[0]
        if first and "<" not in first and "^" not in first:
            words.add(first)
    assert "new" in words
    assert words <= RESERVED_LEAGUE_SLUGS


def test_a_league_named_new_gets_another_address(db):
    league = league_create(owner=make_user("org"), name="New", format="2T")
    assert league.slug == "new-2"


@pytest.mark.parametrize("slug", ["new", "NEW"])
def test_a_reserved_address_asked_for_is_refused(db, slug):
    with pytest.raises(ServiceError, match="is a page of the site") as e:
        league_create(owner=make_user("org"), name="Fine", format="2T", slug=slug)
    assert e.value.field == "slug"


def test_the_new_league_page_still_answers(db, client):
    league_create(owner=make_user("org"), name="New", format="2T")
    client.force_login(make_user("other"))
    assert "<form" in client.get("/leagues/new/").content.decode()
    assert client.get("/leagues/new-2/").status_code == 200
