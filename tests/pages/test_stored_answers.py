"""The embeds and the API's league-scoped anonymous reads stored per content stamp (the
league's ``LeagueRevision``, raised by the database with every change they show;
docs/api.md "Stored answers", docs/pages.md "Stored renderings"): a second anonymous
answer costs the stamp's one query and the stored bytes, and every kind of change shows
on the next request, in English and German, with the page cache off (the test settings).
A token or a session is a person's request: never answered from the store."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from tests.builders import example_text, make_league
from tournaments.models import Entry, League, Player, Series
from tournaments.web import caching

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the triggers are PostgreSQL's"),
]

#: {g1}, {series}, {result}: the objects' ids, filled in by ``urls``
ANSWERS = [
    "/api/v1/leagues/spring/",
    "/api/v1/leagues/spring/entries/",
    "/api/v1/leagues/spring/entries/{entry}/",
    "/api/v1/leagues/spring/cycles/",
    "/api/v1/leagues/spring/tie-break-rolls/",
    "/api/v1/leagues/spring/standings/",
    "/api/v1/leagues/spring/standings.csv",
    "/api/v1/leagues/spring/schedule.ics",
    "/api/v1/players/erin/schedule.ics",
    "/api/v1/leagues/spring/series/",
    "/api/v1/fixtures/?league=spring",
    "/api/v1/fixtures/",
    "/api/v1/fixtures/?player=erin&page_size=1",
    "/api/v1/fixtures/{g1}/",
    "/api/v1/fixtures/{g1}/results/",
    "/api/v1/series/{series}/",
    "/api/v1/leagues/",
    "/api/v1/players/erin/",
    "/leagues/spring/embed/standings/",
    "/leagues/spring/embed/schedule/?theme=dark",
    "/leagues/spring/embed/bracket/",
    "/leagues/spring/embed/schedule.json",
    "/leagues/spring/dice/",
    "/leagues/spring/sheets/?round={round}",
    "/games/{g1}/sheet/",
]


def url_of(template: str, league, series) -> str:
    g1 = league.test_objects["g1"]
    entry = league.test_objects["erin"].pk
    return template.format(g1=g1.pk, series=series.pk, round=g1.round, entry=entry)


def in_language(url: str, lang: str) -> str:
    """An embed's language is its ``?lang``; the API's the request's."""
    if "/embed/" not in url or lang == "en":
        return url
    return f"{url}{'&' if '?' in url else '?'}lang={lang}"


