"""Bounded API answers (issue 31): every list runs the same number of queries and answers
about the same number of bytes on a site five times the size. Counts, never times: the site
is built twice (tests/builders.py: build_site); each list is read on the small site and on
the grown one, anonymously and signed in."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.http import FileResponse
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from tests.builders import build_site

SMALL, LARGE = 1, 5
PAGE = 4  # rows a page: fewer than the small site has of each list
SLACK_BYTES = 1_000


def fetch(site: dict, who: str | None, url: str) -> tuple[int, int, list[str]]:
    client = APIClient()
    if who:
        client.force_login(site[who])
    client.get(url)  # warm
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code, response.content[:300])
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return len(captured), len(body), [q["sql"] for q in captured.captured_queries]


def _paged(name: str, *args) -> Callable[[dict], str]:
    return lambda s: reverse(f"api:{name}", args=[a(s) for a in args]) + f"?page_size={PAGE}"


LISTS: dict[str, tuple[str | None, Callable[[dict], str]]] = {
    "ratings": (None, _paged("rating-list")),
    "ratings, filtered": (
        None,
        lambda s: reverse("api:rating-list") + f"?game_format=3T&page_size={PAGE}",
    ),
    "rankings": (None, lambda s: reverse("api:rankings")),
    "fixtures": (None, _paged("fixture-list")),
    "fixtures signed in": ("owner", _paged("fixture-list")),
    "fixtures of a league": (
        None,
        lambda s: reverse("api:fixture-list") + f"?league={s['big'].slug}&page_size={PAGE}",
    ),
    "leagues": (None, _paged("league-list")),
    "leagues signed in": ("me", _paged("league-list")),
    "players": (None, _paged("player-list")),
    "entries": (None, _paged("entry-list", lambda s: s["big"].slug)),
    "cycles": (None, _paged("cycle-list", lambda s: s["big"].slug)),
    "standings": (None, lambda s: reverse("api:standings", args=[s["big"].slug])),
    "results of a game": (None, _paged("fixture-results", lambda s: s["fixture"].pk)),
    "a result": (
        None,
        lambda s: reverse("api:result-detail", args=[s["fixture"].results.get().pk]),
    ),
    "a game": (None, lambda s: reverse("api:fixture-detail", args=[s["fixture"].pk])),
    "rating history": (None, _paged("player-ratings", lambda s: s["player"].slug)),
}


@pytest.mark.django_db
def test_every_api_list_costs_the_same_on_a_site_five_times_the_size():
    """Each list of :data:`LISTS` on the small site and on the grown one (the sites built
    once for all); every list that grows is named in the failure."""
    small = build_site(SMALL)
    before = {name: fetch(small, who, url_of(small)) for name, (who, url_of) in LISTS.items()}
    large = build_site(LARGE)
    after = {name: fetch(large, who, url_of(large)) for name, (who, url_of) in LISTS.items()}
    grown = []
    for name in LISTS:
        (queries, size, _), (queries_after, size_after, sql) = before[name], after[name]
        if queries_after != queries:
            grown.append(f"{name}: {queries} → {queries_after} queries:\n" + "\n".join(sql))
        if size_after > size + SLACK_BYTES:
            grown.append(f"{name}: {size} → {size_after} bytes")
    assert not grown, "\n".join(grown)


@pytest.mark.django_db
def test_a_longer_page_of_an_api_list_costs_no_more_queries():
    """Three times the rows a page: the same queries (nothing is read per row)."""
    site = build_site(LARGE)
    for name, (who, url_of) in LISTS.items():
        url = url_of(site)
        if f"page_size={PAGE}" not in url:
            continue
        short = fetch(site, who, url)[0]
        long_ = fetch(site, who, url.replace(f"page_size={PAGE}", f"page_size={3 * PAGE}"))[0]
        assert long_ == short, name


# --- the league archive: an explicit export, whole but streamed -------------------------------


def _archive(client, site, **headers):
    url = reverse("api:league-archive", args=[site["big"].slug])
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
        body = b"".join(response.streaming_content) if response.streaming else response.content
    return response, body, len(captured)


@pytest.mark.django_db
def test_the_archive_streams_in_a_fixed_number_of_queries_with_the_logs_by_reference(
    monkeypatch,
):
    """A chunk of games at a time (the queries grow with the chunks, not the games), and no
    log's text inside: the archive grows by a game's record, never by its log."""
    import json

    from tournaments.api import exports

    monkeypatch.setattr(exports, "ARCHIVE_CHUNK", 1_000)
    small = build_site(SMALL)
    response, body, queries = _archive(APIClient(), small)
    assert response.status_code == 200 and response.streaming
    large = build_site(LARGE)
    response, large_body, large_queries = _archive(APIClient(), large)
    assert large_queries == queries
    archive = json.loads(large_body)
    assert archive["format"] == "maedn-league-archive/2"
    counted = [f for f in archive["fixtures"] if f["counted_result"]]
    assert len(archive["fixtures"]) == 5 * len(json.loads(body)["fixtures"])
    assert len(archive["game_logs"]) == len(counted) > 0
    assert all("content" not in log for log in archive["game_logs"])
    # per game, the archive costs its record (about a kilobyte), not its log
    log_size = large["fixture"].results.get().game_log.size
    per_game = (len(large_body) - len(body)) / (len(archive["fixtures"]) * 4 / 5)
    assert per_game < 3_000 < log_size + per_game


@pytest.mark.django_db
def test_the_archive_answers_304_while_the_league_is_unchanged():
    from tournaments.models import League

    site = build_site(SMALL)
    client = APIClient()
    first, _, _ = _archive(client, site)
    etag, modified = first["ETag"], first["Last-Modified"]
    again, body, queries = _archive(client, site, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and body == b""
    assert queries <= 3  # the league, its stamps: nothing of the games is read
    since, _, _ = _archive(client, site, HTTP_IF_MODIFIED_SINCE=modified)
    assert since.status_code == 304
    # a new counted result moves the revision: the old ETag no longer matches
    League.objects.filter(pk=site["big"].pk).update(results_revision=99)
    changed, _, _ = _archive(client, site, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


@pytest.mark.django_db
def test_anonymous_archive_downloads_are_throttled_signed_in_ones_are_not(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "exports": "2/min",
        },
    }
    site = build_site(SMALL)
    anonymous = APIClient()
    codes = [_archive(anonymous, site)[0].status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    signed_in = APIClient()
    signed_in.force_login(site["me"])
    assert [_archive(signed_in, site)[0].status_code for _ in range(3)] == [200, 200, 200]


@pytest.mark.django_db
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the content revision is PostgreSQL's"
)
def test_an_archive_exported_once_is_sent_from_its_file_until_the_league_changes(
    settings, tmp_path
):
    """The first download streams from the database and stores the archive on the way;
    the next ones send that file (no game read: fewer queries, whatever the league's size)
    until anything in it changes (here a player renamed, which no validator of the
    archive's own follows: the league's content revision does), and then the old file goes."""
    import json

    from tournaments.models import Player

    settings.ARCHIVE_DIR = str(tmp_path)
    site = build_site(SMALL)
    client = APIClient()
    first, body, streamed_queries = _archive(client, site)
    assert first.status_code == 200 and not isinstance(first, FileResponse)
    [stored] = tmp_path.glob("*.json")
    assert stored.read_bytes() == body
    again, again_body, file_queries = _archive(client, site)
    assert again.status_code == 200 and isinstance(again, FileResponse)
    assert again_body == body and file_queries < streamed_queries
    assert again["ETag"] == first["ETag"] and "attachment" in again["Content-Disposition"]

    player = Player.objects.filter(entries__league=site["big"]).first()
    Player.objects.filter(pk=player.pk).update(name="Renamed Later")
    changed, changed_body, _ = _archive(client, site)
    assert not isinstance(changed, FileResponse)  # streamed again
    names = {p["name"] for p in json.loads(changed_body)["players"]}
    assert "Renamed Later" in names
    [newer] = tmp_path.glob("*.json")
    assert newer != stored and newer.read_bytes() == changed_body


@pytest.mark.django_db
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the content revision is PostgreSQL's"
)
def test_an_archive_download_broken_off_stores_nothing(settings, tmp_path):
    settings.ARCHIVE_DIR = str(tmp_path)
    site = build_site(SMALL)
    response = APIClient().get(reverse("api:league-archive", args=[site["big"].slug]))
    chunks = iter(response.streaming_content)
    next(chunks)
    response.close()  # the client went away after the first piece
    assert list(tmp_path.iterdir()) == []
