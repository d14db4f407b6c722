"""Anonymous visitors of a public league share one cached standings page per snapshot:
one query per visit, and a new snapshot shows at once."""

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import StandingsRow
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db
URL = reverse("tournaments:standings", args=["spring"])


def test_a_repeat_visit_costs_one_query(client, league, snapshot, django_assert_num_queries):
    first = client.get(URL)
    assert first.status_code == 200
    with django_assert_num_queries(1):  # the snapshot stamp, nothing else
        again = client.get(URL)
    assert again.content == first.content
    assert "Cookie" in again["Vary"]


def test_a_new_snapshot_replaces_the_cached_page(client, league, snapshot):
    before = client.get(URL).content.decode()
    StandingsRow.objects.filter(snapshot=snapshot).delete()
    league.results_revision = snapshot.results_revision + 1
    league.save(update_fields=["results_revision"])
    standings_recompute(league.pk)  # a real recompute: new stamp
    after = client.get(URL).content.decode()
    assert after != before


def test_logged_in_visitors_get_their_own_page(client, league, snapshot, erin_user):
    client.get(URL)  # fills the shared cache
    client.force_login(erin_user)
    html = client.get(URL).content.decode()
    assert erin_user.username in html or "Log out" in html


def test_query_strings_share_the_one_cached_page(client, league, snapshot):
    """?utm=… variants are the same page: one cache entry, not one per variant."""
    from django.core.cache import cache

    assert hasattr(cache, "_cache"), "the test settings use the local-memory cache"
    client.get(URL)
    keys_before = set(cache._cache)
    for n in range(5):
        assert client.get(f"{URL}?utm_source=x{n}").status_code == 200
    assert set(cache._cache) == keys_before
    assert len([k for k in cache._cache if "standings-page" in k]) == 1


def test_kept_whole_for_a_few_seconds_without_a_query(
    client, league, snapshot, settings, django_assert_num_queries, django_user_model
):
    """With the page cache on (production), an anonymous repeat visit within
    STANDINGS_PAGE_CACHE_SECONDS is answered from the kept page: no query, not even the
    stamp; its ETag answers 304 the same way. A signed-in visitor is never served it, and
    once the window has passed the new snapshot shows."""
    from django.core.cache import cache

    settings.PUBLIC_PAGE_CACHE_SECONDS = 30
    settings.STANDINGS_PAGE_CACHE_SECONDS = 5
    cache.clear()
    first = client.get(URL)
    with django_assert_num_queries(0):
        again = client.get(f"{URL}?utm_source=x")
        unchanged = client.get(URL, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert "public" in again["Cache-Control"] and again["Last-Modified"]
    assert unchanged.status_code == 304
    signed_in = Client()
    signed_in.force_login(django_user_model.objects.create_user("kept-out", password="x"))
    own = signed_in.get(URL)  # never the kept anonymous page
    assert "kept-out" in own.content.decode() and "private" in own["Cache-Control"]
    StandingsRow.objects.filter(snapshot=snapshot).delete()
    league.results_revision = snapshot.results_revision + 1
    league.save(update_fields=["results_revision"])
    standings_recompute(league.pk)
    assert client.get(URL).content == first.content  # within the window
    cache.clear()  # the window has passed
    assert client.get(URL).content != first.content


def test_the_window_is_never_longer_than_the_public_pages(
    client, league, snapshot, settings, django_assert_num_queries
):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0  # the page cache off: every visit reads the stamp
    settings.STANDINGS_PAGE_CACHE_SECONDS = 5
    client.get(URL)
    with django_assert_num_queries(1):
        client.get(URL)
