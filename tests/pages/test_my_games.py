"""My games (/me/ and the signed-in home page), and the player's private calendar feed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.builders import example_text, make_fixture, make_league, make_user
from tournaments.models import Entry, League, Player, Result
from tournaments.services.errors import NotAllowed
from tournaments.services.players import calendar_link_rotate
from tournaments.services.results import game_log_submit
from tournaments.web.me import calendar_token

pytestmark = pytest.mark.django_db

LOG = "valid-league-2tplus.json"


def test_me_needs_a_session(client):
    response = client.get("/me/")
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_games_to_play_with_date_opponent_colours_and_who_starts(client, league, erin_user):
    g1, g2 = league.test_objects["g1"], league.test_objects["g2"]
    g2.deadline = timezone.now() + timedelta(days=9)
    g2.save()
    client.force_login(erin_user)
    response = client.get("/me/")
    assert response.status_code == 200
    page = response.context["page"]
    assert [item.fixture for item in page.to_play] == [g1, g2]  # dated first, then undated
    first = page.to_play[0]
    assert first.colours == ["black", "yellow"] and first.starts  # erin holds black: starts
    assert [s.entry.player.name for s in first.opponents] == ["carol"]
    assert not page.to_play[1].starts  # G2: green starts, carol's
    assert [item.fixture for item in page.deadlines] == [g2]
    text = response.content.decode()
    assert "you start" in text and "carol" in text
    assert reverse("live:fixture-room", args=[g1.pk]) in text
    # the <time datetime>, in the site's time zone (23:00-24:00 UTC is the next day in Berlin)
    assert timezone.localtime(g1.scheduled_at).strftime("%Y-%m-%d") in text


def test_a_result_waits_for_the_opponent_not_the_submitter(client, league, erin_user, carol_user):
    g1 = league.test_objects["g1"]
    game_log_submit(fixture=g1, content=example_text(LOG), by=erin_user)
    client.force_login(carol_user)
    carol = client.get("/me/").context["page"]
    assert [r.fixture_id for r in carol.to_confirm] == [g1.pk]
    assert g1.pk not in [item.fixture.pk for item in carol.to_play]
    client.force_login(erin_user)
    erin = client.get("/me/").context["page"]
    assert erin.to_confirm == []
    assert [r.fixture_id for r in erin.awaiting_opponent] == [g1.pk]
    # the home page shows the block, with what needs carol counted
    client.force_login(carol_user)
    home = client.get("/").content.decode()
    assert "1 thing waits for you" in home


def test_invitations_and_requests_are_listed(client, owner):
    user = make_user("ina")
    player = Player.objects.create(name="Ina", slug="ina", user=user)
    invited = make_league(owner, "autumn")
    asked = make_league(owner, "winter")
    Entry.objects.create(league=invited, player=player, state=Entry.State.INVITED)
    Entry.objects.create(league=asked, player=player, state=Entry.State.REQUESTED)
    client.force_login(user)
    response = client.get("/me/")
    page = response.context["page"]
    assert [e.league.slug for e in page.invitations] == ["autumn"]
    assert [e.league.slug for e in page.requests] == ["winter"]
    assert page.to_play == []


def test_an_account_without_a_player_gets_a_hint(client):
    client.force_login(make_user("nobody"))
    response = client.get("/me/")
    assert response.status_code == 200
    assert response.context["page"].player is None
    assert response.context["calendar_url"] is None


def test_me_queries_are_bounded(
    client, league, erin_user, carol_user, django_assert_max_num_queries
):
    """Nine: the session, the user, the player's stamp, the player, the games, their open
    results, their seats, invitations and requests, the inbox count. (Seven when the open
    result rode along in the games' query: a join of ten tables whose planning cost more
    than the query, issue 25.) The next visit reads the stored body: four."""
    g1 = league.test_objects["g1"]
    game_log_submit(fixture=g1, content=example_text(LOG), by=carol_user)  # erin confirms
    client.force_login(erin_user)
    with django_assert_max_num_queries(9):
        response = client.get("/me/")
    page = response.context["page"]
    assert [r.my_fixture.fixture.pk for r in page.to_confirm] == [g1.pk]
    assert page.to_confirm[0].submitted_by == carol_user
    assert [f.fixture.pk for f in page.to_play] == [league.test_objects["g2"].pk]
    if connection.vendor == "postgresql":
        with django_assert_max_num_queries(4):
            assert client.get("/me/").status_code == 200


def test_calendar_feed_by_signed_link(client, league, erin_user):
    erin = Player.objects.get(user=erin_user)
    league.is_public = False  # a private league the player plays in: still in their feed
    league.save()
    url = reverse("tournaments:my-calendar", args=[calendar_token(erin)])
    response = client.get(url)  # no session: the link is the key
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content.decode()
    assert body.startswith("BEGIN:VCALENDAR")
    assert f"UID:fixture-{league.test_objects['g1'].pk}@" in body
    assert "private" in response["Cache-Control"]


@pytest.mark.parametrize(
    "mangle", [lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"), lambda t: "1:x"]
)
def test_a_forged_calendar_link_is_404(client, league, erin_user, mangle):
    erin = Player.objects.get(user=erin_user)
    url = reverse("tournaments:my-calendar", args=[mangle(calendar_token(erin))])
    assert client.get(url).status_code == 404


def test_my_calendar_link_is_on_my_page(client, league, erin_user):
    client.force_login(erin_user)
    response = client.get("/me/")
    erin = Player.objects.get(user=erin_user)
    assert calendar_token(erin) in response.context["calendar_url"]
    assert response.context["calendar_url"] in response.content.decode()


def test_a_new_calendar_address_stops_the_old_one(client, league, erin_user, carol_user):
    erin = Player.objects.get(user=erin_user)
    old = reverse("tournaments:my-calendar", args=[calendar_token(erin)])
    assert client.get(old).status_code == 200
    client.force_login(carol_user)  # someone else cannot rotate erin's (only their own)
    client.post(reverse("tournaments:my-calendar-rotate"))
    assert client.get(old).status_code == 200
    client.force_login(erin_user)
    response = client.post(reverse("tournaments:my-calendar-rotate"))
    assert response.status_code == 302
    erin.refresh_from_db()
    assert erin.calendar_version == 1
    assert client.get(old).status_code == 404  # the old link is dead
    new = reverse("tournaments:my-calendar", args=[calendar_token(erin)])
    assert new != old and client.get(new).status_code == 200
    page = client.get("/me/")
    assert page.context["calendar_url"].endswith(new) and "New calendar address" in page.text
    assert client.get(reverse("tournaments:my-calendar-rotate")).status_code == 405
    with pytest.raises(NotAllowed):
        calendar_link_rotate(player=erin, by=carol_user)


def _queries(client, path: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return [q["sql"] for q in queries.captured_queries]


def _more_games(owner, erin_player, carol_user, rounds: int) -> None:
    """Another league with ``rounds`` games of erin's of every kind the page shows: to
    play (with a deadline, and with a start decided by another game), a result of carol's
    to confirm, one of erin's awaiting carol, a disputed one; and an invitation."""
    league = make_league(owner)
    carol = Player.objects.get(user=carol_user)
    erin = Entry.objects.create(league=league, player=erin_player, state=Entry.State.ACCEPTED)
    them = Entry.objects.create(league=league, player=carol, state=Entry.State.ACCEPTED)
    first = None
    for n in range(rounds):
        seats = [(erin, ["black", "yellow"]), (them, ["green", "red"])]
        fixture = make_fixture(
            league,
            seats,
            "" if first is not None else "black",
            round=n + 1,
            start_depends_on=first,
            deadline=timezone.now() + timedelta(days=n + 1),
        )
        first = first or fixture
        state, by = [
            (None, None),
            (Result.State.PENDING, carol_user),
            (Result.State.PENDING, erin_player.user),
            (Result.State.DISPUTED, carol_user),
        ][n % 4]
        if state is not None:
            Result.objects.create(
                fixture=fixture,
                source=Result.Source.REPORT,
                state=state,
                winner=them,
                submitted_by=by,
            )
    other = make_league(owner, status=League.Status.REGISTRATION)
    Entry.objects.create(league=other, player=erin_player, state=Entry.State.INVITED)