def visit(client, url: str, lang: str = "en") -> bytes:
    client.cookies["django_language"] = lang
    response = client.get(in_language(url, lang), HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, (url, response.content[:300])
    assert "public" in response["Cache-Control"]
    return response.content


def fresh(client, url: str, lang: str = "en") -> bytes:
    cache.clear()
    return visit(client, url, lang)


def store(client, url: str) -> bytes:
    visit(client, url, "de")
    return visit(client, url)


def shows_the_truth(client, url: str) -> bytes:
    """The next answer (after a change) equals a fresh one, in both languages."""
    for lang in ("de", "en"):
        answer = visit(client, url, lang)
        assert answer == fresh(client, url, lang), (url, lang)
    return answer


def all_show_the_truth(client, urls: list[str]) -> dict[str, bytes]:
    """The next answers of every URL (after a change) equal fresh ones, in both languages
    (all asked before the store is cleared for the fresh ones)."""
    answers = {(url, lang): visit(client, url, lang) for url in urls for lang in ("de", "en")}
    cache.clear()
    for (url, lang), answer in answers.items():
        assert answer == visit(client, url, lang), (url, lang)
    return {url: answers[url, "en"] for url in urls}


def stored_visit(client, url: str, lang: str = "en") -> bytes:
    with CaptureQueriesContext(connection) as queries:
        answer = visit(client, url, lang)
    assert len(queries) == 1, [q["sql"] for q in queries]
    return answer


@pytest.fixture
def urls(league, series):
    return [url_of(template, league, series) for template in ANSWERS]


@pytest.mark.parametrize("template", ANSWERS)
def test_a_second_answer_is_the_stored_one(client, league, series, template):
    url = url_of(template, league, series)
    first = visit(client, url)
    assert stored_visit(client, url) == first
    german = visit(client, url, "de")
    assert stored_visit(client, url, "de") == german
    assert visit(client, url) == first  # the languages are stored apart


def test_the_allow_header_is_kept_with_the_stored_answer(client, league):
    url = "/api/v1/leagues/spring/entries/"
    first = client.get(url)
    again = client.get(url)
    assert again["Allow"] == first["Allow"] and "POST" in again["Allow"]
    csv = "/api/v1/leagues/spring/standings.csv"
    assert client.get(csv)["Content-Disposition"] == client.get(csv)["Content-Disposition"]
    assert "spring-standings.csv" in client.get(csv)["Content-Disposition"]


def test_a_player_renamed_shows_at_once(client, urls):
    for url in urls:
        store(client, url)
    Player.objects.filter(slug="erin").update(name="Erinna")
    all_show_the_truth(client, urls)


def test_a_result_sent_confirmed_and_voided_shows_at_once(client, league, owner, erin_user, urls):
    from tournaments.services.results import game_log_submit, result_confirm, result_void

    before = {url: store(client, url) for url in urls}
    g1 = league.test_objects["g1"]
    pending = game_log_submit(
        fixture=g1, content=example_text("valid-league-2tplus.json"), by=erin_user
    )
    all_show_the_truth(client, urls)
    game = f"/api/v1/fixtures/{g1.pk}/"
    assert visit(client, game) != before[game]  # the game shows its open result
    result_url = f"/api/v1/results/{pending.pk}/"
    store(client, result_url)
    result_confirm(result=pending, by=owner)
    all_show_the_truth(client, [*urls, result_url])
    result_void(fixture=g1, by=owner, reason="wrong log")
    all_show_the_truth(client, [*urls, result_url])


def test_a_series_decided_shows_at_once(client, league, series, urls):
    for url in urls:
        store(client, url)
    Series.objects.filter(pk=series.pk).update(winner=league.test_objects["carol"])
    all_show_the_truth(client, urls)


def test_an_entry_made_and_withdrawn_shows_at_once(client, league, urls):
    for url in urls:
        store(client, url)
    dora = Player.objects.create(name="Dora Newcomer", slug="dora")
    entry = Entry.objects.create(league=league, player=dora)
    assert b"Dora Newcomer" in all_show_the_truth(client, urls)[urls[1]]
    entry.delete()
    all_show_the_truth(client, urls)


def test_a_rating_written_shows_at_once(client, urls):
    from ratings.models import PlayerRating, RatingState

    RatingState.objects.create(pk=1)
    for url in urls:
        store(client, url)
    erin = Player.objects.get(slug="erin")
    PlayerRating.objects.create(player=erin, mu=30, sigma=2, display=1789, games=30)
    RatingState.objects.get(pk=1).save()
    all_show_the_truth(client, urls)


def test_an_organizer_renamed_and_a_new_league_show_at_once(client, owner, urls):
    for url in urls:
        store(client, url)
    owner.username = "olga-k"
    owner.save()
    make_league(owner, "summer")
    assert b"summer" in all_show_the_truth(client, urls)["/api/v1/leagues/"]


def test_a_league_renamed_or_made_private_shows_at_once(client, league, urls):
    for url in urls:
        store(client, url)
    league.name = "Autumn League"
    league.save()
    assert b"Autumn League" in all_show_the_truth(client, urls)[urls[0]]
    League.objects.filter(pk=league.pk).update(is_public=False)
    everywhere = (
        "/api/v1/leagues/",
        "/api/v1/fixtures/",
        "/api/v1/players/",
        "/api/v1/fixtures/?p",
    )
    lists = [url for url in urls if url in everywhere[:2] or url.startswith(everywhere[2:])]
    for url in urls:
        if "?league=" in url:
            assert client.get(url).json()["results"] == []  # no visible league's games
        elif url not in lists:
            assert client.get(url).status_code == 404, url
    for answer in all_show_the_truth(client, lists).values():
        assert b"Autumn League" not in answer


def test_a_token_or_a_session_is_never_answered_from_the_store(
    client, league, series, owner, monkeypatch
):
    url = "/api/v1/leagues/spring/entries/"
    store(client, url)
    asked = []
    real_get = caching.cache.get

    def get(key, *args, **kwargs):
        asked.append(key)
        return real_get(key, *args, **kwargs)

    monkeypatch.setattr(caching.cache, "get", get)
    token = Token.objects.create(user=owner)
    with_token = client.get(url, HTTP_AUTHORIZATION=f"Token {token.key}")
    assert with_token.status_code == 200 and "private" in with_token["Cache-Control"]
    client.force_login(owner)
    signed_in = client.get(url)
    assert signed_in.status_code == 200 and "private" in signed_in["Cache-Control"]
    assert not [key for key in asked if "page" in key], asked


def test_the_game_page_answers_a_get_only_as_the_other_pages(client, league):
    """(The stored game page's revision had taken the view's ``require_GET``: a HEAD
    was a 500 and a POST rendered the page.)"""
    url = f"/games/{league.test_objects['g1'].pk}/"
    assert client.head(url).status_code == client.head("/leagues/spring/").status_code == 405
    assert client.post(url).status_code == 405


def test_a_new_date_shows_in_the_calendars_at_once(client, league, owner):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.services.schedule import fixture_reschedule

    calendars = ["/api/v1/leagues/spring/schedule.ics", "/api/v1/players/erin/schedule.ics"]
    before = {url: store(client, url) for url in calendars}
    when = timezone.now().replace(microsecond=0) + timedelta(days=9)
    fixture_reschedule(fixture=league.test_objects["g2"], by=owner, scheduled_at=when)
    after = all_show_the_truth(client, calendars)
    for url in calendars:
        assert after[url] != before[url] and f"DTSTART:{when:%Y%m%dT%H%M%S}Z".encode() in (
            after[url].replace(b"\r\n ", b"")
        )
