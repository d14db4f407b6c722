"""Bounded answers (issue 31): every page runs the same number of queries and answers about
the same number of bytes on a site five times the size (more games, leagues, players and
results). Counts, never times: the site is built twice (tests/builders.py: build_site),
each page is fetched on the small one and on the grown one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.builders import build_site

SMALL, LARGE = 1, 5
#: the grown page may be this much larger (names and numbers grow by a digit or two)
SLACK_BYTES = 2_000


@pytest.fixture
def page_sizes(monkeypatch):
    """``page_sizes(k)``: pages ``k`` times as long as the shortest (shorter than the small
    site's lists, so both sizes fill a whole page at ``k`` = 1; a longer page shows more
    rows, so a query per row would show as more queries)."""
    from django.contrib import admin

    from ratings.selectors import ratings
    from tournaments.selectors import leagues, players, schedule

    # a DRR of more games than a page is paged by its rounds (the small site's DRR is 15)
    monkeypatch.setattr(schedule, "GAMES_PER_PAGE", 6)

    def set_sizes(k: int) -> None:
        monkeypatch.setattr(leagues, "HOME_LEAGUES_PER_PAGE", k)
        monkeypatch.setattr(ratings, "RATINGS_PER_PAGE", 4 * k)
        monkeypatch.setattr(ratings, "CHART_POINTS", 3 * k)
        monkeypatch.setattr(players, "GAMES_SHOWN", 2 * k)
        monkeypatch.setattr(ratings, "CHANGES_SHOWN", 2 * k)
        monkeypatch.setattr(players, "OPPONENTS_SHOWN", 2 * k)
        for model_admin in admin.site._registry.values():
            monkeypatch.setattr(model_admin, "list_per_page", 3 * k)

    set_sizes(1)
    return set_sizes


@dataclass
class Fetch:
    queries: int
    size: int
    sql: list[str]


def fetch(site: dict, who: str | None, url: str) -> Fetch:
    client = Client()
    if who == "admin":
        from tests.builders import make_user

        client.force_login(make_user(staff=True, is_superuser=True))
    elif who:
        client.force_login(site[who])
    client.get(url)  # warm: sessions, content types, translations
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return Fetch(len(captured), len(body), [q["sql"] for q in captured.captured_queries])


PAGES: dict[str, tuple[str | None, Callable[[dict], str]]] = {
    "home": (None, lambda s: reverse("tournaments:home")),
    "home, finished leagues": (None, lambda s: reverse("tournaments:home") + "?page=3"),
    "home signed in": ("me", lambda s: reverse("tournaments:home") + "?page=3"),
    "player": (None, lambda s: reverse("tournaments:player", args=[s["player"].slug])),
    "ratings": (None, lambda s: reverse("tournaments:ratings")),
    "rankings": (None, lambda s: reverse("tournaments:rankings")),
    "game": (None, lambda s: reverse("tournaments:game", args=[s["fixture"].pk])),
    "league overview": (None, lambda s: reverse("tournaments:league", args=[s["big"].slug])),
    "standings": (None, lambda s: reverse("tournaments:standings", args=[s["big"].slug])),
    "schedule": (None, lambda s: reverse("tournaments:schedule", args=[s["big"].slug])),
    "dice": (None, lambda s: reverse("tournaments:dice", args=[s["big"].slug])),
    "schedule of a player": (
        None,
        lambda s: (
            reverse("tournaments:schedule", args=[s["big"].slug]) + f"?player={s['player'].slug}"
        ),
    ),
    "manage": ("owner", lambda s: reverse("tournaments:manage", args=[s["big"].slug])),
    "desk": ("owner", lambda s: reverse("tournaments:desk", args=[s["big"].slug])),
    "my games": ("me", lambda s: reverse("tournaments:my-games")),
    "my leagues": ("me", lambda s: reverse("tournaments:my-leagues")),
    "my leagues (organizer)": ("owner", lambda s: reverse("tournaments:my-leagues")),
    **{
        f"admin {model}": ("admin", lambda s, m=model: reverse(f"admin:{m}_changelist"))
        for model in (
            "tournaments_result",
            "tournaments_fixture",
            "tournaments_player",
            "tournaments_entry",
            "tournaments_cycle",
            "tournaments_standingssnapshot",
            "tournaments_league",
            "games_gamelog",
        )
    },
}


@pytest.mark.django_db
def test_every_page_costs_the_same_on_a_site_five_times_the_size(page_sizes):
    """Each page of :data:`PAGES` on the small site, on the grown one (the same queries,
    at most :data:`SLACK_BYTES` more) and on the grown one with pages three times as long
    (the same queries: none per row). The sites are built once for every page (fast);
    every page that grows is named in the failure."""
    small = build_site(SMALL)
    before = {name: fetch(small, who, url_of(small)) for name, (who, url_of) in PAGES.items()}
    large = build_site(LARGE)
    after = {name: fetch(large, who, url_of(large)) for name, (who, url_of) in PAGES.items()}
    page_sizes(3)
    longer = {
        name: fetch(large, who, url_of(large).replace("page=3", "page=2"))
        for name, (who, url_of) in PAGES.items()
        if name != "home"  # its first page holds running leagues only at k = 1
    }
    grown = []
    for name, (who, _) in PAGES.items():
        if after[name].queries != before[name].queries:
            grown.append(f"{name}: {before[name].queries} → {after[name].queries} queries")
        if name in longer and longer[name].queries != before[name].queries:
            grown.append(f"{name}: {longer[name].queries} queries with longer pages")
        # staff pages' filters list every league (one query, not bounded bytes)
        if who != "admin" and after[name].size > before[name].size + SLACK_BYTES:
            grown.append(f"{name}: {before[name].size} → {after[name].size} bytes")
    assert not grown, "\n".join(grown)


@pytest.mark.django_db
def test_the_grown_site_is_really_larger():
    """The builder's growth reaches the pages: the big league's games five times as many,
    the finished leagues and the rated players more than twice (so an equal count above
    means bounded)."""
    from ratings.models import PlayerRating
    from tournaments.models import Fixture, League

    small = build_site(SMALL)
    counts = (
        Fixture.objects.filter(league=small["big"]).count(),
        League.objects.filter(status=League.Status.FINISHED).count(),
        PlayerRating.objects.count(),
    )
    large = build_site(LARGE)
    assert Fixture.objects.filter(league=large["big"]).count() == 5 * counts[0]
    assert League.objects.filter(status=League.Status.FINISHED).count() == counts[1] + 18
    assert PlayerRating.objects.count() == counts[2] + 26


@pytest.mark.django_db
def test_the_schedule_shows_the_current_drr_and_links_the_others(client):
    site = build_site(3)
    url = reverse("tournaments:schedule", args=[site["big"].slug])
    page = client.get(url).content.decode()
    # the third DRR holds the games still to play: shown first, the others linked
    assert page.count('aria-current="page">DRR 3') == 1
    assert "?part=1" in page and "?part=2" in page
    assert "Double round-robin 3" in page and "Double round-robin 1" not in page
    first = client.get(url + "?part=1").content.decode()
    assert "Double round-robin 1" in first and "Double round-robin 3" not in first
    # an unknown part is the current one, not an error
    assert "Double round-robin 3" in client.get(url + "?part=99").content.decode()


@pytest.mark.django_db
def test_a_drr_longer_than_a_page_is_paged_by_its_rounds(client, monkeypatch):
    from tournaments.selectors import schedule

    monkeypatch.setattr(schedule, "GAMES_PER_PAGE", 6)  # 3 games a round: 2 rounds a page
    site = build_site(1)
    url = reverse("tournaments:schedule", args=[site["big"].slug])
    page = client.get(url).content.decode()
    # the current rounds first: round 5 holds the games to play (page 3 of 3)
    assert "Round 5" in page and "Round 4" not in page and "Round 1" not in page
    assert "page 3 of 3" in page and "rounds=1" in page
    first = client.get(url + "?rounds=1").content.decode()
    assert "Round 1" in first and "Round 2" in first and "Round 3" not in first


@pytest.mark.django_db
def test_the_player_page_builds_objects_only_for_the_games_it_shows(page_sizes):
    """The player's records, colours and dice statistics are counted from plain values and
    aggregates: the seats, fixtures and results built as objects are those of the games the
    page shows (the last few of each league), however many games the player has played."""
    from django.db.models.signals import post_init

    from tournaments.models import Fixture, Result, Seat

    def built(site: dict) -> tuple[int, int]:
        made = {"n": 0}

        def count(sender, **kwargs):
            made["n"] += 1

        for model in (Seat, Fixture, Result):
            post_init.connect(count, sender=model, weak=False)
        try:
            fetch(site, None, reverse("tournaments:player", args=[site["player"].slug]))
        finally:
            for model in (Seat, Fixture, Result):
                post_init.disconnect(count, sender=model)
        games = Seat.objects.filter(entry__player=site["player"]).count()
        return made["n"], games

    small_objects, small_games = built(build_site(SMALL))
    large_objects, large_games = built(build_site(LARGE))
    assert large_games > 2 * small_games  # the player really played more
    # the games shown are plain values too (their links built once a page): what is built
    # is the rating changes listed with their games
    assert large_objects == small_objects < small_games


@pytest.mark.django_db
def test_the_dice_page_sums_plain_values_and_builds_no_object_per_seat():
    """The league's dice add up each player's faces from plain values as they are read (the
    first visit after every result, in every process whose store is its own): no seat,
    entry or result object is built, and a player only for each player shown (what the
    page links), however many games the league has; the sums are every seat's."""
    from django.core.cache import cache
    from django.db.models.signals import post_init

    from tournaments.models import Entry, Player, Result, Seat
    from tournaments.selectors.analyses import league_dice

    def built(site: dict) -> tuple[dict, dict]:
        made: dict[str, int] = {}

        def count(sender, **kwargs):
            made[sender.__name__] = made.get(sender.__name__, 0) + 1

        models = (Seat, Entry, Result, Player)
        for model in models:
            post_init.connect(count, sender=model, weak=False)
        try:
            cache.clear()
            dice = league_dice(site["big"])
        finally:
            for model in models:
                post_init.disconnect(count, sender=model)
        return made, dice

    small = build_site(SMALL)
    small_made, small_dice = built(small)
    large = build_site(LARGE)
    large_made, large_dice = built(large)
    games = large_dice["all"].games
    assert games > 2 * small_dice["all"].games  # really more games counted
    assert set(small_made) <= {"Player"} and set(large_made) <= {"Player"}, large_made
    assert large_made.get("Player", 0) == len(large_dice["players"]) > 0
    # each counted game is counted for every player seated at it
    seated = Seat.objects.filter(
        fixture__league=large["big"],
        fixture__results__state=Result.State.CONFIRMED,
        fixture__results__game_log__isnull=False,
    ).count()
    assert sum(view.games for _, view in large_dice["players"]) == seated


