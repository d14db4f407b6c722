"""A league's pages stored per content stamp (``LeagueRevision``, raised by the
database's triggers with every change the pages show; docs/pages.md, "Stored renderings"):
a second anonymous visit costs one query and the stored bytes, and every kind of change
shows on the next visit, with the page cache off (the test settings)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.builders import example_text, make_league, make_user
from tournaments.models import Entry, League, LeagueRevision, Player, Series

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the triggers are PostgreSQL's"),
]

STORED = ["/leagues/spring/schedule/", "/leagues/spring/playoffs/", "/leagues/spring/"]


def visit(client, url: str, lang: str = "en") -> str:
    client.cookies["django_language"] = lang
    response = client.get(url)
    assert response.status_code == 200
    # a signed-in page's forms carry a fresh CSRF token each time
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())


def fresh(client, url: str, lang: str = "en") -> str:
    """The page rendered now, nothing stored."""
    cache.clear()
    return visit(client, url, lang)


def shows_the_truth(client, url: str) -> str:
    """The next visit (after a change) equals a fresh rendering, in both languages."""
    for lang in ("de", "en"):
        html = visit(client, url, lang)
        assert html == fresh(client, url, lang), lang
    return html


def store(client, url: str) -> str:
    """Visit in both languages (their renderings stored), the English answer."""
    visit(client, url, "de")
    return visit(client, url)


def stored_visit(client, url: str, lang: str = "en") -> str:
    """A visit answered from the stored rendering: the content stamp's one query."""
    with CaptureQueriesContext(connection) as queries:
        html = visit(client, url, lang)
    assert len(queries) == 1, [q["sql"] for q in queries]
    return html


@pytest.mark.parametrize("url", STORED)
def test_a_second_visit_is_the_stored_rendering(client, league, series, url):
    first = visit(client, url)
    assert stored_visit(client, url) == first
    german = visit(client, url, "de")
    assert german != first and stored_visit(client, url, "de") == german
    assert visit(client, url) == first  # the languages are stored apart


@pytest.mark.parametrize("url", STORED)
def test_a_player_renamed_shows_at_once(client, league, series, url):
    assert "erin" in store(client, url)
    Player.objects.filter(slug="erin").update(name="Erinna")
    assert "Erinna" in shows_the_truth(client, url)


@pytest.mark.parametrize("url", STORED)
def test_a_look_alike_name_elsewhere_shows_its_suffix(client, league, series, url):
    """Another organizer's new player whose name looks like erin's gives erin a suffix
    (another service's update of the player row, about another league)."""
    from tournaments.services.players import player_create_by

    store(client, url)
    oscar = make_user("oscar")
    make_league(oscar, "oscars")
    player_create_by(by=oscar, name="Erin")
    label = Player.objects.get(slug="erin").label
    assert label != "erin"
    html = shows_the_truth(client, url)
    assert label in html or "schedule" not in url


def test_a_new_date_shows_on_the_schedule(client, league, owner):
    from tournaments.services.schedule import fixture_reschedule

    url = "/leagues/spring/schedule/"
    store(client, url)
    g2 = league.test_objects["g2"]
    when = timezone.now().replace(microsecond=0) + timedelta(days=9)
    fixture_reschedule(fixture=g2, by=owner, scheduled_at=when)
    assert f'datetime="{timezone.localtime(when):%Y-%m-%d}' in shows_the_truth(client, url)


@pytest.mark.parametrize("url", ["/leagues/spring/schedule/", "/leagues/spring/"])
def test_a_new_result_and_its_void_show_at_once(client, league, series, owner, url):
    from tournaments.services.results import game_log_submit, result_void

    before = store(client, url)
    g1 = league.test_objects["g1"]
    game_log_submit(fixture=g1, content=example_text("valid-league-2tplus.json"), by=owner)
    counted = shows_the_truth(client, url)
    assert counted != before
    assert stored_visit(client, url) == counted
    result_void(fixture=g1, by=owner, reason="wrong log")
    assert shows_the_truth(client, url) == before


def test_a_series_decided_shows_on_the_bracket(client, league, series):
    url = "/leagues/spring/playoffs/"
    before = store(client, url)
    Series.objects.filter(pk=series.pk).update(winner=league.test_objects["carol"])
    assert shows_the_truth(client, url) != before


@pytest.mark.parametrize("url", STORED)
def test_a_league_renamed_or_made_private_shows_at_once(client, league, series, url):
    store(client, url)
    league.name = "Autumn League"
    league.save()
    assert "Autumn League" in shows_the_truth(client, url)
    League.objects.filter(pk=league.pk).update(is_public=False)
    assert client.get(url).status_code == 404


