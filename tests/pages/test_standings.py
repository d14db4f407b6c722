"""The standings page reads the snapshot tables (never computes), stays within 10 queries
whatever the league size, and its live-refresh fragment answers 304 while nothing changed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.builders import make_league, make_snapshot
from tournaments.models import Entry, League, Player, StandingsSnapshot

pytestmark = pytest.mark.django_db

URL = reverse("tournaments:standings", args=["spring"])
FRAGMENT = reverse("tournaments:standings-fragment", args=["spring"])


def big_league(owner, size: int) -> League:
    league = make_league(owner, slug=f"big-{size}", name=f"Big {size}")
    entries = []
    for i in range(size):
        player = Player.objects.create(name=f"p{size}-{i}", slug=f"p{size}-{i}")
        entries.append(
            Entry.objects.create(league=league, player=player, preferred_colours=["green", "red"])
        )
    make_snapshot(league, entries)
    return league


def test_standings_table_shows_every_metric_in_snapshot_order(client, league, snapshot):
    response = client.get(URL)
    assert response.status_code == 200
    html = response.text
    rows = re.findall(r'<td class="num rank">(\d+)</td>\s*<th scope="row"><a [^>]*>(\w+)</a>', html)
    assert rows == [("1", "carol"), ("2", "erin")]
    # metric columns in precedence order, with their values (pairs as "1–0")
    heads = re.findall(r'<th scope="col" class="num"><abbr title="[^"]*">([^<]+)</abbr>', html)
    assert heads[3:] == ["W–L", "H2H", "Pawn diff.", "Colours done"]
    assert '<td class="num">1–0</td>' in html and '<td class="num">0–1</td>' in html
    assert '<td class="num">\u22125</td>' in html  # one minus sign: U+2212, never "-"
    # provisional marker, update time, ties note from the league's precedence
    assert "provisional" in html
    assert "<time datetime=" in html
    assert "How ties are broken" in html
    ties = re.search(r"How ties are broken</h3>\s*<ol[^>]*>(.*?)</ol>", html, re.S).group(1)
    assert ties.index("won–lost") < ties.index("head-to-head") < ties.index("counted-pawns")


def test_settled_table_is_marked_final(client, league, snapshot):
    snapshot.provisional = False
    snapshot.save()
    html = client.get(URL).text
    assert "badge-settled" in html and "badge-provisional" not in html


def test_standings_never_computed_on_the_page(client, league, monkeypatch):
    """Without a snapshot the page says so; it does not compute standings itself."""
    import tournaments.services as services

    def boom(*args, **kwargs):  # pragma: no cover - reached only by a bug
        raise AssertionError("the page computed standings")

    for name in ("standings_recompute", "compute_standings"):
        for module in (services, getattr(services, "standings", None)):
            if module is not None and hasattr(module, name):
                monkeypatch.setattr(module, name, boom)
    response = client.get(URL)
    assert response.status_code == 200
    assert "No standings yet" in response.text
    assert not StandingsSnapshot.objects.exists()


@pytest.mark.parametrize("size", [3, 40])
def test_standings_page_query_count_does_not_grow(
    client, owner, size, django_assert_max_num_queries
):
    league = big_league(owner, size)
    url = reverse("tournaments:standings", args=[league.slug])
    with django_assert_max_num_queries(10):
        response = client.get(url)
    assert response.text.count('class="num rank"') == size


def test_standings_query_count_when_logged_in(client, owner, django_assert_max_num_queries):
    league = big_league(owner, 30)
    client.force_login(owner)
    with django_assert_max_num_queries(10):
        response = client.get(reverse("tournaments:standings", args=[league.slug]))
    assert response.status_code == 200


def test_fragment_etag_and_304_costs_one_query(client, league, snapshot, django_assert_num_queries):
    first = client.get(FRAGMENT)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag and first["Last-Modified"]
    assert "<html" not in first.text and "carol" in first.text
    with django_assert_num_queries(1):
        again = client.get(FRAGMENT, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    with django_assert_num_queries(1):
        by_date = client.get(FRAGMENT, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert by_date.status_code == 304


def test_fragment_changes_when_the_snapshot_changes(client, league, snapshot):
    etag = client.get(FRAGMENT)["ETag"]
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(
        results_revision=2, computed_at=timezone.now()
    )
    response = client.get(FRAGMENT, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag


def test_page_embeds_the_etag_the_poller_starts_from(client, league, snapshot):
    page = client.get(URL)
    fragment = client.get(FRAGMENT)
    embedded = re.search(r'data-etag="([^"]+)"', page.text).group(1)
    assert embedded.replace("&quot;", '"') == fragment["ETag"]
    assert f'data-poll-url="{FRAGMENT}"' in page.text


def test_fragment_etag_differs_by_language(client, league, snapshot):
    english = client.get(FRAGMENT, HTTP_ACCEPT_LANGUAGE="en")["ETag"]
    german = client.get(FRAGMENT, HTTP_ACCEPT_LANGUAGE="de")["ETag"]
    assert english != german


def test_stale_snapshot_is_flagged(client, league, snapshot):
    League.objects.filter(pk=league.pk).update(results_revision=5)
    assert "a newer result is being counted" in client.get(URL).text


def test_table_from_the_real_standings_service(
    client, league, submitted, django_capture_on_commit_callbacks
):
    """End to end: a counted result, the standings service's snapshot, the page."""
    from tournaments.services.standings import standings_recompute

    standings_recompute(league.pk)
    html = client.get(URL).text
    rows = re.findall(r'<td class="num rank">(\d+)</td>\s*<th scope="row"><a [^>]*>(\w+)</a>', html)
    assert rows == [("1", "carol"), ("2", "erin")]
    assert '<td class="num">1–0</td>' in html
    assert "Points" not in html  # a won–lost league shows no points column
    assert "1 of 2 games counted" in html
