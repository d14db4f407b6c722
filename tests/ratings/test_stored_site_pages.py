"""The site-wide pages stored per the site's revisions (docs/pages.md, "Stored
renderings"): the ratings table, the 3T World Rankings, a head-to-head, the search and
the API's lists of players, ratings and rankings (and the two CSVs). A second anonymous
visit costs one query and the stored bytes; for each kind of change the next visit equals
a fresh rendering, in English and German, with the page cache off (the test settings)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.services.ratings import ratings_update
from tests.builders import make_player
from tests.pages.test_stored_renderings import fresh, shows_the_truth, store, stored_visit, visit
from tests.ratings.conftest import finish
from tournaments.models import League, Player, PlayersRevision

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the triggers are PostgreSQL's"),
]

PAGES = ["/ratings/", "/ratings/?format=3T&page=1", "/rankings/", "/players/ann/vs/bob/"]
SEARCH = "/search/?q=ann"
API = [
    "/api/v1/players/",
    "/api/v1/players/?q=an",
    "/api/v1/ratings/",
    "/api/v1/ratings.csv",
    "/api/v1/rankings/",
    "/api/v1/rankings.csv?as_of=2099-01-01",
]
EVERY = [*PAGES, SEARCH, *API]
#: the pages a visitor reads in a language of their own (the API's JSON is in both the same
#: but for a look-alike's label)
IN_LANGUAGES = [*PAGES, SEARCH]


@pytest.mark.parametrize("url", EVERY)
def test_a_second_visit_is_the_stored_rendering(client, season, url):
    first = visit(client, url)
    assert stored_visit(client, url) == first
    german = visit(client, url, "de")
    assert stored_visit(client, url, "de") == german
    if url in IN_LANGUAGES:
        assert german != first
    assert visit(client, url) == first


@pytest.mark.parametrize("url", EVERY)
def test_a_player_renamed_shows_everywhere(client, season, url):
    assert "ann" in store(client, url)
    Player.objects.filter(slug="ann").update(name="Annabel")
    assert "Annabel" in shows_the_truth(client, url)


@pytest.mark.parametrize("url", ["/ratings/", "/players/ann/vs/bob/", "/api/v1/ratings/"])
def test_a_new_rated_game_shows(client, season, url):
    world = season["world"]
    before = store(client, url)
    world.play(season["c"], ["bob", "ann"])
    ratings_update()  # the ratings writer: a new rating for both
    assert shows_the_truth(client, url) != before


def test_a_rating_written_alone_shows(client, season):
    """The ratings writer's time is in the table's stamp: a rating it writes shows even
    where no league changed."""
    from ratings.models import PlayerRating, RatingState

    before = store(client, "/ratings/")
    PlayerRating.objects.filter(player__slug="ann").update(display=2345)
    RatingState.objects.get().save()
    after = shows_the_truth(client, "/ratings/")
    assert "2345" in after and after != before


@pytest.mark.parametrize("url", ["/rankings/", "/api/v1/rankings/", "/api/v1/rankings.csv"])
def test_a_ranking_level_and_a_finished_cup_show(client, season, url):
    world = season["world"]
    before = store(client, url)
    finish(season["b"], level=4)
    raised = shows_the_truth(client, url)
    assert raised != before
    cup = world.league(format="3T", name="Cup C")
    for _ in range(2):
        world.play(cup, ["dee", "bob", "cid"])
    finish(cup, level=3)
    assert shows_the_truth(client, url) != raised


@pytest.mark.parametrize("url", ["/rankings/", "/players/ann/vs/bob/", "/search/?q=cup"])
def test_a_league_renamed_shows(client, season, url):
    store(client, url)
    League.objects.filter(pk=season["a"].pk).update(name="Cup Alpha")
    assert "Cup Alpha" in shows_the_truth(client, url)


@pytest.mark.parametrize(
    "url, gone",
    [
        ("/ratings/", "/players/dee/"),  # dee played in the Duo only
        ("/ratings/?board=4", "/players/dee/"),
        ("/api/v1/ratings/", '"dee"'),
        ("/rankings/", "Cup A"),
        ("/players/ann/vs/dee/", "Duo"),
        ("/search/?q=duo", "Duo"),
    ],
)
def test_a_league_made_private_shows(client, season, url, gone):
    assert gone in store(client, url)
    League.objects.filter(pk=season["c" if "Cup" not in gone else "a"].pk).update(is_public=False)
    assert gone not in shows_the_truth(client, url)


@pytest.mark.parametrize("url", ["/search/?q=anni", "/api/v1/players/", "/api/v1/players/?q=anni"])
def test_a_player_in_no_league_made_renamed_and_deleted_shows(client, season, url):
    before = store(client, url)
    loner = make_player("Annika Solo")
    assert "Annika Solo" in shows_the_truth(client, url)
    Player.objects.filter(pk=loner.pk).update(name="Annika Alone")
    assert "Annika Alone" in shows_the_truth(client, url)
    loner.delete()
    assert shows_the_truth(client, url) == before


def test_the_ratings_of_recent_months_are_not_stored(client, season):
    """``?active=N`` counts from now: that table changes with the clock, never stored."""
    url = "/ratings/?active=3"
    first = visit(client, url)
    with CaptureQueriesContext(connection) as queries:
        assert visit(client, url) == first
    assert len(queries) > 1
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/v1/ratings/?active=3")
        client.get("/api/v1/ratings/?active=3")
    assert len(queries) > 2


def test_a_signed_in_visitor_is_answered_fresh(client, season):
    url = "/ratings/"
    store(client, url)
    client.force_login(season["world"].organizer)
    with CaptureQueriesContext(connection) as queries:
        visit(client, url)
    assert len(queries) > 1
    assert "private" in client.get(url)["Cache-Control"]


def test_a_head_to_head_of_a_missing_player_or_of_oneself_is_a_404(client, season):
    assert client.get("/players/ann/vs/nobody/").status_code == 404
    assert client.get("/players/ann/vs/ann/").status_code == 404
    assert fresh(client, "/players/bob/vs/ann/") != fresh(client, "/players/ann/vs/bob/")


def players_revision() -> int:
    return sum(PlayersRevision.objects.values_list("n", flat=True))


@pytest.mark.django_db(transaction=True)
def test_a_commit_raises_the_players_revision_once_in_its_own_session_row():
    """Deferred to the commit like the leagues' (nothing before it, one raise for every
    player row of a transaction), on the counter of the committing database session, so
    two sessions' commits never wait for one row."""
    from django.db import transaction

    start = players_revision()
    with transaction.atomic():
        make_player("Una")
        make_player("Ulf")
        Player.objects.filter(slug="una").update(name="Una Renamed")
        assert players_revision() == start
    assert players_revision() == start + 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    assert PlayersRevision.objects.filter(backend=pid).exists()
    Player.objects.filter(slug="ulf").delete()
    assert players_revision() == start + 2