def revision(league) -> int:
    found = LeagueRevision.objects.filter(league=league).first()
    return found.n if found else 0


@pytest.mark.django_db(transaction=True)
def test_a_commit_raises_the_revision_once_whatever_it_changed(
    client, owner, erin_user, carol_user
):
    """In production the raise is deferred to the commit (after every lock the service
    took): nothing before it, one raise for all the rows of a transaction."""
    from django.db import transaction

    from tests.builders import build_league

    league = build_league(owner, erin_user, carol_user)
    url = "/leagues/spring/schedule/"
    before = store(client, url)
    start = revision(league)
    with transaction.atomic():
        Player.objects.filter(slug="erin").update(name="Erinna")
        league.fixtures.update(scheduled_at=timezone.now())
        assert revision(league) == start  # not before the commit
    assert revision(league) == start + 1
    assert shows_the_truth(client, url) != before


def test_a_worker_claiming_the_recompute_changes_no_page(league):
    """The standings claim shows nowhere: stored renderings stay valid through it."""
    before = revision(league)
    League.objects.filter(pk=league.pk).update(standings_claimed_until=timezone.now())
    assert revision(league) == before


def test_a_new_entry_and_a_withdrawal_show_at_once(client, league, series):
    url = "/leagues/spring/"
    store(client, url)
    dora = Player.objects.create(name="Dora Newcomer", slug="dora")
    entry = Entry.objects.create(league=league, player=dora)
    assert "Dora Newcomer" in shows_the_truth(client, url)
    entry.delete()
    assert "Dora Newcomer" not in shows_the_truth(client, url)


def test_a_rating_written_shows_beside_the_name(client, league, series):
    """The ratings writer saves its state row with every rating it writes: the stamp
    holds the state's time, so a new rating shows."""
    from ratings.models import PlayerRating, RatingState

    url = "/leagues/spring/schedule/"
    RatingState.objects.create(pk=1)
    assert 'class="rating"' not in store(client, url).split("rating-note")[0]
    erin = Player.objects.get(slug="erin")
    PlayerRating.objects.create(player=erin, mu=30, sigma=2, display=1789, games=30)
    RatingState.objects.get(pk=1).save()
    assert "1789" in shows_the_truth(client, url)


def test_signed_in_visitors_get_their_own_page(client, league, series, erin_user):
    url = "/leagues/spring/schedule/"
    anonymous = visit(client, url)
    client.force_login(erin_user)
    mine = visit(client, url)
    assert mine != anonymous and "My games" in mine


def test_the_etag_is_the_stamp_and_a_change_answers_200(client, league, owner):
    from tournaments.services.schedule import fixture_reschedule

    url = "/leagues/spring/schedule/"
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    fixture_reschedule(fixture=league.test_objects["g2"], by=owner, scheduled_at=timezone.now())
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_an_organizer_renamed_shows_and_a_sign_in_changes_nothing(client, league, owner):
    url = "/leagues/spring/"
    assert "olga" in store(client, url)
    before = revision(league)
    client.force_login(owner)  # writes last_login: shows on no page
    client.logout()
    assert revision(league) == before
    owner.username = "olga-k"
    owner.save()
    assert "olga-k" in shows_the_truth(client, url)


def game_url(league) -> str:
    return f"/games/{league.test_objects['g1'].pk}/"


def test_the_game_page_is_stored_and_follows_its_results(client, league, owner, erin_user):
    from tournaments.services.results import game_log_submit, result_confirm, result_void

    url = game_url(league)
    before = store(client, url)
    assert stored_visit(client, url) == before
    g1 = league.test_objects["g1"]
    pending = game_log_submit(
        fixture=g1, content=example_text("valid-league-2tplus.json"), by=erin_user
    )
    waiting = shows_the_truth(client, url)
    assert waiting != before
    result_confirm(result=pending, by=owner)
    counted = shows_the_truth(client, url)
    assert counted != waiting
    assert stored_visit(client, url) == counted
    erin_user.username = "erin-renamed"
    erin_user.save()  # the sender's name shows in the history
    assert "erin-renamed" in shows_the_truth(client, url)
    result_void(fixture=g1, by=owner, reason="wrong log")
    assert shows_the_truth(client, url) != counted


def test_the_game_page_follows_its_move_analysis(client, league, submitted):
    """The analyses' task writes long after the result: its row shows on the next visit."""
    from games.analysis import ANALYSIS_FORMAT
    from games.models import GameAnalysis

    url = game_url(league)
    before = store(client, url)
    row = GameAnalysis.objects.create(
        log=submitted.game_log,
        sha256=submitted.game_log.sha256,
        format=ANALYSIS_FORMAT,
        rollouts=0,
    )
    queued = shows_the_truth(client, url)
    assert queued != before
    GameAnalysis.objects.filter(pk=row.pk).update(status="failed", error="engine stopped")
    assert shows_the_truth(client, url) != queued