@pytest.mark.django_db
def test_the_player_page_lists_the_games_of_the_leagues_on_its_page_only(monkeypatch):
    """The leagues are paged: the last games listed are those of the page's leagues (not
    every league's, left unrendered), with the same queries on every page."""
    import re

    from django.db.models import Count

    from tournaments.models import Fixture, Player
    from tournaments.selectors import players

    monkeypatch.setattr(players, "LEAGUES_PER_PAGE", 1)
    build_site(SMALL)
    player = (
        Player.objects.annotate(n=Count("entries", distinct=True))
        .filter(n__gte=2, entries__seats__isnull=False)
        .order_by("pk")
        .first()
    )
    assert player is not None
    url = reverse("tournaments:player", args=[player.slug])
    shown = []
    for page in (1, 2):
        fetched = fetch({}, None, f"{url}?page={page}")
        html = Client().get(f"{url}?page={page}").content.decode()
        sections = html.split('aria-labelledby="league-')[1:]  # the leagues' own sections
        games = {int(pk) for part in sections for pk in re.findall(r'href="/games/(\d+)/"', part)}
        leagues = set(Fixture.objects.filter(pk__in=games).values_list("league_id", flat=True))
        assert games and len(leagues) == 1, (page, leagues)
        shown.append((fetched.queries, leagues))
    assert shown[0][0] == shown[1][0]  # the same queries
    assert shown[0][1] != shown[1][1]  # another league's games
