"""Bounded API answers (issue 31): every list runs the same number of queries and answers
about the same number of bytes on a site five times the size. Counts, never times: the site
is built twice (tests/builders.py: build_site); each list is read on the small site and on
the grown one, anonymously and signed in."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
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
@pytest.mark.parametrize("name", list(LISTS))
def test_an_api_list_costs_the_same_on_a_site_five_times_the_size(name):
    who, url_of = LISTS[name]
    small = build_site(SMALL)
    queries, size, _ = fetch(small, who, url_of(small))
    large = build_site(LARGE)
    queries_after, size_after, sql = fetch(large, who, url_of(large))
    assert queries_after == queries, "\n".join(sql)
    assert size_after <= size + SLACK_BYTES, (size, size_after)