def test_a_game_of_a_private_league_is_never_stored(client, private_league, owner):
    from tests.builders import make_fixture

    entry = private_league.entries.get()
    game = make_fixture(private_league, [(entry, ["black", "yellow"])], "black")
    assert client.get(f"/games/{game.pk}/").status_code == 404
    client.force_login(owner)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert "private" in client.get(f"/games/{game.pk}/")["Cache-Control"]


def test_the_home_page_follows_every_league(client, league, owner):
    from tournaments.services.results import game_log_submit

    before = store(client, "/")
    assert stored_visit(client, "/") == before
    game_log_submit(
        fixture=league.test_objects["g1"],
        content=example_text("valid-league-2tplus.json"),
        by=owner,
    )
    counted = shows_the_truth(client, "/")
    assert counted != before  # the newest results
    other = make_league(owner, "summer")
    assert other.name in shows_the_truth(client, "/")
    other.delete()
    assert shows_the_truth(client, "/") == counted


def test_a_player_page_follows_their_leagues_their_row_and_the_ratings(client, league, owner):
    from ratings.models import PlayerRating, RatingState
    from tournaments.services.results import game_log_submit

    url = "/players/erin/"
    before = store(client, url)
    assert stored_visit(client, url) == before
    game_log_submit(
        fixture=league.test_objects["g1"],
        content=example_text("valid-league-2tplus.json"),
        by=owner,
    )
    counted = shows_the_truth(client, url)
    assert counted != before
    Player.objects.filter(slug="carol").update(name="Caroline")  # an opponent renamed
    assert "Caroline" in shows_the_truth(client, url)
    Player.objects.filter(slug="erin").update(name="Erinna")
    assert "Erinna" in shows_the_truth(client, url)
    RatingState.objects.create(pk=1)
    PlayerRating.objects.create(
        player=Player.objects.get(slug="erin"), mu=30, sigma=2, display=1789, games=30
    )
    RatingState.objects.get(pk=1).save()
    shows_the_truth(client, url)
    League.objects.filter(pk=league.pk).update(is_public=False)
    assert "Spring League" not in shows_the_truth(client, url)


def test_a_player_without_leagues_renamed(client, db):
    Player.objects.create(name="Loner", slug="loner")
    assert "Loner" in store(client, "/players/loner/")
    Player.objects.filter(slug="loner").update(name="Lone Wolf")
    assert "Lone Wolf" in shows_the_truth(client, "/players/loner/")


def test_a_signed_in_visitor_gets_the_stored_schedule_below_their_header(
    client, league, owner, erin_user
):
    from tournaments.services.schedule import fixture_reschedule

    url = "/leagues/spring/schedule/?part=1"
    client.force_login(erin_user)
    first = store(client, url)
    assert "My games" in first and visit(client, url) == first
    when = timezone.now().replace(microsecond=0) + timedelta(days=5)
    fixture_reschedule(fixture=league.test_objects["g1"], by=owner, scheduled_at=when)
    assert f'datetime="{timezone.localtime(when):%Y-%m-%d}' in shows_the_truth(client, url)
    Player.objects.filter(slug="carol").update(name="Caroline")
    assert "Caroline" in shows_the_truth(client, url)


@pytest.mark.parametrize("url", STORED)
def test_new_code_never_serves_a_rendering_of_the_old(client, league, series, url, monkeypatch):
    """A deploy that changes a template, a translation or a view makes new keys: the page
    is rendered again (more than the stamp's query), not served from the old code's bytes."""
    from tournaments.web import caching

    store(client, url)
    stored_visit(client, url)
    monkeypatch.setattr(caching, "rendering_version", lambda: "a-deploy-later")
    with CaptureQueriesContext(connection) as queries:
        visit(client, url)
    assert len(queries) > 1
    stored_visit(client, url)  # and stored again under the new code


def test_the_rendering_version_follows_the_templates(settings, tmp_path):
    from tournaments.web.caching import RENDERING_SOURCES, rendering_version

    (tmp_path / "templates").mkdir()
    page = tmp_path / "templates" / "page.html"
    page.write_text("<p>one</p>")
    settings.BASE_DIR = tmp_path
    rendering_version.cache_clear()
    try:
        first = rendering_version()
        page.write_text("<p>two</p>")
        rendering_version.cache_clear()
        assert rendering_version() != first and "templates" in RENDERING_SOURCES
    finally:
        rendering_version.cache_clear()
