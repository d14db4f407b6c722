"""Search from the header: players and leagues by name, leagues only where visible;
full-text (and trigram where pg_trgm is installed) on PostgreSQL, substring elsewhere."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.builders import make_league
from tournaments.models import Player
from tournaments.selectors import search as search_selectors

pytestmark = pytest.mark.django_db


@pytest.fixture
def names(owner):
    for name in ("Carolina Bauer", "Karl Meier", "Ann-Sophie Carstens", "Bob"):
        Player.objects.create(name=name, slug=name.lower().replace(" ", "-"))
    make_league(owner, "carousel-cup", name="Carousel Cup")
    make_league(owner, "secret-carnival", name="Secret Carnival", is_public=False)


def found(client, q, **extra):
    response = client.get("/search/", {"q": q}, **extra)
    assert response.status_code == 200
    results = response.context["results"]
    return [p.name for p in results.players], [lg.name for lg in results.leagues]


def test_finds_players_and_leagues_by_part_of_the_name(client, names):
    players, leagues = found(client, "car")
    # names starting with the query first, then the rest
    assert players[:1] == ["Carolina Bauer"] and "Ann-Sophie Carstens" in players
    assert "Bob" not in players and "Karl Meier" not in players
    assert leagues == ["Carousel Cup"]  # the private league stays hidden


def test_full_word_and_case(client, names):
    players, _ = found(client, "MEIER")
    assert players == ["Karl Meier"]


def test_private_league_found_by_its_organizer(client, names, owner):
    client.force_login(owner)
    _, leagues = found(client, "carnival")
    assert leagues == ["Secret Carnival"]


def test_short_or_empty_queries_search_nothing(client, names):
    response = client.get("/search/", {"q": "c"})
    assert response.context["results"].too_short
    assert response.context["results"].players == []
    assert "at least 2 characters" in response.content.decode()
    assert client.get("/search/").context["results"].players == []


def test_header_has_the_search_box(client, names):
    html = client.get("/").content.decode()
    assert 'role="search"' in html and 'name="q"' in html and 'action="/search/"' in html


def test_german(client, names):
    html = client.get("/search/", {"q": "zz"}, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Kein Spieler mit diesem Namen." in html


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")
def test_trigram_finds_a_misspelt_name_where_pg_trgm_is_installed(client, names):
    with connection.cursor() as cursor:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    search_selectors._has_trigram.cache_clear()
    try:
        assert search_selectors.search_method() == "full-text+trigram"
        players, _ = found(client, "Karoline")
        assert "Carolina Bauer" in players
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP EXTENSION IF EXISTS pg_trgm")
        search_selectors._has_trigram.cache_clear()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")
def test_without_pg_trgm_a_misspelling_is_not_found(client, names):
    search_selectors._has_trigram.cache_clear()
    assert search_selectors.search_method() == "full-text"
    players, _ = found(client, "Karoline")
    assert players == []


def test_the_plain_fallback_matches_substrings(names):
    """What SQLite (the embedded mode) runs: case-insensitive substring, starts first."""
    ranked = search_selectors._ranked(Player.objects.all(), "car", "substring")
    assert [p.name for p in ranked] == ["Carolina Bauer", "Ann-Sophie Carstens"]