@pytest.mark.parametrize("path", ["/me/", "/"])
def test_me_queries_do_not_grow_with_games_or_leagues(
    client, league, owner, erin_user, carol_user, path
):
    """The same number of queries for two games in one league as for thirty in four,
    with results to confirm, awaiting the opponent and disputed, starts decided by another
    game, deadlines and invitations: a query per game or league (an N+1) fails here."""
    client.force_login(erin_user)
    _queries(client, path)  # first visit: session and language settle
    few = _queries(client, path)
    erin = Player.objects.get(user=erin_user)
    for _ in range(3):
        _more_games(owner, erin, carol_user, rounds=9)
    page = client.get("/me/").context["page"]
    assert len(page.to_play) > 2 and page.to_confirm and page.awaiting_opponent
    assert page.disputes and page.invitations
    many = _queries(client, path)
    assert len(many) == len(few), "\n".join(many)


def test_the_games_to_play_are_listed_up_to_a_bound_the_rest_behind_a_link(
    client, league, erin_user, monkeypatch
):
    """The page's bytes do not grow with a player's schedule: the first ``TO_PLAY_SHOWN``
    games to play, then a link to the whole list (``?games=all``)."""
    from django.core.cache import cache

    import tournaments.web.me

    monkeypatch.setattr(tournaments.web.me, "TO_PLAY_SHOWN", 1)
    g1, g2 = league.test_objects["g1"], league.test_objects["g2"]
    room = lambda f: reverse("live:fixture-room", args=[f.pk])  # noqa: E731
    client.force_login(erin_user)
    text = client.get("/me/").content.decode()
    assert room(g1) in text and room(g2) not in text
    assert 'href="?games=all#to-play-heading"' in text and "All 2 games to play" in text
    every = client.get("/me/?games=all").content.decode()
    assert room(g1) in every and room(g2) in every and "?games=all#" not in every
    monkeypatch.setattr(tournaments.web.me, "TO_PLAY_SHOWN", 25)
    cache.clear()  # the stored page was rendered with the other bound (a deploy's new code)
    assert "?games=all#" not in client.get("/me/").content.decode()
